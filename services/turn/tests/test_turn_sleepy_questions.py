"""Questions about the story as a sleepy listener puts them, read by the keyless router (plain code).

Each case is one a probe of 150 bedtime questions found misread; the comment says what it was."""

import pytest
from bedside_contracts.turn import RecapArgs
from bedside_turn.domain import intents
from bedside_turn.domain.intents import TimeLeft, WhereAmI
from bedside_turn.domain.recap import RecapAsked

SINCE_ASLEEP = RecapAsked(RecapArgs(span="since_asleep"))


@pytest.mark.parametrize(
    "utterance",
    [
        "i lost track. what happened",  # was Other: "sorry, I didn't follow"
        "ive lost track",
        "i lost track of the story, what did they say",
    ],
)
def test_losing_track_asks_for_what_went_by(utterance: str) -> None:
    assert intents.read(utterance) == SINCE_ASLEEP


@pytest.mark.parametrize(
    "utterance",
    [
        "how long is left of the book",  # was a question of the story: "that hasn't come up yet"
        "how much is left of this chapter",
        "how much time is left in the book",
    ],
)
def test_time_left_of_the_book_or_the_chapter(utterance: str) -> None:
    assert intents.read(utterance) == TimeLeft()


@pytest.mark.parametrize(
    "utterance",
    [
        "are we near the end",  # was a question: "that hasn't come up yet" sounds like "no"
        "am i close to the end",
        "what part is this",  # was a question
        "what bit is this",
        "what section is this",
    ],
)
def test_where_the_book_is_asked_briefly(utterance: str) -> None:
    assert intents.read(utterance) == WhereAmI()


@pytest.mark.parametrize(
    ("utterance", "span"),
    [
        ("what's been happening", RecapArgs(span="last_minutes", minutes=5)),  # was a question
        ("what has been happening", RecapArgs(span="last_minutes", minutes=5)),
        # quoted one sentence; asked just after a chapter ends it is that chapter (the review)
        ("what was that chapter about", RecapArgs(span="last_chapter")),
        ("what was the chapter about", RecapArgs(span="last_chapter")),
        ("what is the chapter about", RecapArgs(span="this_chapter")),
    ],
)
def test_recaps_asked_in_other_words(utterance: str, span: RecapArgs) -> None:
    assert intents.read(utterance) == RecapAsked(span)
