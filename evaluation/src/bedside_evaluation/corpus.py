"""Where the corpus books are read from: never copied into the repository."""

import os
import sys
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


def corpus_missing() -> bool:
    """Whether the corpus is absent, said on stderr: every evaluation needs it."""
    if corpus_dir().is_dir():
        return False
    print(f"{corpus_dir()} is absent: the evaluation needs the shared corpus", file=sys.stderr)
    return True
