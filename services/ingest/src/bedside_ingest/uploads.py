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


def local_name(filename: str) -> str:
    """The device's file name as a safe name on this disk: its last part only, no control or path
    characters, never hidden; its suffix is kept, since it says what the file is."""
    last = PurePosixPath(filename.replace("\\", "/")).name
    stem, dot, suffix = _UNSAFE.sub("_", unicodedata.normalize("NFC", last)).rpartition(".")
    if not dot:
        stem, suffix = suffix, ""
    stem = stem.strip(" .") or "upload"
    return f"{stem}.{suffix}" if suffix.strip(" ") else stem


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

    def ensure_room(self, what: str, needed: int) -> None:
        """Refuse (``NoRoom``) files there is no room to take."""
        ensure_room(self._folder, what, needed)

    async def take(self, job: str, sent: UploadedFile, what: str) -> Path:
        """The file on this disk, in the job's own folder; the object is deleted once it is.
        ``what`` names it in a refusal: "the recording", "the e-book"."""
        self.ensure_room(what, sent.size)
        folder = self._folder / job
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / local_name(sent.filename)
        try:
            with written_or_no_room(what), path.open("wb") as out:
                await self._bucket.get(sent.upload, writeinto=out)
        except ObjectNotFoundError:
            path.unlink(missing_ok=True)
            raise InvalidRequest(
                "that upload is not here: it was taken already, or sent over a day ago"
            ) from None
        except BaseException:  # kept in the bucket: asked again, with room made, it is taken then
            path.unlink(missing_ok=True)
            raise
        if (taken := path.stat().st_size) != sent.size:
            path.unlink()
            raise InvalidRequest(f"that upload holds {taken} bytes, not the {sent.size} said")
        await self._bucket.delete(sent.upload)
        return path

    def forget(self, job: str) -> None:
        """The job's folder, gone: what was taken made no book."""
        shutil.rmtree(self._folder / job, ignore_errors=True)
