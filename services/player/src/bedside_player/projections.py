"""The in-memory projections: one ``PlayerState`` per (listener, book), fed from the stream.

Events reach a projection from two sources: this process's own appends (at once, from
the ack) and the stream feed (every instance's appends, in stream order). ``evolve``
ignores an event at or below the state's sequence, so each event applies once.
A copy holds only the projections of the partitions it follows (ADR 36).
"""

import time
from collections.abc import Callable, Collection

import structlog
from bedside_contracts.partitions import DEFAULT_PARTITIONS, partition_of
from bedside_contracts.player import PlayerEvent

from bedside_player.domain.state import PlayerState, evolve
from bedside_player.store import EventStore, decode, partition_filters
from bedside_player.stream_range import RangeInterrupted, RangeReader, Stored

log = structlog.get_logger("bedside.player.projections")

Key = tuple[str, str]
Listener = Callable[[PlayerState], None]


class Projections:
    def __init__(self, partitions: int = DEFAULT_PARTITIONS) -> None:
        self.partitions = partitions
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

    def partition_of(self, listener: str) -> int:
        return partition_of(listener, self.partitions)

    def drop(self, partitions: Collection[int]) -> int:
        """Forget every projection of ``partitions`` (released to another copy); how many."""
        gone = [key for key in self.states if self.partition_of(key[0]) in partitions]
        for key in gone:
            del self.states[key]
        return len(gone)


def apply_stored(projections: Projections, stored: list[Stored], migrated_through: int = 0) -> int:
    """Decode and apply stored messages in stream order; how many fitted the contract.

    ``migrated_through``: the stream's originals at or below it were copied by a migration."""
    applied = 0
    for subject, seq, data in stored:
        if (decoded := decode(subject, data, seq, migrated_through)) is not None:
            listener, book, event = decoded
            projections.apply(listener, book, event, seq)
            applied += 1
    if stored:
        projections.through_seq = max(projections.through_seq, stored[-1][1])
    return applied


async def read_range(
    store: EventStore,
    reader: RangeReader,
    projections: Projections,
    after_seq: int,
    partitions: Collection[int] | None = None,
) -> tuple[int, int]:
    """Apply every stored event after ``after_seq`` up to the stream's newest sequence now (of
    ``partitions`` only, when given); (events applied, the sequence read through).

    The bulk read does it; should it stop early, an ordered consumer reads the rest.
    """
    target, migrated_through = await store.extent()
    filters = partition_filters(partitions) if partitions is not None else None
    applied, through, complete = 0, after_seq, True
    if target > through:
        try:
            async for chunk in reader.chunks(through, target, filters):
                applied += apply_stored(projections, chunk, migrated_through)
                through = chunk[-1][1]
        except RangeInterrupted as error:
            complete = False
            log.warning("the bulk read stopped; the rest comes from an ordered consumer", error=str(error))
    # with a filter, nothing may follow on these subjects: an ordered consumer would wait
    rest = not complete and target > through
    if rest and (partitions is None or await store.pending_after(through, partitions)):
        async for subject, seq, data, pending in store.feed(through, partitions):
            applied += apply_stored(projections, [(subject, seq, data)], migrated_through)
            if seq >= target or pending == 0:
                break
    return applied, target


async def replay(
    store: EventStore, reader: RangeReader, projections: Projections, after_seq: int = 0
) -> tuple[int, float]:
    """Rebuild every projection from the stream up to its newest sequence now; (events, seconds)."""
    started = time.perf_counter()
    projections.through_seq = max(projections.through_seq, after_seq)
    applied, target = await read_range(store, reader, projections, projections.through_seq)
    projections.through_seq = max(projections.through_seq, target)
    return applied, time.perf_counter() - started
