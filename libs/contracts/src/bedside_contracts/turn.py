"""Requests and replies of the turn service."""

from typing import Literal

from pydantic import Field

from bedside_contracts.common import Contract, Millis, Name


class Ask(Contract):
    """One spoken (or typed) request from a listener about a book."""

    listener: Name
    book: Name
    utterance: str = Field(min_length=1, max_length=1000)
    device: Name | None = None
    at_ms: Millis | None = Field(
        default=None, description="answer as if the listener were here (the CLI's --at); not a move"
    )


class TurnReply(Contract):
    turn_id: str
    speech: str
    outcome: Literal["moved", "listed", "answered", "not_yet", "refused", "unsure", "failed"]
    mode: str = Field(description='the model id, or "keyless"')
