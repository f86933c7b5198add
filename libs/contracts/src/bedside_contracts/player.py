"""Requests and replies of the player service that other services use over the bus.

The player's own events, and its HTTP bodies, live in the player's part of the
contracts too; these are the ones the turn service depends on.
"""

from typing import Literal

from bedside_guard import Candidate
from pydantic import Field

from bedside_contracts.common import Contract, Millis, Name
from bedside_contracts.search import Target


class StateRequest(Contract):
    listener: Name
    book: Name


class ListenerState(Contract):
    """One listener's state in one book: the projection of their stream."""

    listener: Name
    book: Name
    position_ms: Millis
    playing: bool
    seq: int = Field(ge=0, description="stream sequence of the newest event that made this state")
    last_move_seq: int = Field(ge=0)
    rows: list[Candidate] = Field(default_factory=list, description="the list on the screen, if any")
    list_turn_id: str | None = None


class OfferPositions(Contract):
    """The one way a goto ends. The player resolves, deduplicates and decides."""

    listener: Name
    book: Name
    turn_id: str = Field(min_length=1, max_length=64)
    targets: list[Target] = Field(min_length=1, max_length=8)
    may_move: bool = True


class OfferOutcome(Contract):
    """What became of an offer. ``rows`` are guard Candidates; a row ahead is covered."""

    outcome: Literal["moved", "listed", "refused"]
    rows: list[Candidate] = Field(default_factory=list)
    moved_from_ms: int | None = None
    moved_to: Candidate | None = None
    reason: str = ""
    unresolved: list[str] = Field(default_factory=list)
