"""Which headings in sentence case a book's count takes back ("Chapter 3 The storm at sea."). The
guard's ``heading_title`` leaves them out by their shape, which a story's "Part two Ginger liked
best." shares; where the book's own headings count up to them, they are its headings. Pure."""

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Numbered:
    """A line or sentence shaped like a heading: where it stands, its label and its number."""

    at: int
    label: str
    value: int
    in_sentence_case: bool
    """Only a heading where the count places it (``heading_in_sentence_case``)."""


def taken_by_the_count(headings: list[Numbered]) -> set[int]:
    """Where the headings in sentence case stand that the count takes: each counts with another of
    its label, numbered one before or after it and standing on that side (a run of headings counting
    up one by one, through whatever else stands between); no other of its label and number is taken
    so, and none is a heading by its shape. A story's "Chapter 3 The storm came." inside chapter 1
    counts with nothing. It only adds headings: a count that dropped headings out of step lost real
    chapters (a part's chapter one again, a misheard number; the revert of 4f24259e)."""
    ordered = sorted(headings, key=lambda h: h.at)
    counted = [
        h for h, run in zip(ordered, _runs_through(ordered), strict=True) if h.in_sentence_case and run > 1
    ]
    fitted = Counter((h.label, h.value) for h in counted)
    by_shape = {(h.label, h.value) for h in ordered if not h.in_sentence_case}
    return {h.at for h in counted if fitted[h.label, h.value] == 1 and (h.label, h.value) not in by_shape}


def _runs_through(ordered: list[Numbered]) -> list[int]:
    """For each heading, the longest run counting up one by one that holds it."""
    ending = [1] * len(ordered)
    for j, later in enumerate(ordered):
        for i in range(j):
            if _counts_on(ordered[i], later):
                ending[j] = max(ending[j], ending[i] + 1)
    starting = [1] * len(ordered)
    for i in reversed(range(len(ordered))):
        for j in range(i + 1, len(ordered)):
            if _counts_on(ordered[i], ordered[j]):
                starting[i] = max(starting[i], starting[j] + 1)
    return [e + s - 1 for e, s in zip(ending, starting, strict=True)]


def _counts_on(before: Numbered, after: Numbered) -> bool:
    return before.label == after.label and before.value + 1 == after.value
