"""One request heard by two devices of one listener is one request (ADR 77).

A listener with a phone and a speaker page both listening hands-free says "go back 2 minutes" once; both
hear it and both send it. The second to reach the player is the same request when it comes from another
device, the turn read it the same way (``OfferPositions.heard``, its ``Heard.request_key``), and the
goto the first made is still the book's last move and either was made after this one was asked (its
basis is older) or at most ``HEARD_TWICE_WITHIN_MS`` before it was asked (``asked_at_ms``, the player's
clock when it took the question: a turn may take longer than the window). It is not carried out again:
its device is told the move the first made, so both say the same. The same words again on the same
device, or later, are a new request and move again.

A turn's undo, its sleep timer (minutes added to the running one among them) and its bookmark reach the
player as commands, not offers; they carry the same reading (``Heard``), and the same rule holds while the
first's undo is still the book's last move, the first's timer the one running, or the first's bookmark the
newest made and still kept: the second is accepted with nothing appended, and told the first's sequence
(a bookmark's id) and the state, so both devices say the same.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from bedside_contracts.player import (
    AddBookmark,
    BookmarkAdded,
    CommandResult,
    Heard,
    ListenerState,
    Moved,
    OfferOutcome,
    OfferPositions,
    PlayerCommand,
    SetSleepTimer,
    SleepTimerSet,
    Undo,
)
from bedside_contracts.search import Resolution
from bedside_guard import Candidate

from bedside_player.domain.offer import OfferDecision

if TYPE_CHECKING:
    from bedside_player.domain.state import PlayerState

HEARD_TWICE_WITHIN_MS = 5_000
"""Two devices' recognisers finish a second or two apart, and a turn takes about another; a
listener asking the same again on another device waits for the first answer to be said."""


class GotoMade(NamedTuple):
    """A question's move, as the rule needs it: what was asked, on which device, and when."""

    seq: int
    device: str
    request_key: str
    made_at_ms: int
    from_ms: int
    to_ms: int


class RequestMade(NamedTuple):
    """A turn's request carried out by a player command (an undo, a timer set, a bookmark), as the rule
    needs it."""

    seq: int
    device: str
    request_key: str
    made_at_ms: int


def goto_made(event: Moved, seq: int) -> GotoMade | None:
    """The goto ``event`` as a request that another device may hear again (None: an undo, or one
    whose request or device is not known, from the command line or an older turn)."""
    if event.cause != "goto" or event.device is None or event.request_key is None or event.made_at_ms is None:
        return None
    return GotoMade(seq, event.device, event.request_key, event.made_at_ms, event.from_ms, event.to_ms)


def undo_made(event: Moved, seq: int) -> RequestMade | None:
    """The undo ``event`` as a request that another device may hear again (None: a goto, or an undo
    not of a turn's, or from no named device)."""
    if event.cause != "undo" or event.device is None or event.request_key is None or event.made_at_ms is None:
        return None
    return RequestMade(seq, event.device, event.request_key, event.made_at_ms)


def timer_set(event: SleepTimerSet, seq: int) -> RequestMade | None:
    """The timer ``event`` as a request that another device may hear again (None: set on a page)."""
    if event.request_key is None or event.made_at_ms is None:
        return None
    return RequestMade(seq, event.device, event.request_key, event.made_at_ms)


def bookmark_added(event: BookmarkAdded, seq: int) -> RequestMade | None:
    """The bookmark ``event`` as a request that another device may hear again (None: made on a page, or
    from no named device)."""
    if event.request_key is None or event.device is None or event.added_at_ms is None:
        return None
    return RequestMade(seq, event.device, event.request_key, event.added_at_ms)


def _heard_again(first: GotoMade | RequestMade, device: str | None, heard: Heard | None, now_ms: int) -> bool:
    """The one rule: the same reading, from another device, asked before the first was made or just after.
    Just after is when the question was taken (``asked_at_ms``, the player's clock), however long its
    turn took; from a caller that stamps none, when it arrives: later, so it errs towards two requests."""
    if heard is None or heard.request_key != first.request_key or device is None or device == first.device:
        return False
    asked_before_it = heard.basis_seq is not None and heard.basis_seq < first.seq
    asked_at = now_ms if heard.asked_at_ms is None else heard.asked_at_ms
    return asked_before_it or asked_at - first.made_at_ms <= HEARD_TWICE_WITHIN_MS


def heard_twice(state: "PlayerState", request: OfferPositions, now_ms: int) -> GotoMade | None:
    """The goto ``request`` repeats as another device heard it, or None when it is a request of its own."""
    first = state.last_goto
    if first is None or first.seq != state.last_move_seq:
        return None  # the book has moved since: "go back 2 minutes" then is from there
    return first if _heard_again(first, request.device, request.heard, now_ms) else None


def command_heard_twice(state: "PlayerState", command: PlayerCommand, now_ms: int) -> RequestMade | None:
    """The turn's undo, timer or bookmark ``command`` repeats as another device heard it: the request the
    first made, while it is the book's last move, the timer running or a bookmark kept; None when it is a
    request of its own."""
    heard: Heard | None
    match command:
        case Undo(heard=heard):
            first = state.last_undo
            in_force = first is not None and first.seq == state.last_move_seq
        case SetSleepTimer(heard=heard):
            first, timer = state.last_timer_set, state.sleep_timer
            in_force = first is not None and timer is not None and timer.set_seq == first.seq
        case AddBookmark(heard=heard):
            first = state.last_bookmark_added
            in_force = first is not None and any(mark.seq == first.seq for mark in state.bookmarks)
        case _:
            return None
    if heard is None or first is None or not in_force:
        # undone since, moved since, the timer set again or cancelled, the bookmark removed or another
        # made: a request of its own
        return None
    return first if _heard_again(first, command.device, heard, now_ms) else None


def told_done(first: RequestMade, now: ListenerState) -> CommandResult:
    """What the second device is told: accepted, the first's sequence (the event its request made, where a
    turn reads what the move, the timer or the bookmark was) and the state as it is. Nothing is appended."""
    return CommandResult(accepted=True, seq=first.seq, state=now)


def told_again(first: GotoMade, resolutions: Sequence[Resolution]) -> OfferDecision:
    """What the second device is told: the first's move, its place read from where it left (search's
    resolution of ``first.to_ms`` from ``first.from_ms``, as the first offer saw it). Nothing is appended."""
    found = next((r for r in resolutions if r.passage is not None), None)
    place = None
    if found is not None and found.passage is not None:
        try:
            place = Candidate.covering(found.passage, first.from_ms, at_ms=found.at_ms)
        except ValueError:  # resolved outside its passage: the move is told without its place
            place = None
    outcome = OfferOutcome(
        outcome="moved", rows=[place] if place else [], moved_from_ms=first.from_ms, moved_to=place
    )
    return OfferDecision(outcome)
