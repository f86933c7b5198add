"""The line and the shapes: a place ahead reaches the model as a time and an id, nothing more."""

import re

import pytest
from bedside_guard import (
    NOT_TOLD,
    Candidate,
    Cue,
    Passage,
    ahead_of,
    clock,
    distinct_rows,
    heard_text,
    unheard_text,
)
from hypothesis import given
from hypothesis import strategies as st


def passage(start_ms: int = 60_000, end_ms: int = 90_000, cues: tuple[Cue, ...] = ()) -> Passage:
    return Passage(
        id=7,
        start_ms=start_ms,
        end_ms=end_ms,
        chapter=3,
        chapter_title="The Lantern Goes Out",
        text="Ada lifted the lantern and the harbour went dark.",
        cues=cues,
    )


def test_the_passage_at_the_line_is_ahead() -> None:
    assert ahead_of(60_000, 60_000)
    assert ahead_of(60_001, 60_000)
    assert not ahead_of(59_999, 60_000)


def test_clock_prints_hours_minutes_seconds() -> None:
    assert clock(0) == "0:00:00"
    assert clock(4 * 3600_000 + 12 * 60_000 + 30_999) == "4:12:30"
    with pytest.raises(ValueError, match="negative"):
        clock(-1)


def test_a_hit_ahead_is_a_time_and_an_id() -> None:
    assert Candidate.hit(passage(), here_ms=60_000).line() == f"[0:01:00, id=7] {NOT_TOLD}"


def test_a_hit_behind_carries_its_chapter_and_words() -> None:
    hit = Candidate.hit(passage(), here_ms=90_000)
    assert hit.line().startswith('[0:01:00, id=7] chapter 3, "The Lantern Goes Out": Ada lifted')
    assert (hit.passage_id, hit.start_ms, hit.ahead, hit.chapter) == (7, 60_000, False, 3)


HETTIE = Passage(
    id=8,
    start_ms=220_000,
    end_ms=250_000,
    chapter=2,
    chapter_title="Pies and Letters",
    text="Chapter Two: Pies and Letters. "
    + "The bicycle bell rang down the sandy path in the early morning light. " * 5
    + '"Hettie Bramble," said the woman, shaking her hand. "Post lady, pie lady."',
    cues=(
        Cue(start_ms=220_000, end_ms=240_000, text="Chapter Two: Pies and Letters. The bicycle bell rang."),
        Cue(start_ms=240_000, end_ms=250_000, text='"Hettie Bramble," said the woman.'),
    ),
)
"""A passage that names Hettie Bramble only past the line's first sixty words."""


def test_a_hit_for_who_someone_is_shows_the_words_from_where_the_passage_names_them() -> None:
    words = Candidate.hit(HETTIE, here_ms=300_000, naming=("hettie", "bramble")).words
    assert words == '… "Hettie Bramble," said the woman, shaking her hand. "Post lady, pie lady."'
    # Named inside the usual sixty words, or not asked about anyone: the line is as ever.
    as_ever = Candidate.hit(HETTIE, here_ms=300_000).words
    assert as_ever is not None
    assert as_ever.startswith("Chapter Two: Pies and Letters. The bicycle bell")
    assert Candidate.hit(HETTIE, here_ms=300_000, naming=("bicycle",)).words == as_ever
    # A chapter heading read out names no one; and only heard words are ever shown.
    assert Candidate.hit(HETTIE, here_ms=300_000, naming=("pies",)).words == as_ever
    assert Candidate.hit(HETTIE, here_ms=245_000, naming=("hettie",)).words == (
        "Chapter Two: Pies and Letters. The bicycle bell rang."
    )


def test_a_hit_on_the_passage_holding_the_line_without_heard_words_shows_none() -> None:
    hit = Candidate.hit(passage(), here_ms=75_000)  # no cues: nothing of it counts as heard
    assert not hit.ahead
    assert hit.words is None
    assert hit.line() == f"[0:01:00, id=7] {NOT_TOLD}"


def test_only_cues_ended_before_the_line_are_heard_in_the_passage_that_holds_it() -> None:
    """A cue the line is inside has been heard only in part: "Her name was ..." a moment after it
    began must not quote the name it ends on (a listener session found such quotes 3-8 s ahead)."""
    cues = (
        Cue(start_ms=60_000, end_ms=70_000, text="Ada lifted"),
        Cue(start_ms=70_000, end_ms=80_000, text="the lid, and found a compass."),
        Cue(start_ms=80_000, end_ms=90_000, text="It was brass."),
    )
    held = passage(cues=cues)
    assert heard_text(held, 69_999) == ""
    assert heard_text(held, 70_000) == "Ada lifted"
    assert heard_text(held, 70_001) == "Ada lifted"
    assert heard_text(held, 79_999) == "Ada lifted"
    assert heard_text(held, 80_000) == "Ada lifted the lid, and found a compass."
    assert heard_text(passage(), 75_000) == ""  # no cues: its words cannot be split by time


def test_a_row_ahead_is_covered_and_keeps_a_named_chapter_number_only() -> None:
    row = Candidate.covering(passage(), here_ms=1_000, chapter_named=True)
    assert row.ahead
    assert (row.chapter, row.chapter_title, row.words) == (3, None, None)
    assert Candidate.covering(passage(), here_ms=1_000).chapter is None


def test_a_row_ahead_for_the_end_of_a_chapter_named_says_it_is_that_chapters_end() -> None:
    """ "The end of chapter 3" asked before it read as a bare time, "further on"; the number is
    public (the chapter list is) and the listener said it."""
    row = Candidate.covering(passage(), here_ms=1_000, chapter_named=True, chapter_end=True)
    assert (row.ahead, row.chapter, row.chapter_title, row.words) == (True, 3, None, None)
    assert row.end_of_chapter
    assert row.label() == "0:01:00, end of chapter 3, further on (covered)"
    assert not Candidate.covering(passage(), here_ms=1_000, chapter_end=True).end_of_chapter  # no number


def test_a_row_behind_shows_title_and_heard_words() -> None:
    row = Candidate.covering(passage(), here_ms=95_000)
    assert not row.ahead
    assert row.chapter_title == "The Lantern Goes Out"
    assert row.words is not None
    assert row.words.startswith("Ada lifted")


MID_DIALOGUE = (
    'That is how the boats know it is Gull Point and not some other place." On a shelf below '
    "the great lamp stood a smaller one, an old brass lantern with a glass chimney, and Grandpa "
    "lifted it down."
)
"""A passage starting inside Grandpa's speech, as the sample book has one (passage 5)."""


def test_a_row_is_whole_sentences_and_dialogue_it_starts_inside_is_quoted() -> None:
    place = passage().model_copy(update={"text": MID_DIALOGUE})
    row = Candidate.covering(place, here_ms=95_000)
    # Not 'That is how ... place." On a shelf below the great lamp stood …' (a stray mark, cut off).
    assert row.words == '"That is how the boats know it is Gull Point and not some other place."'


def test_a_row_passes_over_a_heading_and_a_piece_and_keeps_a_long_first_sentence_short() -> None:
    heading = "Chapter Two: Pies and Letters. " + MID_DIALOGUE
    assert Candidate.covering(passage().model_copy(update={"text": heading}), 95_000).words == (
        '"That is how the boats know it is Gull Point and not some other place."'
    )
    piece = "and then it was gone. Wren looked at the sea."
    assert Candidate.covering(passage().model_copy(update={"text": piece}), 95_000).words == (
        "Wren looked at the sea."
    )
    long = "Wren " + "ran and " * 40 + "stopped."
    words = Candidate.covering(passage().model_copy(update={"text": long}), 95_000).words
    assert words is not None
    assert words.startswith("Wren ran")
    assert words.endswith(" …")
    assert len(words.split()) == 48 + 1


def test_a_named_time_inside_a_passage_decides_by_itself() -> None:
    row = Candidate.covering(passage(), here_ms=70_000, at_ms=75_000)
    assert row.ahead
    assert row.start_ms == 75_000
    with pytest.raises(ValueError, match="not inside"):
        Candidate.covering(passage(), here_ms=70_000, at_ms=10)


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=12)


@given(
    start_ms=st.integers(min_value=0, max_value=10**8),
    length_ms=st.integers(min_value=0, max_value=120_000),
    here_ms=st.integers(min_value=0, max_value=10**8),
    text=st.lists(words, min_size=1, max_size=40).map(" ".join),
    title=st.lists(words, min_size=1, max_size=5).map(" ".join),
)
def test_nothing_of_a_place_ahead_reaches_a_line_or_a_row(
    start_ms: int, length_ms: int, here_ms: int, text: str, title: str
) -> None:
    place = Passage(
        id=1,
        start_ms=start_ms,
        end_ms=start_ms + length_ms,
        chapter=2,
        chapter_title=title,
        text=text,
    )
    hit = Candidate.hit(place, here_ms)
    row = Candidate.covering(place, here_ms, chapter_named=True, chapter_end=True)
    if not ahead_of(start_ms, here_ms):
        return
    shown = " ".join([hit.line(), hit.label(), hit.model_dump_json(), row.label(), row.model_dump_json()])
    # Only the time, the id and a fixed vocabulary may appear; nothing of the passage.
    fixed = set(re.findall(r"[a-z_]+", NOT_TOLD + " end of chapter further on covered"))
    fixed |= set(Candidate.model_fields) | {"true", "false", "null", "id"}
    assert set(re.findall(r"[a-z_]+", shown.lower())) <= fixed
    assert row.words is None
    assert row.chapter_title is None
    assert (hit.words, hit.chapter_title, hit.chapter) == (None, None, None)


def test_a_row_drawn_behind_is_covered_again_once_the_listener_goes_back_before_it() -> None:
    row = Candidate.covering(passage(), here_ms=95_000)
    assert row.seen_from(95_000) == row
    again = row.seen_from(30_000)
    assert again.ahead
    assert (again.chapter, again.chapter_title, again.words) == (None, None, None)
    assert again.start_ms == row.start_ms
    covered = Candidate.covering(passage(), here_ms=1_000)
    assert covered.seen_from(95_000) == covered  # a covered row stays covered


CUED = (
    Cue(start_ms=60_000, end_ms=70_000, text="Ada lifted the lantern."),
    Cue(start_ms=70_000, end_ms=80_000, text="The harbour went dark."),
    Cue(start_ms=80_000, end_ms=90_000, text="Then the bell rang out over the water."),
)


@given(
    drawn_ms=st.integers(min_value=60_001, max_value=200_000),
    back_ms=st.integers(min_value=60_001, max_value=200_000),
    cued=st.booleans(),
)
def test_a_row_seen_from_further_back_shows_no_word_not_heard_from_there(
    drawn_ms: int, back_ms: int, *, cued: bool
) -> None:
    """A list stays on the screen, and in the model's history, while the listener goes back inside
    a passage: a row drawn at 3:20 kept all its passage's words seen from 1:05."""
    place = passage()
    if cued:
        place = place.model_copy(update={"cues": CUED, "text": " ".join(cue.text for cue in CUED)})
    heard_back = set(re.findall(r"\w+", heard_text(place, back_ms)))
    for row in (Candidate.covering(place, drawn_ms), Candidate.hit(place, drawn_ms, whole=True)):
        seen = row.seen_from(back_ms)
        assert set(re.findall(r"\w+", seen.words or "")) <= heard_back, (seen.words, heard_back)
        assert seen.seen_from(back_ms) == seen


@given(here_ms=st.integers(min_value=0, max_value=200_000), cued=st.booleans())
def test_the_unheard_words_of_a_passage_are_all_its_words_but_the_heard_ones(
    here_ms: int, *, cued: bool
) -> None:
    place = passage()
    if cued:
        place = place.model_copy(update={"cues": CUED, "text": " ".join(cue.text for cue in CUED)})
    heard, unheard = heard_text(place, here_ms), unheard_text(place, here_ms)
    assert " ".join(part for part in (heard, unheard) if part) == place.text


def test_two_rows_on_one_place_are_one_row_and_order_is_kept() -> None:
    first = Candidate(start_ms=9_000, ahead=True, passage_id=1)
    same_place = Candidate(start_ms=9_000, ahead=True, passage_id=2)
    other = Candidate(start_ms=3_000, ahead=True, passage_id=3)
    assert distinct_rows([first, other, same_place]) == [first, other]
