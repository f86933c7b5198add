"""Which files a folder given as a book holds, and in what order names go."""

import re
from pathlib import Path, PurePath
from typing import Any

from bedside_ingest.accepted import is_audio_name, suffix_of


def by_name(path: PurePath) -> list[Any]:
    """A sort key: names in the order a person reads them, digits as numbers ("CD 2" before "CD 10")."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def files_in(folder: Path) -> list[Path]:
    """A folder's own files. One with no tracks or sync maps of its own but folders that hold them
    (an audiobook ripped from its discs: "CD 1", "CD 2") holds theirs too, disc by disc."""
    own = _own_files(folder)
    if any(is_audio_name(p) or suffix_of(p) == ".smil" for p in own):
        return own
    discs = sorted((p for p in folder.iterdir() if p.is_dir()), key=by_name)
    return own + [track for disc in discs for track in _own_files(disc)]


def _own_files(folder: Path) -> list[Path]:
    return sorted((p for p in folder.iterdir() if p.is_file()), key=by_name)
