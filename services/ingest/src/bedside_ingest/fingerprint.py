"""What a file's content is, told cheaply: reading whole gigabytes to hash them would cost more
than a chapter's transcription, so a file is known by its name, size and first and last 64 KiB."""

import hashlib
from collections.abc import Iterable
from pathlib import Path

from bedside_contracts.ingest import MadeFrom

from bedside_ingest.errors import unreadable
from bedside_ingest.folders import files_in

EDGE_BYTES = 1 << 16
MADE_FROM_CHARS = 32


def add_files(digest: "hashlib._Hash", paths: Iterable[Path]) -> None:
    """Feed each file's name, size and first and last 64 KiB to ``digest``, in order."""
    for path in paths:
        size = path.stat().st_size
        digest.update(f"{path.name}\0{size}\0".encode())
        with path.open("rb") as file:
            digest.update(file.read(EDGE_BYTES))
            file.seek(max(0, size - EDGE_BYTES))
            digest.update(file.read(EDGE_BYTES))


def made_from(path: Path) -> MadeFrom:
    """The file or folder (its files, in name order) a book is read from; ``BadInput`` if unreadable."""
    digest = hashlib.sha256()
    try:
        add_files(digest, files_in(path) if path.is_dir() else [path])
    except OSError as error:
        raise unreadable(error.filename or path, error) from None
    return MadeFrom(path=str(path.resolve()), fingerprint=digest.hexdigest()[:MADE_FROM_CHARS])
