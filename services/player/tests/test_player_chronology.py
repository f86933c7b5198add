"""The chronology between several devices, without I/O: who may overwrite whose position.

A report is refused when the stream holds a newer position, from a move or from another
device's report, than its basis knew; a seek only when a move came after its basis.
"""

from dataclasses import dataclass, field

import pytest
from bedside_contracts.player import (
    MOVE_KINDS,
    Paused,
    PlayerCommand,
    PlayerEvent,
    PositionReported,
    Report,
    Seek,
    Seeked,
    Undo,
)
from bedside_player.domain.decide import Invalid, Stale, decide
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.replay import from_snapshot, to_snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

BOOK_END = 10 * 3600_000
NOW = 1_800_000_000_000
HOUR = 3_600_000
DEVICES = ("phone", "tablet", "speaker")


def fresh() -> PlayerState:
    return PlayerState(listener="ann", book="b1")


def apply(state: PlayerState, command: PlayerCommand) -> PlayerState:
    if (event := decide(state, command, book_end_ms=BOOK_END, now_ms=NOW)) is not None:
        state = evolve(state, event, state.seq + 1)
    return state


# ------------------------------------------------------------------ the conflict of issue 18


@pytest.mark.parametrize(
    "b_clock_skew", [0, HOUR, -HOUR], ids=["same-clock", "an-hour-ahead", "an-hour-behind"]
)
def test_a_stale_report_cannot_drag_a_report_back(b_clock_skew: int) -> None:
    state = apply(fresh(), Report(device="a", position_ms=60_000, playing=True, basis_seq=0))
    b_basis = state.seq  # B saw 60 s, then heard nothing more
    state = apply(state, Report(device="a", position_ms=600_000, playing=True, basis_seq=state.seq))
    stale_b = Report(
        device="b", position_ms=65_000, playing=True, basis_seq=b_basis, device_clock=NOW + b_clock_skew
    )
    with pytest.raises(Stale, match="another device"):
        decide(state, stale_b, book_end_ms=BOOK_END, now_ms=NOW)
    assert state.position_ms == 600_000


def test_after_a_move_a_stale_report_is_refused_and_a_current_seek_still_wins() -> None:
    state = apply(fresh(), Report(device="b", position_ms=60_000, playing=True, basis_seq=0))
    b_basis = state.seq
    state = apply(state, Seek(device="a", position_ms=600_000, basis_seq=state.seq))
    with pytest.raises(Stale, match="moved"):
        decide(state, Report(device="b", position_ms=65_000, playing=True, basis_seq=b_basis), now_ms=NOW)
    with pytest.raises(Stale, match="moved"):
        decide(state, Seek(device="b", position_ms=65_000, basis_seq=b_basis), now_ms=NOW)
    state = apply(state, Seek(device="b", position_ms=65_000, basis_seq=state.seq))
    assert state.position_ms == 65_000


def test_a_deliberate_rewind_beats_passive_progress_it_had_not_seen() -> None:
    state = apply(fresh(), Report(device="b", position_ms=60_000, playing=True, basis_seq=0))
    b_basis = state.seq
    state = apply(state, Report(device="a", position_ms=600_000, playing=True, basis_seq=state.seq))
    state = apply(state, Seek(device="b", position_ms=65_000, basis_seq=b_basis))
    assert (state.position_ms, state.last_move_seq) == (65_000, state.seq)


def test_a_skip_from_a_device_that_missed_anothers_progress_counts_from_where_the_book_got_to() -> None:
    """A phone left paused at 0:36:19 while a tablet played on to 0:37:03: its "back 30 s" went to
    0:35:49, 1:14 back, and moved the tablet there (a listener session). A skip says how far it
    goes: the book goes that far from where it has got to; a place chosen (the scrubber, a row)
    is still the place."""
    state = apply(fresh(), Report(device="phone", position_ms=2_179_000, playing=False, basis_seq=0))
    phone_basis = state.seq
    state = apply(state, Report(device="tablet", position_ms=2_223_000, playing=True, basis_seq=state.seq))
    back = Seek(device="phone", position_ms=2_149_000, by_ms=-30_000, basis_seq=phone_basis)
    assert apply(state, back).position_ms == 2_193_000
    later = decide(state, back, book_end_ms=BOOK_END, now_ms=NOW + 5_000)  # the tablet played on 5 s
    assert isinstance(later, Seeked)
    assert later.position_ms == 2_198_000
    to_the_start = apply(state, Seek(device="phone", position_ms=0, by_ms=-3_000_000, basis_seq=phone_basis))
    assert to_the_start.position_ms == 0
    chosen = Seek(device="phone", position_ms=2_149_000, basis_seq=phone_basis)
    assert apply(state, chosen).position_ms == 2_149_000
    up_to_date = Seek(device="phone", position_ms=2_193_000, by_ms=-30_000, basis_seq=state.seq)
    assert apply(state, up_to_date).position_ms == 2_193_000  # its own sum, made from what it had seen


def test_a_move_leaves_from_where_the_moving_device_had_played_to_when_it_is_the_newest_word() -> None:
    """A page reports every 15 s: a skip 12 s after a report was recorded as leaving from that
    report, and "Back to where I was" replayed the 12 s. A seek says where its device had got to;
    that is where the move leaves from, unless the device had not seen the newest word."""
    state = apply(fresh(), Report(device="phone", position_ms=60_000, playing=True, basis_seq=0))
    skip = Seek(device="phone", position_ms=102_000, by_ms=30_000, from_ms=72_000, basis_seq=state.seq)
    moved = apply(state, skip)
    assert (moved.position_ms, moved.before_move_ms) == (102_000, 72_000)
    state = apply(state, Report(device="tablet", position_ms=80_000, playing=True, basis_seq=state.seq))
    stale = apply(state, Seek(device="phone", position_ms=30_000, from_ms=72_000, basis_seq=state.seq - 1))
    assert stale.before_move_ms == 80_000  # the tablet's report is newer than anything the phone knew
    past_the_end = skip.model_copy(update={"from_ms": BOOK_END + 1, "basis_seq": state.seq})
    with pytest.raises(Invalid):
        decide(state, past_the_end, book_end_ms=BOOK_END, now_ms=NOW)


def test_an_undo_leaves_from_where_its_device_had_played_to() -> None:
    """A 2am session: back 30 s, 13 s of listening, "Back to where I was", then pressed again: the
    second went to the newest report, seconds before where the listener had been."""
    state = apply(fresh(), Report(device="phone", position_ms=120_000, playing=True, basis_seq=0))
    state = apply(
        state, Seek(device="phone", position_ms=90_000, by_ms=-30_000, from_ms=125_000, basis_seq=state.seq)
    )
    state = apply(state, Undo(device="phone", from_ms=103_000, basis_seq=state.seq))
    assert (state.position_ms, state.before_move_ms) == (125_000, 103_000)
    spoken = apply(state, Undo(from_ms=140_000))  # the turn's "undo that": no device, no basis
    assert spoken.before_move_ms == 125_000


def test_a_skip_from_a_device_that_missed_anothers_move_counts_from_where_the_book_got_to() -> None:
    """A 2am session: the speaker scrubbed to 6:40 and played; "back 30 s" on a phone that had not
    heard of the scrub was refused, and the phone took the speaker's old report and played 13 s
    behind it. A skip says how far it goes, so it goes that far from where the book has got to; a
    place chosen is still refused."""
    state = apply(fresh(), Report(device="phone", position_ms=60_000, playing=False, basis_seq=0))
    phone_basis = state.seq
    state = apply(state, Seek(device="speaker", position_ms=400_000, basis_seq=state.seq))
    state = apply(state, Report(device="speaker", position_ms=413_000, playing=True, basis_seq=state.seq))
    back = Seek(device="phone", position_ms=30_000, by_ms=-30_000, from_ms=60_000, basis_seq=phone_basis)
    skipped = apply(state, back)
    assert (skipped.position_ms, skipped.before_move_ms) == (383_000, 413_000)
    with pytest.raises(Stale):
        decide(state, Seek(device="phone", position_ms=30_000, basis_seq=phone_basis), now_ms=NOW)


def test_a_pause_pressed_while_anothers_progress_was_on_its_way_pauses_where_the_book_got_to() -> None:
    """Both devices playing, B's pause crossed A's report: before, it was refused as stale, and B's
    page took the state and played on, the press undone (seen in CI). Now the book pauses, where A
    had got to: B's older place would drag it back."""
    state = apply(fresh(), Report(device="a", position_ms=60_000, playing=True, basis_seq=0))
    b_basis = state.seq
    state = apply(state, Report(device="a", position_ms=600_000, playing=True, basis_seq=state.seq))
    press = Report(device="b", position_ms=65_000, playing=False, basis_seq=b_basis, pressed=True)
    event = decide(state, press, book_end_ms=BOOK_END, now_ms=NOW)
    assert event == Paused(device="b", paused_at_ms=600_000)
    with pytest.raises(Stale):  # the same pause made by the device itself (its recording ended) is stale
        decide(state, press.model_copy(update={"pressed": False}), book_end_ms=BOOK_END, now_ms=NOW)
    paused = evolve(state, event, state.seq + 1)
    assert (paused.playing, paused.position_ms) == (False, 600_000)
    with pytest.raises(Stale, match="moved"):  # A's next report, from before the pause: A takes it
        decide(paused, Report(device="a", position_ms=605_000, playing=True, basis_seq=state.seq), now_ms=NOW)


def test_a_pause_pressed_after_a_move_it_had_not_seen_is_refused_as_a_seek_would_be() -> None:
    state = apply(fresh(), Report(device="a", position_ms=60_000, playing=True, basis_seq=0))
    b_basis = state.seq
    state = apply(state, Seek(device="a", position_ms=3_000_000, basis_seq=state.seq))
    with pytest.raises(Stale, match="moved"):
        decide(state, Report(device="b", position_ms=65_000, playing=False, basis_seq=b_basis), now_ms=NOW)


def test_a_devices_own_reports_in_flight_do_not_make_it_stale() -> None:
    state = fresh()
    for position in (1_000, 2_000, 3_000):  # all sent before the first ack came back
        state = apply(state, Report(device="a", position_ms=position, playing=True, basis_seq=0))
    assert state.position_ms == 3_000
    # ...but once another device has reported, the same old basis is stale
    state = apply(state, Report(device="b", position_ms=3_500, playing=True, basis_seq=state.seq))
    with pytest.raises(Stale):
        decide(state, Report(device="a", position_ms=4_000, playing=True, basis_seq=0), now_ms=NOW)


def test_another_devices_report_stays_news_after_the_device_reports_again() -> None:
    """A's own later report does not hide B's report from a basis older than both."""
    state = apply(fresh(), Report(device="a", position_ms=1_000, playing=True, basis_seq=0))
    old = state.seq
    state = apply(state, Report(device="b", position_ms=500_000, playing=True, basis_seq=state.seq))
    state = apply(state, Report(device="c", position_ms=501_000, playing=True, basis_seq=state.seq))
    with pytest.raises(Stale):
        decide(state, Report(device="c", position_ms=2_000, playing=True, basis_seq=old), now_ms=NOW)
    with pytest.raises(Stale):
        decide(state, Report(device="b", position_ms=2_000, playing=True, basis_seq=old), now_ms=NOW)


# ------------------------------------------------------------------ the property


def others_newest(applied: list[tuple[int, PlayerEvent]], device: str) -> int:
    """Independently of the state: the newest move by anyone or report by another device."""
    newest = 0
    for seq, event in applied:
        if event.kind in MOVE_KINDS or (isinstance(event, PositionReported) and event.device != device):
            newest = seq
    return newest


step = st.tuples(
    st.sampled_from(["report", "report", "report", "seek", "undo"]),
    st.sampled_from(DEVICES),
    st.integers(0, BOOK_END),
    st.integers(0, 8),
    st.sampled_from([0, HOUR, -HOUR, 37]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(step, max_size=40))
def test_no_report_on_a_basis_older_than_another_devices_position_is_ever_applied(
    steps: list[tuple[str, str, int, int, int]],
) -> None:
    """For any interleaving of reports, seeks and undos from several devices (with clocks an
    hour apart): a report is applied exactly when no move and no other device's report came
    after its basis; a seek exactly when no move did; and replaying what was appended, or
    loading a snapshot of it, gives the same projection."""
    state = fresh()
    applied: list[tuple[int, PlayerEvent]] = []
    for op, device, position, lag, skew in steps:
        basis = max(0, state.seq - lag)
        command: PlayerCommand
        if op == "report":
            command = Report(
                device=device, position_ms=position, playing=True, basis_seq=basis, device_clock=NOW + skew
            )
        elif op == "seek":
            command = Seek(device=device, position_ms=position, basis_seq=basis, device_clock=NOW + skew)
        else:
            command = Undo(device=device)
        newest_move = max((seq for seq, e in applied if e.kind in MOVE_KINDS), default=0)
        must_refuse = {
            "report": basis < others_newest(applied, device),
            "seek": basis < newest_move,
            "undo": False,
        }[op]
        try:
            event = decide(state, command, book_end_ms=BOOK_END, now_ms=NOW)
        except Stale:
            assert must_refuse
            continue
        except Invalid:
            assert op == "undo"
            continue
        assert not must_refuse
        if event is not None:
            applied.append((state.seq + 1, event))
            state = evolve(state, event, state.seq + 1)
        if op != "undo":
            assert state.position_ms == position
    replayed = fresh()
    for seq, event in applied:
        replayed = evolve(replayed, event, seq)
    assert replayed == state
    assert from_snapshot(to_snapshot(state, state.seq)) == state


# ------------------------------------------------------------------ two devices playing at once


FOLLOW_THRESHOLD_MS = 2_000
"""As on the device page: a pushed position closer than this to where a device is is its own echo."""
REPORT_EVERY_MS = 15_000


@dataclass
class Device:
    """A device as the page behaves: it plays, reports, follows pushes and adopts refusals."""

    name: str
    position_ms: int
    basis: int = 0
    pushes: list[PlayerState] = field(default_factory=list)
    refused: int = 0

    def follow(self, pushed: PlayerState) -> None:
        if pushed.seq < self.basis:
            return
        self.basis = pushed.seq
        if abs(pushed.position_ms - self.position_ms) > FOLLOW_THRESHOLD_MS:
            self.position_ms = pushed.position_ms


class Room:
    """One listener's state and the devices on it; pushes are delivered when the test says."""

    def __init__(self, *devices: Device) -> None:
        self.state = fresh()
        self.devices = {d.name: d for d in devices}

    def report(self, name: str) -> None:
        device = self.devices[name]
        command = Report(device=name, position_ms=device.position_ms, playing=True, basis_seq=device.basis)
        try:
            event = decide(self.state, command, book_end_ms=BOOK_END, now_ms=NOW)
        except Stale:
            device.refused += 1
            device.basis, device.position_ms = self.state.seq, self.state.position_ms
            return
        if event is not None:
            self.state = evolve(self.state, event, self.state.seq + 1)
        device.basis = self.state.seq
        for other in self.devices.values():
            if other is not device:
                other.pushes.append(self.state)

    def deliver(self, name: str) -> None:
        device = self.devices[name]
        while device.pushes:
            device.follow(device.pushes.pop(0))

    def play(self, ms: int) -> None:
        for device in self.devices.values():
            device.position_ms += ms


def test_two_devices_playing_at_once_converge_and_refuse_nothing_when_pushes_arrive() -> None:
    # the tablet runs 30 s behind the phone, and both report every 15 s, out of phase
    room = Room(Device("phone", 600_000), Device("tablet", 570_000))
    room.report("phone")
    room.deliver("tablet")
    for _ in range(40):
        room.play(REPORT_EVERY_MS // 2)
        room.report("tablet")
        room.deliver("phone")
        room.play(REPORT_EVERY_MS // 2)
        room.report("phone")
        room.deliver("tablet")
    phone, tablet = room.devices["phone"], room.devices["tablet"]
    assert (phone.refused, tablet.refused) == (0, 0)
    assert phone.position_ms == tablet.position_ms == room.state.position_ms


def test_a_device_cut_off_from_pushes_is_corrected_once_and_then_agrees() -> None:
    room = Room(Device("phone", 600_000), Device("tablet", 65_000))
    room.report("phone")  # the tablet never hears of it
    room.report("tablet")
    tablet = room.devices["tablet"]
    assert tablet.refused == 1
    assert room.state.position_ms == 600_000 == tablet.position_ms
    room.play(5_000)
    room.report("tablet")  # corrected, its next report is current
    assert tablet.refused == 1
    assert room.state.position_ms == 605_000


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["report phone", "report tablet", "push phone", "push tablet", "play"]), max_size=80
    )
)
def test_refusals_come_only_from_a_push_still_on_its_way_and_then_the_devices_agree(
    script: list[str],
) -> None:
    room = Room(Device("phone", 600_000), Device("tablet", 65_000))
    for action in script:
        verb, _, name = action.partition(" ")
        if verb == "report":
            device = room.devices[name]
            unheard = bool(device.pushes)
            before = device.refused
            room.report(name)
            assert device.refused == before or unheard, "refused though it had heard every change"
        elif verb == "push":
            room.deliver(name)
        else:
            room.play(1_000)
    # once pushes flow again, one report each settles it: no refusal, one position
    refused = {name: device.refused for name, device in room.devices.items()}
    for name, other in (("phone", "tablet"), ("tablet", "phone")):
        room.deliver(name)
        room.report(name)
        room.deliver(other)
    assert {name: device.refused for name, device in room.devices.items()} == refused
    for device in room.devices.values():
        assert abs(device.position_ms - room.state.position_ms) <= FOLLOW_THRESHOLD_MS
