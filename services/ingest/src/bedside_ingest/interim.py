"""What an interim version of an audiobook holds while later chapters are still being
transcribed (adr/0032), without I/O: the chapters done so far as a book, the chapters still
to come (and those done in which nothing was heard) as times only, and how far the transcript has got.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bedside_contracts.ingest import ChapterTranscript
from bedside_contracts.search import ChapterInfo, TranscriptCoverage

from bedside_ingest.audiobook import Audiobook
from bedside_ingest.book import Book
from bedside_ingest.errors import BadInput
from bedside_ingest.transcription import AUDIO_FORMAT, silent_chapters, transcribed_book


@dataclass(frozen=True)
class Interim:
    """An interim version's book (the chapters transcribed so far), the chapters still to come, those
    done in which nothing was heard, and its coverage."""

    book: Book
    pending: tuple[ChapterInfo, ...]
    silent: tuple[ChapterInfo, ...]
    coverage: TranscriptCoverage


def interim_of(
    audiobook: Audiobook, transcripts: Mapping[int, ChapterTranscript], source: str
) -> Interim | None:
    """The interim version of the chapters transcribed so far (none, once the recording is read:
    a book to play with no words yet); None when every chapter is done (the whole book is next)."""
    done = tuple(c for c in audiobook.chapters if c.n in transcripts)
    waiting = tuple(c for c in audiobook.chapters if c.n not in transcripts)
    if not waiting:
        return None
    try:
        book = transcribed_book(replace(audiobook, chapters=done), transcripts, source)
    except BadInput:  # nothing heard yet
        book = Book(
            title=audiobook.title,
            author=audiobook.author,
            chapters=(),
            format=AUDIO_FORMAT,
            timed=True,
            source=source,
            narrator=audiobook.narrator,
        )
    pending = tuple(
        ChapterInfo(n=c.n, title=c.title, start_ms=c.book_start_ms, end_ms=c.book_start_ms + c.duration_ms)
        for c in waiting
    )
    coverage = TranscriptCoverage(
        chapters_done=len(done),
        chapters=len(audiobook.chapters),
        audio_done_ms=sum(c.duration_ms for c in done),
        audio_ms=audiobook.duration_ms,
        pending=[c.n for c in waiting],
    )
    return Interim(book, pending, silent_chapters(audiobook, transcripts), coverage)


def with_timed_only(
    transcribed: Sequence[ChapterInfo], timed_only: Sequence[ChapterInfo]
) -> list[ChapterInfo]:
    """Every chapter in order: a chapter with words followed by one listed by its times alone (still
    to come, or nothing heard in it) ends where that one starts, as chapters of a whole book end
    where the next begins."""
    # By number where two start together: a chapter of no length (two markers at one time) goes first.
    chapters = sorted([*transcribed, *timed_only], key=lambda c: (c.start_ms, c.n))
    without_words = {c.n for c in timed_only}
    merged = []
    for k, chapter in enumerate(chapters):
        following = chapters[k + 1] if k + 1 < len(chapters) else None
        if chapter.n not in without_words and following is not None and following.n in without_words:
            merged.append(chapter.model_copy(update={"end_ms": following.start_ms}))
        else:
            merged.append(chapter)
    return merged
