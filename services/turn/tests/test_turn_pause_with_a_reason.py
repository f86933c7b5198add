"""A pause said with why, and a sleep timer in the same breath (plain code)."""

import pytest
from bedside_turn.domain import intents
from bedside_turn.domain.intents import CancelSleepTimer, Pause, SleepTimer, TimerAdded, Together


@pytest.mark.parametrize(
    ("utterance", "timer"),
    [
        ("stop, i'm falling asleep, set a timer for 15 minutes", SleepTimer(after=15)),
        ("stop, im getting tired, timer for 20 minutes", SleepTimer(after=20)),
        ("pause, i'm nodding off, set a sleep timer for 10 minutes", SleepTimer(after=10)),
        ("stop, i'm dozing, sleep in 5", SleepTimer(after=5)),
        ("stop, i'm going to sleep, sleep in 20", SleepTimer(after=20)),
        ("stop, i'm loving this, cancel the timer", CancelSleepTimer()),
        ("stop i'm listening, add ten minutes", TimerAdded(minutes=10)),
        ("stop i'm falling asleep, sleep timer 10 minutes", SleepTimer(after=10)),  # (the second review)
    ],
)
def test_staying_in_bed_with_a_timer_is_the_timer_alone(utterance: str, timer: intents.Intent) -> None:
    """A review's reading: sleepy or liking it, the listener stays and wants the book to play on to the
    timer; read as a pause as well, the book stopped at once."""
    assert intents.read(utterance) == timer


def test_going_away_with_a_timer_is_both() -> None:
    said = "pause, im getting water, set a timer for 10 minutes"
    assert intents.read(said) == Together(move=Pause(), then=SleepTimer(after=10))


@pytest.mark.parametrize(
    "utterance",
    [
        "pause now, i'm falling asleep, sleep timer 15 minutes",  # "now": the pause is asked for
        "pause, i'm thinking, timer 10 minutes",
        "stop i'm listening to something else, sleep timer 10 minutes",
    ],
)
def test_a_pause_asked_for_now_or_to_do_something_else_is_both(utterance: str) -> None:
    """(The second review) each read as nothing once sleepy words kept the pause from the timer."""
    read = intents.read(utterance)
    assert isinstance(read, Together)
    assert read.move == Pause()
