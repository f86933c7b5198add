"""Resolving the places a goto names (passage ids, chapters, times) against one book: pure.

Each target is resolved on its own and reported in the order given; deduplicating equal
places is the player's job. A reason never names a chapter title, so it is safe to show.
A chapter with no passages (not transcribed yet, or nothing heard in it) resolves to its wordless
passage (``domain/wordless.py``), by its number, a time inside it, or that passage's id.
"""

from bedside_contracts.search import MissingChapter, Resolution, Target
from bedside_guard import Passage, clock

from bedside_search.domain.book import ServedBook
from bedside_search.domain.wordless import chapter_of_wordless


def resolve(book: ServedBook, here_ms: int, targets: list[Target]) -> list[Resolution]:
    return [resolve_one(book, here_ms, target) for target in targets]


def resolve_one(book: ServedBook, here_ms: int, target: Target) -> Resolution:
    if target.passage_id is not None:
        passage = book.passage(target.passage_id) or book.wordless_passage(target.passage_id)
        if passage is None and (chapter := chapter_of_wordless(target.passage_id)) is not None:
            passage = book.first_of_chapter(chapter)  # transcribed since the id was handed out
        if passage is None:
            return Resolution(target=target, reason=f"there is no passage with id {target.passage_id}")
        return Resolution(target=target, passage=passage, at_ms=passage.start_ms, named="passage")
    if target.chapter is not None:
        first = book.first_of_chapter(target.chapter) or book.wordless_chapter(target.chapter)
        if first is None:
            return no_such_chapter(book, target, target.chapter)
        return Resolution(target=target, passage=first, at_ms=first.start_ms, named="chapter")
    if target.chapter_end is not None:
        # Its closing passage, never a time: a chapter's end on the clock is the next one's start,
        # and a time in the quiet between two passages goes on to where narration resumes.
        # The listener named the chapter, so a row for its end ahead keeps the number.
        last = book.last_of_chapter(target.chapter_end) or book.wordless_chapter(target.chapter_end)
        if last is None:
            return no_such_chapter(book, target, target.chapter_end)
        return Resolution(target=target, passage=last, at_ms=last.start_ms, named="chapter")
    if target.position_ms is not None:
        end = book_end(book)
        if target.position_ms > end:
            return Resolution(
                target=target,
                named="time",
                reason=f"{clock(target.position_ms)} is past the end of the book ({clock(end)})",
            )
        return at_time(book, target, target.position_ms)
    assert target.offset_ms is not None  # a Target names exactly one thing
    at = clamp(here_ms + target.offset_ms, book_start(book), book_end(book))
    if target.offset_ms < 0 and at >= here_ms:
        # Back from the book's very start: clamped to the start it would land at or ahead of the
        # line, and an offer would list that place as further on. There is nothing behind to go to.
        return Resolution(target=target, named="time", reason=NOTHING_BEFORE_THE_START)
    return at_time(book, target, at, back=target.offset_ms < 0)


NOTHING_BEFORE_THE_START = "there is nothing before the start of the book to go back to"


def no_such_chapter(book: ServedBook, target: Target, named: int) -> Resolution:
    """A chapter the book does not have: refused, saying which chapters it has (for the model in
    ``reason``, for plain code in ``missing_chapter``)."""
    missing = MissingChapter.among(named, (c.n for c in book.info.chapters))
    if missing is None:
        return Resolution(
            target=target, named="chapter", reason=f"the book has no chapter {named} (chapters none)"
        )
    return Resolution(
        target=target,
        named="chapter",
        reason=f"the book has no chapter {named} (chapters {missing.first} to {missing.last})",
        missing_chapter=missing,
    )


def book_start(book: ServedBook) -> int:
    return min((places[0].start_ms for places in (book.passages, book.wordless) if places), default=0)


def book_end(book: ServedBook) -> int:
    return max(book.info.duration_ms, book.passages[-1].end_ms if book.passages else 0)


def clamp(ms: int, low: int, high: int) -> int:
    return max(low, min(ms, high))


def at_time(book: ServedBook, target: Target, ms: int, *, back: bool = False) -> Resolution:
    """The passage holding ``ms``. A time in a gap between passages (or before the first)
    moves forward to where narration resumes, unless it was reached going ``back``: then it stays at
    the end of the passage before, so a move back never lands further on than it began. One past the
    last passage's end stays in it. A time in a chapter with no passages is that chapter's wordless
    passage, and one between such a chapter and the passage a gap goes to goes to that chapter."""
    passage = book.wordless_at(ms) or containing(book, ms, back=back)
    if passage is not None and passage.text:
        passage = _wordless_between(book, passage, ms) or passage
    if passage is None:
        return Resolution(target=target, named="time", reason=f"{clock(ms)} is not transcribed yet")
    at = clamp(ms, passage.start_ms, max(passage.start_ms, passage.end_ms))
    return Resolution(target=target, passage=passage, at_ms=at, named="time")


def _wordless_between(book: ServedBook, passage: Passage, ms: int) -> Passage | None:
    """The wordless chapter nearest ``ms`` lying between it and ``passage`` (found across a gap)."""
    if passage.end_ms < ms:  # gone back: the latest behind ``ms``
        return next((w for w in reversed(book.wordless) if passage.end_ms <= w.start_ms < ms), None)
    if ms < passage.start_ms:  # gone forward: the earliest after it
        return next((w for w in book.wordless if ms <= w.start_ms < passage.start_ms), None)
    return None


def containing(book: ServedBook, ms: int, *, back: bool = False) -> Passage | None:
    before = book.last_passage_starting_at_or_before(ms)
    if before is None:
        return book.passages[0] if book.passages else None
    if ms <= before.end_ms or back:
        return before
    after = book.next_passage_after(before)
    return after if after is not None else before
