"""What every format is read into before chunking: units of narration grouped in chapters.

A unit is the finest piece of text the source gives with its own time: a subtitle cue, a
sync-map fragment, a transcribed word, or (for a book without timing) a sentence. Times
are milliseconds on the book's clock; an untimed unit has none until they are estimated.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Unit:
    text: str
    where: str
    """Where the unit is in its file, for error messages: "line 12", "cue 7", "word 301"."""
    start_ms: int | None = None
    end_ms: int | None = None
    heading: bool = False
    """The source marks this unit as a heading (a SMIL fragment pointing at an <h1>..<h6>)."""


def numbered_title(n: int | str) -> str:
    """The title of chapter ``n`` (as its source numbers it) where the source gives none: its number
    alone, which every reader of titles (``bedside_guard.own_title``) takes as no title of its own."""
    return f"Chapter {n}"


@dataclass(frozen=True)
class Chapter:
    n: int
    title: str
    units: tuple[Unit, ...]
    where: str
    start_ms: int | None = None
    """Where a chapters file says the chapter starts (else the start of its first unit)."""


@dataclass(frozen=True)
class Transcript:
    """A timed source before it is divided into chapters."""

    units: tuple[Unit, ...]
    format: str
    title: str = ""
    author: str = ""


@dataclass(frozen=True)
class Book:
    """A book ready to chunk. ``timed`` books keep their units as cues of each passage."""

    title: str
    author: str
    chapters: tuple[Chapter, ...]
    format: str
    timed: bool
    source: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)
    narrator: str = ""

    @property
    def estimated(self) -> bool:
        return not self.timed
