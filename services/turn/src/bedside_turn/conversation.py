"""Conversations on the bus: one KV key per listener and book, updated compare-and-set.

Any copy of the turn service can continue any conversation; two turns finishing at
once both land, because a lost race re-reads and appends again.
"""

from collections.abc import Callable

import structlog
from bedside_contracts.turn import Conversation, Exchange
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from bedside_turn.domain.history import given_again, kept

log = structlog.get_logger("bedside.turn.conversation")

CAS_ATTEMPTS = 6


def key_of(listener: str, book: str) -> str:
    return f"{listener}.{book}"


class ConversationStore:
    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv

    async def load(self, listener: str, book: str) -> tuple[Conversation, int | None]:
        """The conversation and its KV revision (None when there is none yet)."""
        try:
            entry = await self.kv.get(key_of(listener, book))
        except KeyNotFoundError:
            return Conversation(listener=listener, book=book), None
        if entry.value is None:
            return Conversation(listener=listener, book=book), entry.revision
        try:
            return Conversation.model_validate_json(entry.value), entry.revision
        except ValueError:
            log.warning("unreadable conversation replaced", listener=listener, book=book)
            return Conversation(listener=listener, book=book), entry.revision

    async def append(self, listener: str, book: str, exchange: Exchange) -> None:
        """Add ``exchange``, keeping the last few."""
        await self._update(listener, book, lambda exchanges: kept(exchanges, exchange))

    async def said_again(self, listener: str, book: str, turn_id: str, at_ms: int) -> None:
        """Mark the answer of ``turn_id`` given again at ``at_ms``, if it is still the last."""
        await self._update(listener, book, lambda exchanges: given_again(exchanges, turn_id, at_ms))

    async def _update(
        self, listener: str, book: str, change: Callable[[list[Exchange]], list[Exchange] | None]
    ) -> None:
        """Store ``change`` of the exchanges (None: nothing to store); retry the read-modify-write on a
        lost race."""
        key = key_of(listener, book)
        for _ in range(CAS_ATTEMPTS):
            conversation, revision = await self.load(listener, book)
            changed = change(conversation.exchanges)
            if changed is None:
                return
            value = conversation.model_copy(update={"exchanges": changed}).model_dump_json().encode()
            try:
                if revision is None:
                    await self.kv.create(key, value)
                else:
                    await self.kv.update(key, value, last=revision)
                return
            except KeyWrongLastSequenceError:
                continue
        log.warning("conversation not saved after repeated races", listener=listener, book=book)
