"""One request heard on two devices of one listener is carried out once (ADR 77): the rule, no I/O."""

from bedside_contracts.player import Moved, OfferPositions, Seeked
from bedside_contracts.search import Resolution, Target
from bedside_guard import Passage
from bedside_player.domain.heard_twice import HEARD_TWICE_WITHIN_MS, GotoMade, heard_twice, told_again
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.replay import from_snapshot, to_snapshot

MADE_AT = 1_800_000_000_000
GO_BACK_2 = "Jump(offset_ms=-120000)"
FROM_MS, TO_MS = 1_000_000, 880_000


def moved_on_the_phone(asked: str = GO_BACK_2) -> PlayerState:
    """The phone's "go back 2 minutes" carried out at sequence 8, after a report at 7."""
    state = PlayerState(listener="ann", book="b1", position_ms=FROM_MS, seq=7)
    goto = Moved(
        cause="goto",
        from_ms=FROM_MS,
        to_ms=TO_MS,
        turn_id="t1",
        device="phone",
        asked=asked,
        made_at_ms=MADE_AT,
    )
    return evolve(state, goto, 8)


def offer(
    device: str | None = "speaker", asked: str | None = GO_BACK_2, basis_seq: int | None = 7
) -> OfferPositions:
    return OfferPositions(
        listener="ann",
        book="b1",
        turn_id="t2",
        targets=[Target(offset_ms=-120_000)],
        device=device,
        asked=asked,
        basis_seq=basis_seq,
    )


def test_the_same_request_from_another_device_on_the_same_basis_is_the_first_heard_again() -> None:
    state = moved_on_the_phone()
    much_later = MADE_AT + 10 * HEARD_TWICE_WITHIN_MS  # a slow turn: the basis alone says it
    first = heard_twice(state, offer(basis_seq=7), much_later)
    assert first == GotoMade(
        seq=8, device="phone", asked=GO_BACK_2, made_at_ms=MADE_AT, from_ms=FROM_MS, to_ms=TO_MS
    )


def test_the_same_request_from_another_device_just_after_the_first_was_carried_out_is_heard_again() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(basis_seq=8), MADE_AT + HEARD_TWICE_WITHIN_MS) is not None
    assert heard_twice(state, offer(basis_seq=None), MADE_AT + 1_000) is not None


def test_the_same_request_from_another_device_later_is_a_new_one() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(basis_seq=8), MADE_AT + HEARD_TWICE_WITHIN_MS + 1) is None


def test_the_same_request_from_the_same_device_is_a_new_one_however_soon() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(device="phone", basis_seq=7), MADE_AT) is None


def test_another_request_or_one_not_read_or_from_no_device_is_never_heard_again() -> None:
    state = moved_on_the_phone()
    assert heard_twice(state, offer(asked="Jump(offset_ms=-60000)"), MADE_AT) is None
    assert heard_twice(state, offer(asked=None), MADE_AT) is None
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
