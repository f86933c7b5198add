"""A snapshot holds what replay would rebuild: restoring one and replaying the rest of the
stream gives exactly the state a replay from the start gives, for any sequence of events
(the sleep timer, the last touch and the asleep fact included)."""

from bedside_contracts.player import (
    DeviceJoined,
    DeviceLeft,
    FellAsleep,
    ListCancelled,
    ListOffered,
    Moved,
    PlayerEvent,
    PositionReported,
    RowPressed,
    Seeked,
    SleepTimerCancelled,
    SleepTimerSet,
)
from bedside_guard import Candidate
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.replay import Snapshot, from_snapshot, to_snapshot
from hypothesis import example, given, settings
from hypothesis import strategies as st

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
        PositionReported, device=devices, position_ms=times, playing=st.booleans(), basis_seq=st.just(0)
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
    st.builds(FellAsleep, device=devices, paused_at_ms=times, asleep_at_ms=times, basis_seq=st.just(0)),
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
    assert restored.public() == full.public()
