"""How fast the book plays, in the player's rules without I/O (ADR 82): one speed for every device,
where a playing book has got to at it, and a sleep timer's minutes counted as listening."""

import pytest
from bedside_contracts.player import (
    Pause,
    PlayerCommand,
    Report,
    SetSleepTimer,
    SetSpeed,
    SpeedBody,
    SpeedSet,
)
from bedside_contracts.search import ChapterInfo
from bedside_player.domain.decide import decide
from bedside_player.domain.state import PlayerState, evolve
from pydantic import ValidationError

NOW = 1_800_000_000_000
BOOK_END = 3_600_000
CHAPTERS = [
    ChapterInfo(n=1, title="One", start_ms=0, end_ms=900_000),
    ChapterInfo(n=2, title="Two", start_ms=900_000, end_ms=BOOK_END),
]
MINUTE = 60_000


def run(state: PlayerState, *commands: PlayerCommand, now_ms: int = NOW) -> PlayerState:
    for command in commands:
        event = decide(state, command, book_end_ms=BOOK_END, chapters=CHAPTERS, now_ms=now_ms)
        if event is not None:
            state = evolve(state, event, state.seq + 1)
    return state


def playing_at(position_ms: int, speed: float = 1.0) -> PlayerState:
    state = run(PlayerState(listener="ann", book="b1"), SetSpeed(device="phone", speed=speed))
    return run(state, Report(device="phone", position_ms=position_ms, playing=True, basis_seq=state.seq))


def test_the_speed_is_the_listeners_on_every_device_and_the_same_speed_again_changes_nothing() -> None:
    state = playing_at(60_000)
    assert state.public(NOW).speed == 1.0
    faster = run(state, SetSpeed(device="tablet", speed=1.5))
    assert (faster.public(NOW).speed, faster.seq) == (1.5, state.seq + 1)
    assert decide(faster, SetSpeed(device="phone", speed=1.5), now_ms=NOW) is None


def test_a_speed_outside_half_to_three_times_is_refused() -> None:
    for speed in (0.25, 3.5, 0):
        with pytest.raises(ValidationError):
            SpeedBody(speed=speed)


def test_a_playing_book_has_got_further_at_a_higher_speed() -> None:
    """A pause said aloud 10 s after the last report lands where the book has got to: 15 s on at 1.5x."""
    paused = run(playing_at(100_000, speed=1.5), Pause(device="speaker"), now_ms=NOW + 10_000)
    assert paused.position_ms == 115_000


def test_a_playing_book_got_on_at_the_speed_before_until_the_speed_changed() -> None:
    """A review: reported at 10:00, three times as fast 14 s on, a pause said aloud a second later
    landed at 10:45 (all 15 s at 3x), 28 s of story past what the listener had heard (10:17)."""
    state = run(playing_at(600_000), SetSpeed(device="phone", speed=3.0), now_ms=NOW + 14_000)
    paused = run(state, Pause(device="speaker"), now_ms=NOW + 15_000)
    assert paused.position_ms == 600_000 + 14_000 + 3 * 1_000


def test_a_timers_minutes_are_minutes_of_listening_at_the_speed_playing() -> None:
    """Twenty minutes at 1.5x play thirty of the book."""
    state = run(playing_at(60_000, speed=1.5), SetSleepTimer(device="phone", after=20))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 30 * MINUTE


def test_a_speed_change_keeps_the_listening_a_timer_has_left() -> None:
    """Twenty minutes set at 1x, then 2x at once: still twenty minutes to listen, forty of the book;
    then back to 1x ten book minutes later (five of listening): fifteen minutes left, fifteen of the book."""
    state = run(playing_at(60_000), SetSleepTimer(device="phone", after=20))
    state = run(state, SetSpeed(device="phone", speed=2.0))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 40 * MINUTE
    state = run(
        state, Report(device="phone", position_ms=60_000 + 10 * MINUTE, playing=True, basis_seq=state.seq)
    )
    state = run(state, SetSpeed(device="phone", speed=1.0))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 25 * MINUTE


def test_a_speed_change_is_counted_from_where_the_playing_book_has_got_to() -> None:
    """Reported at 1:00, sped up 30 s later (1:30): the twenty minutes left at 1x are counted from there."""
    state = run(playing_at(60_000), SetSleepTimer(device="phone", after=20))
    state = run(state, SetSpeed(device="phone", speed=2.0), now_ms=NOW + 30_000)
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 90_000 + 2 * (60_000 + 20 * MINUTE - 90_000)


def test_a_faster_speed_that_takes_a_timer_past_the_end_stops_at_the_end_and_slower_again_does_not() -> None:
    near_the_end = BOOK_END - 30 * MINUTE
    state = run(playing_at(near_the_end), SetSleepTimer(device="phone", after=20))
    state = run(state, SetSpeed(device="phone", speed=2.0))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.book_ends_first) == (BOOK_END, True)
    state = run(state, SetSpeed(device="phone", speed=1.0))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.book_ends_first) == (
        near_the_end + 20 * MINUTE,
        False,
    )


def test_a_chapter_end_timer_stays_at_its_chapters_end_whatever_the_speed() -> None:
    state = run(playing_at(60_000), SetSleepTimer(device="phone", after="chapter_end"))
    event = decide(state, SetSpeed(device="phone", speed=2.0), now_ms=NOW)
    assert isinstance(event, SpeedSet)
    assert event.sleep_timer == state.sleep_timer
