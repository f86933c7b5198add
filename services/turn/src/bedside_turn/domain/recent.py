"""'What did I miss': the last passages heard, as recall would show them."""

from bedside_contracts.search import Resolution
from bedside_guard import Candidate, Passage, heard_text

RECENT_OFFSETS_MS = (1, 30_000, 60_000)
"""'What did I miss' reads the passage just heard and the two before it (about a minute and a half)."""


def recent_places(resolutions: list[Resolution], here_ms: int) -> list[Candidate]:
    """The passages the offsets landed in, newest first, once each, if any of them was heard."""
    recent: dict[int, Passage] = {}
    for resolution in resolutions:
        passage = resolution.passage
        if passage is not None and heard_text(passage, here_ms):
            recent.setdefault(passage.id, passage)
    return [Candidate.hit(p, here_ms) for p in recent.values()]
