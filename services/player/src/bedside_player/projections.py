"""The in-memory projections: one ``PlayerState`` per (listener, book), fed from the stream.

Events reach a projection from two sources: this process's own appends (at once, from
the ack) and the stream feed (every instance's appends, in stream order). ``evolve``
ignores an event at or below the state's sequence, so each event applies once.
A copy holds only the projections of the partitions it follows (ADR 36).
"""

from collections.abc import Callable, Collection

from bedside_contracts.partitions import DEFAULT_PARTITIONS, partition_of
from bedside_contracts.player import PlayerEvent

from bedside_player.domain.state import PlayerState, evolve
from bedside_player.store import decode, key_of, subject_of
from bedside_player.stream_range import Stored

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

    def apply(self, listener: str, book: str, event: PlayerEvent | None, seq: int) -> PlayerState:
        before = self.get(listener, book)
        after = evolve(before, event, seq)
        if after is not before:
            self.states[(listener, book)] = after
            for watcher in self.watchers:
                watcher(after)
        return after

    def pass_over(self, subject: str, seq: int) -> None:
        """A message that fits no event: on a listener's own subject (its partition as this stream
        has them), the sequence their next append must name moves past it."""
        key = key_of(subject)
        if key is not None and subject == subject_of(*key, self.partitions):
            self.apply(*key, None, seq)

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
        else:
            projections.pass_over(subject, seq)
    if stored:
        projections.through_seq = max(projections.through_seq, stored[-1][1])
    return applied
