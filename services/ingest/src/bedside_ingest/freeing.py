"""Which stored files a removed book may take with it: pure.

A book's recording and cover are stored once by content, so two books made from one file share
them; and a path an artifact names may be the listener's own file (``bedside ingest --audio``),
which Bedside never deletes. Only what ingest itself wrote under its folders, and what no book
kept still names, goes.
"""

from collections.abc import Iterable, Sequence
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
class StoredFiles:
    """A book's files: its names in the media bucket and its files on ingest's disk."""

    objects: frozenset[str] = frozenset()
    paths: frozenset[Path] = frozenset()

    def __or__(self, other: "StoredFiles") -> "StoredFiles":
        return StoredFiles(self.objects | other.objects, self.paths | other.paths)

    def __sub__(self, other: "StoredFiles") -> "StoredFiles":
        return StoredFiles(self.objects - other.objects, self.paths - other.paths)


def files_of(artifact: NamesFiles, own_folders: Sequence[Path]) -> StoredFiles:
    """The media an artifact names, and those of its paths that lie in one of ``own_folders``."""
    objects = {name for name in (artifact.audio_object, artifact.cover_object) if name}
    paths = {Path(p).resolve() for p in (artifact.audio_path, artifact.cover_path) if p}
    folders = [folder.resolve() for folder in own_folders]
    return StoredFiles(
        frozenset(objects), frozenset(p for p in paths if any(p.is_relative_to(f) for f in folders))
    )


def only_theirs(removed: Iterable[StoredFiles], kept: Iterable[StoredFiles]) -> StoredFiles:
    """The files of the removed versions that no kept book names."""
    gone, still = StoredFiles(), StoredFiles()
    for files in removed:
        gone |= files
    for files in kept:
        still |= files
    return gone - still
