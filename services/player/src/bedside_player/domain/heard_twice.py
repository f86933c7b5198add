"""One request heard by two devices of one listener is one request (ADR 77).

A listener with a phone and a speaker page both listening hands-free says "go back 2 minutes"
once; both hear it and both send it. The second to reach the player is the same request when it
comes from another device, the turn read it the same way (``OfferPositions.asked``), and the goto
the first made is still the book's last move and either was made after this one was asked (its
basis is older) or at most ``HEARD_TWICE_WITHIN_MS`` before it arrived. It is not carried out
again: its device is told the move the first made, so both say the same. The same words again
on the same device, or later, are a new request and move again.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from bedside_contracts.player import Moved, OfferOutcome, OfferPositions
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
    asked: str
    made_at_ms: int
    from_ms: int
    to_ms: int


def goto_made(event: Moved, seq: int) -> GotoMade | None:
    """The goto ``event`` as a request that another device may hear again (None: an undo, or one
    whose request or device is not known, from the command line or an older turn)."""
    if event.cause != "goto" or event.device is None or event.asked is None or event.made_at_ms is None:
        return None
    return GotoMade(seq, event.device, event.asked, event.made_at_ms, event.from_ms, event.to_ms)


def heard_twice(state: "PlayerState", request: OfferPositions, now_ms: int) -> GotoMade | None:
    """The goto ``request`` repeats as another device heard it, or None when it is a request of its own."""
    first = state.last_goto
    if first is None or first.seq != state.last_move_seq:
        return None  # the book has moved since: "go back 2 minutes" then is from there
    if request.asked != first.asked or request.device is None or request.device == first.device:
        return None
    asked_before_it = request.basis_seq is not None and request.basis_seq < first.seq
    return first if asked_before_it or now_ms - first.made_at_ms <= HEARD_TWICE_WITHIN_MS else None


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
