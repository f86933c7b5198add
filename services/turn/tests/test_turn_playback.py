"""What a turn says of the sleep timer and a pause (plain code): one sentence, no time ahead."""

import pytest
from bedside_contracts.player import CancelSleepTimer, Heard, Pause, SetSleepTimer, SetSpeed, SleepTimer
from bedside_contracts.turn import PlaybackArgs
from bedside_turn.domain import playback
from bedside_turn.domain.playback import PlaybackDone
from pydantic import ValidationError


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (PlaybackArgs(action="sleep_timer", minutes=15), SetSleepTimer(device="phone", after=15)),
        (
            PlaybackArgs(action="sleep_timer", chapter_end=True),
            SetSleepTimer(device="phone", after="chapter_end"),
        ),
        (PlaybackArgs(action="cancel_sleep_timer"), CancelSleepTimer(device="phone")),
        (PlaybackArgs(action="pause"), Pause(device="phone")),
    ],
)
def test_each_call_is_the_players_own_command(args: PlaybackArgs, command: object) -> None:
    assert playback.command_for(args, "phone") == command


@pytest.mark.parametrize(
    "bad",
    [
        {"action": "sleep_timer"},
        {"action": "sleep_timer", "minutes": 10, "chapter_end": True},
        {"action": "sleep_timer", "minutes": 0},
        {"action": "pause", "minutes": 10},
        {"action": "rewind"},
    ],
)
def test_a_call_that_says_no_one_thing_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        PlaybackArgs.model_validate(bad)


@pytest.mark.parametrize(
    ("minutes", "said"),
    [
        (1, "I'll stop in a minute."),
        (15, "I'll stop in 15 minutes."),
        (60, "I'll stop in an hour."),
        (90, "I'll stop in 90 minutes."),
        (120, "I'll stop in 2 hours."),
    ],
)
def test_minutes_are_said_as_a_listener_would(minutes: int, said: str) -> None:
    done = PlaybackDone(PlaybackArgs(action="sleep_timer", minutes=minutes), accepted=True, changed=True)
    assert playback.spoken(done) == said


def test_the_chapters_end_is_said_without_a_time_or_a_chapter() -> None:
    done = PlaybackDone(PlaybackArgs(action="sleep_timer", chapter_end=True), accepted=True, changed=True)
    assert playback.spoken(done) == "I'll stop at the end of this chapter."
    assert not any(ch.isdigit() for ch in playback.spoken(done) + " ".join(playback.lines(done)))


def test_a_timer_the_books_end_cuts_short_says_the_book_ends_first() -> None:
    """The player stops at the book's end: "I'll stop in an hour" with ten minutes left overstated."""
    done = PlaybackDone(
        PlaybackArgs(action="sleep_timer", minutes=60),
        accepted=True,
        changed=True,
        stop_in_ms=600_000,
        book_ends_first=True,
    )
    assert playback.spoken(done) == "The book ends in about 10 minutes, so I'll stop there."
    assert playback.lines(done) == [
        "Done: the book ends in about 10 minutes, sooner than the 60 minutes asked, so the sleep timer "
        "will pause the book at its end."
    ]
    whole = PlaybackDone(
        PlaybackArgs(action="sleep_timer", minutes=10), accepted=True, changed=True, stop_in_ms=600_000
    )
    assert playback.spoken(whole) == "I'll stop in 10 minutes."


def test_still_awake_with_the_book_paused_is_told_to_press_play() -> None:
    said = playback.still_awake(None, False, 0)
    assert said == "Good. Press play to carry on; I can't start the sound myself."


def test_minutes_added_start_from_the_running_timers_stop_and_a_part_minute_counts_whole() -> None:
    timer = SleepTimer(after=20, stop_at_ms=600_000 + 4 * 60_000 + 20_000, set_seq=1, device="phone")
    assert playback.with_minutes_added(timer, 600_000, 10) == 15  # 4 min 20 s left, and 10 more
    assert playback.with_minutes_added(None, 600_000, 10) == 10
    assert playback.with_minutes_added(timer, 900_000, 10) == 10  # its stop is behind: from here
    assert playback.with_minutes_added(timer, 600_000, -2) == 3  # taken off what it has left
    assert playback.with_minutes_added(timer, 600_000, -10) == 1  # a minute at least: none is a pause
    assert playback.with_minutes_added(timer, 600_000, 10, speed=2.0) == 13  # 2 min 10 s of listening


def test_a_speed_changed_by_an_amount_counts_from_the_one_playing_and_stays_within_those_there_are() -> None:
    faster, slower = PlaybackArgs(action="speed", speed_by=0.25), PlaybackArgs(action="speed", speed_by=-0.25)
    assert playback.speed_meant(faster, 1.1) == 1.35
    assert playback.speed_meant(faster, 2.9) == 3.0
    assert playback.speed_meant(slower, 0.6) == 0.5
    assert playback.speed_meant(PlaybackArgs(action="speed", speed=0.75), 2.0) == 0.75
    assert playback.command_for(faster, "phone", speed_now=1.5) == SetSpeed(device="phone", speed=1.75)
    for wrong in (
        {"action": "speed"},
        {"action": "pause", "speed": 1.5},
        {"action": "speed", "speed": 1, "speed_by": 1},
    ):
        with pytest.raises(ValidationError):
            PlaybackArgs.model_validate(wrong)


def test_a_timer_a_turn_sets_carries_the_request_as_it_read_it() -> None:
    heard = Heard(request_key="a1" * 32, basis_seq=8)
    command = playback.command_for(PlaybackArgs(action="sleep_timer", minutes=25), "speaker", heard)
    assert command == SetSleepTimer(device="speaker", after=25, heard=heard)


def test_a_timer_is_said_with_the_minutes_the_player_has_running() -> None:
    """The speaker reckoned "add ten minutes" after the phone's ten were added (25); the player took it
    as the phone's request heard again, and the phone's timer of 15 runs: both say 15."""
    running = SleepTimer(after=15, stop_at_ms=960_000, set_seq=9, device="phone")
    reckoned = PlaybackArgs(action="sleep_timer", minutes=25)
    assert playback.as_running(reckoned, running).minutes == 15
    at_chapter_end = PlaybackArgs(action="sleep_timer", chapter_end=True)
    assert playback.as_running(at_chapter_end, running) == at_chapter_end
    assert playback.as_running(reckoned, None) == reckoned


def test_a_timer_asked_from_no_device_carries_no_reading() -> None:
    """(The review) `bedside ask` names no device, so its timer went as the "voice" device's with the
    reading, and a phone's same request within 5 s was taken as it heard again (ADR 77 says never)."""
    heard = Heard(request_key="a1" * 32, basis_seq=8)
    command = playback.command_for(PlaybackArgs(action="sleep_timer", minutes=25), None, heard)
    assert command == SetSleepTimer(device=playback.VOICE_DEVICE, after=25)
