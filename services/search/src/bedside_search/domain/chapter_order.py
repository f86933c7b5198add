"""Which chapter find offers first: the fused passage order blended with each ranking's own
order of chapters. Pure.

The fused score favours a chapter with many pooled passages (the chapter nudge), which on a
long book lets a long chapter with many middling matches push out a short one that the
dense or the sparse ranking puts first or second. Each ranking is read again as a list of
distinct chapters (a chapter ranked by its best passage) and those lists are fused by
reciprocal rank; that order is then fused with the served order of chapters, the served
order counting ``served_weight`` times. Only the order of the chapters already pooled
changes: every passage keeps its score, and no chapter that the pool does not hold is added.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bedside_search.domain.fusion import Fused, Scored, best_of_each_chapter, firsts_then_rest


@dataclass(frozen=True)
class ChapterOrderRule:
    ranking_k: float
    """The reciprocal-rank constant over each ranking's distinct chapters: small, so that
    being first or second in one ranking counts."""
    blend_k: float
    """The reciprocal-rank constant of the blend of the rankings' order with the served one."""
    served_weight: float
    """How much the fused (served) order of chapters counts beside each ranking's."""


CHAPTER_ORDER = ChapterOrderRule(ranking_k=5.0, blend_k=10.0, served_weight=2.0)
"""The rule in service, chosen on every development set on its own book and on the long
development book (search README, adr/0035)."""


def distinct_chapters(ranking: Iterable[Scored | Fused], chapter_of: Mapping[int, int]) -> list[int]:
    """The chapters of ``ranking`` in the order their best passage appears."""
    return list(dict.fromkeys(chapter_of[hit.passage_id] for hit in ranking))


def blended_chapters(
    served: Sequence[Fused],
    rankings: Sequence[Sequence[Scored]],
    chapter_of: Mapping[int, int],
    rule: ChapterOrderRule = CHAPTER_ORDER,
) -> list[int]:
    """The chapters ``served`` holds, best first under the blend; ties keep the served order.

    The rankings' chapter lists are fused first (``ranking_k``), then that order and the
    served one (``blend_k``, the served one weighing ``served_weight``).
    """
    by_rankings: dict[int, float] = {}
    for ranking in rankings:
        for place, chapter in enumerate(distinct_chapters(ranking, chapter_of), 1):
            by_rankings[chapter] = by_rankings.get(chapter, 0.0) + 1.0 / (rule.ranking_k + place)
    of_rankings = sorted(by_rankings, key=lambda chapter: (-by_rankings[chapter], chapter))
    order = distinct_chapters(served, chapter_of)
    scores = {chapter: rule.served_weight / (rule.blend_k + place) for place, chapter in enumerate(order, 1)}
    for place, chapter in enumerate(of_rankings, 1):
        if chapter in scores:
            scores[chapter] += 1.0 / (rule.blend_k + place)
    position = {chapter: index for index, chapter in enumerate(order)}
    return sorted(order, key=lambda chapter: (-scores[chapter], position[chapter]))


def chapters_blended(
    served: Sequence[Fused],
    rankings: Sequence[Sequence[Scored]],
    chapter_of: Mapping[int, int],
    rule: ChapterOrderRule = CHAPTER_ORDER,
) -> list[Fused]:
    """``served`` with each chapter's best passage first, chapters in the blended order; every
    other passage after them in its served order."""
    best = best_of_each_chapter(served, chapter_of)
    return firsts_then_rest(
        [best[chapter] for chapter in blended_chapters(served, rankings, chapter_of, rule)], served
    )
