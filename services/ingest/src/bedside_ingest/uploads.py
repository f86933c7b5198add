"""Files a device sent, taken out of the uploads bucket onto ingest's own disk.

The page sends an audiobook (and its e-book) to the player, which holds it in the bucket; ingest,
on whatever machine it runs, takes it from there into ``<data>/uploads/<job>/`` and ingests it as
a file of its own. The bucket is only the way across: once taken, the object is deleted, and the
taken file is the book's recording from then on (the page plays it).
"""

import hashlib
import re
import shutil
import unicodedata
from pathlib import Path, PurePosixPath

from bedside_contracts import subjects
from bedside_contracts.ingest import UploadedFile
from bedside_runtime.errors import InvalidRequest
from bedside_runtime.room import ensure_room, written_or_no_room
from bedside_runtime.streams import object_bucket
from nats.js.client import JetStreamContext
from nats.js.errors import ObjectNotFoundError
from nats.js.object_store import ObjectStore

UNTAKEN_TTL_S = 24 * 3600.0
"""An upload no book was made of within a day (the page closed midway) is dropped by the server."""

_UNSAFE = re.compile(r"[^\w .,'()&+-]")
NAME_MAX_BYTES = 255
"""The longest file name a disk takes (ext4, APFS, NTFS): bytes, not characters."""


def local_name(filename: str) -> str:
    """The device's file name as a safe name on this disk: its last part only, no control or path
    characters, never hidden; its suffix is kept, since it says what the file is."""
    last = PurePosixPath(filename.replace("\\", "/")).name
    stem, dot, suffix = _UNSAFE.sub("_", unicodedata.normalize("NFC", last)).rpartition(".")
    if not dot:
        stem, suffix = suffix, ""
    tail = f".{suffix}" if suffix.strip(" ") else ""
    # no suffix a book is read by is that long, and a name is left room ("upload" at the least)
    tail = tail if len(f"upload{tail}".encode()) <= NAME_MAX_BYTES else ""
    stem = stem.strip(" .")
    while len(f"{stem}{tail}".encode()) > NAME_MAX_BYTES:  # 255 characters may be 765 bytes
        stem = stem[:-1].rstrip(" .")
    return f"{stem or 'upload'}{tail}"


def job_of(sent: UploadedFile) -> str:
    """The job a sent recording makes. A page reloaded before ingest answered asks again with the
    same upload, and must get the job the first ask started, not a second book."""
    return hashlib.sha256(sent.upload.encode()).hexdigest()[:16]


class Uploads:
    def __init__(self, bucket: ObjectStore, folder: Path) -> None:
        self._bucket = bucket
        self._folder = folder

    @classmethod
    async def declare(cls, js: JetStreamContext, replicas: int, folder: Path) -> "Uploads":
        bucket = await object_bucket(
            js,
            subjects.UPLOADS_BUCKET,
            "Bedside uploads: files sent from a device, until ingest takes them",
            replicas,
            ttl_s=UNTAKEN_TTL_S,
        )
        return cls(bucket, folder)

    def ensure_room(self, recording: int, ebook: int | None) -> None:
        """Refuse (``NoRoom``) a recording (and its e-book) of these sizes that there is no room to take."""
        both = ebook is not None
        ensure_room(
            self._folder,
            "the recording and its e-book" if both else "the recording",
            recording + (ebook or 0),
        )

    async def take(
        self, job: str, recording: UploadedFile, ebook: UploadedFile | None
    ) -> tuple[Path, Path | None]:
        """The files on this disk, in the job's own folder. Their objects are deleted once both are
        here; until then a refusal (no room, an upload gone) leaves them in the bucket, to be taken
        when asked again, and nothing of them on this disk."""
        self.ensure_room(recording.size, ebook.size if ebook else None)
        try:
            taken = await self._take(job, recording)
            taken_ebook = await self._take(job, ebook) if ebook else None
        except BaseException:
            self.forget(job)
            raise
        # each object once: a request may name one upload as both files, and an object deleted is gone
        for upload in dict.fromkeys(sent.upload for sent in (recording, ebook) if sent is not None):
            await self._bucket.delete(upload)
        return taken, taken_ebook

    async def _take(self, job: str, sent: UploadedFile) -> Path:
        folder = self._folder / job
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / local_name(sent.filename)
        try:
            with written_or_no_room("the files sent"), path.open("wb") as out:
                await self._bucket.get(sent.upload, writeinto=out)
        except ObjectNotFoundError:
            raise InvalidRequest(
                "that upload is not here: it was taken already, or sent over a day ago"
            ) from None
        if (taken := path.stat().st_size) != sent.size:
            raise InvalidRequest(f"that upload holds {taken} bytes, not the {sent.size} said")
        return path

    def holds(self, path: str) -> bool:
        """Whether ``path`` is a file taken from a device (in a job's folder here)."""
        return Path(path).is_relative_to(self._folder)

    def forget(self, job: str) -> None:
        """The job's folder, gone: what was taken made no book."""
        shutil.rmtree(self._folder / job, ignore_errors=True)
