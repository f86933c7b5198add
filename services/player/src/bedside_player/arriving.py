"""A copy of a media bucket's file while it is fetched: served as its bytes arrive.

The fetch writes the object's chunks to a part file in order; a device is served each byte once
it is on disk. A device that asks for bytes far ahead of the fetch (a seek, or the index an m4b
keeps at its end, which a browser reads first) is served them straight from the bucket's stream,
one chunk message at a time, when the object's chunks lie together there (one put at a time
stores them so); otherwise it waits for the fetch to reach them.
"""

import asyncio
import os
from pathlib import Path
from typing import BinaryIO

import structlog
from nats.errors import Error as NatsError
from nats.js.api import ObjectInfo
from nats.js.client import JetStreamContext

log = structlog.get_logger("bedside.player.arriving")

AHEAD_BYTES = 8 * 1024 * 1024  # nearer than this, the fetch brings the bytes in well under a second


class FetchFailed(Exception):
    """The fetch a device was being served from ended before its bytes came."""


class ChunkReads:
    """Any byte of one object, read from the stream message that holds its chunk."""

    def __init__(
        self, js: JetStreamContext, stream: str, subject: str, first_seq: int, chunk_bytes: int
    ) -> None:
        self._js = js
        self._stream = stream
        self._subject = subject
        self._first_seq = first_seq
        self._chunk_bytes = chunk_bytes

    @classmethod
    async def of(cls, js: JetStreamContext, bucket: str, info: ObjectInfo) -> "ChunkReads | None":
        """Reads of the object ``info`` describes, or None when its chunks are not one run of the
        stream's sequences (objects put at the same time interleave)."""
        if not info.chunks or not info.nuid:
            return None
        stream, subject = f"OBJ_{bucket}", f"$O.{bucket}.C.{info.nuid}"
        try:
            first = await js.get_msg(stream, seq=1, subject=subject, next=True, direct=True)
            last = await js.get_msg(stream, subject=subject, direct=True)
        except (NatsError, TimeoutError) as error:  # reads ahead are a speed-up: the fetch goes on
            log.warning("no reads ahead of the fetch", subject=subject, error=type(error).__name__)
            return None
        if first.seq is None or last.seq is None or not first.data:
            return None
        chunk_bytes, size = len(first.data), info.size or 0
        one_run = last.seq - first.seq + 1 == info.chunks
        if not one_run or not (info.chunks - 1) * chunk_bytes < size <= info.chunks * chunk_bytes:
            return None  # chunks not all one size but the last: offsets cannot be told from them
        return cls(js, stream, subject, first.seq, chunk_bytes)

    async def read(self, offset: int, most: int) -> bytes:
        """Up to ``most`` bytes from ``offset``, no further than the end of its chunk."""
        index, within = divmod(offset, self._chunk_bytes)
        message = await self._js.get_msg(self._stream, seq=self._first_seq + index, direct=True)
        if message.subject != self._subject or not message.data:
            raise FetchFailed(self._subject)
        return message.data[within : within + most]


class Arriving:
    """A copy being fetched: its size, how much of it is on disk, and its bytes as they come."""

    def __init__(self, partial: Path, path: Path, size: int, chunks: ChunkReads | None) -> None:
        self.path = path  # where the copy will be once whole
        self.size = size
        self.arrived = 0
        self._partial = partial
        self._chunks = chunks
        self._ended = False  # failed, or whole and counted: nothing more will arrive
        self._moved = asyncio.Event()

    def open(self) -> BinaryIO:
        """The copy to read as it grows: the part being written, or the whole copy it became (an
        open part stays readable when it is renamed)."""
        for path in (self._partial, self.path):
            try:
                return path.open("rb")
            except FileNotFoundError:
                continue
        raise FetchFailed(self.path.name)

    async def read(self, source: BinaryIO, offset: int, most: int) -> bytes:
        """Up to ``most`` bytes from ``offset``: from ``source`` (``open``) once they are on disk,
        from the bucket when they are far ahead of the fetch, else once the fetch brings them."""
        while self.arrived <= offset:
            if self._chunks is not None and offset >= self.arrived + AHEAD_BYTES:
                try:
                    return await self._chunks.read(offset, most)
                except (NatsError, TimeoutError, FetchFailed) as error:  # the fetch still brings it
                    log.warning("no reads ahead of the fetch", error=type(error).__name__)
                    self._chunks = None
                    continue
            if self._ended:
                raise FetchFailed(self.path.name)
            await self._moved.wait()
        count = min(most, self.arrived - offset)
        data = await asyncio.to_thread(os.pread, source.fileno(), count, offset)
        if not data:  # counted as arrived, yet not on disk: the part was cut short
            raise FetchFailed(self.path.name)
        return data

    def advance(self, count: int) -> None:
        self.arrived += count
        self._wake()

    def end(self) -> None:
        self._ended = True
        self._wake()

    def _wake(self) -> None:
        self._moved.set()
        self._moved = asyncio.Event()


class CountingWriter:
    """What the bucket writes the file into: each chunk on disk, then counted on the loop."""

    def __init__(self, out: BinaryIO, arriving: Arriving, loop: asyncio.AbstractEventLoop) -> None:
        self._out = out
        self._arriving = arriving
        self._loop = loop

    def write(self, data: bytes) -> int:  # called in a worker thread
        written = self._out.write(data)
        self._out.flush()  # a reader of the part file sees every byte counted
        self._loop.call_soon_threadsafe(self._arriving.advance, written)
        return written
