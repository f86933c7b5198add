"""A file a device sends, put whole into the uploads bucket for ingest to take.

The body is written to a spool file first: the object store reads what it stores from a file,
and a body that stops midway (the device went, or it was too large) leaves nothing in the bucket.
"""

import asyncio
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from bedside_contracts import subjects
from bedside_contracts.ingest import UploadedFile
from bedside_runtime.errors import InvalidRequest, Unavailable
from nats.js.client import JetStreamContext
from nats.js.errors import BucketNotFoundError


async def store_upload(
    js: JetStreamContext, spool: Path, filename: str, body: AsyncIterator[bytes]
) -> UploadedFile:
    try:
        bucket = await js.object_store(subjects.UPLOADS_BUCKET)
    except BucketNotFoundError:
        raise Unavailable("books cannot be added until the ingest service has started once") from None
    await asyncio.to_thread(spool.mkdir, parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=spool) as held:
        async for chunk in body:
            held.write(chunk)
        size = held.tell()
        if size == 0:
            raise InvalidRequest(f"{filename!r} arrived empty")
        held.seek(0)
        upload = uuid.uuid4().hex
        await bucket.put(upload, held)
    return UploadedFile(upload=upload, filename=filename, size=size)
