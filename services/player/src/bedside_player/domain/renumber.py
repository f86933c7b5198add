"""Renumbering the events a migration copies (ADR 42): the old stream sequences they name
become the sequences of the copies.

A copy gets a new sequence, and an event's ``basis_seq`` names the newest sequence its device
had seen, which may be any sequence, even one no event of this listener holds. It maps to
the copy of the newest event at or below it. The map keeps every comparison between a basis
and an event: a basis at or past an event's old sequence is at or past that event's copy,
and one before it stays before it, which is all the chronology asks of a basis.
"""

from bisect import bisect_right

from bedside_contracts.player import PlayerEvent


class Renumbering:
    """The old sequence -> copy's sequence of every event copied so far, both ascending."""

    def __init__(self) -> None:
        self.old: list[int] = []
        self.new: list[int] = []

    def add(self, old: int, new: int) -> None:
        if self.old and (old <= self.old[-1] or new <= self.new[-1]):
            raise ValueError(f"copies out of order: {old}->{new} after {self.old[-1]}->{self.new[-1]}")
        self.old.append(old)
        self.new.append(new)

    @property
    def newest_old(self) -> int:
        """The old sequence of the newest event copied; 0 before the first."""
        return self.old[-1] if self.old else 0

    def __len__(self) -> int:
        return len(self.old)

    def __call__(self, old: int) -> int:
        """The sequence that stands for ``old`` in the copies; 0 ("nothing yet") stays 0."""
        index = bisect_right(self.old, old)
        return self.new[index - 1] if index else 0


def sequence_fields(event: PlayerEvent) -> list[str]:
    """The fields of ``event`` that name a stream sequence: by the contracts' convention, the
    ones whose name ends in ``_seq`` (a test holds the contracts to it)."""
    return [name for name in type(event).model_fields if name.endswith("_seq")]


def renumbered(event: PlayerEvent, seqs: Renumbering) -> PlayerEvent:
    """``event`` with every sequence it names mapped to the copies' sequences."""
    fields = sequence_fields(event)
    if not fields:
        return event
    return event.model_copy(update={name: seqs(getattr(event, name)) for name in fields})
