"""Which part of the whole book a request names ("right at the start", "near the end",
"halfway through"), and how far each passage lies from it: pure.

A listener often places a moment as well as describing it: "near the beginning, the hunt
where...", "the last chapter, where the ladies promise...". Neither the words nor the
vectors of a passage know where in the book it lies, so find favours passages near the part
named, the more the nearer (``fusion.FusionRule.part_weight`` and ``part_reach``).

Only the whole book counts. "The end of the fire", "the start of the race" and "the final
bit of the beggar mystery" place a moment inside an event or one story, so a phrase
followed by "of <something>" is not a part, unless that something is the book itself.
"""

import re
from enum import Enum


class Part(Enum):
    EARLY = "early"
    MIDDLE = "middle"
    LATE = "late"


_WHOLE = r"(?:book|collection|audiobook|whole thing)"
_SPANS = r"(?:parts?|chapters?|stor(?:y|ies)|pages?|bits?|cases?|adventures?|sections?|tales?)"
_FEW = r"(?:(?:few|couple of|handful of|two|three|several) )?"
"""Between an ordinal and the span: "the first few chapters", "the last couple of stories"."""
_PHRASES: dict[Part, tuple[re.Pattern[str], ...]] = {
    Part.EARLY: tuple(
        re.compile(pattern)
        for pattern in (
            r"\bthe (?:very )?(?:start|beginning|opening)\b",
            rf"\bearly (?:on|in the {_WHOLE})\b",
            rf"\b(?:early|earlier|first|second|opening|earliest) {_FEW}{_SPANS}\b",
            rf"\bthe {_WHOLE}(?: has| had|'s) (?:only |barely |just )*(?:started|begun|got going)\b",
            rf"\b(?:kicks|starts|opens) (?:the|this) {_WHOLE}\b",
        )
    ),
    Part.LATE: tuple(
        re.compile(pattern)
        for pattern in (
            r"\bthe (?:very |happy |sad )?(?:end|ending|finale|finish)\b",
            r"\bthe tail end\b",
            r"\b(?:final|home|last) stretch\b",
            rf"\blate (?:on|in the {_WHOLE})\b",
            rf"\b(?:late|later|last|final|closing|latter|penultimate) {_FEW}{_SPANS}\b",
            rf"\b(?:closes|ends|finishes|wraps up) (?:the|this) {_WHOLE}\b",
        )
    ),
    Part.MIDDLE: tuple(
        re.compile(pattern)
        for pattern in (
            r"\b(?:the|its) (?:very |rough )?middle\b",
            r"\bhalf ?way (?:through|in|into)\b",
            r"\bmid ?way (?:through|in|into)\b",
            rf"\bmiddle {_FEW}{_SPANS}\b",
        )
    ),
}
_OF_SOMETHING_ELSE = re.compile(rf"\s+of\s+(?!(?:the|this) {_WHOLE}\b)")
"""After a phrase: "of the fire" places the moment inside something else; "of the book" does not."""


def part_named(query: str) -> Part | None:
    """The part of the book the query names, or None when it names none, or both."""
    text = query.lower().replace("\u2019", "'")
    named = {
        part
        for part, phrases in _PHRASES.items()
        for phrase in phrases
        for match in phrase.finditer(text)
        if not _OF_SOMETHING_ELSE.match(text, match.end())
    }
    return named.pop() if len(named) == 1 else None


def distance_from(part: Part, start_ms: int, end_ms: int, duration_ms: int) -> int:
    """How far a passage lies from ``part`` on the clock (0 when it touches it).

    The start is the book's first moment, the end its last, the middle its halfway point;
    a passage is as near as its nearest edge. Measured in narration time, not as a share of
    the book: a listener's "the start" is about as long in a long book as in a short one.
    """
    if part is Part.EARLY:
        return max(0, start_ms)
    if part is Part.LATE:
        return max(0, duration_ms - end_ms)
    half = duration_ms // 2
    return max(0, start_ms - half, half - end_ms)


def nearness(distance_ms: int, reach_ms: int) -> float:
    """The share of the part prior a passage this far from the named part gets: 1 at it,
    half at ``reach_ms``, a quarter at twice that. Smooth, so no edge splits two neighbours."""
    return 0.5 ** (distance_ms / reach_ms) if reach_ms > 0 else float(distance_ms == 0)
