""" "The first time ..." and "the last time ...": among the chapters that could be the moment,
the earliest or the latest first. Pure.

A thing that happens again and again (a fire, a sale, a disguise) matches many chapters about
as well, and the best-matching one is no more likely to be the first than any other. When a
request asks for the first or the last time, the chapters whose best passage scores near the
best chapter's (``OrdinalRule.share``) are put in story order; the rest follow as ranked.
The same chronology the listener's history answers with: oldest or newest of the matches.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from bedside_search.domain.fusion import Fused, best_of_each_chapter, firsts_then_rest


class Ordinal(Enum):
    FIRST = "first"
    LAST = "last"


@dataclass(frozen=True)
class OrdinalRule:
    share: float
    """A chapter is plausible when its best passage scores at least this share of the best."""
    among: int
    """Only the first ``among`` chapters ranked can be plausible."""


ORDINAL = OrdinalRule(share=0.7, among=4)
"""The rule in service, chosen on the long book's development sets (search README). With
``among`` at four, what a listener is offered (four places) holds the same chapters with or
without it: the rule only decides which of them comes first."""

_ORDINALS = {
    Ordinal.FIRST: re.compile(r"\b(?:the|his|her|its|their|for the) (?:very )?first (?:ever )?time\b"),
    Ordinal.LAST: re.compile(
        r"\b(?:the|his|her|its|their|for the) (?:very )?(?:last|final) (?:ever )?time\b"
    ),
}


def ordinal_named(query: str) -> Ordinal | None:
    """FIRST or LAST when the request asks for the first or the last time of something (not both)."""
    text = query.lower().replace("\u2019", "'")
    named = {ordinal for ordinal, phrase in _ORDINALS.items() if phrase.search(text)}
    return named.pop() if len(named) == 1 else None


def in_story_order(
    ranked: Sequence[Fused], chapter_of: Mapping[int, int], ordinal: Ordinal, rule: OrdinalRule = ORDINAL
) -> list[Fused]:
    """``ranked`` (best first) with the plausible chapters' best passages first, earliest
    chapter first for FIRST and latest first for LAST; every other passage after, in rank order.

    Plausible is judged against the best score among the leaders: the chapter order may have
    put a chapter whose best passage scores lower first."""
    leaders = list(best_of_each_chapter(ranked, chapter_of).items())[: rule.among]
    if not leaders:
        return list(ranked)
    top = max(hit.score for _, hit in leaders)
    plausible = [(chapter, hit) for chapter, hit in leaders if hit.score >= rule.share * top]
    plausible.sort(key=lambda item: item[0], reverse=ordinal is Ordinal.LAST)
    return firsts_then_rest([hit for _, hit in plausible], ranked)
