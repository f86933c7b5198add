"""Cutting a book into passages of about thirty seconds of narration, on sentence boundaries,
never across a chapter. Plain code: the same book always gives the same passages and ids.

A passage closes at the first sentence end once it holds ``TARGET_WORDS`` words or
``TARGET_MS`` of narration; verse and run-on text with no sentence end close at a clause
end a little later, and anything at ``MAX_WORDS``. A short tail joins the passage before it.
Passage ids number the book's passages in order from 0, so they are stable for a content.
"""

from collections.abc import Sequence

from bedside_contracts.search import ChapterInfo
from bedside_guard import Cue, Passage, ends_sentence

from bedside_ingest.book import Book, Chapter, Unit
from bedside_ingest.formats.jsonbook import load_json_book
from bedside_ingest.text import clean, ends_clause, word_count
from bedside_ingest.timeline import DEFAULT_WPM, estimate_times

TARGET_WORDS = 64
"""Closing at the first sentence end past 64 words gives a median passage of 77 words (~30 s at
155 wpm) on black_beauty.json: sentences overrun the target by about half a sentence."""
TARGET_MS = 30_000
CLAUSE_WORDS = 110
MAX_WORDS = 160
MIN_TAIL_WORDS = 30

__all__ = ["chapter_infos", "chunk_book", "chunk_chapter", "load_json_book"]


def _span(units: Sequence[Unit]) -> int:
    return (units[-1].end_ms or 0) - (units[0].start_ms or 0)


def _closes(units: list[Unit], words: int) -> bool:
    last = units[-1].text
    long_enough = words >= TARGET_WORDS or _span(units) >= TARGET_MS
    return (
        (long_enough and ends_sentence(last))
        or (words >= CLAUSE_WORDS and ends_clause(last))
        or words >= MAX_WORDS
    )


def _groups(units: tuple[Unit, ...]) -> list[list[Unit]]:
    groups: list[list[Unit]] = []
    current: list[Unit] = []
    words = 0
    for unit in units:
        current.append(unit)
        words += word_count(unit.text)
        if _closes(current, words):
            groups.append(current)
            current, words = [], 0
    if current:
        tail_words = sum(word_count(u.text) for u in current)
        if groups and tail_words < MIN_TAIL_WORDS:
            groups[-1] = groups[-1] + current
        else:
            groups.append(current)
    return groups


def chunk_chapter(chapter: Chapter, first_id: int, keep_cues: bool, not_before_ms: int = 0) -> list[Passage]:
    """The passages of one chapter, ids from ``first_id``, none starting before ``not_before_ms`` (the
    end of the passage before, whose last sentence may run past this chapter's mark); units must
    have times."""
    passages = []
    for offset, group in enumerate(_groups(chapter.units)):
        start, end = group[0].start_ms, group[-1].end_ms
        if start is None or end is None:
            raise ValueError(f"chapter {chapter.n} has units without times; estimate them first")
        if offset == 0 and chapter.start_ms is not None:
            # from where the chapter starts: a heading read aloud before its first sentence is in it,
            # so "go to chapter 3" plays "Chapter Three. The Baker's Warning."
            start = min(start, max(chapter.start_ms, not_before_ms))
        cues = tuple(Cue(start_ms=u.start_ms or 0, end_ms=u.end_ms or 0, text=u.text) for u in group)
        passages.append(
            Passage(
                id=first_id + offset,
                start_ms=start,
                end_ms=end,
                chapter=chapter.n,
                chapter_title=chapter.title,
                text=clean(" ".join(u.text for u in group)),
                cues=cues if keep_cues else (),
            )
        )
    return passages


def chunk_book(book: Book, narration_wpm: int = DEFAULT_WPM) -> list[Passage]:
    """All passages of ``book`` in order; an untimed book is first timed at ``narration_wpm``.

    Cues (the transcript's own finer timings) are kept only for timed books: estimated
    times are not finer knowledge.
    """
    timed = estimate_times(book, narration_wpm)
    passages: list[Passage] = []
    for chapter in timed.chapters:
        after = passages[-1].end_ms if passages else 0
        passages += chunk_chapter(chapter, len(passages), keep_cues=book.timed, not_before_ms=after)
    return passages


def chapter_infos(book: Book, passages: Sequence[Passage]) -> list[ChapterInfo]:
    """Each chapter's span on the clock: from its start to the next chapter's start (or its end)."""
    firsts: dict[int, int] = {}
    lasts: dict[int, int] = {}
    for passage in passages:
        firsts.setdefault(passage.chapter, passage.start_ms)
        lasts[passage.chapter] = passage.end_ms
    starts = [
        (chapter, chapter.start_ms if chapter.start_ms is not None else firsts[chapter.n])
        for chapter in book.chapters
        if chapter.n in firsts
    ]
    infos = []
    for k, (chapter, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else lasts[chapter.n]
        infos.append(
            ChapterInfo(n=chapter.n, title=chapter.title, start_ms=min(start, firsts[chapter.n]), end_ms=end)
        )
    return infos
