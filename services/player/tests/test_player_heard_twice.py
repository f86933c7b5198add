"""One request heard on two devices of one listener is carried out once (ADR 77): the rule, no I/O.

A goto of an offer first; then a turn's undo, sleep timer and bookmark, which are player commands."""

import hashlib

from bedside_contracts.player import (
    AddBookmark,
    BookmarkAdded,
    BookmarkRemoved,
    Heard,
    Moved,
    OfferPositions,
    Seeked,
    SetSleepTimer,
    SleepTimerCancelled,
    SleepTimerSet,
    Undo,
)
from bedside_contracts.search import Resolution, Target
from bedside_guard import Passage
from bedside_player.domain.decide import decide
from bedside_player.domain.heard_twice import (
    HEARD_TWICE_WITHIN_MS,
    GotoMade,
    RequestMade,
    command_heard_twice,
    heard_twice,
    told_again,
    told_done,
)
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.replay import from_snapshot, to_snapshot

MADE_AT = 1_800_000_000_000


def key_of(reading: str) -> str:
    """A request as the turn read it, as the turn's key (``routing.request_key``): opaque to the player."""
    return hashlib.sha256(reading.encode()).hexdigest()


GO_BACK_2 = key_of("go back 2 minutes")
FROM_MS, TO_MS = 1_000_000, 880_000


def moved_on_the_phone(request_key: str = GO_BACK_2) -> PlayerState:
    """The phone's "go back 2 minutes" carried out at sequence 8, after a report at 7."""
    state = PlayerState(listener="ann", book="b1", position_ms=FROM_MS, seq=7)
    goto = Moved(
        cause="goto",
        from_ms=FROM_MS,
        to_ms=TO_MS,
        turn_id="t1",
        device="phone",
        request_key=request_key,
        made_at_ms=MADE_AT,
    )
    return evolve(state, goto, 8)


def offer(
    device: str | None = "speaker",
    request_key: str | None = GO_BACK_2,
    basis_seq: int | None = 7,
    asked_at_ms: int | None = None,
) -> OfferPositions:
    return OfferPositions(
        listener="ann",
        book="b1",
        turn_id="t2",
        targets=[Target(offset_ms=-120_000)],
        device=device,
        heard=Heard(request_key=request_key, basis_seq=basis_seq, asked_at_ms=asked_at_ms)
        if request_key
        else None,
    )


def test_the_same_request_from_another_device_on_the_same_basis_is_the_first_heard_again() -> None:
    state = moved_on_the_phone()
    much_later = MADE_AT + 10 * HEARD_TWICE_WITHIN_MS  # a slow turn: the basis alone says it
    first = heard_twice(state, offer(basis_seq=7), much_later)
    assert first == GotoMade(
        seq=8, device="phone", request_key=GO_BACK_2, made_at_ms=MADE_AT, from_ms=FROM_MS, to_ms=TO_MS
    )


def test_the_same_request_from_another_device_just_after_the_first_was_carried_out_is_heard_again() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(basis_seq=8), MADE_AT + HEARD_TWICE_WITHIN_MS) is not None
    assert heard_twice(state, offer(basis_seq=None), MADE_AT + 1_000) is not None


def test_the_same_request_asked_just_after_the_first_was_made_is_heard_again_however_late_it_comes() -> None:
    """The speaker's question was taken a second after the phone's move, and its turn took a minute:
    the window is from when it was asked, on the player's clock, not from when its offer came."""
    state = moved_on_the_phone()
    a_slow_turn_later = MADE_AT + 60_000
    asked = MADE_AT + 1_000
    assert heard_twice(state, offer(basis_seq=8, asked_at_ms=asked), a_slow_turn_later) is not None
    asked_later = MADE_AT + HEARD_TWICE_WITHIN_MS + 1
    assert heard_twice(state, offer(basis_seq=8, asked_at_ms=asked_later), asked_later) is None


def test_the_same_request_from_another_device_later_is_a_new_one() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(basis_seq=8), MADE_AT + HEARD_TWICE_WITHIN_MS + 1) is None


def test_the_same_request_from_the_same_device_is_a_new_one_however_soon() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(device="phone", basis_seq=7), MADE_AT) is None


def test_another_request_or_one_not_read_or_from_no_device_is_never_heard_again() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(request_key=key_of("go back 1 minute")), MADE_AT) is None
    assert heard_twice(state, offer(request_key=None), MADE_AT) is None
    assert heard_twice(state, offer(device=None), MADE_AT) is None


def test_a_goto_made_without_a_reading_or_a_device_is_nothing_to_hear_again() -> None:
    state = PlayerState(listener="ann", book="b1", position_ms=FROM_MS, seq=7)
    unread = evolve(state, Moved(cause="goto", from_ms=FROM_MS, to_ms=TO_MS, turn_id="t1", device="phone"), 8)
    assert heard_twice(unread, offer(), MADE_AT) is None


def test_once_the_book_has_moved_again_the_first_request_is_not_heard_again() -> None:
    state = moved_on_the_phone()
    seeked = evolve(state, Seeked(device="tablet", from_ms=TO_MS, position_ms=500_000, basis_seq=8), 9)
    assert heard_twice(seeked, offer(basis_seq=7), MADE_AT) is None


def test_the_second_device_is_told_the_move_the_first_made_and_nothing_is_appended() -> None:
    first = heard_twice(moved_on_the_phone(), offer(), MADE_AT)
    assert first is not None
    passage = Passage(
        id=4, chapter=3, chapter_title="The Storm", start_ms=870_000, end_ms=900_000, text="It rained."
    )
    resolution = Resolution(target=Target(position_ms=TO_MS), passage=passage, at_ms=TO_MS)
    decision = told_again(first, [resolution])
    assert decision.event is None
    assert decision.outcome.outcome == "moved"
    assert decision.outcome.moved_from_ms == FROM_MS
    assert decision.outcome.moved_to is not None
    assert decision.outcome.moved_to.start_ms == TO_MS
    assert decision.outcome.moved_to.chapter == 3


def test_a_goto_made_is_kept_through_a_snapshot() -> None:
    state = moved_on_the_phone()
    assert from_snapshot(to_snapshot(state, 8)) == state


# An undo and a sleep timer of a turn's: player commands, carrying the same reading (``Heard``).

UNDO = key_of("undo")
ADD_TEN = key_of("add ten minutes to the timer")
PLAYER_CLOCK = MADE_AT + 500


def undone_on_the_phone() -> PlayerState:
    """The phone's "go back 2 minutes" at 8, then its "undo" at 9: the book back at ``FROM_MS``."""
    undo = Undo(device="phone", heard=Heard(request_key=UNDO, basis_seq=8))
    state = moved_on_the_phone()
    return evolve(state, decide(state, undo, now_ms=MADE_AT), 9)


def undo(
    device: str | None = "speaker",
    basis_seq: int | None = 8,
    heard: bool = True,
    asked_at_ms: int | None = None,
) -> Undo:
    said = Heard(request_key=UNDO, basis_seq=basis_seq, asked_at_ms=asked_at_ms)
    return Undo(device=device, heard=said if heard else None)


def timer_added_on_the_phone() -> PlayerState:
    """A five-minute timer set on the phone's page at 8, then the phone's "add ten minutes" at 9."""
    state = PlayerState(listener="ann", book="b1", position_ms=FROM_MS, seq=7)
    state = evolve(state, SleepTimerSet(device="phone", after=5, stop_at_ms=FROM_MS + 300_000), 8)
    added = SetSleepTimer(device="phone", after=15, heard=Heard(request_key=ADD_TEN, basis_seq=8))
    return evolve(state, decide(state, added, now_ms=MADE_AT), 9)


def add_ten(
    device: str = "speaker", basis_seq: int | None = 8, after: int = 25, asked_at_ms: int | None = None
) -> SetSleepTimer:
    """The speaker's copy, reckoned from the timer it saw: ten more than the phone's once that was added."""
    said = Heard(request_key=ADD_TEN, basis_seq=basis_seq, asked_at_ms=asked_at_ms)
    return SetSleepTimer(device=device, after=after, heard=said)


def test_a_turns_undo_and_timer_record_what_was_asked_and_when() -> None:
    undone = undone_on_the_phone()
    assert undone.position_ms == FROM_MS
    assert undone.last_undo == RequestMade(seq=9, device="phone", request_key=UNDO, made_at_ms=MADE_AT)
    assert timer_added_on_the_phone().last_timer_set == RequestMade(
        seq=9, device="phone", request_key=ADD_TEN, made_at_ms=MADE_AT
    )


def test_an_undo_from_another_device_asked_before_the_first_was_made_is_it_heard_again() -> None:
    first = command_heard_twice(
        undone_on_the_phone(), undo(basis_seq=8), MADE_AT + 10 * HEARD_TWICE_WITHIN_MS
    )
    assert first == RequestMade(seq=9, device="phone", request_key=UNDO, made_at_ms=MADE_AT)


def test_an_undo_from_another_device_just_after_the_first_is_it_heard_again_and_later_a_new_one() -> None:
    state = undone_on_the_phone()
    assert command_heard_twice(state, undo(basis_seq=9), MADE_AT + HEARD_TWICE_WITHIN_MS) is not None
    assert command_heard_twice(state, undo(basis_seq=9), MADE_AT + HEARD_TWICE_WITHIN_MS + 1) is None


def test_an_undo_or_minutes_added_asked_just_after_the_first_are_it_heard_again_however_late_they_come() -> (
    None
):
    a_slow_turn_later, asked = MADE_AT + 60_000, MADE_AT + 1_000
    assert command_heard_twice(undone_on_the_phone(), undo(basis_seq=9, asked_at_ms=asked), a_slow_turn_later)
    added = timer_added_on_the_phone()
    assert command_heard_twice(added, add_ten(basis_seq=9, asked_at_ms=asked), a_slow_turn_later) is not None
    asked_later = MADE_AT + HEARD_TWICE_WITHIN_MS + 1
    assert command_heard_twice(added, add_ten(basis_seq=9, asked_at_ms=asked_later), asked_later) is None


def test_an_undo_again_on_the_same_device_or_from_a_page_or_no_device_is_a_new_one() -> None:
    state = undone_on_the_phone()
    assert command_heard_twice(state, undo(device="phone"), PLAYER_CLOCK) is None
    assert command_heard_twice(state, undo(heard=False), PLAYER_CLOCK) is None
    assert command_heard_twice(state, undo(device=None), PLAYER_CLOCK) is None


def test_once_the_book_has_moved_after_the_undo_another_undo_is_a_new_one() -> None:
    state = undone_on_the_phone()
    seeked = evolve(state, Seeked(device="tablet", from_ms=FROM_MS, position_ms=500_000, basis_seq=9), 10)
    assert command_heard_twice(seeked, undo(basis_seq=8), PLAYER_CLOCK) is None


def test_a_goto_is_no_undo_and_an_undo_no_goto() -> None:
    assert command_heard_twice(moved_on_the_phone(), undo(basis_seq=7), MADE_AT) is None
    assert heard_twice(undone_on_the_phone(), offer(basis_seq=7), PLAYER_CLOCK) is None


def test_minutes_added_on_another_device_after_the_first_are_it_heard_again() -> None:
    state = timer_added_on_the_phone()
    first = command_heard_twice(state, add_ten(basis_seq=9), PLAYER_CLOCK)
    assert first == RequestMade(seq=9, device="phone", request_key=ADD_TEN, made_at_ms=MADE_AT)
    assert (
        command_heard_twice(state, add_ten(basis_seq=8, after=15), MADE_AT + 10 * HEARD_TWICE_WITHIN_MS)
        is not None
    )


def test_minutes_added_again_on_the_same_device_or_later_are_added_again() -> None:
    state = timer_added_on_the_phone()
    assert command_heard_twice(state, add_ten(device="phone"), PLAYER_CLOCK) is None
    assert command_heard_twice(state, add_ten(basis_seq=9), MADE_AT + HEARD_TWICE_WITHIN_MS + 1) is None


def test_once_the_timer_is_cancelled_or_set_again_minutes_added_are_a_new_request() -> None:
    state = timer_added_on_the_phone()
    cancelled = evolve(state, SleepTimerCancelled(device="phone"), 10)
    assert command_heard_twice(cancelled, add_ten(), PLAYER_CLOCK) is None
    chip = evolve(state, SleepTimerSet(device="tablet", after=30, stop_at_ms=FROM_MS + 1_800_000), 10)
    assert chip.last_timer_set is None
    assert command_heard_twice(chip, add_ten(), PLAYER_CLOCK) is None


def test_a_command_heard_again_is_told_the_first_ones_sequence_and_nothing_is_appended() -> None:
    state = timer_added_on_the_phone()
    first = command_heard_twice(state, add_ten(), PLAYER_CLOCK)
    assert first is not None
    told = told_done(first, state.public(PLAYER_CLOCK))
    assert told.accepted
    assert told.seq == 9
    assert told.state.sleep_timer is not None
    assert told.state.sleep_timer.after == 15


def test_a_turns_undo_and_timer_are_kept_through_a_snapshot() -> None:
    for state in (undone_on_the_phone(), timer_added_on_the_phone()):
        assert from_snapshot(to_snapshot(state, 9)) == state


# A turn's bookmark: a player command, carrying the same reading (``Heard``, ADR 83).

BOOKMARK_THIS = key_of("bookmark this")


def bookmark(device: str | None = "speaker", basis_seq: int | None = 7, heard: bool = True) -> AddBookmark:
    """A turn's "bookmark this": no place of its own, so where the player has the book got to."""
    said = Heard(request_key=BOOKMARK_THIS, basis_seq=basis_seq)
    return AddBookmark(device=device, heard=said if heard else None)


def bookmarked_on_the_phone() -> PlayerState:
    """The phone's "bookmark this" made a bookmark at 8, after a report at 7."""
    state = PlayerState(listener="ann", book="b1", position_ms=FROM_MS, seq=7)
    return evolve(state, decide(state, bookmark(device="phone"), now_ms=MADE_AT), 8)


def test_a_bookmark_from_another_device_asked_before_the_first_was_made_is_it_heard_again() -> None:
    state = bookmarked_on_the_phone()
    first = command_heard_twice(state, bookmark(basis_seq=7), MADE_AT + 10 * HEARD_TWICE_WITHIN_MS)
    assert first == RequestMade(seq=8, device="phone", request_key=BOOKMARK_THIS, made_at_ms=MADE_AT)
    told = told_done(first, state.public(PLAYER_CLOCK))
    assert told.seq == 8
    assert [mark.seq for mark in told.state.bookmarks] == [8]


def test_a_bookmark_from_another_device_just_after_the_first_is_it_and_later_a_new_one() -> None:
    state = bookmarked_on_the_phone()
    assert command_heard_twice(state, bookmark(basis_seq=8), MADE_AT + HEARD_TWICE_WITHIN_MS) is not None
    assert command_heard_twice(state, bookmark(basis_seq=8), MADE_AT + HEARD_TWICE_WITHIN_MS + 1) is None


def test_a_bookmark_again_on_the_same_device_from_a_page_or_from_no_device_is_a_new_one() -> None:
    state = bookmarked_on_the_phone()
    assert command_heard_twice(state, bookmark(device="phone"), PLAYER_CLOCK) is None
    assert command_heard_twice(state, bookmark(heard=False), PLAYER_CLOCK) is None
    assert command_heard_twice(state, bookmark(device=None), PLAYER_CLOCK) is None


def test_once_the_first_bookmark_is_removed_or_another_made_the_same_request_is_a_new_one() -> None:
    state = bookmarked_on_the_phone()
    removed = evolve(state, BookmarkRemoved(bookmark_seq=8, device="phone"), 9)
    assert command_heard_twice(removed, bookmark(), PLAYER_CLOCK) is None
    pressed = evolve(state, BookmarkAdded(at_ms=FROM_MS, device="tablet", added_at_ms=PLAYER_CLOCK), 9)
    assert command_heard_twice(pressed, bookmark(), PLAYER_CLOCK) is None


def test_a_turns_bookmark_is_kept_through_a_snapshot() -> None:
    state = bookmarked_on_the_phone()
    assert state.last_bookmark_added is not None
    assert from_snapshot(to_snapshot(state, 8)) == state
