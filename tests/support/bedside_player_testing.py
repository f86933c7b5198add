"""A stand-in for the search service, for the player's tests and benchmarks.

It answers SEARCH_CATALOG and SEARCH_RESOLVE on the bus for synthetic books: a passage
every 30 s, a chapter every 30 minutes. It knows nothing of any real book. Also the player's
app without the command lanes, to hold the lanes' answers against the routes', and the states a
device's event stream pushes (read through httpx, or on a bare socket as the benches read it).
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bedside_contracts import subjects
from bedside_contracts.common import Failure
from bedside_contracts.search import (
    BookInfo,
    Catalog,
    CatalogRequest,
    ChapterInfo,
    Resolution,
    Resolve,
    Resolved,
    Target,
    TranscriptCoverage,
)
from bedside_guard import Passage
from bedside_player.routes.command_lane import CommandLane
from bedside_search.domain.book import ServedBook
from bedside_search.domain.places import resolve_one
from fastapi import FastAPI
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from starlette.routing import Route

PASSAGE_MS = 30_000
CHAPTER_MS = 30 * 60_000


class SyntheticBook:
    def __init__(
        self,
        book: str,
        duration_ms: int = 10 * 3600_000,
        audio_path: str | None = None,
        cover_path: str | None = None,
        audio_object: str | None = None,
        *,
        transcript: TranscriptCoverage | None = None,
    ) -> None:
        self.id = book
        self.transcript = transcript
        """Set: an interim version, served while the rest of the recording is transcribed."""
        self.duration_ms = duration_ms
        self.audio_path = audio_path
        self.cover_path = cover_path
        self.audio_object = audio_object

    @property
    def passages(self) -> int:
        return -(-self.duration_ms // PASSAGE_MS)

    def chapters(self) -> list[ChapterInfo]:
        count = -(-self.duration_ms // CHAPTER_MS)
        return [
            ChapterInfo(
                n=n + 1,
                title=f"Chapter title {n + 1}",
                start_ms=n * CHAPTER_MS,
                end_ms=min((n + 1) * CHAPTER_MS, self.duration_ms),
            )
            for n in range(count)
        ]

    def info(self) -> BookInfo:
        return BookInfo(
            id=self.id,
            title=f"Synthetic {self.id}",
            duration_ms=self.duration_ms,
            estimated=False,
            passages=self.passages,
            chapters=self.chapters(),
            audio_path=self.audio_path,
            cover_path=self.cover_path,
            audio_object=self.audio_object,
            transcript=self.transcript,
        )

    def passage(self, pid: int) -> Passage | None:
        if not 0 <= pid < self.passages:
            return None
        start = pid * PASSAGE_MS
        chapter = start // CHAPTER_MS + 1
        return Passage(
            id=pid,
            start_ms=start,
            end_ms=min(start + PASSAGE_MS, self.duration_ms),
            chapter=chapter,
            chapter_title=f"Chapter title {chapter}",
            text=f"the words of passage {pid}",
        )

    @cached_property
    def served(self) -> ServedBook:
        passages = [p for pid in range(self.passages) if (p := self.passage(pid)) is not None]
        return ServedBook.of(self.info(), passages, collection="")

    def resolve(self, target: Target, here_ms: int) -> Resolution:
        """Search's own rules on this book."""
        return resolve_one(self.served, here_ms, target)


class FakeSearch:
    def __init__(self, client: Client, books: list[SyntheticBook]) -> None:
        self.client = client
        self.books = {book.id: book for book in books}
        self.subs: list[Subscription] = []
        self.resolves = 0
        self.stalled = False
        """Search as a stalled process leaves it: a resolve is taken and never answered."""

    async def start(self) -> "FakeSearch":
        for book in self.books.values():
            assert book.served.passages  # built before the first request, not inside it
        queue = subjects.queue_for("search")
        self.subs.append(await self.client.subscribe(subjects.SEARCH_CATALOG, queue=queue, cb=self._catalog))
        self.subs.append(await self.client.subscribe(subjects.SEARCH_RESOLVE, queue=queue, cb=self._resolve))
        await self.client.flush()
        return self

    async def stop(self) -> None:
        for sub in self.subs:
            await sub.unsubscribe()

    async def _catalog(self, msg: Msg) -> None:
        request = CatalogRequest.model_validate_json(msg.data)
        books = [b.info() for b in self.books.values() if request.book in (None, b.id)]
        await msg.respond(Catalog(books=books).model_dump_json().encode())

    async def _resolve(self, msg: Msg) -> None:
        self.resolves += 1
        if self.stalled:
            return
        request = Resolve.model_validate_json(msg.data)
        book = self.books.get(request.book)
        if book is None:
            failure = Failure(code="not_found", error=f"no book {request.book}")
            await msg.respond(failure.model_dump_json().encode())
            return
        reply = Resolved(resolutions=[book.resolve(t, request.here_ms) for t in request.targets])
        await msg.respond(reply.model_dump_json().encode())


def lane_routes(app: FastAPI) -> dict[str, tuple[Route, CommandLane[Any]]]:
    """Each route that holds a command's lane, and the lane, by the last part of its path
    ("reports", "seek"); none in an app without lanes."""
    return {
        route.path.rsplit("/", 1)[-1]: (route, route.app)
        for route in app.router.routes
        if isinstance(route, Route) and isinstance(route.app, CommandLane)
    }


def without_the_lanes(app: FastAPI) -> FastAPI:
    """The player's app with every command answered by its FastAPI route, as before the lanes."""
    for route, _lane in lane_routes(app).values():
        app.router.routes.remove(route)
    return app


async def pushed_states(lines: AsyncIterator[str]) -> AsyncIterator[dict[str, Any]]:
    """The data of each ``state`` event of a device's event stream, in order (pings are skipped)."""
    event = ""
    async for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "state":
            state: dict[str, Any] = json.loads(line.split(":", 1)[1])
            yield state


@dataclass(frozen=True)
class PushedEvent:
    """One server-sent event: its type, the last event id the stream gave, its data."""

    event: str
    id: str
    data: str


class ChunkedEvents:
    """The server-sent events in a chunked HTTP/1.1 body, fed the bytes as a socket gives them.

    Lines may end in LF or CRLF; a lone CR, which the format also allows, is not looked for (the
    player never writes one). Chunk extensions and trailers are not expected and not read.
    """

    def __init__(self) -> None:
        self._raw = bytearray()
        """Body bytes not yet taken out of their chunk framing."""
        self._chunk_left: int | None = None
        """Data bytes of the current chunk still to come; None between chunks (a size line next)."""
        self._text = bytearray()
        """Event-stream bytes short of a whole line."""
        self._event = ""
        self._data: list[str] = []
        self._id = ""
        self.ended = False
        """The last chunk has come: the stream is over."""

    def feed(self, data: bytes) -> list[PushedEvent]:
        """The events that ``data`` completes."""
        self._raw += data
        self._unchunk()
        *lines, rest = self._text.split(b"\n")
        self._text = bytearray(rest)
        return [event for line in lines if (event := self._line(line.removesuffix(b"\r"))) is not None]

    def _unchunk(self) -> None:
        raw = self._raw
        while raw and not self.ended:
            if self._chunk_left is None:
                end = raw.find(b"\r\n")
                if end < 0:
                    return
                self._chunk_left = int(raw[:end], 16)
                del raw[: end + 2]
                self.ended = self._chunk_left == 0
            elif self._chunk_left > 0:
                taken = raw[: self._chunk_left]
                self._text += taken
                self._chunk_left -= len(taken)
                del raw[: len(taken)]
            elif len(raw) >= 2:  # the CRLF after a chunk's data
                if raw[:2] != b"\r\n":
                    raise ValueError(f"a chunk ran past its size: {bytes(raw[:20])!r}")
                self._chunk_left = None
                del raw[:2]
            else:
                return

    def _line(self, line: bytes | bytearray) -> PushedEvent | None:
        if not line:  # a blank line ends an event; one without data is not dispatched
            event = (
                PushedEvent(self._event or "message", self._id, "\n".join(self._data)) if self._data else None
            )
            self._event, self._data = "", []
            return event
        name, _, value = line.decode().partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\0" not in value:
            self._id = value
        return None  # a comment (no name) or a field this reader does not use


@dataclass
class PlainEventStream:
    """One device's event stream read on a bare socket: the sequence (the event id) of each
    ``state`` pushed and when it was read (``time.perf_counter``), stamped as the read that
    completed it returned. Costs the load generator far less than an httpx client."""

    arrivals: list[tuple[int, float]] = field(default_factory=list)
    _news: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.StreamWriter | None = None

    async def run(self, port: int, path: str, token: str) -> None:
        """Reads until the stream ends or ``close``."""
        reader, self._writer = await asyncio.open_connection("127.0.0.1", port)
        self._writer.write(
            f"GET {path} HTTP/1.1\r\nhost: bench\r\nauthorization: Bearer {token}\r\n"
            "accept: text/event-stream\r\n\r\n".encode()
        )
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"the event stream answered {status!r}")
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            chunked |= name.strip().lower() == b"transfer-encoding" and value.strip().lower() == b"chunked"
        if not chunked:
            raise RuntimeError("the event stream is not chunked")
        events = ChunkedEvents()
        while not events.ended and (data := await reader.read(65536)):
            now = time.perf_counter()
            for event in events.feed(data):
                if event.event == "state":
                    self.arrivals.append((int(event.id), now))
                    self._news.set()

    async def reached(self, seq: int) -> None:
        """Until a state at ``seq`` or later has been read (0: any state)."""
        while not self.arrivals or self.arrivals[-1][0] < seq:
            self._news.clear()
            await self._news.wait()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
