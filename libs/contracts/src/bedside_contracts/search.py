"""Requests and replies of the search service: find_passage, recall, resolve, the catalog."""

from collections.abc import Iterable, Sequence
from typing import Annotated, Literal

from bedside_guard import HINT_LIMIT, OPENING_CHAPTER, Candidate, Passage
from pydantic import Field, model_validator

from bedside_contracts.common import Contract, MediaName, Millis, Name, Offset

Query = Annotated[str, Field(min_length=1, max_length=500)]


class FindPassage(Contract):
    """Search the whole book with one embedding; every line shaped by the guard."""

    book: Name
    here_ms: Millis
    query: Query
    limit: int = Field(default=8, ge=1, le=8)
    heard_only: bool = False
    """Only passages begun behind the line, ranked among themselves: the listener said to go back."""


class Hit(Contract):
    """A hit for operators and tests; never shown to the model."""

    passage_id: int
    start_ms: int
    chapter: int
    score: float


class FoundPassages(Contract):
    """The hits, best first, as the guard shaped them; ``hits`` (with scores) in the same order."""

    places: list[Candidate]
    hits: list[Hit]
    unheard_names: list[str] = Field(
        default_factory=list,
        description="names in the query not heard by the line: left out of the search, so the places "
        "found say nothing of whether or where the book has them (adr/0066)",
    )


class Recall(Contract):
    """Read only what is behind the line to answer a question about it."""

    book: Name
    here_ms: Millis
    question: Query
    limit: int = Field(default=4, ge=1, le=8)


class Recalled(Contract):
    """Heard passages that bear on the question; ``come_up`` is False when none does."""

    come_up: bool
    places: list[Candidate]
    hits: list[Hit]
    unheard_names: list[str] = Field(default_factory=list)
    """Names in the question not heard yet (the listener's own words, nothing of what is ahead)."""
    asks_later: bool = False
    """The question asks what happens further on: answered only from what was heard."""
    not_transcribed_here: bool = False
    """The listener is in a chapter of a recording not transcribed yet: what they heard there cannot
    be searched, so a name or a moment not found may still have come up."""
    read_as: str = ""
    """The question as recall read it: a name said as it sounds written as the book writes the one
    heard ("who's oscar" read as "who's Oskar"), so an answer quoting the places picks the sentence
    that names them. Only names heard are written in; empty when read as asked."""


class CheckAnswer(Contract):
    """An answer a turn is about to speak, to be checked against the line (reply: guard's CheckedAnswer)."""

    book: Name
    here_ms: Millis
    question: str = Field(max_length=2_000)
    answer: str = Field(max_length=20_000)
    from_model: bool = True
    """False for an answer plain code built from the guard's own places (keyless): it cannot
    carry a model's memory of the book, so only the names rule reads it."""


class NameHints(Contract):
    """The names a listener at ``here_ms`` has heard, to bias the recogniser (reply: HeardNames)."""

    book: Name
    here_ms: Millis
    limit: int = Field(default=HINT_LIMIT, ge=0, le=200)


class HeardNames(Contract):
    """Names of the book first heard before the line, as the book writes them, most named first."""

    names: list[str]


class Target(Contract):
    """One place named for a goto: exactly one of a passage id, a chapter, the end of a chapter,
    a time, or an offset."""

    passage_id: int | None = Field(default=None, ge=0)
    chapter: int | None = Field(default=None, ge=0)
    chapter_end: int | None = Field(
        default=None, ge=0, description="the closing passage of this chapter ('the end of the chapter')"
    )
    position_ms: Millis | None = None
    offset_ms: Offset | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> "Target":
        named = [
            v
            for v in (self.passage_id, self.chapter, self.chapter_end, self.position_ms, self.offset_ms)
            if v is not None
        ]
        if len(named) != 1:
            raise ValueError(
                "a target names exactly one of passage_id, chapter, chapter_end, position_ms, offset_ms"
            )
        return self


class Resolve(Contract):
    """Turn targets into places, in the order given. Offsets are relative to ``here_ms``."""

    book: Name
    here_ms: Millis
    targets: list[Target] = Field(max_length=16)


class MissingChapter(Contract):
    """A chapter named that the book does not have, and the chapters it has.

    How many chapters a book has is no spoiler (the page shows the chapter and the clock).
    """

    named: int
    count: int = Field(ge=1)
    first: int
    last: int

    @classmethod
    def among(cls, named: int, numbers: Iterable[int]) -> "MissingChapter | None":
        """Chapter ``named`` missing from a book numbered ``numbers``; None for a book without chapters.
        The opening before chapter 1 is not counted: nobody asks for it by number."""
        ordered = sorted(set(numbers) - {OPENING_CHAPTER})
        if not ordered:
            return None
        return cls(named=named, count=len(ordered), first=ordered[0], last=ordered[-1])


class Resolution(Contract):
    """One target's place, or why it has none. ``at_ms`` lies inside ``passage``."""

    target: Target
    passage: Passage | None = None
    at_ms: int | None = None
    reason: str = ""
    named: Literal["passage", "chapter", "time"] = "passage"
    """What the listener named: a chapter (its start or its end) keeps its number on a covered
    row ahead, as the chapter list is public; a passage or a time names no chapter."""
    missing_chapter: MissingChapter | None = None
    """Set when the target is a chapter the book does not have (``reason`` says the same)."""


class Resolved(Contract):
    resolutions: list[Resolution]


class ChapterInfo(Contract):
    n: int
    title: str
    start_ms: int
    end_ms: int


def chapter_at(chapters: Sequence[ChapterInfo], position_ms: int) -> ChapterInfo | None:
    """The chapter holding ``position_ms``: the last one that starts at or before it. On a chapter's
    first millisecond (just after "go to chapter 5") that chapter, as the page names it, though nothing
    of it has been heard yet. None before the first. The one rule for the player's history, the turn
    and every answer that names the chapter playing."""
    started = [c for c in chapters if c.start_ms <= position_ms]
    return max(started, key=lambda c: c.start_ms) if started else None


class TranscriptCoverage(Contract):
    """How far the transcription of a recording had got when this version of its book was made.

    Only an interim version (announced while later chapters are still being transcribed)
    carries one; a book without it is whole. The chapters in ``pending`` are in the chapter
    list with their times but have no passages yet.
    """

    chapters_done: int = Field(ge=0, description="chapters of the recording transcribed so far")
    chapters: int = Field(ge=1, description="chapters in the recording")
    audio_done_ms: Millis
    audio_ms: Millis
    pending: list[int] = Field(description="the numbers of the chapters not transcribed yet")


TimesFrom = Literal["file", "transcription", "alignment"]
"""Where a book's times came from: the file it was read from (a transcript, subtitles, sync maps,
or, for a text with no times, an estimate), the transcription of its recording, or its e-book's
sentences aligned to that transcription."""

RECORDING_FORMATS: dict[str, TimesFrom] = {"audio": "transcription", "audio+text": "alignment"}
"""Ingest's formats of a book made from its recording: transcribed, or its e-book aligned to it."""


def times_from_format(book_format: str) -> TimesFrom:
    """What the times of a book read in ``book_format`` came from: its recording, else its file.

    An artifact names its format at the head of its ``source`` ("audio: lantern.m4b (tiny.en)"),
    as every artifact has, so one stored before it named ``times_from`` still tells."""
    return RECORDING_FORMATS.get(book_format, "file")


def timing_label(estimated: bool, times_from: TimesFrom | None) -> str:
    """How a book's times are told to the person who added it: what they came from, or that the
    record does not say (a catalog entry written before it kept ``times_from``)."""
    if estimated:
        return "estimated"
    if times_from is None:
        return "not recorded"
    return {"file": "timed", "transcription": "transcribed", "alignment": "aligned"}[times_from]


class BookInfo(Contract):
    id: Name
    title: str
    author: str = ""
    narrator: str = ""
    duration_ms: int
    estimated: bool
    times_from: TimesFrom | None = Field(
        default=None,
        description="None: not recorded (an entry stored before books said what their times came from)",
    )
    passages: int
    chapters: list[ChapterInfo]
    audio_path: str | None = None
    cover_path: str | None = None
    audio_object: MediaName | None = Field(default=None, description="the recording in the media bucket")
    cover_object: MediaName | None = Field(default=None, description="the cover in the media bucket")
    version: str = ""
    transcript: TranscriptCoverage | None = None
    silent_chapters: list[int] = Field(
        default_factory=list, description="chapters in which nothing was heard: listed, with no passages"
    )


class CatalogRequest(Contract):
    book: Name | None = None


class Catalog(Contract):
    books: list[BookInfo]


# --- recap: a span of heard book time ------------------------------------------------------


class Recap(Contract):
    """The heard passages of a span of book time, and a few of its central sentences.

    The span is clamped to the line: nothing from ``here_ms`` on is read, whatever it asks.
    """

    book: Name
    here_ms: Millis
    from_ms: Millis
    to_ms: Millis
    max_words: int = Field(default=100, ge=10, le=400, description="the extractive recap's length bound")


class RecapSentence(Contract):
    """One heard sentence of the span, with the book time it starts at (estimated without cues)."""

    passage_id: int
    chapter: int
    at_ms: int = Field(ge=0)
    text: str


class Recapped(Contract):
    """The span as served (clamped to the line), its heard passages and its central sentences.

    ``places`` carry only the words of the span that were heard, in story order, shaped as
    the guard's rows behind the line. ``sentences`` are the extractive recap, in story order.
    """

    from_ms: int = Field(ge=0)
    to_ms: int = Field(ge=0)
    places: list[Candidate]
    sentences: list[RecapSentence]
