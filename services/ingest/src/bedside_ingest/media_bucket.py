"""A book's recording and cover, put into the media bucket for player copies on other machines.

Ingest keeps the files on its own disk and the artifact names them by path, which the player reads
when it runs beside ingest (``bedside up``). A player elsewhere (compose, a cluster) has no such
path: it fetches the file from this bucket once, by the name the artifact gives it, and serves its
own copy. A name is the file's content hash, so a recording ingested again is stored once, and a
book served while another version is made never has its bytes changed under it.
"""

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bedside_contracts import subjects
from bedside_contracts.common import MEDIA_SUFFIX_PATTERN
from bedside_runtime.streams import object_bucket
from nats.js.client import JetStreamContext
from nats.js.errors import ObjectNotFoundError
from nats.js.object_store import ObjectStore

from bedside_ingest.store import deleted_object

READ_BYTES = 1 << 20
NAME_HEX = 32


def shared_name(path: Path) -> str:
    """The file's name in the bucket: its content's hash, and its suffix (the player's media type)."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(READ_BYTES):
            digest.update(block)
    suffix = path.suffix.lower()
    return digest.hexdigest()[:NAME_HEX] + (suffix if re.fullmatch(MEDIA_SUFFIX_PATTERN, suffix) else "")


@dataclass(frozen=True)
class Media:
    """The names a book's recording and cover have in the media bucket."""

    audio: str | None
    cover: str | None

    @classmethod
    def of(cls, audio_path: str | None, cover_path: str | None) -> "Media":
        def named(path: str | None) -> str | None:
            return shared_name(Path(path)) if path else None

        return cls(named(audio_path), named(cover_path))


FILES_OF_FIELDS = (("audio_object", "audio_path"), ("cover_object", "cover_path"))
"""Each of an artifact's media names, and the field holding the path of its file on this disk."""


class MediaBucket:
    def __init__(self, bucket: ObjectStore) -> None:
        self._bucket = bucket
        self._present: set[str] = set()

    @classmethod
    async def declare(cls, js: JetStreamContext, replicas: int) -> "MediaBucket":
        bucket = await object_bucket(
            js, subjects.MEDIA_BUCKET, "Bedside media: each book's recording and cover, by content", replicas
        )
        return cls(bucket)

    async def ensure(self, name: str, path: Path) -> None:
        """``path`` stored as ``name``, unless it is already (an interim version before, another book)."""
        if name in self._present:
            return
        try:
            stored = not (await self._bucket.get_info(name)).deleted
        except ObjectNotFoundError:
            stored = False
        if not stored:
            with path.open("rb") as file:
                await self._bucket.put(name, file)
        self._present.add(name)

    async def ensure_named(self, fields: Mapping[str, Any]) -> None:
        """Every file an artifact's fields name in the bucket, stored there before it is announced."""
        for name_field, path_field in FILES_OF_FIELDS:
            if name := fields.get(name_field):
                await self.ensure(name, Path(fields[path_field]))

    async def delete(self, name: str) -> int:
        """Delete ``name``; the bytes it held (0 when it was not there)."""
        self._present.discard(name)
        return await deleted_object(self._bucket, name)
