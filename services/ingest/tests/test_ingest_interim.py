"""A recording's chapters, without I/O: in an interim version the chapters done become the book, the
others are listed with their times; before any speech it has no words; after the last chapter there
is none. A chapter in which nothing was heard keeps its place in the list by its times, and is told."""

from bedside_contracts.ingest import ChapterTranscript, SpokenWordTimes
from bedside_contracts.search import ChapterInfo
from bedside_ingest.audiobook import Audiobook, AudioChapter
from bedside_ingest.interim import interim_of, with_timed_only
from bedside_ingest.transcription import silent_chapters, transcribed_book, unheard_notes

CHAPTER_MS = 60_000
BOOK = Audiobook(
    title="Lanterns",
    author="",
    narrator="",
    chapters=tuple(
        AudioChapter(n, f"Part {n}", "book.m4b", (n - 1) * CHAPTER_MS, n * CHAPTER_MS, (n - 1) * CHAPTER_MS)
        for n in (1, 2, 3)
    ),
    files=("book.m4b",),
)


def heard(chapter: int, *words: str) -> ChapterTranscript:
    timed = [SpokenWordTimes(text=w, start_ms=1_000 * k, end_ms=1_000 * k + 600) for k, w in enumerate(words)]
    return ChapterTranscript(
        chapter=chapter, model="tiny.en", audio_ms=CHAPTER_MS, compute_s=1.0, words=timed
    )


def test_the_chapters_done_are_the_book_and_the_rest_wait_with_their_times() -> None:
    interim = interim_of(BOOK, {1: heard(1, "The", "lamp", "was", "lit.")}, "book.m4b")
    assert interim is not None
    assert [c.n for c in interim.book.chapters] == [1]
    assert [(c.n, c.start_ms, c.end_ms) for c in interim.pending] == [
        (2, 60_000, 120_000),
        (3, 120_000, 180_000),
    ]
    coverage = interim.coverage
    assert (coverage.chapters_done, coverage.chapters, coverage.pending) == (1, 3, [2, 3])
    assert (coverage.audio_done_ms, coverage.audio_ms) == (60_000, 180_000)


def test_before_anything_is_heard_the_interim_has_no_words_and_none_once_every_chapter_is_done() -> None:
    for done in ({}, {1: heard(1)}):
        interim = interim_of(BOOK, done, "book.m4b")
        assert interim is not None
        assert interim.book.chapters == ()
        assert [c.n for c in interim.pending] == [n for n in (1, 2, 3) if n not in done]
        assert [c.n for c in interim.silent] == [n for n in (1, 2, 3) if n in done]
        assert interim.coverage.chapters_done == len(done)
    done = {n: heard(n, "Words.") for n in (1, 2, 3)}
    assert interim_of(BOOK, done, "book.m4b") is None


def test_a_chapter_with_words_ends_where_the_next_one_listed_by_its_times_starts() -> None:
    """Not at the next chapter with words: one without them between would lie inside it."""
    transcribed = [
        ChapterInfo(n=1, title="Part 1", start_ms=0, end_ms=120_000),  # to the next chapter with words
        ChapterInfo(n=3, title="Part 3", start_ms=120_000, end_ms=122_600),
    ]
    timed_only = [ChapterInfo(n=2, title="Part 2", start_ms=60_000, end_ms=120_000)]
    assert [(c.n, c.start_ms, c.end_ms) for c in with_timed_only(transcribed, timed_only)] == [
        (1, 0, 60_000),
        (2, 60_000, 120_000),
        (3, 120_000, 122_600),
    ]
    no_length = [ChapterInfo(n=2, title="Part 2", start_ms=120_000, end_ms=120_000)]  # two markers at once
    assert [(c.n, c.start_ms, c.end_ms) for c in with_timed_only(transcribed[1:], no_length)] == [
        (2, 120_000, 120_000),
        (3, 120_000, 122_600),
    ]
    waiting = [ChapterInfo(n=3, title="Part 3", start_ms=120_000, end_ms=180_000)]
    merged = with_timed_only([ChapterInfo(n=1, title="Part 1", start_ms=0, end_ms=41_000)], waiting)
    assert [(c.n, c.start_ms, c.end_ms) for c in merged] == [(1, 0, 120_000), (3, 120_000, 180_000)]


def test_a_chapter_in_which_nothing_was_heard_keeps_its_place_by_its_times_and_is_told() -> None:
    """A chapter of music, silence, or speech the recogniser missed was left out of the list: the
    chapter before took in its time, and "chapter 2" led nowhere."""
    done = {1: heard(1, "The", "lamp."), 2: heard(2), 3: heard(3)}
    assert [c.n for c in transcribed_book(BOOK, done, "book.m4b").chapters] == [1]  # passages: words only
    assert [(c.n, c.title, c.start_ms, c.end_ms) for c in silent_chapters(BOOK, done)] == [
        (2, "Part 2", 60_000, 120_000),
        (3, "Part 3", 120_000, 180_000),
    ]
    listed = ": it is listed, with nothing in it to find or to tell"
    assert unheard_notes(BOOK, done) == (
        f"nothing was heard in chapter 2 (0:01:00 to 0:02:00){listed}",
        f"nothing was heard in chapter 3 (0:02:00 to 0:03:00){listed}",
    )
    assert not [note for note in unheard_notes(BOOK, done) if "Part" in note]  # no title ahead
    assert unheard_notes(BOOK, {n: heard(n, "Words.") for n in (1, 2, 3)}) == ()
    assert silent_chapters(BOOK, {1: heard(1, "Words.")}) == ()  # not transcribed yet is not silent
