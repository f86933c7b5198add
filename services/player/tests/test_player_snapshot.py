"""A snapshot holds what replay would rebuild: restoring one and replaying the rest of the
stream gives exactly the state a replay from the start gives, for any sequence of events
(the sleep timer, the last touch and the asleep fact included)."""

from bedside_contracts.player import (
    DeviceJoined,
    DeviceLeft,
    FellAsleep,
    LeaveDevice,
    ListCancelled,
    ListOffered,
    Moved,
    PlayerEvent,
    PositionReported,
    QuestionAsked,
    RowPressed,
    Seeked,
    SleepTimerCancelled,
    SleepTimerSet,
    SpeedSet,
)
from bedside_guard import Candidate
from bedside_player.domain.decide import decide, paused_where
from bedside_player.domain.playing import PlayingDevice, SpeedChanged
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.replay import Snapshot, from_snapshot, to_snapshot
from hypothesis import example, given, settings
from hypothesis import strategies as st

NOW = 1_800_000_000_000
"""The player's clock in these tests (ms since the epoch)."""
HOUR_MS = 3600_000
times = st.integers(min_value=0, max_value=HOUR_MS)
devices = st.sampled_from(["phone", "speaker", "tablet"])


def row(start_ms: int, ahead: bool, passage_id: int) -> Candidate:
    if ahead:
        return Candidate(start_ms=start_ms, ahead=True, passage_id=passage_id)
    return Candidate(
        start_ms=start_ms, ahead=False, passage_id=passage_id, chapter=1, chapter_title="t", words="w"
    )


rows = st.lists(st.builds(row, times, st.booleans(), st.integers(0, 999)), min_size=1, max_size=4)
events: st.SearchStrategy[PlayerEvent] = st.one_of(
    st.builds(
        PositionReported,
        device=devices,
        position_ms=times,
        playing=st.booleans(),
        basis_seq=st.just(0),
        heard_at_ms=st.none() | st.integers(NOW - HOUR_MS, NOW),
    ),
    st.builds(Seeked, device=devices, from_ms=times, position_ms=times, basis_seq=st.just(0)),
    st.builds(Moved, cause=st.sampled_from(["goto", "undo"]), from_ms=times, to_ms=times),
    st.builds(ListOffered, rows=rows, turn_id=st.sampled_from(["t1", "t2"])),
    st.builds(RowPressed, row=st.integers(0, 3), from_ms=times, to_ms=times),
    st.builds(ListCancelled),
    st.builds(DeviceJoined, device=devices),
    st.builds(DeviceLeft, device=devices, paused_at_ms=st.none() | times, basis_seq=st.just(0)),
    st.builds(
        SleepTimerSet,
        device=devices,
        after=st.one_of(st.integers(1, 600), st.just("chapter_end")),
        stop_at_ms=times,
    ),
    st.builds(SleepTimerCancelled, device=devices),
    st.builds(
        SpeedSet,
        device=devices,
        speed=st.sampled_from([0.75, 1.0, 1.5, 3.0]),
        made_at_ms=st.none() | st.integers(NOW - HOUR_MS, NOW),
    ),
    st.builds(FellAsleep, device=devices, paused_at_ms=times, asleep_at_ms=times, basis_seq=st.just(0)),
    st.builds(QuestionAsked, turn_id=st.sampled_from(["t1", "t2"]), position_ms=times),
)


def replayed(state: PlayerState, stream: list[PlayerEvent], first_seq: int) -> PlayerState:
    for offset, event in enumerate(stream):
        state = evolve(state, event, first_seq + offset)
    return state


DRAWN_THEN_WALKED_PAST = [  # a row drawn behind the line, covered while the listener is before it
    ListOffered(rows=[row(500_000, ahead=False, passage_id=1)], turn_id="t1"),
    PositionReported(device="phone", position_ms=900_000, playing=True, basis_seq=0),
]
TIMER_RAN_OUT_AFTER_THE_CUT = [  # the timer is in the snapshot, the pause that ends it after it
    SleepTimerSet(device="tablet", after="chapter_end", stop_at_ms=600_000),
    Seeked(device="phone", from_ms=0, position_ms=550_000, basis_seq=0),
    FellAsleep(device="phone", paused_at_ms=600_000, asleep_at_ms=550_000, basis_seq=0),
]


@settings(max_examples=300)
@given(stream=st.lists(events, min_size=1, max_size=30), cut=st.integers(min_value=0, max_value=30))
@example(stream=DRAWN_THEN_WALKED_PAST, cut=1)
@example(stream=TIMER_RAN_OUT_AFTER_THE_CUT, cut=2)
def test_snapshot_then_replay_equals_a_full_replay(stream: list[PlayerEvent], cut: int) -> None:
    start = PlayerState(listener="anna", book="b1")
    full = replayed(start, stream, 1)
    cut = min(cut, len(stream))
    at_cut = replayed(start, stream[:cut], 1)
    stored = Snapshot.model_validate_json(to_snapshot(at_cut, through=cut).model_dump_json())
    restored = replayed(from_snapshot(stored), stream[cut:], cut + 1)
    assert restored == full
    assert restored.public(NOW) == full.public(NOW)


PLAYING_BEFORE_ADR_45 = {  # a book playing on the phone, snapshotted before the state kept its players
    "listener": "anna",
    "book": "b1",
    "position_ms": 60_000,
    "playing": True,
    "seq": 4,
    "last_move_seq": 0,
    "before_move_ms": None,
    "rows": [],
    "list_turn_id": None,
    "devices": ["phone"],
    "events": 4,
    "through": 4,
    "last_report_seq": 4,
    "last_reporter": "phone",
}


def test_a_snapshot_from_before_the_players_loads_and_plays_only_once_a_device_reports() -> None:
    """Before ADR 45 (no players) and before ADR 48 (players by name alone): either loads. When
    the device playing then was heard is not known, so the book is told paused at its last report
    until a device reports; the reporting device then keeps it playing and pauses it leaving."""
    for players in (None, ["phone"]):
        stored = dict(PLAYING_BEFORE_ADR_45) | ({} if players is None else {"players": players})
        state = from_snapshot(Snapshot.model_validate(stored))
        assert state.playing
        assert state.players == (() if players is None else (PlayingDevice("phone", None),))
        told = state.public(NOW)
        assert (told.playing, told.position_ms) == (False, 60_000)
        report = PositionReported(
            device="phone", position_ms=61_000, playing=True, basis_seq=4, heard_at_ms=NOW
        )
        state = evolve(state, report, 5)
        assert state.public(NOW).playing
        leave = LeaveDevice(device="phone", position_ms=62_000, basis_seq=5)
        left = decide(state, leave, now_ms=NOW + 1_000)
        assert left == DeviceLeft(device="phone", paused_at_ms=62_000, basis_seq=5)


def test_a_snapshot_from_before_move_causes_still_tells_the_sleep_timers_pause() -> None:
    """The page offers "go back to where you fell asleep" by the move's cause (ADR 47); a
    snapshot from before it names none, and its newest move was the timer's pause."""
    asleep = {"paused_at_ms": 60_000, "asleep_at_ms": 50_000, "seq": 4, "device": "phone"}
    paused = dict(PLAYING_BEFORE_ADR_45) | {"playing": False, "last_move_seq": 4, "asleep": asleep}
    assert from_snapshot(Snapshot.model_validate(paused)).public(NOW).last_move_cause == "fell_asleep"
    moved_since = paused | {"last_move_seq": 5, "seq": 5}
    assert from_snapshot(Snapshot.model_validate(moved_since)).public(NOW).last_move_cause is None


def test_a_snapshot_that_kept_one_change_of_speed_loads_it_as_the_one_since_the_report() -> None:
    """Before each change since the report was kept, a snapshot held the newest alone: it still counts."""
    changed = dict(PLAYING_BEFORE_ADR_45) | {
        "players": [["phone", NOW]],
        "speed": 2.0,
        "speed_changed": [NOW + 10_000, 1.0],
    }
    state = from_snapshot(Snapshot.model_validate(changed))
    assert state.speed_changes == (SpeedChanged(NOW + 10_000, 1.0),)
    assert paused_where(state, NOW + 20_000, None) == 60_000 + 10_000 + 2 * 10_000
