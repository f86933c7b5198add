"""Where the corpus books are read from: never copied into the repository."""

import os
from pathlib import Path


def corpus_dir() -> Path:
    """``$BEDSIDE_CORPUS``, else the nearest ``shared/corpus`` beside a folder above this checkout.

    On a user's machine there is none; the path returned then does not exist and callers
    say so.
    """
    if named := os.environ.get("BEDSIDE_CORPUS"):
        return Path(named)
    here = Path(__file__).resolve()
    for folder in here.parents:
        candidate = folder / "shared" / "corpus"
        if candidate.is_dir():
            return candidate
    return here.parent / "no-corpus"
