"""Which stored files a removed book may take with it: pure.

A book's recording and cover are stored once by content, so two books made from one file share
them; and a path an artifact names may be the listener's own file (``bedside ingest --audio``),
which Bedside never deletes. Only what ingest itself wrote under its folders, and what no book
kept still names, goes.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class NamesFiles(Protocol):
    """What of a book's artifact names its files."""

    @property
    def audio_path(self) -> str | None: ...
    @property
    def cover_path(self) -> str | None: ...
    @property
    def audio_object(self) -> str | None: ...
    @property
    def cover_object(self) -> str | None: ...


@dataclass(frozen=True)
class OwnFolders:
    """Where ingest writes files of its own."""

    uploads: Path
    """A taken upload's job folder: its recording and its e-book."""
    covers: Path
    joined: Path
    """A folder of tracks joined into one file, with the starts of its tracks beside it."""


@dataclass(frozen=True)
class StoredFiles:
    """A book's files: its names in the media bucket, and its files and folders on ingest's disk."""

    objects: frozenset[str] = frozenset()
    paths: frozenset[Path] = frozenset()

    def __or__(self, other: "StoredFiles") -> "StoredFiles":
        return StoredFiles(self.objects | other.objects, self.paths | other.paths)

    def __sub__(self, other: "StoredFiles") -> "StoredFiles":
        return StoredFiles(self.objects - other.objects, self.paths - other.paths)


def files_of(artifact: NamesFiles, own: OwnFolders) -> StoredFiles:
    """The media an artifact names, and what of ingest's own went with its paths there."""
    objects = {name for name in (artifact.audio_object, artifact.cover_object) if name}
    paths: set[Path] = set()
    for named in (artifact.audio_path, artifact.cover_path):
        if named:
            paths |= _written_with(Path(named).resolve(), own)
    return StoredFiles(frozenset(objects), frozenset(paths))


def _written_with(path: Path, own: OwnFolders) -> set[Path]:
    uploads, covers, joined = (folder.resolve() for folder in (own.uploads, own.covers, own.joined))
    if path.is_relative_to(uploads) and path != uploads:
        return {uploads / path.relative_to(uploads).parts[0]}
    if path.is_relative_to(joined):
        return {path, path.with_suffix(".starts.json")}
    return {path} if path.is_relative_to(covers) else set()


def only_theirs(removed: Iterable[StoredFiles], kept: Iterable[StoredFiles]) -> StoredFiles:
    """The files of the removed versions that no kept book names."""
    gone, still = StoredFiles(), StoredFiles()
    for files in removed:
        gone |= files
    for files in kept:
        still |= files
    return gone - still
