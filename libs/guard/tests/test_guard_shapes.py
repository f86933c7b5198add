"""How a place names its chapter for the model and a terminal: by number, but the stretch before
the first chapter is the opening, never "chapter 0"."""

import pytest
from bedside_guard import Candidate, Passage, chapter_name


def test_a_chapter_is_named_by_its_number_and_title() -> None:
    assert chapter_name(3) == "chapter 3"
    assert chapter_name(3, "The Fire") == 'chapter 3, "The Fire"'


def test_what_comes_before_the_first_chapter_is_the_opening_whatever_its_title() -> None:
    assert chapter_name(0) == "the opening"
    assert chapter_name(0, "Opening") == "the opening"


def test_a_row_in_the_opening_says_so() -> None:
    heard = Candidate(
        start_ms=5_000, ahead=False, passage_id=1, chapter=0, chapter_title="Opening", words="Hi."
    )
    assert heard.label() == "0:00:05, the opening"
    assert heard.line() == "[0:00:05, id=1] the opening: Hi."
    covered = Candidate(start_ms=5_000, ahead=True, passage_id=1, chapter=0, end_of_chapter=True)
    assert covered.label() == "0:00:05, end of the opening, further on (covered)"
    assert "chapter 0" not in covered.label()


def test_a_hit_may_carry_all_the_heard_words_of_its_passage() -> None:
    """A name asked for is often told a few sentences past the excerpt's sixty words."""
    text = " ".join(f"Word{n} is here." for n in range(40))
    passage = Passage(id=1, start_ms=0, end_ms=30_000, chapter=1, chapter_title="One", text=text)
    assert (Candidate.hit(passage, 60_000).words or "").endswith("…")
    assert Candidate.hit(passage, 60_000, whole=True).words == text


@pytest.mark.parametrize(
    ("n", "title", "said"),
    [
        (3, "Chapter 3", "chapter 3"),  # a recording's marker, or an untitled heading
        (3, "3", "chapter 3"),
        (3, "CHAPTER III. The Fire", 'chapter 3, "The Fire"'),
        (21, "Chapter Twenty-One: Home", 'chapter 21, "Home"'),
        (2, "Chapter 1", 'chapter 2, "Chapter 1"'),  # the second marker, after the credits
        (3, "Part 3", 'chapter 3, "Part 3"'),
        (12, "ch12", "chapter 12"),  # a file named for its chapter, as rippers shorten it
        (12, "Ch. 12", "chapter 12"),
        (4, "chap 04", "chapter 4"),
        (12, "Chapter12", "chapter 12"),
        (3, "chapel", 'chapter 3, "chapel"'),
        (3, "The Fire", 'chapter 3, "The Fire"'),
    ],
)
def test_a_title_that_only_numbers_its_chapter_is_not_said_again(n: int, title: str, said: str) -> None:
    assert chapter_name(n, title) == said


def test_a_row_carries_only_what_its_chapters_title_adds_to_the_number() -> None:
    passage = Passage(
        id=1, start_ms=0, end_ms=30_000, chapter=2, chapter_title="Chapter 2. The Hunt", text="Hi."
    )
    assert Candidate.hit(passage, 60_000).chapter_title == "The Hunt"
    untitled = passage.model_copy(update={"chapter_title": "Chapter Two"})
    assert Candidate.covering(untitled, 60_000).chapter_title is None
