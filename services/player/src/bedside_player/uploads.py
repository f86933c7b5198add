"""A file a device sends, put whole into the uploads bucket for ingest to take.

The body is written to a spool file first: the object store reads what it stores from a file,
and a body that stops midway (the device went, it was too large, or the disk filled) leaves nothing
in the bucket.
"""

import asyncio
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from bedside_contracts import subjects
from bedside_contracts.ingest import EMPTY_FILE, UploadedFile
from bedside_runtime.errors import InvalidRequest, Unavailable
from bedside_runtime.room import ensure_room, past_usable_room, usable_room, written_or_no_room
from nats.js.client import JetStreamContext
from nats.js.errors import BucketNotFoundError


def spool_of(data_dir: Path) -> Path:
    return data_dir / "incoming"


SENT = "this file"
"""How a refusal names the file: the player does not know which of the book's files it is."""


async def store_upload(
    js: JetStreamContext, spool: Path, filename: str, body: AsyncIterator[bytes], declared: int | None
) -> UploadedFile:
    """``declared``: the body's size by its Content-Length, when it has one, so that a file there
    is no room for is refused before its bytes are sent. One sent without it is refused once it
    outgrows the room there was when it began: let run until the disk filled, it would leave the
    bus (whose log is in the same data folder by default) unable to store anything meanwhile."""
    try:
        bucket = await js.object_store(subjects.UPLOADS_BUCKET)
    except BucketNotFoundError:
        raise Unavailable("books cannot be added until the ingest service has started once") from None
    await asyncio.to_thread(spool.mkdir, parents=True, exist_ok=True)
    if declared is not None:
        ensure_room(spool, SENT, declared)
    usable = usable_room(spool)
    with written_or_no_room(SENT), tempfile.TemporaryFile(dir=spool) as held:
        async for chunk in body:
            if held.tell() + len(chunk) > usable:
                raise past_usable_room(SENT, usable)
            held.write(chunk)
        size = held.tell()
        if size == 0:
            raise InvalidRequest(f"{filename!r} {EMPTY_FILE}")
        held.seek(0)
        upload = uuid.uuid4().hex
        await bucket.put(upload, held)  # a put that fails takes its chunks back out
    return UploadedFile(upload=upload, filename=filename, size=size)
