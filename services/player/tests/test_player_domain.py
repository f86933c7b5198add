"""The player's rules without I/O: chronology, the offer arithmetic, history, locate, undo."""

import pytest
from bedside_contracts.player import (
    Asleep,
    Bookmark,
    CancelList,
    DeviceJoined,
    DeviceLeft,
    HistoryEntry,
    JoinDevice,
    LeaveDevice,
    ListenerRetired,
    ListOffered,
    Moved,
    OfferPositions,
    PlayerCommand,
    PlayerEvent,
    PositionReported,
    PressRow,
    Report,
    RowPressed,
    Seek,
    Seeked,
    SleepTimer,
    Undo,
)
from bedside_contracts.search import ChapterInfo, Resolution, Target
from bedside_guard import MAX_ROWS, Candidate, Passage, ahead_of
from bedside_player.domain.decide import Invalid, Retired, Stale, decide, retire, told_joining
from bedside_player.domain.history import StoredEvent, entries, history, locate
from bedside_player.domain.offer import decide_offer, unique_targets
from bedside_player.domain.playing import GONE_QUIET_MS, PlayingDevice
from bedside_player.domain.state import PlayerState, evolve, listening_to
from bedside_player.replay import from_snapshot, to_snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

NOW = 1_800_000_000_000
"""The player's clock in these tests (ms since the epoch): every report is heard at it."""


BOOK_END = 10 * 3600_000


def run(state: PlayerState, *commands: PlayerCommand) -> PlayerState:
    """Decide and evolve each command in turn, numbering events as a stream would."""
    for command in commands:
        if (event := decide(state, command, book_end_ms=BOOK_END, now_ms=NOW)) is not None:
            state = evolve(state, event, state.seq + 1)
    return state


def fresh() -> PlayerState:
    return PlayerState(listener="ann", book="b1")


# ------------------------------------------------------------------ chronology


def test_a_stale_report_after_a_move_is_refused_and_changes_nothing() -> None:
    state = run(fresh(), Report(device="phone", position_ms=60_000, playing=True, basis_seq=0))
    tablet_basis = state.seq
    state = run(state, Seek(device="phone", position_ms=3_600_000, basis_seq=state.seq))
    with pytest.raises(Stale):
        decide(
            state,
            Report(device="tablet", position_ms=61_000, playing=True, basis_seq=tablet_basis),
            now_ms=NOW,
        )
    assert state.position_ms == 3_600_000


def test_the_book_listened_to_is_placed_newest_on_the_stream_and_a_join_places_nothing() -> None:
    b1 = evolve(fresh(), PositionReported(device="phone", position_ms=5_000, playing=True, basis_seq=0), 3)
    b2 = PlayerState(listener="ann", book="b2")
    assert listening_to([]) is None
    assert listening_to([b2, evolve(b2, DeviceJoined(device="phone"), 9)]) is None
    b2 = evolve(b2, Seeked(device="phone", from_ms=0, position_ms=60_000, basis_seq=0), 7)
    assert listening_to([b1, b2]) == "b2"
    b1 = evolve(b1, DeviceJoined(device="tablet"), 8)  # newer on the stream, but it places nothing
    assert listening_to([b1, b2]) == "b2"
    b1 = evolve(b1, PositionReported(device="phone", position_ms=6_000, playing=True, basis_seq=8), 10)
    assert listening_to([b2, b1]) == "b1"


def test_a_seek_with_a_current_basis_is_the_listeners_own_rewind() -> None:
    state = run(fresh(), Report(device="phone", position_ms=600_000, playing=True, basis_seq=0))
    state = run(state, Seek(device="tablet", position_ms=65_000, basis_seq=state.seq))
    assert state.position_ms == 65_000
    assert state.last_move_seq == state.seq


def test_a_seek_on_a_stale_basis_is_refused_too() -> None:
    state = run(fresh(), Seek(device="phone", position_ms=600_000, basis_seq=0))
    with pytest.raises(Stale):
        decide(state, Seek(device="tablet", position_ms=65_000, basis_seq=0), now_ms=NOW)


def test_a_current_report_is_the_position_even_behind_the_one_before() -> None:
    state = run(fresh(), Seek(device="phone", position_ms=600_000, basis_seq=0))
    state = run(state, Report(device="phone", position_ms=700_000, playing=True, basis_seq=state.seq))
    state = run(state, Report(device="tablet", position_ms=650_000, playing=True, basis_seq=state.seq))
    assert state.position_ms == 650_000  # the newest by sequence, not the furthest


@pytest.mark.parametrize(
    ("position", "basis"), [(BOOK_END + 1, 0), (-1, 0), (5, 1)], ids=["past-end", "negative", "future-basis"]
)
def test_impossible_reports_are_invalid(position: int, basis: int) -> None:
    with pytest.raises(Invalid):
        decide(
            fresh(),
            Report.model_construct(device="d", position_ms=position, playing=True, basis_seq=basis),
            book_end_ms=BOOK_END,
            now_ms=NOW,
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["report", "seek", "undo"]),
            st.integers(0, BOOK_END),
            st.integers(0, 30),
            st.integers(-3_600_000, 3_600_000),
        ),
        max_size=30,
    )
)
def test_chronology_property(steps: list[tuple[str, int, int, int]]) -> None:
    """Whatever devices send, with whatever clocks: a report is accepted exactly when its
    basis is at or after the last move, and then it is the position; a refusal changes nothing,
    and nor does a seek to where a paused book stands."""
    state = fresh()
    for op, position, lag, skew in steps:
        basis = max(0, state.seq - lag)
        clock = 1_800_000_000_000 + skew
        command: PlayerCommand
        if op == "report":
            command = Report(
                device="d", position_ms=position, playing=True, basis_seq=basis, device_clock=clock
            )
        elif op == "seek":
            command = Seek(device="d", position_ms=position, basis_seq=basis, device_clock=clock)
        else:
            command = Undo()
        try:
            event = decide(state, command, book_end_ms=BOOK_END, now_ms=NOW)
        except Stale:
            assert op != "undo"
            assert basis < state.last_move_seq
            continue
        except Invalid:
            assert op == "undo"
            assert state.before_move_ms is None
            continue
        if op != "undo":
            assert basis >= state.last_move_seq
        before = state
        if event is None:  # only a seek to where a paused book stands appends nothing
            assert (op, position, state.playing) == ("seek", state.position_ms, False)
            continue
        state = evolve(state, event, state.seq + 1)
        if op in ("report", "seek"):
            assert state.position_ms == position
        else:
            assert state.position_ms == before.before_move_ms
        if op in ("seek", "undo"):
            assert state.last_move_seq == state.seq


def test_evolve_ignores_an_event_it_has_applied() -> None:
    state = evolve(fresh(), PositionReported(device="d", position_ms=5, playing=True, basis_seq=0), 7)
    again = evolve(state, PositionReported(device="d", position_ms=9, playing=True, basis_seq=0), 7)
    assert again is state


def test_a_message_that_fits_no_event_moves_only_the_sequence_on() -> None:
    state = evolve(fresh(), PositionReported(device="d", position_ms=5, playing=True, basis_seq=0), 7)
    assert evolve(state, None, 9) == state._replace(seq=9)
    assert evolve(state, None, 7) is state


# ------------------------------------------------------------------ undo, list, devices


def test_undo_goes_back_to_before_the_last_move_and_is_itself_a_move() -> None:
    state = run(fresh(), Report(device="d", position_ms=1_000_000, playing=True, basis_seq=0))
    state = evolve(state, Moved(cause="goto", from_ms=1_000_000, to_ms=200_000, turn_id="t"), state.seq + 1)
    state = run(state, Report(device="d", position_ms=230_000, playing=True, basis_seq=state.seq))
    state = run(state, Undo())
    assert state.position_ms == 1_000_000
    assert state.last_move_seq == state.seq
    state = run(state, Undo())  # undoing the undo returns to where the undo started
    assert state.position_ms == 230_000


def test_an_undo_made_before_the_last_move_is_stale() -> None:
    """A review: the tablet's "Back to where I was (0:10:00)", pressed after the phone's undo had
    already gone there, undid the undo and took the book back to 0:01:00."""
    state = run(fresh(), Report(device="phone", position_ms=600_000, playing=False, basis_seq=0))
    state = run(state, Seek(device="phone", position_ms=60_000, basis_seq=state.seq))
    seen_by_tablet = state.seq
    state = run(state, Undo(device="phone", basis_seq=state.seq))
    assert state.position_ms == 600_000
    with pytest.raises(Stale):
        decide(state, Undo(device="tablet", basis_seq=seen_by_tablet), now_ms=NOW)
    assert run(state, Undo(device="tablet", basis_seq=state.seq)).position_ms == 60_000  # seen, it may


def test_the_state_says_what_made_its_last_move_and_a_report_keeps_it() -> None:
    state = run(fresh(), Seek(device="phone", position_ms=60_000, basis_seq=0))
    assert state.public(NOW).last_move_cause == "seeked"
    state = run(state, Undo(device="tablet"))
    assert state.public(NOW).last_move_cause == "undo"
    state = run(state, Report(device="phone", position_ms=2_000, playing=True, basis_seq=state.seq))
    assert (state.public(NOW).last_move_cause, state.public(NOW).last_move_seq) == ("undo", 2)


def test_nothing_to_undo_is_invalid() -> None:
    with pytest.raises(Invalid):
        decide(fresh(), Undo(), now_ms=NOW)


def rows_state() -> PlayerState:
    rows = [Candidate(start_ms=ms, ahead=True, passage_id=i) for i, ms in enumerate((5_000, 9_000))]
    return evolve(fresh(), ListOffered(rows=rows, turn_id="t1"), 1)


def test_pressing_a_row_moves_there_and_clears_the_list() -> None:
    state = run(rows_state(), PressRow(row=1))
    assert state.position_ms == 9_000
    assert state.rows == ()
    assert state.last_move_seq == state.seq


def test_cancelling_removes_the_list_and_nothing_else() -> None:
    before = rows_state()
    state = run(before, CancelList())
    assert state.rows == ()
    assert (state.position_ms, state.last_move_seq, state.playing) == (
        before.position_ms,
        before.last_move_seq,
        before.playing,
    )
    assert decide(state, CancelList(), now_ms=NOW) is None


def test_the_listeners_own_seek_or_undo_takes_the_list_down_and_the_move_records_it() -> None:
    listed = rows_state()
    seek = decide(listed, Seek(device="phone", position_ms=30_000, basis_seq=listed.seq), now_ms=NOW)
    assert isinstance(seek, Seeked)
    assert seek.withdrew_list
    sought = evolve(listed, seek, listed.seq + 1)
    assert (sought.rows, sought.list_turn_id, sought.public(NOW).rows) == ((), None, [])
    # a list drawn again, then an undo: that move takes it down too
    relisted = evolve(sought, ListOffered(rows=list(listed.rows), turn_id="t2"), sought.seq + 1)
    undo = decide(relisted, Undo(device="tablet"), now_ms=NOW)
    assert isinstance(undo, Moved)
    assert undo.withdrew_list
    assert evolve(relisted, undo, relisted.seq + 1).rows == ()
    # with no list up a move withdraws nothing, and says so
    assert not run(fresh(), Seek(device="phone", position_ms=1_000, basis_seq=0)).rows
    assert decide(fresh(), Seek(device="phone", position_ms=1_000, basis_seq=0), now_ms=NOW) == Seeked(
        device="phone", from_ms=0, position_ms=1_000, basis_seq=0
    )


def test_a_move_stored_before_the_list_rule_replays_as_it_was_seen_with_its_list_up() -> None:
    listed = rows_state()
    stored = Seeked.model_validate_json(
        '{"kind":"seeked","device":"phone","from_ms":0,"position_ms":30000,"basis_seq":1}'
    )
    assert evolve(listed, stored, listed.seq + 1).rows == listed.rows


def test_a_report_leaves_the_list_up_and_a_row_can_still_be_pressed() -> None:
    listed = rows_state()
    played = run(listed, Report(device="phone", position_ms=40_000, playing=True, basis_seq=listed.seq))
    assert played.rows == listed.rows
    pressed = decide(played, PressRow(row=0, device="phone"), now_ms=NOW)
    assert isinstance(pressed, RowPressed)
    assert pressed.to_ms == 5_000


def test_a_row_heard_when_drawn_is_covered_once_the_listener_goes_back_before_it() -> None:
    heard = Candidate(start_ms=5_000, ahead=False, passage_id=0, chapter=1, chapter_title="Dawn", words="a b")
    listed = evolve(
        evolve(fresh(), PositionReported(device="ph", position_ms=20_000, playing=True, basis_seq=0), 1),
        ListOffered(rows=[heard], turn_id="t1"),
        2,
    )
    assert listed.public(NOW).rows == [heard]
    back = run(listed, Report(device="ph", position_ms=1_000, playing=True, basis_seq=listed.seq))
    (row,) = back.public(NOW).rows
    assert row.ahead
    assert (row.chapter_title, row.words) == (None, None)


def test_pressing_without_a_list_or_past_its_rows_is_invalid() -> None:
    with pytest.raises(Invalid):
        decide(fresh(), PressRow(row=0), now_ms=NOW)
    with pytest.raises(Invalid):
        decide(rows_state(), PressRow(row=3), now_ms=NOW)


def test_a_row_pressed_on_a_list_since_replaced_is_refused_with_the_new_list() -> None:
    """A page showed chapter 4's row while another device's question drew a list for chapter 6, and the
    press took the book to chapter 6: a covered place the listener never chose (a review)."""
    with pytest.raises(Stale):
        decide(rows_state(), PressRow(row=0, list_turn_id="t0"), now_ms=NOW)
    assert run(rows_state(), PressRow(row=1, list_turn_id="t1")).position_ms == 9_000
    assert run(rows_state(), PressRow(row=1)).position_ms == 9_000  # a device that names no list


def test_a_device_joins_once() -> None:
    state = run(fresh(), JoinDevice(device="phone"), JoinDevice(device="phone"), JoinDevice(device="tab"))
    assert state.devices == ("phone", "tab")
    assert state.events == 2


def playing_on(*devices: str) -> PlayerState:
    state = fresh()
    for n, device in enumerate(devices):
        state = run(state, Report(device=device, position_ms=10_000 + n, playing=True, basis_seq=state.seq))
    return state


def test_the_last_playing_device_to_leave_leaves_the_book_paused_where_it_was() -> None:
    state = playing_on("phone")
    left = decide(state, LeaveDevice(device="phone", position_ms=25_000, basis_seq=state.seq), now_ms=NOW)
    assert left == DeviceLeft(device="phone", paused_at_ms=25_000, basis_seq=state.seq)
    after = evolve(state, left, state.seq + 1)
    assert (after.playing, after.position_ms, after.players) == (False, 25_000, ())
    # its pause is news like a report: a device that had not seen it cannot report over it
    with pytest.raises(Stale):
        decide(
            after, Report(device="tablet", position_ms=11_000, playing=True, basis_seq=state.seq), now_ms=NOW
        )


def test_a_device_leaving_while_another_plays_leaves_the_book_playing() -> None:
    state = playing_on("phone", "speaker")
    state = run(state, LeaveDevice(device="phone", position_ms=25_000, basis_seq=state.seq))
    assert (state.playing, state.position_ms, state.players) == (
        True,
        10_001,
        (PlayingDevice("speaker", NOW),),
    )
    state = run(state, LeaveDevice(device="speaker", position_ms=26_000, basis_seq=state.seq))
    assert (state.playing, state.position_ms, state.players) == (False, 26_000, ())


def test_a_device_that_was_not_playing_leaves_without_a_word() -> None:
    state = run(playing_on("phone"), Report(device="phone", position_ms=12_000, playing=False, basis_seq=1))
    assert (
        decide(state, LeaveDevice(device="phone", position_ms=12_000, basis_seq=state.seq), now_ms=NOW)
        is None
    )
    assert (
        decide(playing_on("phone"), LeaveDevice(device="tablet", position_ms=0, basis_seq=1), now_ms=NOW)
        is None
    )


def test_the_last_player_leaving_on_a_stale_basis_pauses_where_the_stream_placed_the_book() -> None:
    state = playing_on("phone")
    basis = state.seq
    state = run(state, Seek(device="tablet", position_ms=40_000, basis_seq=state.seq))
    state = run(state, LeaveDevice(device="phone", position_ms=12_000, basis_seq=basis))
    assert (state.playing, state.position_ms) == (False, 40_000)


# ------------------------------------------------------------------ devices gone quiet (ADR 48)


def run_at(now_ms: int, state: PlayerState, *commands: PlayerCommand) -> PlayerState:
    """``run`` with the player's clock at ``now_ms``."""
    for command in commands:
        if (event := decide(state, command, book_end_ms=BOOK_END, now_ms=now_ms)) is not None:
            state = evolve(state, event, state.seq + 1)
    return state


def report_at(now_ms: int, state: PlayerState, device: str, position_ms: int) -> PlayerState:
    return run_at(
        now_ms, state, Report(device=device, position_ms=position_ms, playing=True, basis_seq=state.seq)
    )


def test_a_device_joining_a_playing_book_is_told_where_it_has_got_to_never_past_its_end() -> None:
    """The newest report is up to 15 s behind a book that plays: a device opened then starts where
    the player's own clock says the book has got to since, not there; a paused book or one whose
    players went quiet is told where it was reported."""
    state = report_at(NOW, fresh(), "phone", 60_000)

    def joined_at(now_ms: int, state: PlayerState, device: str = "tablet") -> int:
        return told_joining(state.public(now_ms), state, device, now_ms, BOOK_END).position_ms

    assert joined_at(NOW + 9_000, state) == 69_000
    assert joined_at(NOW + 9_000, report_at(NOW, fresh(), "phone", BOOK_END - 2_000)) == BOOK_END
    assert joined_at(NOW + GONE_QUIET_MS + 1, state) == 60_000
    pause = Report(device="phone", position_ms=61_000, playing=False, basis_seq=state.seq)
    paused = run_at(NOW, state, pause)
    assert joined_at(NOW + 9_000, paused) == 61_000
    # the review: the phone's own tab, died playing and reopened, heard nothing since its report
    assert joined_at(NOW + 9_000, state, "phone") == 60_000


def test_a_book_whose_only_player_went_quiet_is_told_paused_where_it_was_last_reported() -> None:
    """A tab that died without a word (no pagehide) leaves no book playing for ever."""
    state = report_at(NOW, fresh(), "phone", 60_000)
    assert state.public(NOW + GONE_QUIET_MS).playing
    told = state.public(NOW + GONE_QUIET_MS + 1)
    assert (told.playing, told.position_ms) == (False, 60_000)
    assert state.playing  # the stream's word is not changed: nothing is decided from a clock
    # the device was only out of reach: its next report is taken, and the book plays again
    back = report_at(NOW + 10 * GONE_QUIET_MS, state, "phone", 90_000)
    assert back.public(NOW + 10 * GONE_QUIET_MS).playing


def test_a_report_stored_before_reports_were_stamped_keeps_no_book_playing() -> None:
    unstamped = PositionReported(device="phone", position_ms=60_000, playing=True, basis_seq=0)
    state = evolve(fresh(), unstamped, 1)
    assert state.players == (PlayingDevice("phone", None),)
    assert not state.public(NOW).playing


def test_the_last_device_heard_leaving_pauses_the_book_though_a_quiet_one_never_left() -> None:
    """The phone's tab crashed; the speaker played on and is now closed: the book pauses."""
    both = report_at(NOW + 5_000, report_at(NOW, fresh(), "phone", 60_000), "speaker", 65_000)
    # while the phone is still heard, the speaker leaving leaves the book playing on the phone
    leave = LeaveDevice(device="speaker", position_ms=70_000, basis_seq=both.seq)
    recent = run_at(NOW + 10_000, both, leave)
    assert recent.public(NOW + 10_000).playing
    assert [p.device for p in recent.players] == ["phone"]
    # the phone is not heard again; the speaker plays on, and later it is closed
    later = NOW + 5_000 + GONE_QUIET_MS
    state = report_at(later, both, "speaker", 65_000 + GONE_QUIET_MS)
    assert state.public(later).playing
    leave = LeaveDevice(device="speaker", position_ms=200_000, basis_seq=state.seq)
    left = run_at(later + 1_000, state, leave)
    assert (left.playing, left.position_ms, left.players) == (False, 200_000, ())


# ------------------------------------------------------------------ the offer arithmetic

PASSAGE_MS = 30_000


def passage(pid: int) -> Passage:
    return Passage(
        id=pid,
        start_ms=pid * PASSAGE_MS,
        end_ms=(pid + 1) * PASSAGE_MS,
        chapter=pid // 60 + 1,
        chapter_title=f"Title {pid // 60 + 1}",
        text=f"words {pid}",
    )


def resolve(targets: list[Target]) -> list[Resolution]:
    out = []
    for t in targets:
        pid = t.passage_id if t.passage_id is not None else -1
        if 0 <= pid < 1000:
            out.append(Resolution(target=t, passage=passage(pid)))
        else:
            out.append(Resolution(target=t, reason="no such passage"))
    return out


targets_strategy = st.lists(
    st.builds(Target, passage_id=st.integers(0, 1200) | st.sampled_from([3, 3, 7])), min_size=1, max_size=8
)


@settings(max_examples=300, deadline=None)
@given(targets_strategy, st.integers(0, 1000 * PASSAGE_MS), st.booleans())
def test_offer_arithmetic_property(targets: list[Target], here_ms: int, may_move: bool) -> None:
    request = OfferPositions(listener="ann", book="b1", turn_id="t", targets=targets, may_move=may_move)
    decision = decide_offer(request, resolve(unique_targets(targets)), here_ms)
    # the places: resolvable ids, deduplicated, in the order first given
    expected: list[int] = []
    for t in targets:
        pid = t.passage_id
        assert pid is not None
        if pid < 1000 and pid * PASSAGE_MS not in expected:
            expected.append(pid * PASSAGE_MS)
    outcome = decision.outcome
    if not expected:
        assert outcome.outcome == "refused"
        assert "find_passage" in outcome.reason
        assert decision.event is None
        return
    if len(expected) > 1:
        assert outcome.outcome == "listed"
        assert [r.start_ms for r in outcome.rows] == expected[:MAX_ROWS]
    elif ahead_of(expected[0], here_ms) or not may_move:
        assert outcome.outcome == "listed"
        assert len(outcome.rows) == 1
    else:
        assert outcome.outcome == "moved"
        event = decision.event
        assert isinstance(event, Moved)
        assert (event.from_ms, event.to_ms) == (here_ms, expected[0])
    for row in outcome.rows:
        assert row.ahead == ahead_of(row.start_ms, here_ms)
        if row.ahead:  # a row ahead is covered: no title and no words
            assert row.chapter_title is None
            assert row.words is None
    if outcome.outcome == "listed":
        event = decision.event
        assert isinstance(event, ListOffered)
        assert event.rows == outcome.rows


def test_two_ids_on_one_place_are_one_place() -> None:
    t1, t2 = Target(passage_id=4), Target(position_ms=4 * PASSAGE_MS)
    resolutions = [
        Resolution(target=t1, passage=passage(4)),
        Resolution(target=t2, passage=passage(4), at_ms=4 * PASSAGE_MS, named="time"),
    ]
    request = OfferPositions(listener="a", book="b", turn_id="t", targets=[t1, t2])
    decision = decide_offer(request, resolutions, here_ms=900_000)
    assert decision.outcome.outcome == "moved"


def test_a_move_names_the_device_it_was_asked_on_so_another_device_can_tell_it_as_news() -> None:
    """A page keeps quiet about a question's move while its own question is out (its answer tells it):
    the state names the device whose request made the move, so one asked elsewhere is still told."""
    target = Target(position_ms=4 * PASSAGE_MS)
    resolutions = [Resolution(target=target, passage=passage(4), at_ms=4 * PASSAGE_MS, named="time")]
    request = OfferPositions(listener="a", book="b", turn_id="t", targets=[target], device="speaker")
    moved = decide_offer(request, resolutions, here_ms=900_000).event
    assert isinstance(moved, Moved)
    assert moved.device == "speaker"
    state = evolve(fresh(), moved, 1)
    assert state.public(NOW).last_move_device == "speaker"
    state = run(state, Report(device="phone", position_ms=4 * PASSAGE_MS + 5_000, playing=True, basis_seq=1))
    assert state.public(NOW).last_move_device == "speaker"  # a report is no move
    assert from_snapshot(to_snapshot(state, state.seq)) == state
    state = run(state, Seek(device="phone", position_ms=0, basis_seq=state.seq))
    assert state.public(NOW).last_move_device == "phone"


def test_a_named_chapter_ahead_keeps_its_number_but_not_its_title() -> None:
    target = Target(chapter=9)
    resolutions = [Resolution(target=target, passage=passage(480), named="chapter")]
    request = OfferPositions(listener="a", book="b", turn_id="t", targets=[target])
    outcome = decide_offer(request, resolutions, here_ms=0).outcome
    assert outcome.outcome == "listed"
    (row,) = outcome.rows
    assert (row.ahead, row.chapter, row.chapter_title, row.words) == (True, 9, None, None)


def test_the_end_of_a_chapter_named_ahead_is_a_row_saying_so() -> None:
    """Search resolves the end of chapter 9 as a chapter named (its closing passage): the covered
    row keeps the number and says it is the chapter's end, as the listener asked."""
    target = Target(chapter_end=9)
    resolutions = [Resolution(target=target, passage=passage(539), named="chapter")]
    request = OfferPositions(listener="a", book="b", turn_id="t", targets=[target])
    (row,) = decide_offer(request, resolutions, here_ms=0).outcome.rows
    assert (row.ahead, row.chapter, row.end_of_chapter, row.chapter_title, row.words) == (
        True,
        9,
        True,
        None,
        None,
    )
    started = Resolution(target=Target(chapter=9), passage=passage(480), named="chapter")
    (start,) = decide_offer(request, [started], here_ms=0).outcome.rows
    assert not start.end_of_chapter  # a chapter's start is said as the chapter


def refused_for(*resolutions: Resolution) -> str:
    request = OfferPositions(listener="a", book="b", turn_id="t", targets=[r.target for r in resolutions])
    outcome = decide_offer(request, list(resolutions), here_ms=0).outcome
    assert outcome.outcome == "refused"
    return outcome.reason


NOTHING_BEFORE = Resolution(
    target=Target(offset_ms=-300_000), named="time", reason="there is nothing before the start of the book"
)
NO_PASSAGE = Resolution(target=Target(passage_id=9998), reason="there is no passage with id 9998")
NO_CHAPTER = Resolution(target=Target(chapter=40), named="chapter", reason="the book has no chapter 40")
PAST_THE_END = Resolution(target=Target(position_ms=9_000_000), named="time", reason="past the end")


def test_a_refusal_advises_searching_again_only_when_an_id_named_is_not_in_the_book() -> None:
    """Before, every refusal said "Search again with find_passage…", even a jump back from the book's
    very start, where there is nothing to find: a model reading it could search for nothing."""
    start = refused_for(NOTHING_BEFORE)
    assert "there is nothing before the start of the book" in start
    assert "find_passage" not in start
    assert "Tell them so" in start
    for named in (NO_CHAPTER, PAST_THE_END):
        reason = refused_for(named)
        assert "find_passage" not in reason
        assert "a chapter or a time the book has" in reason
    for ids in ((NO_PASSAGE,), (NO_PASSAGE, NOTHING_BEFORE)):
        reason = refused_for(*ids)
        assert "Search again with find_passage and offer ids taken from its lines" in reason
        assert "there is no passage with id 9998" in reason


# ------------------------------------------------------------------ history and locate


def stored_events() -> list[StoredEvent]:
    events: list[PlayerEvent] = [
        DeviceJoined(device="phone"),
        PositionReported(device="phone", position_ms=100_000, playing=True, basis_seq=1),
        Seeked(device="phone", from_ms=100_000, position_ms=2_000_000, basis_seq=2),
        PositionReported(device="tab", position_ms=2_010_000, playing=True, basis_seq=3),
        Moved(cause="goto", from_ms=2_010_000, to_ms=50_000, turn_id="t1"),
        PositionReported(device="phone", position_ms=80_000, playing=False, basis_seq=5),
        RowPressed(row=0, from_ms=80_000, to_ms=40_000),
        Moved(cause="undo", from_ms=40_000, to_ms=80_000),
    ]
    return [
        StoredEvent(seq * 10, e) for seq, e in enumerate(events, start=1)
    ]  # sequences with gaps, as in a shared stream


def test_history_is_newest_first_and_limit_is_the_most_recent_n() -> None:
    items = entries("ann", "b1", stored_events())
    page = history(items, limit=3)
    assert [e.seq for e in page] == [80, 70, 60]
    older = history(items, limit=3, before_seq=page[-1].seq)
    assert [e.seq for e in older] == [50, 40, 30]
    # superseded positions stay reachable
    assert 2_000_000 in [e.position_ms for e in history(items, limit=100)]
    moved = history(items, limit=5, kind="moved")
    assert [(e.seq, e.cause) for e in moved] == [(80, "undo"), (50, "goto")]


def test_history_entries_carry_position_device_and_cause() -> None:
    chapters = [
        ChapterInfo(n=1, title="x", start_ms=0, end_ms=1_000_000),
        ChapterInfo(n=2, title="y", start_ms=1_000_000, end_ms=3_000_000),
    ]
    items = {e.seq: e for e in entries("ann", "b1", stored_events(), chapters)}
    assert items[30] == HistoryEntry(
        seq=30,
        kind="seeked",
        position_ms=2_000_000,
        from_ms=100_000,
        chapter=2,
        device="phone",
        cause="seeked",
        placed=True,
    )
    assert items[50].cause == "goto"
    assert items[50].position_ms == 50_000
    assert items[50].chapter == 1


@pytest.mark.parametrize("page_size", [1, 2, 3, 10])
def test_locate_reports_newest_count_earliest_and_pages_from_a_match_index(page_size: int) -> None:
    items = entries("ann", "b1", stored_events())
    found = locate(items, "reported", limit=page_size, now_ms=0)
    assert found.count == 3
    assert found.newest is not None
    assert found.newest.seq == 60
    assert found.earliest_index == 2
    # paging from the earliest's own index gives the earliest, whatever the page size
    from_earliest = locate(items, "reported", offset=found.earliest_index, limit=page_size, now_ms=0)
    assert [e.seq for e in from_earliest.page] == [20]
    from_second = locate(items, "reported", offset=1, limit=page_size, now_ms=0)
    assert [e.seq for e in from_second.page] == [40, 20][:page_size]


def test_locate_by_predicate_and_no_match() -> None:
    items = entries("ann", "b1", stored_events())
    found = locate(items, lambda e: e.device == "tab", now_ms=0)
    assert (found.count, found.newest.seq if found.newest else None) == (1, 40)
    none = locate(items, "cancelled", now_ms=0)
    assert (none.count, none.newest, none.earliest_index, none.page) == (0, None, None, [])


small = st.integers(min_value=0, max_value=10_000)
reporters = st.sampled_from(["phone", "speaker"])
any_state = st.builds(
    PlayerState,
    bookmarks=st.sampled_from([(), (Bookmark(seq=1, at_ms=5, title="here", device="phone"),)]),
    listener=st.just("anna"),
    book=st.just("b1"),
    position_ms=small,
    playing=st.booleans(),
    seq=small,
    last_move_seq=small,
    before_move_ms=st.none() | small,
    last_report_seq=small,
    last_reporter=st.none() | reporters,
    other_report_seq=small,
    rows=st.just((Candidate(start_ms=5, ahead=True, passage_id=3),)) | st.just(()),
    list_turn_id=st.none() | st.just("t1"),
    devices=st.just(("phone",)),
    events=small,
    sleep_timer=st.none() | st.just(SleepTimer(after=5, stop_at_ms=9, set_seq=2, device="phone")),
    asleep=st.none() | st.just(Asleep(paused_at_ms=9, asleep_at_ms=7, seq=3, device="phone")),
    last_touch_ms=small,
    players=st.sampled_from(
        [
            (),
            (PlayingDevice("phone", NOW),),
            (PlayingDevice("speaker", None),),
            (PlayingDevice("speaker", NOW - 1), PlayingDevice("phone", NOW)),
        ]
    ),
)


@given(state=any_state, device=reporters, position=small, playing=st.booleans())
def test_a_report_changes_only_what_a_report_changes(
    state: PlayerState, device: str, position: int, playing: bool
) -> None:
    seq = state.seq + 1
    event = PositionReported(
        device=device, position_ms=position, playing=playing, basis_seq=0, heard_at_ms=NOW
    )
    another = device != state.last_reporter
    playing_now = (*(p for p in state.players if p.device != device), PlayingDevice(device, NOW))
    expected = state._replace(
        position_ms=position,
        playing=playing,
        seq=seq,
        events=state.events + 1,
        last_report_seq=seq,
        last_reporter=device,
        other_report_seq=state.last_report_seq if another else state.other_report_seq,
        players=playing_now if playing else (),
        # the report says where the book was: only changes of speed since count on from it
        speed_changes=tuple(c for c in state.speed_changes if c.at_ms > NOW) if playing else (),
    )
    assert evolve(state, event, seq) == expected


@given(state=any_state, device=reporters, position=small)
def test_a_reported_state_is_a_state_that_cannot_be_changed_in_place(
    state: PlayerState, device: str, position: int
) -> None:
    event = PositionReported(device=device, position_ms=position, playing=True, basis_seq=0)
    after = evolve(state, event, state.seq + 1)
    assert type(after) is PlayerState
    with pytest.raises(AttributeError):
        after.position_ms = position + 1  # type: ignore[misc]
    assert after.position_ms == position


# ------------------------------------------------------------------ a listener removed


def test_a_retired_listeners_stream_refuses_every_command_and_keeps_where_the_book_was() -> None:
    playing = run(fresh(), Report(device="phone", position_ms=5_000, playing=True, basis_seq=0))
    event = retire(playing)
    assert event == ListenerRetired()
    retired = evolve(playing, event, playing.seq + 1)
    told = retired.public(NOW)
    assert (told.retired, told.playing, told.position_ms) == (True, False, 5_000)
    assert retire(retired) is None  # retired once, however often asked
    for command in (
        Report(device="phone", position_ms=6_000, playing=True, basis_seq=retired.seq),
        Seek(device="phone", position_ms=1_000, basis_seq=retired.seq),
        JoinDevice(device="tablet"),
        Undo(),
    ):
        with pytest.raises(Retired, match="removed"):  # a Stale: the device is told the retired state
            decide(retired, command, now_ms=NOW)
    # a report replayed after it (none can be appended) would not bring the listener back
    assert evolve(retired, PositionReported(device="x", position_ms=1, playing=True, basis_seq=0), 9).retired


def test_a_retired_listener_stays_retired_through_a_snapshot() -> None:
    retired = evolve(fresh(), ListenerRetired(), 1)
    assert from_snapshot(to_snapshot(retired, 1)).retired


def test_a_seek_to_where_a_paused_book_stands_is_no_event() -> None:
    """A history row pressed for the place the book is at, or "back 30 seconds" at 0:00:00, each
    added a row to the history and moved nothing."""
    paused = run(fresh(), Report(device="phone", position_ms=60_000, playing=False, basis_seq=0))
    assert decide(paused, Seek(device="phone", position_ms=60_000, basis_seq=paused.seq), now_ms=NOW) is None
    playing = run(fresh(), Report(device="phone", position_ms=60_000, playing=True, basis_seq=0))
    # playing, the book has gone on past its last report: the same number is a move back
    assert decide(playing, Seek(device="phone", position_ms=60_000, basis_seq=playing.seq), now_ms=NOW)
