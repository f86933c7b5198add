"""Which files a folder given as a book holds, and in what order names go."""

import re
from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import Any

from bedside_ingest.accepted import suffix_of


def by_name(path: PurePath) -> list[Any]:
    """A sort key: names in the order a person reads them, digits as numbers ("CD 2" before "CD 10")."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


_DISC = re.compile(r"\b(?:cd|dis[ck])[\s._-]*\d+\b", re.IGNORECASE)


def is_disc_folder(name: str) -> bool:
    """A folder named as a ripper names a disc: "CD 2", "Disc 3", "Book - CD1"."""
    return _DISC.search(name) is not None


def sync_maps(entries: Iterable[Path]) -> list[Path]:
    """The SMIL sync maps among a folder's files: a folder holding any is a timed transcript, its
    audio beside them, never a recording of tracks or discs."""
    return [entry for entry in entries if suffix_of(entry) == ".smil"]


def files_in(folder: Path) -> list[Path]:
    """A folder's own files, then those of its disc folders (an audiobook ripped from its discs),
    disc by disc. Other folders in it are not this book's: a library's folder of books is no book."""
    if sync_maps(_own_files(folder)):
        return _own_files(folder)
    discs = sorted((p for p in _shown(folder) if p.is_dir() and is_disc_folder(p.name)), key=by_name)
    return _own_files(folder) + [track for disc in discs for track in _own_files(disc)]


def _shown(folder: Path) -> Iterable[Path]:
    """A folder's entries but the hidden ones: a Mac writes "._01.mp3" (AppleDouble) beside each
    file it copies to a USB stick or a share, and .DS_Store; they are no part of the book."""
    return (p for p in folder.iterdir() if not p.name.startswith("."))


def _own_files(folder: Path) -> list[Path]:
    return sorted((p for p in _shown(folder) if p.is_file()), key=by_name)
