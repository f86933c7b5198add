"""The spoiler guard: one line between what a listener has heard and what is ahead."""

from bedside_guard.line import ahead_of, clock
from bedside_guard.passage import Cue, Passage, heard_text
from bedside_guard.shapes import MAX_ROWS, NOT_TOLD, Candidate, distinct_rows, excerpt

__all__ = [
    "MAX_ROWS",
    "NOT_TOLD",
    "Candidate",
    "Cue",
    "Passage",
    "ahead_of",
    "clock",
    "distinct_rows",
    "excerpt",
    "heard_text",
]
