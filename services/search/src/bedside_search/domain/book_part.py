"""Which part of the whole book a request names ("right at the start", "near the end"): pure.

A listener often places a moment as well as describing it: "near the beginning, the hunt
where...", "the last chapter, where the ladies promise...". Neither the words nor the
vectors of a passage know where in the book it lies, so find favours passages in the part
named (``fusion.FusionRule.part_weight``).

Only the whole book counts. "The end of the fire", "the start of the race" and "the final
bit of the beggar mystery" place a moment inside an event or one story, so a phrase
followed by "of <something>" is not a part, unless that something is the book itself.
"""

import re
from enum import Enum

PART_SHARE = 0.2
"""How much of the book "the start" or "the end" covers, by narration time. Fixed before it
was measured: a listener's "near the beginning" of a 49-chapter novel reaches chapter 7-9,
and a collection's "last story" is one of its last two or three of twelve."""


class Part(Enum):
    EARLY = "early"
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


def in_part(start_ms: int, duration_ms: int, part: Part) -> bool:
    """Whether a passage starting at ``start_ms`` lies in ``part`` of a book this long."""
    share = start_ms / duration_ms if duration_ms > 0 else 0.0
    return share < PART_SHARE if part is Part.EARLY else share >= 1 - PART_SHARE
