"""A book's file as a response: whole from disk, or from a fetch under way as its bytes arrive."""

import asyncio
import mimetypes
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi.responses import FileResponse, Response, StreamingResponse

from bedside_player.arriving import Arriving
from bedside_player.byte_ranges import ByteRange, RangeNotSatisfiable, requested_range

READ_BYTES = 256 * 1024


def media_response(
    served: Path | Arriving, range_header: str | None, media_type: str | None = None
) -> Response:
    if isinstance(served, Path):
        return FileResponse(served, media_type=media_type)
    size = served.size
    try:
        wanted = requested_range(range_header, size)
    except RangeNotSatisfiable:
        return Response(status_code=416, headers={"Content-Range": f"bytes */{size}"})
    span = wanted or ByteRange(0, size - 1)
    headers = {"Accept-Ranges": "bytes", "Content-Length": str(span.length)}
    if wanted is not None:
        headers["Content-Range"] = wanted.content_range(size)
    return StreamingResponse(
        _as_they_arrive(served, span),
        status_code=206 if wanted else 200,
        headers=headers,
        media_type=media_type or mimetypes.guess_type(served.path.name)[0] or "application/octet-stream",
    )


async def _as_they_arrive(arriving: Arriving, span: ByteRange) -> AsyncIterator[bytes]:
    """The span's bytes, each sent as soon as it can be had."""
    if span.length <= 0:
        return
    source = await asyncio.to_thread(arriving.open)
    try:
        at = span.first
        while at <= span.last:
            data = await arriving.read(source, at, min(span.last + 1 - at, READ_BYTES))
            yield data
            at += len(data)
    finally:
        source.close()
