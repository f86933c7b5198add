"""A chapter counted from the one playing: the arithmetic, and its refusals at either end."""

import pytest
from bedside_contracts.search import ChapterInfo
from bedside_guard import Passage
from bedside_turn.domain import speech
from bedside_turn.domain.chapters import (
    NoSuchChapter,
    after_the_opening,
    already_at_its_end,
    counted_chapter,
    counted_from_the_clock,
    end_of_the_words_ms,
    still_at_its_start,
    titled_chapter,
)
from bedside_turn.domain.tool_results import no_chapter_line

SIX = [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("playing", "step", "numbers", "expected"),
    [
        (3, 1, SIX, 4),
        (3, -1, SIX, 2),
        (3, 0, SIX, 3),
        (5, 1, SIX, 6),
        (2, -1, SIX, 1),
        (1, -1, [0, 1, 2], 0),  # a prologue numbered 0 is the chapter before chapter 1
        (6, 1, SIX, NoSuchChapter(playing=6, step=1, first=1, last=6)),
        (1, -1, SIX, NoSuchChapter(playing=1, step=-1, first=1, last=6)),
        (5, 2, SIX, NoSuchChapter(playing=5, step=2, first=1, last=6)),
    ],
)
def test_a_chapter_is_counted_in_the_books_order_and_refused_past_either_end(
    playing: int, step: int, numbers: list[int], expected: int | NoSuchChapter
) -> None:
    assert counted_chapter(playing, step, numbers) == expected


def test_a_chapter_past_either_end_is_said_plainly_and_the_model_is_not_told_where_they_are() -> None:
    after = NoSuchChapter(playing=6, step=1, first=1, last=6)
    before = NoSuchChapter(playing=1, step=-1, first=1, last=6)
    further = NoSuchChapter(playing=5, step=2, first=1, last=6)
    assert speech.no_chapter_counted(after) == "This is the last chapter; there is none after it."
    assert speech.no_chapter_counted(before) == "This is the first chapter; there is none before it."
    assert (
        speech.no_chapter_counted(further)
        == "The book has no chapter that far on: its chapters run from 1 to 6."
    )
    assert "no chapter that far after the one playing" in no_chapter_line(after)
    assert "no chapter that far before the one playing" in no_chapter_line(before)
    assert "run from 1 to 6" in no_chapter_line(further)
    for beyond in (after, before, further):  # the model is never told which chapter plays
        assert f"chapter {beyond.playing}" not in no_chapter_line(beyond)
        assert "they are in" not in no_chapter_line(beyond)


ON_THE_CLOCK = [
    ChapterInfo(n=1, title="One", start_ms=5_000, end_ms=60_000),
    ChapterInfo(n=2, title="Two", start_ms=60_000, end_ms=120_000),
    ChapterInfo(n=3, title="Three", start_ms=120_000, end_ms=180_000),
]


@pytest.mark.parametrize(
    ("here_ms", "step", "expected"),
    [
        (60_000, 0, 2),  # a chapter's mark, though its first words may start later
        (119_999, 1, 3),  # the pause after chapter 2's last words is still chapter 2
        (119_999, -1, 1),
        (0, 0, 1),  # before the first chapter's mark: the first chapter, with none before it
        (0, -1, NoSuchChapter(playing=1, step=-1, first=1, last=3)),
    ],
)
def test_a_chapter_is_counted_from_the_one_on_the_clock(here_ms: int, step: int, expected: object) -> None:
    assert counted_from_the_clock(ON_THE_CLOCK, here_ms, step) == expected


def test_a_book_without_chapters_counts_none() -> None:
    assert counted_from_the_clock([], 0, 0) is None


@pytest.mark.parametrize(
    ("here_ms", "at_start"),
    [(60_000, True), (61_000, True), (62_000, True), (62_001, False)],
)
def test_a_chapter_is_at_its_start_until_its_first_words_are_behind_the_line(
    here_ms: int, at_start: bool
) -> None:
    first = Passage(id=1, start_ms=62_000, end_ms=90_000, chapter=2, chapter_title="Two", text="Words.")
    assert still_at_its_start(first, here_ms) is at_start


@pytest.mark.parametrize(
    ("here_ms", "at_end"),
    [(149_999, False), (150_000, True), (170_000, True), (179_000, True)],  # 179 s: the pause after it
)
def test_a_chapter_is_at_its_end_from_its_closing_passages_first_word(here_ms: int, at_end: bool) -> None:
    closing = Passage(id=5, start_ms=150_000, end_ms=178_000, chapter=2, chapter_title="Two", text="Words.")
    assert already_at_its_end(closing, here_ms) is at_end


TITLED = [
    ChapterInfo(n=1, title="Chapter 1. A Stormy Day", start_ms=0, end_ms=60_000),
    ChapterInfo(n=2, title="Ginger", start_ms=60_000, end_ms=120_000),
    ChapterInfo(n=3, title="Ginger's Story Continued", start_ms=120_000, end_ms=180_000),
    ChapterInfo(n=4, title="The Fire", start_ms=180_000, end_ms=240_000),
    ChapterInfo(n=5, title="The Fire Again", start_ms=240_000, end_ms=300_000),
]


@pytest.mark.parametrize(
    ("said", "here_ms", "expected"),
    [
        ("a stormy day", 200_000, 1),  # the words its title adds to the number
        ("stormy day", 200_000, 1),  # an article left out
        ("ginger", 200_000, 2),  # the title said whole, though another holds it too
        ("ginger's story", 200_000, 3),  # all of its words are in one title only
        ("gingers story continued", 200_000, 3),  # as a recogniser writes it (the title said alone matched)
        ("the fire", 200_000, 4),
        ("the fire", 180_000, None),  # at chapter 4's first millisecond nothing of it is heard
        ("the fire", 250_000, 4),  # the title said whole, not "The Fire Again"
        ("fire", 250_000, 4),
        ("story", 100_000, None),  # "Ginger's Story Continued" is not reached: not matched
        ("the hunt", 250_000, None),  # no such title
        ("the", 250_000, None),
    ],
)
def test_a_chapter_is_found_by_its_title_among_the_chapters_begun(
    said: str, here_ms: int, expected: int | None
) -> None:
    found = titled_chapter(TITLED, said, here_ms)
    assert (found.n if found else None) == expected


def test_words_in_several_titles_and_none_whole_name_no_chapter() -> None:
    two = [*TITLED, ChapterInfo(n=6, title="Fire in the Loft", start_ms=300_000, end_ms=360_000)]
    assert titled_chapter(two, "fire again", 400_000) is not None
    assert titled_chapter(two, "fire loft", 400_000) is not None
    assert titled_chapter([*two[:3], two[4], two[5]], "fire", 400_000) is None  # two titles hold it


def _chapters(*starts: tuple[int, int]) -> list[ChapterInfo]:
    ends = [start for _, start in starts[1:]] + [starts[-1][1] + 60_000]
    return [
        ChapterInfo(n=n, title="", start_ms=start, end_ms=end)
        for (n, start), end in zip(starts, ends, strict=True)
    ]


@pytest.mark.parametrize(
    ("chapters", "expected"),
    [
        (_chapters((0, 0), (1, 90_000), (2, 200_000)), 1),  # the front matter is ingest's chapter 0
        (_chapters((1, 0), (2, 90_000)), None),  # no opening: nothing to skip
        (_chapters((0, 0)), None),  # an opening and nothing after it
    ],
)
def test_what_comes_after_the_opening_is_the_first_chapter_after_chapter_0(
    chapters: list[ChapterInfo], expected: int | None
) -> None:
    after = after_the_opening(chapters)
    assert (after.n if after is not None else None) == expected


def test_the_end_of_a_book_closing_with_music_is_its_last_words() -> None:
    """A review: "go to the end" landed on the music after the last words."""
    book = [
        ChapterInfo(n=1, title="One", start_ms=0, end_ms=60_000),
        ChapterInfo(n=2, title="Two", start_ms=60_000, end_ms=120_000),
        ChapterInfo(n=3, title="Credits", start_ms=120_000, end_ms=150_000),
    ]
    assert end_of_the_words_ms(book, [3], 150_000) == 119_999
    assert end_of_the_words_ms(book, [2, 3], 150_000) == 59_999
    assert end_of_the_words_ms(book, [2], 150_000) == 149_999
    assert end_of_the_words_ms(book, [], 150_000) == 149_999
