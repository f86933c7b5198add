"""Chunking: about thirty seconds on sentence ends, never across a chapter, stable ids, monotonic times."""

import itertools
import statistics

import pytest
from bedside_guard import sentences_of
from bedside_ingest.book import Book, Chapter, Unit
from bedside_ingest.chunking import (
    MAX_WORDS,
    MIN_TAIL_WORDS,
    TARGET_MS,
    TARGET_WORDS,
    chapter_infos,
    chunk_book,
)
from bedside_ingest.formats.jsonbook import load_json_book
from bedside_ingest.formats.untimed import untimed_chapter
from bedside_ingest.text import clean, split_sentences, word_count
from bedside_ingest.timeline import estimate_times
from bedside_testing import corpus_file
from hypothesis import given, settings
from hypothesis import strategies as st

WORDS = ["lamp", "sea", "gull", "rope", "tide", "stone", "boat", "wind", "salt", "shell"]

sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=30).map(
    lambda ws: " ".join(ws).capitalize() + "."
)
chapter_sentences = st.lists(sentence, min_size=1, max_size=40)


def timed_book(chapters: list[list[str]], gaps: list[int]) -> Book:
    units: list[Chapter] = []
    now = 0
    for n, sentences in enumerate(chapters, start=1):
        chapter_units = []
        for k, text in enumerate(sentences):
            length = word_count(text) * 380
            chapter_units.append(Unit(text, f"cue {n}.{k}", now, now + length))
            now += length + gaps[(n + k) % len(gaps)]
        units.append(Chapter(n, f"Chapter {n}", tuple(chapter_units), f"chapter {n}"))
    return Book(title="t", author="", chapters=tuple(units), format="test", timed=True)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(chapter_sentences, min_size=1, max_size=5),
    st.lists(st.integers(0, 3000), min_size=1, max_size=5),
)
def test_passages_keep_to_chapters_sentences_and_order(chapters: list[list[str]], gaps: list[int]) -> None:
    book = timed_book(chapters, gaps)
    passages = chunk_book(book)
    assert [p.id for p in passages] == list(range(len(passages)))
    assert chunk_book(book) == passages  # the same content gives the same passages and ids
    for before, after in itertools.pairwise(passages):
        assert before.start_ms <= before.end_ms <= after.start_ms
        assert before.chapter <= after.chapter
    for chapter in book.chapters:
        own = [p for p in passages if p.chapter == chapter.n]
        assert " ".join(p.text for p in own) == " ".join(
            u.text for u in chapter.units
        )  # nothing lost or crossed
        assert all(p.chapter_title == chapter.title for p in own)
        for passage in own:
            assert passage.text.endswith(".")  # every passage ends on a sentence end
            inside = [u.text for u in chapter.units if passage.start_ms <= (u.start_ms or 0) < passage.end_ms]
            assert [c.text for c in passage.cues] == inside  # its cues are the transcript's, in it
            assert word_count(passage.text) < MAX_WORDS + MIN_TAIL_WORDS + 30  # + one sentence
        for passage in own[:-1]:
            assert word_count(passage.text) >= TARGET_WORDS or passage.end_ms - passage.start_ms >= TARGET_MS


def test_a_short_tail_joins_the_passage_before() -> None:
    long_sentence = " ".join(["word"] * 70) + "."
    book = timed_book([[long_sentence, "Tiny end."]], [0])
    passages = chunk_book(book)
    assert len(passages) == 1
    assert passages[0].text.endswith("Tiny end.")


def test_a_chapters_first_passage_starts_where_the_chapter_does() -> None:
    """A listener session: "next chapter" went to the chapter's first sentence, past its heading read
    aloud ("Chapter Three. The Baker's Warning."), which the e-book's sentences do not hold."""
    sentence = Unit("The baker came early.", "s1", start_ms=171_700, end_ms=173_000)
    later = Unit("He looked worried.", "s2", start_ms=173_500, end_ms=175_000)
    book = Book("B", "", (Chapter(3, "Three", (sentence, later), "c3", start_ms=168_750),), "m4b", True)
    (passage,) = chunk_book(book)
    assert (passage.start_ms, passage.cues[0].start_ms) == (168_750, 171_700)


def test_a_chapters_first_passage_never_starts_inside_the_passage_before() -> None:
    """(The review) a sentence filed under chapter 2 that runs past chapter 3's mark: chapter 3's first
    passage from the mark would overlap it, and the line there would hold two passages."""
    straddling = Unit("The bell rang out over the harbour.", "s1", start_ms=100_000, end_ms=170_000)
    after = Unit("The baker came early.", "s2", start_ms=171_700, end_ms=173_000)
    two = Chapter(2, "Two", (straddling,), "c2", start_ms=100_000)
    three = Chapter(3, "Three", (after,), "c3", start_ms=168_750)
    book = Book("B", "", (two, three), "m4b", True)
    before, first = chunk_book(book)
    assert (before.end_ms, first.start_ms) == (170_000, 170_000)
    # the chapter list keeps the mark the chapters file gives, as a listener's file says it
    assert [info.start_ms for info in chapter_infos(book, [before, first])] == [100_000, 168_750]


def test_black_beauty_passages_are_about_thirty_seconds() -> None:
    book = load_json_book(corpus_file("black_beauty.json"))
    passages = chunk_book(book)
    words = [word_count(p.text) for p in passages]
    seconds = [(p.end_ms - p.start_ms) / 1000 for p in passages]
    assert 70 <= statistics.median(words) <= 85
    assert 25 <= statistics.median(seconds) <= 35
    assert {p.chapter for p in passages} == {c.n for c in book.chapters}
    assert all(not p.cues for p in passages)  # estimated times are not finer knowledge


def untimed_book(paragraphs: list[str]) -> Book:
    return Book(
        title="t",
        author="",
        chapters=(untimed_chapter(1, "Chapter 1", [(p, "p") for p in paragraphs], "chapter 1"),),
        format="test",
        timed=False,
    )


@pytest.mark.parametrize("title", ["\u201c\u2018Mr.", '"Mr.', "\u201cMrs.", "\u2014St.", "\u2014Dr."])
def test_a_passage_never_closes_after_a_title_in_dialogue(title: str) -> None:
    """A book's sentences are the guard's: "Mr." after a quote mark or a dash ends none, so no
    passage closes on one (Moby-Dick closed a passage at ``“‘Mr.``, before "Radney")."""
    words_63 = " ".join(["The lamp burned low and the sea was grey."] * 7)  # the title's 66th word
    said = f"He said: {title} Radney, I will not obey you.\u2019\u201d"
    book = untimed_book([f"{words_63} {said} {words_63}"])  # a tail too long to join on
    passages = chunk_book(estimate_times(book))
    assert passages[0].text == f"{words_63} {said}"
    assert said in [u.text for u in book.chapters[0].units]


def test_a_paragraph_splits_where_the_guard_reads_its_sentences() -> None:
    paragraph = (
        '"No, no. No crime," said he. Harris, Cuvier, etc. But I pass that matter by.\n'
        "The lady at No. 4 sent for us. ''Twas a pity,' he said."
    )
    assert (
        split_sentences(paragraph)
        == sentences_of(clean(paragraph))
        == [
            '"No, no.',
            'No crime," said he.',
            "Harris, Cuvier, etc.",
            "But I pass that matter by.",
            "The lady at No. 4 sent for us.",
            "''Twas a pity,' he said.",
        ]
    )
