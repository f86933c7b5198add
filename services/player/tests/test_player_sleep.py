"""Bedtime in the player's rules without I/O: the sleep timer, the pause, the asleep estimate, and how
fast the book plays (ADR 82): where a playing book has got to at it, a timer's minutes as listening."""

import pytest
from bedside_contracts.player import (
    CancelSleepTimer,
    JoinDevice,
    Moved,
    NoteQuestion,
    OfferPositions,
    Pause,
    PlayerCommand,
    PlayerEvent,
    Report,
    Seek,
    SetSleepTimer,
    SetSpeed,
    SpeedBody,
    SpeedSet,
    TimerRanOut,
    Undo,
)
from bedside_contracts.search import ChapterInfo, Resolution, Target
from bedside_guard import Passage
from bedside_player.domain.decide import Invalid, Stale, decide
from bedside_player.domain.history import StoredEvent, entries
from bedside_player.domain.offer import decide_offer
from bedside_player.domain.playing import GONE_QUIET_MS
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.domain.within_book import held_within
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

NOW = 1_800_000_000_000
"""The player's clock in these tests (ms since the epoch): every report is heard at it."""


BOOK_END = 3_600_000
CHAPTERS = [
    ChapterInfo(n=1, title="One", start_ms=0, end_ms=900_000),
    ChapterInfo(n=2, title="Two", start_ms=900_000, end_ms=2_000_000),
    ChapterInfo(n=3, title="Three", start_ms=2_000_000, end_ms=BOOK_END),
]


def run(state: PlayerState, *commands: PlayerCommand) -> PlayerState:
    for command in commands:
        if (event := decide(state, command, book_end_ms=BOOK_END, chapters=CHAPTERS, now_ms=NOW)) is not None:
            state = evolve(state, event, state.seq + 1)
    return state


def at(position_ms: int) -> PlayerState:
    return run(
        PlayerState(listener="ann", book="b1"),
        Report(device="phone", position_ms=position_ms, playing=True, basis_seq=0),
    )


def test_minutes_are_fixed_as_a_book_time_when_the_timer_is_set() -> None:
    state = run(at(60_000), SetSleepTimer(device="tablet", after=15))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 15 * 60_000
    assert state.sleep_timer.after == 15
    assert state.sleep_timer.device == "tablet"
    assert state.public(NOW).sleep_timer == state.sleep_timer


def test_chapter_end_is_the_chapters_last_millisecond_and_stays_fixed_past_it() -> None:
    state = run(at(890_000), SetSleepTimer(device="phone", after="chapter_end"))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 899_999
    # playing on across the boundary does not move the stop to the next chapter's end
    state = run(state, Report(device="phone", position_ms=905_000, playing=True, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 899_999


def test_on_a_chapters_last_millisecond_the_chapter_end_is_the_next_ones() -> None:
    state = run(at(899_999), SetSleepTimer(device="phone", after="chapter_end"))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 1_999_999


def test_a_device_that_overshot_the_stop_pauses_on_it() -> None:
    state = run(at(890_000), SetSleepTimer(device="phone", after="chapter_end"))
    state = run(state, TimerRanOut(device="phone", position_ms=900_700, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.paused_at_ms == 899_999
    assert state.position_ms == 899_999
    assert not state.playing
    assert state.sleep_timer is None


def test_the_last_chapter_ends_at_its_own_end() -> None:
    state = run(at(3_000_000), SetSleepTimer(device="phone", after="chapter_end"))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == BOOK_END


def test_minutes_never_reach_past_the_end_and_a_timer_at_the_end_is_refused() -> None:
    state = run(at(BOOK_END - 60_000), SetSleepTimer(device="phone", after=30))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == BOOK_END
    with pytest.raises(Invalid):
        decide(at(BOOK_END), SetSleepTimer(device="phone", after=5), book_end_ms=BOOK_END, now_ms=NOW)


def test_a_timer_the_books_end_cuts_short_says_so_on_the_timer() -> None:
    """The turn and the page each worked out "the book ends first" their own way (the turn: a stop
    nearer than the minutes; the page: a stop at or past its duration), and minutes that reach the
    end exactly were said both ways. The player says it once, on the timer it sets."""
    for minutes, position_ms, ends_first in (
        (30, BOOK_END - 60_000, True),
        (1, BOOK_END - 60_000, True),
        (1, BOOK_END - 60_001, False),
        (15, 60_000, False),
    ):
        state = run(at(position_ms), SetSleepTimer(device="phone", after=minutes))
        assert state.sleep_timer is not None
        assert state.sleep_timer.book_ends_first is ends_first, (minutes, position_ms)
        assert (state.sleep_timer.stop_at_ms == BOOK_END) is ends_first
    last_chapter = run(at(3_000_000), SetSleepTimer(device="phone", after="chapter_end"))
    assert last_chapter.sleep_timer is not None
    assert not last_chapter.sleep_timer.book_ends_first  # asked for the chapter's end, and so said


def test_a_book_without_chapters_stops_at_its_end_and_one_of_unknown_length_is_refused() -> None:
    state = at(60_000)
    event = decide(
        state, SetSleepTimer(device="phone", after="chapter_end"), book_end_ms=BOOK_END, now_ms=NOW
    )
    assert getattr(event, "stop_at_ms", None) == BOOK_END
    with pytest.raises(Invalid):
        decide(state, SetSleepTimer(device="phone", after="chapter_end"), now_ms=NOW)


def test_a_timer_is_minutes_or_the_chapter_end_and_nothing_else() -> None:
    for after in (0, 601, "chapter", None):
        with pytest.raises(ValidationError):
            SetSleepTimer.model_validate({"device": "phone", "after": after})


def test_any_device_cancels_and_a_cancel_with_no_timer_changes_nothing() -> None:
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    state = run(state, CancelSleepTimer(device="speaker"))
    assert state.sleep_timer is None
    assert decide(state, CancelSleepTimer(device="speaker"), now_ms=NOW) is None


def test_the_run_out_is_one_pause_however_many_devices_report_it() -> None:
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    basis = state.seq
    state = run(state, TimerRanOut(device="phone", position_ms=660_000, basis_seq=basis))
    assert (
        decide(state, TimerRanOut(device="tablet", position_ms=660_000, basis_seq=basis), now_ms=NOW) is None
    )
    assert state.asleep is not None
    assert state.asleep.device == "phone"


def test_a_run_out_from_before_a_move_is_stale() -> None:
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    basis = state.seq
    state = run(state, Seek(device="tablet", position_ms=30_000, basis_seq=state.seq))
    with pytest.raises(Stale):
        decide(state, TimerRanOut(device="phone", position_ms=660_000, basis_seq=basis), now_ms=NOW)


def test_the_run_out_of_a_timer_set_again_since_changes_nothing() -> None:
    """A phone reached its stop with the network down; meanwhile the tablet set a new timer and
    played on. Told late, the phone's run-out must not pause the book at the old stop."""
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    old, basis = state.sleep_timer, state.seq
    assert old is not None
    state = run(
        state,
        SetSleepTimer(device="tablet", after=15),
        Report(device="tablet", position_ms=700_000, playing=True, basis_seq=state.seq + 1),
    )
    late = TimerRanOut(device="phone", position_ms=660_000, basis_seq=basis, timer_seq=old.set_seq)
    assert decide(state, late, now_ms=NOW) is None
    assert state.sleep_timer is not None
    told = TimerRanOut(
        device="tablet", position_ms=1_000_000, basis_seq=state.seq, timer_seq=state.sleep_timer.set_seq
    )
    assert decide(state, told, now_ms=NOW) is not None


def test_a_report_made_before_the_pause_cannot_start_the_book_again() -> None:
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    basis = state.seq
    state = run(state, TimerRanOut(device="phone", position_ms=660_000, basis_seq=basis))
    with pytest.raises(Stale):
        decide(
            state, Report(device="speaker", position_ms=661_000, playing=True, basis_seq=basis), now_ms=NOW
        )


def test_asleep_is_estimated_at_the_last_touch_before_the_pause() -> None:
    state = run(at(60_000), SetSleepTimer(device="phone", after=30))
    state = run(state, Seek(device="phone", position_ms=120_000, basis_seq=state.seq))
    for position in (300_000, 600_000, 900_000):  # passive progress is not a sign of being awake
        state = run(state, Report(device="phone", position_ms=position, playing=True, basis_seq=state.seq))
    state = run(state, TimerRanOut(device="phone", position_ms=1_860_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.asleep_at_ms == 120_000
    assert state.asleep.paused_at_ms == 1_860_000


def test_the_book_rests_where_the_timer_paused_it_until_someone_moves_it_or_listens_on() -> None:
    """One rule for every device and the turn: the page allowed a second past the pause, the turn's
    "why did it stop?" none, so a page whose audio came to rest a moment on was told "It's paused"."""
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    assert not state.public(NOW).still_where_timer_paused  # no pause yet
    state = run(state, TimerRanOut(device="phone", position_ms=660_000, basis_seq=state.seq))
    assert state.public(NOW).still_where_timer_paused
    rested = run(state, Report(device="phone", position_ms=660_400, playing=False, basis_seq=state.seq))
    assert rested.public(NOW).still_where_timer_paused
    playing = run(state, Report(device="phone", position_ms=660_400, playing=True, basis_seq=state.seq))
    assert not playing.public(NOW).still_where_timer_paused
    listened_on = run(
        playing, Report(device="phone", position_ms=700_000, playing=False, basis_seq=playing.seq)
    )
    assert not listened_on.public(NOW).still_where_timer_paused
    moved = run(state, Seek(device="tablet", position_ms=660_500, basis_seq=state.seq))
    assert not moved.public(NOW).still_where_timer_paused  # as near, but chosen by someone awake


def test_a_book_played_on_from_the_timers_pause_is_not_resting_there_once_its_device_goes_quiet() -> None:
    """A household session: play pressed at last night's pause, a new timer, and the phone's Wi-Fi
    gone a moment later. Two minutes on the book was told paused at that report, a few ms from the old
    pause, and so "resting where the timer paused it": every page opened offered the old nap again. It
    played on from the pause; its devices going quiet does not undo that (ADR 48 tells it paused)."""
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    state = run(state, TimerRanOut(device="phone", position_ms=660_000, basis_seq=state.seq))
    played_on = run(state, Report(device="phone", position_ms=660_012, playing=True, basis_seq=state.seq))
    quiet = played_on.public(NOW + GONE_QUIET_MS + 1)
    assert not quiet.playing
    assert not quiet.still_where_timer_paused


def test_the_doze_played_again_from_where_they_fell_asleep_is_heard_as_far_as_it_played() -> None:
    """The morning after, "back to where I fell asleep" and ten minutes of listening: "what did I
    miss?" recapped those ten minutes as missed. Played again without a skip ahead, from where they
    fell asleep or before, the doze counts as heard up to where it has played (never past the pause)."""
    state = run(at(60_000), SetSleepTimer(device="phone", after=30))
    state = run(state, Seek(device="phone", position_ms=120_000, basis_seq=state.seq))
    state = run(state, TimerRanOut(device="phone", position_ms=1_920_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.reheard_to_ms is None
    unmoved = run(state, Report(device="phone", position_ms=1_980_000, playing=True, basis_seq=state.seq))
    assert unmoved.asleep is not None
    assert unmoved.asleep.reheard_to_ms is None  # played on from the pause: nothing heard again

    back = run(state, Seek(device="phone", position_ms=100_000, basis_seq=state.seq))
    back = run(back, Report(device="phone", position_ms=700_000, playing=True, basis_seq=back.seq))
    assert back.asleep is not None
    assert back.asleep.reheard_to_ms == 700_000
    again = run(back, Seek(device="phone", position_ms=650_000, by_ms=-30_000, basis_seq=back.seq))
    again = run(again, Report(device="phone", position_ms=800_000, playing=True, basis_seq=again.seq))
    assert again.asleep is not None
    assert again.asleep.reheard_to_ms == 800_000  # back within what was heard again: still one run
    through = run(again, Report(device="phone", position_ms=2_000_000, playing=True, basis_seq=again.seq))
    assert through.asleep is not None
    assert through.asleep.reheard_to_ms == 1_920_000

    moved_on = Seek(device="phone", position_ms=790_000, by_ms=30_000, from_ms=760_000, basis_seq=back.seq)
    heard_to_the_skip = run(back, moved_on)
    assert heard_to_the_skip.asleep is not None
    assert heard_to_the_skip.asleep.reheard_to_ms == 760_000  # played to where the skip left from
    skipped = run(back, Seek(device="phone", position_ms=1_000_000, by_ms=300_000, basis_seq=back.seq))
    skipped = run(skipped, Report(device="phone", position_ms=1_500_000, playing=True, basis_seq=skipped.seq))
    assert skipped.asleep is not None
    assert skipped.asleep.reheard_to_ms == 700_000  # a skip ahead left a stretch unheard


def test_after_the_timer_paused_the_book_there_is_nothing_to_undo() -> None:
    """A 2am session: a drowsy "back 30 s" at 3:22, then the timer paused at 3:59; in the morning every
    device offered "Back to where I was (0:03:22)", a place that meant nothing to the listener. Where
    they fell asleep is offered instead."""
    state = run(at(200_000), SetSleepTimer(device="phone", after=10))
    state = run(state, Seek(device="phone", position_ms=172_000, by_ms=-30_000, basis_seq=state.seq))
    assert state.before_move_ms == 200_000
    stop = state.sleep_timer.stop_at_ms if state.sleep_timer else 0
    state = run(state, TimerRanOut(device="phone", position_ms=stop, basis_seq=state.seq))
    assert state.asleep is not None
    assert (state.before_move_ms, state.public(NOW).undo_to_ms) == (None, None)
    with pytest.raises(Invalid):
        decide(state, Undo(device="phone", basis_seq=state.seq), now_ms=NOW)


def test_with_no_touch_after_setting_it_the_listener_was_awake_when_the_timer_was_set() -> None:
    state = run(at(200_000), SetSleepTimer(device="phone", after=5))
    state = run(state, TimerRanOut(device="phone", position_ms=500_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.asleep_at_ms == 200_000


def test_a_device_joining_counts_as_someone_awake() -> None:
    state = run(at(200_000), SetSleepTimer(device="phone", after=20))
    state = run(state, Report(device="phone", position_ms=400_000, playing=True, basis_seq=state.seq))
    state = run(state, JoinDevice(device="tablet"))
    state = run(state, TimerRanOut(device="phone", position_ms=1_400_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.asleep_at_ms == 400_000


def test_a_question_asked_while_the_timer_runs_counts_as_someone_awake_where_the_book_had_got_to() -> None:
    """ "Who is Merrylegs?" at 0:06:50 was no sign of being awake: asleep by 0:08, the listener was
    offered the place they set the timer, at 0:03:20."""
    state = run(at(200_000), SetSleepTimer(device="phone", after=20))
    state = run(state, Report(device="phone", position_ms=400_000, playing=True, basis_seq=state.seq))
    state = run_at(NOW + 10_000, state, NoteQuestion(turn_id="t1"))
    state = run(state, Report(device="phone", position_ms=900_000, playing=True, basis_seq=state.seq))
    state = run(state, TimerRanOut(device="phone", position_ms=1_400_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.asleep_at_ms == 410_000


def test_pressing_pause_or_play_counts_as_someone_awake() -> None:
    """A review: a pause and a play pressed 20 minutes into a 30-minute timer left the estimate
    where the timer was set, so every device offered to go back over 20 minutes heard awake."""
    state = run(at(600_000), SetSleepTimer(device="phone", after=30))
    state = run(state, Report(device="phone", position_ms=1_200_000, playing=True, basis_seq=state.seq))
    for playing in (False, True):
        state = run(
            state,
            Report(device="phone", position_ms=1_800_000, playing=playing, basis_seq=state.seq, pressed=True),
        )
    state = run(state, Report(device="phone", position_ms=2_100_000, playing=True, basis_seq=state.seq))
    state = run(state, TimerRanOut(device="phone", position_ms=2_400_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.asleep_at_ms == 1_800_000


def test_a_pause_the_device_made_itself_is_no_sign_of_someone_awake() -> None:
    """A device paused by reaching the stop, or closed, reports a pause no one pressed."""
    state = run(at(600_000), SetSleepTimer(device="phone", after=30))
    state = run(state, Report(device="tablet", position_ms=1_200_000, playing=False, basis_seq=state.seq))
    state = run(state, Report(device="phone", position_ms=2_400_000, playing=False, basis_seq=state.seq))
    state = run(state, TimerRanOut(device="phone", position_ms=2_400_000, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.asleep_at_ms == 600_000


def test_a_question_with_no_timer_running_records_nothing() -> None:
    """The sign matters only to a timer's pause, and setting a timer is a sign of its own."""
    assert decide(at(200_000), NoteQuestion(turn_id="t1"), now_ms=NOW) is None
    played_out = run(at(200_000), SetSleepTimer(device="phone", after=5))
    played_out = run(played_out, TimerRanOut(device="phone", position_ms=500_000, basis_seq=played_out.seq))
    assert decide(played_out, NoteQuestion(turn_id="t2"), now_ms=NOW) is None


@settings(max_examples=200, deadline=None)
@given(
    start=st.integers(0, BOOK_END - 1),
    minutes=st.integers(1, 120),
    overshoot=st.integers(-60_000, 60_000),
    chapter_end=st.booleans(),
)
def test_the_pause_never_lands_past_the_stop_nor_the_estimate_past_the_pause(
    start: int, minutes: int, overshoot: int, chapter_end: bool
) -> None:
    command = (
        SetSleepTimer(device="phone", after="chapter_end")
        if chapter_end
        else SetSleepTimer(device="phone", after=minutes)
    )
    state = run(at(start), command)
    assert state.sleep_timer is not None
    stop = state.sleep_timer.stop_at_ms
    assert start < stop <= BOOK_END
    if chapter_end:
        assert stop in {c.start_ms - 1 for c in CHAPTERS} | {BOOK_END}
    position = min(max(0, stop + overshoot), BOOK_END)
    state = run(state, TimerRanOut(device="phone", position_ms=position, basis_seq=state.seq))
    assert state.asleep is not None
    assert state.asleep.paused_at_ms <= stop
    assert state.asleep.asleep_at_ms <= state.asleep.paused_at_ms


def test_a_pause_asked_for_aloud_pauses_where_the_book_was_last_heard() -> None:
    """ADR 46: the turn's pause is recorded as the timer's is, at the newest report, with no sleep."""
    state = run(at(60_000), SetSleepTimer(device="phone", after=10))
    playing = run(state, Report(device="phone", position_ms=75_000, playing=True, basis_seq=state.seq))
    paused = run(playing, Pause())
    assert (paused.position_ms, paused.playing, paused.players) == (75_000, False, ())
    assert paused.asleep is None  # a pause asked for is not a guess that they fell asleep
    assert paused.sleep_timer == playing.sleep_timer  # the timer still stops the book further on
    assert paused.public(NOW).playing is False
    assert decide(paused, Pause(), now_ms=NOW) is None  # a paused book changes nothing


def test_a_report_made_before_a_spoken_pause_cannot_start_the_book_again() -> None:
    state = at(60_000)
    basis = state.seq
    state = run(state, Pause(device="speaker"))
    with pytest.raises(Stale):
        decide(state, Report(device="phone", position_ms=70_000, playing=True, basis_seq=basis), now_ms=NOW)
    resumed = run(state, Report(device="phone", position_ms=60_000, playing=True, basis_seq=state.seq))
    assert resumed.playing


def test_a_pause_at_the_chapter_end_is_in_that_chapter_and_a_goto_to_the_next_is_in_the_next() -> None:
    """History, the page and the turn all name the chapter a pause at the chapter end was in,
    and a goto to the next chapter's first millisecond is in that chapter (not the one before)."""
    state = at(890_000)
    stored = [StoredEvent(1, decide_report(890_000))]
    for command in (
        SetSleepTimer(device="phone", after="chapter_end"),
        TimerRanOut(device="phone", position_ms=900_400, basis_seq=2),
    ):
        event = decide(state, command, book_end_ms=BOOK_END, chapters=CHAPTERS, now_ms=NOW)
        assert event is not None
        state = evolve(state, event, state.seq + 1)
        stored.append(StoredEvent(state.seq, event))
    goto = Moved(cause="goto", from_ms=state.position_ms, to_ms=900_000, turn_id="t1")
    stored.append(StoredEvent(state.seq + 1, goto))
    told = entries("ann", "b1", stored, CHAPTERS)
    assert [(e.kind, e.position_ms, e.chapter) for e in told[-2:]] == [
        ("fell_asleep", 899_999, 1),
        ("moved", 900_000, 2),
    ]


def decide_report(position_ms: int) -> PlayerEvent:
    event = decide(
        PlayerState(listener="ann", book="b1"),
        Report(device="phone", position_ms=position_ms, playing=True, basis_seq=0),
        now_ms=NOW,
    )
    assert event is not None
    return event


def run_at(now_ms: int, state: PlayerState, *commands: PlayerCommand) -> PlayerState:
    """``run`` with the player's clock at ``now_ms``."""
    for command in commands:
        event = decide(state, command, book_end_ms=BOOK_END, chapters=CHAPTERS, now_ms=now_ms)
        if event is not None:
            state = evolve(state, event, state.seq + 1)
    return state


def playing_at(position_ms: int, now_ms: int = NOW) -> PlayerState:
    report = Report(device="phone", position_ms=position_ms, playing=True, basis_seq=0)
    return run_at(now_ms, PlayerState(listener="ann", book="b1"), report)


def test_a_pause_said_aloud_lands_where_the_book_had_got_to_when_the_listener_spoke() -> None:
    """Not at the last report, up to 15 s behind: the report plus the time since, while it played."""
    paused = run_at(NOW + 12_000, playing_at(75_000), Pause(device="speaker"))
    assert (paused.position_ms, paused.playing) == (87_000, False)


def test_a_pause_said_aloud_after_a_move_lands_on_the_move() -> None:
    state = playing_at(75_000)
    state = run_at(NOW + 2_000, state, Seek(device="tablet", position_ms=30_000, basis_seq=state.seq))
    paused = run_at(NOW + 12_000, state, Pause())
    assert paused.position_ms == 30_000  # how long it played from there is not known: never ahead


def test_a_pause_said_aloud_never_lands_past_the_end_nor_the_sleep_timers_stop() -> None:
    at_the_end = run_at(NOW + 60_000, playing_at(BOOK_END - 5_000), Pause())
    assert at_the_end.position_ms == BOOK_END
    timer = run_at(NOW, playing_at(890_000), SetSleepTimer(device="phone", after="chapter_end"))
    at_the_stop = run_at(NOW + 30_000, timer, Pause())
    assert at_the_stop.position_ms == 899_999


def test_a_pause_said_aloud_when_the_device_went_quiet_lands_on_its_last_report() -> None:
    """When a quiet device stopped is not known; it may play on unheard, so the pause is recorded."""
    paused = run_at(NOW + GONE_QUIET_MS + 1, playing_at(75_000), Pause())
    assert (paused.position_ms, paused.playing, paused.last_move_cause) == (75_000, False, "paused")


def test_the_end_of_a_chapter_named_is_its_last_millisecond_and_stays_fixed() -> None:
    state = run(at(60_000), SetSleepTimer(device="voice", after="chapter_end", chapter=2))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.chapter) == (1_999_999, 2)
    assert state.public(NOW).sleep_timer == state.sleep_timer
    playing = run(at(950_000), SetSleepTimer(device="voice", after="chapter_end", chapter=2))
    assert playing.sleep_timer is not None
    assert playing.sleep_timer.stop_at_ms == 1_999_999  # the chapter playing, named
    last = run(at(60_000), SetSleepTimer(device="voice", after="chapter_end", chapter=3))
    assert last.sleep_timer is not None
    assert last.sleep_timer.stop_at_ms == BOOK_END


def test_a_chapter_named_that_has_ended_or_is_not_in_the_book_is_refused() -> None:
    for chapter in (1, 4):
        with pytest.raises(Invalid):
            decide(
                at(950_000),
                SetSleepTimer(device="voice", after="chapter_end", chapter=chapter),
                book_end_ms=BOOK_END,
                chapters=CHAPTERS,
                now_ms=NOW,
            )
    with pytest.raises(ValidationError):  # a chapter names where a chapter ends, never minutes
        SetSleepTimer.model_validate({"device": "phone", "after": 10, "chapter": 2})


def test_a_move_keeps_the_minutes_a_timer_has_left() -> None:
    """A 20-minute timer, then "go back five minutes": the stop was a fixed book time, so the timer
    grew by the five minutes; a skip ahead past it paused the book back on the stop at once."""
    state = run(at(600_000), SetSleepTimer(device="phone", after=20))
    state = run(state, Report(device="phone", position_ms=660_000, playing=True, basis_seq=state.seq))
    left_ms = 19 * 60_000
    state = run(state, Seek(device="phone", position_ms=360_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 360_000 + left_ms
    state = run(state, Seek(device="phone", position_ms=2_400_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 2_400_000 + left_ms
    goto = Moved(cause="goto", from_ms=2_400_000, to_ms=1_000_000, turn_id="t1")
    state = evolve(state, goto, state.seq + 1)
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 1_000_000 + left_ms


def test_a_timer_carried_past_the_books_end_by_a_move_stops_there_and_says_the_book_ends_first() -> None:
    """A 15-minute timer, then a skip on: its stop went past the book's end, and the page said
    "Pausing at 0:24:06" on a book of 0:22:32, the book not ending first (an operations session)."""
    state = run(at(300_000), SetSleepTimer(device="phone", after=15))
    state = run(state, Seek(device="phone", position_ms=BOOK_END - 300_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.book_ends_first) == (BOOK_END, True)
    state = run(state, Seek(device="phone", position_ms=BOOK_END - 1_200_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.book_ends_first is False  # moved back: the end is no longer its stop


def test_a_timer_the_books_end_cut_short_keeps_the_minutes_asked_for_when_the_book_moves_back() -> None:
    """The accessibility session: "stop in 15 minutes" near the end, a scrub further on and an undo
    left a timer of four and a half minutes; the book's end had cut the minutes, and the cut stayed."""
    state = run(at(BOOK_END - 60_000), SetSleepTimer(device="phone", after=30))
    state = run(state, Seek(device="phone", position_ms=BOOK_END - 600_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.book_ends_first) == (BOOK_END, True)
    state = run(state, Seek(device="phone", position_ms=600_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 600_000 + 30 * 60_000  # none of it was listened to
    assert not state.sleep_timer.book_ends_first
    state = run(at(300_000), SetSleepTimer(device="phone", after=15))
    state = run(state, Seek(device="phone", position_ms=BOOK_END - 60_000, basis_seq=state.seq))
    state = run(state, Undo(device="phone", basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 300_000 + 15 * 60_000


def test_a_chapter_end_timer_stays_at_its_chapters_end_through_a_move() -> None:
    state = run(at(600_000), SetSleepTimer(device="phone", after="chapter_end"))
    state = run(state, Seek(device="phone", position_ms=300_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 899_999


def test_a_chapter_end_timer_follows_a_move_into_another_chapter() -> None:
    """ "Sleep at the end of the chapter", then a skip into the next: the stop stayed behind on the
    chapter left, and the page paused the book back there at once."""
    state = run(at(600_000), SetSleepTimer(device="phone", after="chapter_end"))
    state = run(state, Seek(device="phone", position_ms=1_000_000, basis_seq=state.seq))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 1_999_999
    state = run(state, Undo(device="phone"))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 899_999


def test_a_chapter_named_keeps_its_end_until_a_move_passes_it() -> None:
    state = run(at(60_000), SetSleepTimer(device="voice", after="chapter_end", chapter=2))
    back = run(state, Seek(device="phone", position_ms=30_000, basis_seq=state.seq))
    assert back.sleep_timer is not None
    assert (back.sleep_timer.stop_at_ms, back.sleep_timer.chapter) == (1_999_999, 2)
    past = run(state, Seek(device="phone", position_ms=2_500_000, basis_seq=state.seq))
    assert past.sleep_timer is not None
    assert (past.sleep_timer.stop_at_ms, past.sleep_timer.chapter) == (BOOK_END, None)


def test_a_move_stored_before_chapter_end_stops_were_carried_leaves_the_stop() -> None:
    state = run(at(600_000), SetSleepTimer(device="phone", after="chapter_end"))
    state = evolve(state, Moved(cause="goto", from_ms=600_000, to_ms=1_000_000, turn_id="t1"), state.seq + 1)
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 899_999


def test_a_goto_into_an_earlier_chapter_carries_that_chapters_end() -> None:
    """ "Take me back to where ..." lands in chapter 1 with the timer set in chapter 2."""
    state = run(at(1_000_000), SetSleepTimer(device="phone", after="chapter_end"))
    target = Target(position_ms=300_000)
    place = Passage(id=3, start_ms=300_000, end_ms=330_000, chapter=1, chapter_title="One", text="A gate.")
    request = OfferPositions(listener="ann", book="b1", turn_id="t1", targets=[target])
    resolutions = [Resolution(target=target, passage=place, at_ms=300_000, named="time")]
    decision = decide_offer(
        request,
        resolutions,
        state.position_ms,
        timer=state.sleep_timer,
        chapters=CHAPTERS,
        book_end_ms=BOOK_END,
    )
    assert isinstance(decision.event, Moved)
    state = evolve(state, decision.event, state.seq + 1)
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 899_999


SHORTER_END = 85_000
"""The end of a shorter book put in the first one's place under its id (ADR 81)."""


def test_a_place_past_the_end_of_a_shorter_book_is_its_end_and_minutes_say_the_book_ends_first() -> None:
    state = run(at(300_000), SetSleepTimer(device="phone", after=15))
    held = held_within(state, SHORTER_END)
    assert held.position_ms == SHORTER_END
    assert held.sleep_timer is not None
    assert held.sleep_timer.stop_at_ms == SHORTER_END
    assert held.sleep_timer.book_ends_first
    assert held.sleep_timer.past_end_ms == 300_000 + 15 * 60_000  # where the minutes would have stopped
    assert held_within(state, None) == state
    assert held_within(state, BOOK_END) == state


def test_a_chapter_end_past_the_end_of_a_shorter_book_stops_at_its_end() -> None:
    state = run(at(890_000), SetSleepTimer(device="phone", after="chapter_end"))
    held = held_within(state, SHORTER_END)
    assert held.sleep_timer is not None
    assert (held.sleep_timer.stop_at_ms, held.sleep_timer.book_ends_first) == (SHORTER_END, False)


def test_undo_past_the_end_of_a_shorter_book_goes_to_its_end() -> None:
    moved = run(at(300_000), Seek(device="phone", position_ms=200_000, basis_seq=1))
    undone = decide(
        held_within(moved, SHORTER_END),
        Undo(device="phone", basis_seq=moved.seq, from_ms=SHORTER_END),
        book_end_ms=SHORTER_END,
        now_ms=NOW,
    )
    assert isinstance(undone, Moved)
    assert undone.to_ms == SHORTER_END


def at_speed(position_ms: int, speed: float = 1.0) -> PlayerState:
    """Playing from ``position_ms`` at ``speed``, reported at ``NOW`` (ADR 82)."""
    state = run(PlayerState(listener="ann", book="b1"), SetSpeed(device="phone", speed=speed))
    return run(state, Report(device="phone", position_ms=position_ms, playing=True, basis_seq=state.seq))


def test_the_speed_is_the_listeners_on_every_device_and_the_same_speed_again_changes_nothing() -> None:
    state = at_speed(60_000)
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
    paused = run_at(NOW + 10_000, at_speed(100_000, speed=1.5), Pause(device="speaker"))
    assert paused.position_ms == 115_000


def test_a_playing_book_got_on_at_the_speed_before_until_the_speed_changed() -> None:
    """A review: reported at 10:00, three times as fast 14 s on, a pause said aloud a second later
    landed at 10:45 (all 15 s at 3x), 28 s of story past what the listener had heard (10:17)."""
    state = run_at(NOW + 14_000, at_speed(600_000), SetSpeed(device="phone", speed=3.0))
    paused = run_at(NOW + 15_000, state, Pause(device="speaker"))
    assert paused.position_ms == 600_000 + 14_000 + 3 * 1_000


def test_two_speed_changes_before_the_next_report_each_count_the_time_played_at_them() -> None:
    """Reported at 10:00 at 1x, 2x 10 s on, 3x 10 s later (before the playing page, a background tab
    whose timers run once a minute, reported again), a pause 10 s after that: 10 s + 20 s + 30 s of
    the book, where the newest two speeds alone counted 20 s + 20 s + 30 s."""
    state = run_at(NOW + 10_000, at_speed(600_000), SetSpeed(device="speaker", speed=2.0))
    state = run_at(NOW + 20_000, state, SetSpeed(device="speaker", speed=3.0))
    paused = run_at(NOW + 30_000, state, Pause(device="speaker"))
    assert paused.position_ms == 600_000 + 10_000 + 2 * 10_000 + 3 * 10_000


def test_speed_changes_made_before_the_newest_report_count_nothing_after_it() -> None:
    """The page reports as it takes a new speed: from that report on, only the speed since counts."""
    state = run_at(NOW + 10_000, at_speed(600_000), SetSpeed(device="speaker", speed=2.0))
    reported = Report(device="phone", position_ms=620_000, playing=True, basis_seq=state.seq)
    state = run_at(NOW + 10_000, state, reported, SetSpeed(device="speaker", speed=3.0))
    paused = run_at(NOW + 20_000, state, Pause(device="speaker"))
    assert paused.position_ms == 620_000 + 3 * 10_000


def test_speed_changes_a_report_or_a_move_has_made_count_for_nothing_are_not_kept() -> None:
    """A review: the changes were trimmed only at the next change of speed, so each went into every
    snapshot until then. A report keeps only those made after it was heard (one in flight counts still),
    a move none: where the book got to counts from its place."""
    state = run_at(NOW + 10_000, at_speed(600_000), SetSpeed(device="speaker", speed=2.0))
    assert len(state.speed_changes) == 1
    reported = Report(device="phone", position_ms=620_000, playing=True, basis_seq=state.seq)
    assert run_at(NOW + 10_000, state, reported).speed_changes == ()
    heard_before = run_at(NOW + 5_000, state, reported)
    assert (
        run_at(NOW + 12_000, heard_before, Pause(device="speaker")).position_ms == 620_000 + 5_000 + 2 * 2_000
    )
    assert (
        run_at(
            NOW + 12_000, state, Seek(device="phone", position_ms=30_000, basis_seq=state.seq)
        ).speed_changes
        == ()
    )


def test_speed_changed_again_and_again_with_its_device_gone_quiet_keeps_a_bounded_list() -> None:
    """With no report, every change of speed was kept, into every snapshot, for as long as the book
    went unheard; those past the newest few may go."""
    state = at_speed(600_000)
    for change in range(200):
        state = run_at(
            NOW + GONE_QUIET_MS + change, state, SetSpeed(device="speaker", speed=1.5 + change % 2)
        )
    assert len(state.speed_changes) <= 32


def test_a_timers_minutes_are_minutes_of_listening_at_the_speed_playing() -> None:
    """Twenty minutes at 1.5x play thirty of the book."""
    state = run(at_speed(60_000, speed=1.5), SetSleepTimer(device="phone", after=20))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 30 * 60_000


def test_a_speed_change_keeps_the_listening_a_timer_has_left() -> None:
    """Twenty minutes set at 1x, then 2x at once: still twenty minutes to listen, forty of the book;
    then back to 1x ten book minutes later (five of listening): fifteen minutes left, fifteen of the book."""
    state = run(at_speed(60_000), SetSleepTimer(device="phone", after=20))
    state = run(state, SetSpeed(device="phone", speed=2.0))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 40 * 60_000
    state = run(
        state, Report(device="phone", position_ms=60_000 + 10 * 60_000, playing=True, basis_seq=state.seq)
    )
    state = run(state, SetSpeed(device="phone", speed=1.0))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 60_000 + 25 * 60_000


def test_a_speed_change_is_counted_from_where_the_playing_book_has_got_to() -> None:
    """Reported at 1:00, sped up 30 s later (1:30): the twenty minutes left at 1x are counted from there."""
    state = run(at_speed(60_000), SetSleepTimer(device="phone", after=20))
    state = run_at(NOW + 30_000, state, SetSpeed(device="phone", speed=2.0))
    assert state.sleep_timer is not None
    assert state.sleep_timer.stop_at_ms == 90_000 + 2 * (60_000 + 20 * 60_000 - 90_000)


def test_a_faster_speed_that_takes_a_timer_past_the_end_stops_at_the_end_and_slower_again_does_not() -> None:
    near_the_end = BOOK_END - 30 * 60_000
    state = run(at_speed(near_the_end), SetSleepTimer(device="phone", after=20))
    state = run(state, SetSpeed(device="phone", speed=2.0))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.book_ends_first) == (BOOK_END, True)
    state = run(state, SetSpeed(device="phone", speed=1.0))
    assert state.sleep_timer is not None
    assert (state.sleep_timer.stop_at_ms, state.sleep_timer.book_ends_first) == (
        near_the_end + 20 * 60_000,
        False,
    )


def test_a_chapter_end_timer_stays_at_its_chapters_end_whatever_the_speed() -> None:
    state = run(at_speed(60_000), SetSleepTimer(device="phone", after="chapter_end"))
    event = decide(state, SetSpeed(device="phone", speed=2.0), now_ms=NOW)
    assert isinstance(event, SpeedSet)
    assert event.sleep_timer == state.sleep_timer
