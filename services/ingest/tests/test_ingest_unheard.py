"""The chapters of a recording in which nothing was heard: left out of the book, and told."""

from bedside_contracts.ingest import ChapterTranscript, SpokenWordTimes
from bedside_ingest.audiobook import Audiobook, AudioChapter
from bedside_ingest.transcription import transcribed_book, unheard_notes

CHAPTER_MS = 60_000
BOOK = Audiobook(
    title="Lanterns",
    author="",
    narrator="",
    chapters=tuple(
        AudioChapter(n, f"Part {n}", "book.m4b", n * CHAPTER_MS, (n + 1) * CHAPTER_MS, n * CHAPTER_MS)
        for n in (0, 1, 2)
    ),
    files=("book.m4b",),
)


def heard(chapter: int, *words: str) -> ChapterTranscript:
    timed = [SpokenWordTimes(text=w, start_ms=1_000 * k, end_ms=1_000 * k + 600) for k, w in enumerate(words)]
    return ChapterTranscript(chapter=chapter, model="t", audio_ms=CHAPTER_MS, compute_s=1.0, words=timed)


def test_each_chapter_in_which_nothing_was_heard_is_named_with_its_times() -> None:
    done = {0: heard(0), 1: heard(1, "The", "lamp."), 2: heard(2)}
    assert [c.n for c in transcribed_book(BOOK, done, "book.m4b").chapters] == [1]
    unlisted = ", so it is not listed among the chapters"
    assert unheard_notes(BOOK, done) == (
        f"nothing was heard in the opening (0:00:00 to 0:01:00){unlisted}",
        f'nothing was heard in chapter 2, "Part 2" (0:02:00 to 0:03:00){unlisted}',
    )
    assert unheard_notes(BOOK, {n: heard(n, "Words.") for n in (0, 1, 2)}) == ()
