"""The in-memory projections: one ``PlayerState`` per (listener, book), fed from the stream.

Events reach a projection from two sources: this process's own appends (at once, from
the ack) and the stream feed (every instance's appends, in stream order). ``evolve``
ignores an event at or below the state's sequence, so each event applies once.
"""

import asyncio
import time
from collections.abc import Callable

import structlog
from bedside_contracts.player import PlayerEvent

from bedside_player.domain.state import PlayerState, evolve
from bedside_player.store import EventStore, decode, key_of
from bedside_player.stream_range import RangeInterrupted, RangeReader, Stored

log = structlog.get_logger("bedside.player.projections")

Key = tuple[str, str]
Listener = Callable[[PlayerState], None]


class Projections:
    def __init__(self) -> None:
        self.states: dict[Key, PlayerState] = {}
        self.watchers: list[Listener] = []
        self.through_seq = 0
        """The newest stream sequence the feed has delivered."""

    def get(self, listener: str, book: str) -> PlayerState:
        return self.states.get((listener, book)) or PlayerState(listener=listener, book=book)

    def apply(self, listener: str, book: str, event: PlayerEvent, seq: int) -> PlayerState:
        before = self.get(listener, book)
        after = evolve(before, event, seq)
        if after is not before:
            self.states[(listener, book)] = after
            for watcher in self.watchers:
                watcher(after)
        return after


def apply_stored(projections: Projections, stored: list[Stored]) -> int:
    """Decode and apply stored messages in stream order; how many fitted the contract."""
    applied = 0
    for subject, seq, data in stored:
        if (decoded := decode(subject, data)) is not None:
            listener, book, event = decoded
            projections.apply(listener, book, event, seq)
            applied += 1
    if stored:
        projections.through_seq = max(projections.through_seq, stored[-1][1])
    return applied


async def replay(
    store: EventStore, reader: RangeReader, projections: Projections, after_seq: int = 0
) -> tuple[int, float]:
    """Rebuild every projection from the stream up to its newest sequence now; (events, seconds).

    The bulk read does it; should it stop early, an ordered consumer reads the rest.
    """
    started = time.perf_counter()
    target = await store.last_seq()
    applied = 0
    projections.through_seq = max(projections.through_seq, after_seq)
    if target > projections.through_seq:
        try:
            async for chunk in reader.chunks(projections.through_seq, target):
                applied += apply_stored(projections, chunk)
        except RangeInterrupted as error:
            log.warning(
                "the bulk read stopped; the rest comes from an ordered consumer",
                error=str(error),
                through_seq=projections.through_seq,
            )
    if target > projections.through_seq:
        async for subject, seq, data in store.feed(projections.through_seq):
            applied += apply_stored(projections, [(subject, seq, data)])
            if seq >= target:
                break
    return applied, time.perf_counter() - started


async def follow(
    store: EventStore,
    reader: RangeReader,
    projections: Projections,
    ready: asyncio.Event,
    after_seq: int = 0,
) -> None:
    """Replay (after a snapshot's sequence, if one was loaded), then keep every projection
    current from the live stream (every instance's appends)."""
    count, seconds = await replay(store, reader, projections, after_seq)
    log.info(
        "replayed",
        events=count,
        seconds=round(seconds, 3),
        projections=len(projections.states),
        from_snapshot_seq=after_seq,
    )
    ready.set()
    async for subject, seq, data in store.feed(projections.through_seq):
        key = key_of(subject)
        # an event this instance appended was applied from the ack: no need to parse it again
        if key is None or seq > projections.get(*key).seq:
            decoded = decode(subject, data)
            if decoded is not None:
                listener, book, event = decoded
                projections.apply(listener, book, event, seq)
        projections.through_seq = seq
