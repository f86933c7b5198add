"""A book's file as a response: whole from disk, or from a fetch under way as its bytes arrive.

Both are read one way, a quarter MB at a time. Served by Starlette's ``FileResponse`` instead, a
whole file reached a browser's ``canplay`` several times later (adr/0057, "Measured").
"""

import asyncio
import mimetypes
import os
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import BinaryIO

from fastapi import HTTPException
from fastapi.responses import Response, StreamingResponse

from bedside_player import byte_ranges as ranges
from bedside_player.arriving import Arriving, FetchFailed

READ_BYTES = 256 * 1024
REVALIDATE = "no-cache"
"""A device may keep the bytes, and asks each time whether they are still the book's."""


class WholeFile:
    """A file whole on disk, read as a copy still arriving is; opened at once, so a copy dropped
    to make room while it is served stays readable."""

    def __init__(self, path: Path, source: BinaryIO) -> None:
        self.path = path
        stat = os.fstat(source.fileno())
        self.size = stat.st_size
        self.tag = ranges.weak_tag(stat.st_size, stat.st_mtime_ns)
        self._source = source

    @classmethod
    async def of(cls, path: Path) -> "WholeFile":
        try:
            return cls(path, await asyncio.to_thread(path.open, "rb"))
        except FileNotFoundError:
            raise HTTPException(404, "the file is missing") from None

    def open(self) -> BinaryIO:
        return self._source

    async def read(self, source: BinaryIO, offset: int, most: int) -> bytes:
        data = await asyncio.to_thread(os.pread, source.fileno(), most, offset)
        if not data:
            raise OSError(f"{self.path.name} got shorter while it was served")
        return data


def validators(tag: str) -> dict[str, str]:
    return {"ETag": tag, "Cache-Control": REVALIDATE}


def not_modified(tag: str) -> Response:
    """The device's copy is still the file."""
    return Response(status_code=304, headers=validators(tag))


async def media_response(
    file: Path | Arriving, asked: Mapping[str, str], media_type: str | None = None, tag: str | None = None
) -> Response:
    """``file`` as ``asked`` (the request's headers): whole, a range of it, or 304 when the device's
    copy is still it. ``tag`` is the file's strong entity tag when it has one (its media name); a
    file on disk without one is tagged weakly by its size and time."""
    served = await WholeFile.of(file) if isinstance(file, Path) else file
    try:  # opened before answering: what is answered stays readable
        source = await asyncio.to_thread(served.open)
    except FetchFailed:
        raise HTTPException(503, "the file could not be fetched; asked again, it is fetched again") from None
    try:
        return _answer(served, source, asked, media_type, tag or _tag_of(served))
    except BaseException:
        source.close()
        raise


def _tag_of(served: WholeFile | Arriving) -> str:
    return served.tag if isinstance(served, WholeFile) else ranges.entity_tag(served.path.name)


def _answer(
    served: WholeFile | Arriving, source: BinaryIO, asked: Mapping[str, str], media_type: str | None, tag: str
) -> Response:
    if ranges.unchanged(asked.get("if-none-match"), tag):
        source.close()
        return not_modified(tag)
    size = served.size
    try:
        wanted = ranges.requested_range(
            asked.get("range") if ranges.range_applies(asked.get("if-range"), tag) else None, size
        )
    except ranges.RangeNotSatisfiable:
        source.close()
        return Response(status_code=416, headers={**validators(tag), "Content-Range": f"bytes */{size}"})
    span = wanted or ranges.ByteRange(0, size - 1)
    headers = {**validators(tag), "Accept-Ranges": "bytes", "Content-Length": str(span.length)}
    if wanted is not None:
        headers["Content-Range"] = wanted.content_range(size)
    return StreamingResponse(
        _as_they_arrive(served, source, span),
        status_code=206 if wanted else 200,
        headers=headers,
        media_type=media_type or mimetypes.guess_type(served.path.name)[0] or "application/octet-stream",
    )


async def _as_they_arrive(
    served: WholeFile | Arriving, source: BinaryIO, span: ranges.ByteRange
) -> AsyncIterator[bytes]:
    """The span's bytes, each sent as soon as it can be had."""
    try:
        at = span.first
        while at <= span.last:
            data = await served.read(source, at, min(span.last + 1 - at, READ_BYTES))
            yield data
            at += len(data)
    finally:
        source.close()
