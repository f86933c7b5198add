"""A chapter counted from the one playing: the arithmetic, and its refusals at either end."""

import pytest
from bedside_turn.domain import speech
from bedside_turn.domain.chapters import NoSuchChapter, counted_chapter
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
