"""How the dense and the sparse rankings become one: pure, measured on the evaluation sets.

Both rankings come from the engine already bounded (recall's line is a filter inside each
query), so fusion only orders what it is given and can never widen what was read.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bedside_search.domain.book_part import nearness


@dataclass(frozen=True)
class Scored:
    """One passage in one ranking, with that ranking's raw score."""

    passage_id: int
    score: float


@dataclass(frozen=True)
class Fused:
    passage_id: int
    score: float
    dense: float | None
    """The passage's cosine to the query when dense retrieval returned it: the relevance
    measure recall's "has it come up" threshold is set on."""


@dataclass(frozen=True)
class FusionRule:
    """Weighted reciprocal-rank fusion, then a nudge for passages whose chapter also matched.

    score = dense_weight / (k + dense rank) + sparse_weight / (k + sparse rank); of the best
    ``pool`` passages, each then gains ``chapter_weight`` times the scores of the other pooled
    passages of its chapter. A listener names a moment by what happens around it, and the
    words of that often fall into several neighbouring passages of one chapter.

    With ``spread_chapters``, what is served lists each chapter's best passage first (in
    rank order) and only then the rest: a find shows at most eight lines and a listener is
    offered four, and a second passage 30 seconds from the first is the same place to
    them, while the right chapter is often the third or fourth one ranked.

    When the query names a part of the book (``book_part``), each passage's score is then
    multiplied by ``1 + part_weight * nearness``: the whole boost at the named place, half
    of it ``part_reach_ms`` of narration away, a quarter at twice that (``placed`` holds
    each passage's distance from the place, in ms).

    With ``nudge_share`` and the number of passages searched known, the nudge adds up only
    the best ``nudge_share`` of them (at least ``nudge_least``, at most ``pool``). A short
    book, or what was heard of one early on, fits in the pool whole, and summing all of it
    hands first place to whichever chapter has the most passages.
    """

    k: float = 60.0
    dense_weight: float = 1.0
    sparse_weight: float = 1.0
    chapter_weight: float = 0.0
    pool: int = 40
    spread_chapters: bool = False
    part_weight: float = 0.0
    part_reach_ms: int = 3_600_000
    nudge_share: float = 0.0
    nudge_least: int = 8

    def nudge_counts(self, searched: int | None) -> int:
        """How many of the best pooled passages the chapter nudge adds up."""
        if not self.nudge_share or searched is None:
            return self.pool
        return max(self.nudge_least, min(self.pool, round(self.nudge_share * searched)))


FUSION = FusionRule(
    k=60.0,
    dense_weight=1.0,
    sparse_weight=1.0,
    chapter_weight=0.2,
    pool=40,
    spread_chapters=True,
    part_weight=2.0,
    part_reach_ms=3_600_000,
    nudge_share=0.1,
    nudge_least=8,
)
"""The rule in service: RRF k=60, a chapter nudge, chapters spread and the part prior,
chosen on the evaluation sets (how, and what else was tried: the search README, adr/0012)."""


def fuse(
    dense: Sequence[Scored],
    sparse: Sequence[Scored],
    limit: int,
    rule: FusionRule = FUSION,
    chapter_of: Mapping[int, int] | None = None,
    *,
    placed: Mapping[int, int] | None = None,
    searched: int | None = None,
) -> list[Fused]:
    """The best ``limit`` passages of both rankings, best first; ties break on the id.
    ``searched``: how many passages the rankings were drawn from, when known."""
    scores: dict[int, float] = {}
    for weight, ranking in ((rule.dense_weight, dense), (rule.sparse_weight, sparse)):
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.passage_id] = scores.get(hit.passage_id, 0.0) + weight / (rule.k + rank)
    if rule.chapter_weight and chapter_of is not None:
        counted = rule.nudge_counts(searched)
        scores = chapter_nudged(scores, rule.chapter_weight, rule.pool, chapter_of, counted)
    if rule.part_weight and placed:
        scores = {
            pid: score * (1.0 + rule.part_weight * nearness(placed[pid], rule.part_reach_ms))
            for pid, score in scores.items()
        }
    cosine = {hit.passage_id: hit.score for hit in dense}
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [Fused(passage_id=pid, score=score, dense=cosine.get(pid)) for pid, score in ordered]


def agreed_best(
    dense: Sequence[Scored],
    sparse: Sequence[Scored],
    rule: FusionRule,
    chapter_of: Mapping[int, int],
    *,
    leaving_out: int | None = None,
) -> int | None:
    """The passage both rankings point at: when the best passage by meaning and the best by
    words lie in one chapter, the one of the two with the higher plain RRF score (ties: the one
    by meaning); None when they lie in different chapters.

    Both signals then agree on the place, and the chapter nudge, which adds up every pooled
    chapter-mate, must not hand first place to a longer chapter that only shares the topic
    (adr/0025, amended). ``leaving_out`` (the passage holding the line, partly unheard) is
    judged by neither ranking.
    """
    dense = [hit for hit in dense if hit.passage_id != leaving_out]
    sparse = [hit for hit in sparse if hit.passage_id != leaving_out]
    if not dense or not sparse:
        return None
    by_meaning, by_words = dense[0].passage_id, sparse[0].passage_id
    if chapter_of[by_meaning] != chapter_of[by_words]:
        return None

    def plain(passage_id: int) -> float:
        return sum(
            weight / (rule.k + rank)
            for weight, ranking in ((rule.dense_weight, dense), (rule.sparse_weight, sparse))
            for rank, hit in enumerate(ranking, start=1)
            if hit.passage_id == passage_id
        )

    return by_words if plain(by_words) > plain(by_meaning) else by_meaning


def lifted_first(ranked: Sequence[Fused], passage_id: int | None) -> list[Fused]:
    """``ranked`` with ``passage_id`` moved to the front, its score raised just past the best one
    (so a later re-sort keeps it there unless something raises another); unchanged when absent."""
    lifted = [hit for hit in ranked if hit.passage_id == passage_id]
    if not lifted or ranked[0].passage_id == passage_id:
        return list(ranked)
    first = replace(lifted[0], score=math.nextafter(ranked[0].score, math.inf))
    return [first, *(hit for hit in ranked if hit.passage_id != passage_id)]


def chapter_nudged(
    scores: Mapping[int, float],
    weight: float,
    pool: int,
    chapter_of: Mapping[int, int],
    counted: int | None = None,
) -> dict[int, float]:
    """The best ``pool`` passages, each plus ``weight`` times the scores of its chapter-mates among
    the best ``counted`` (all of the pool when None)."""
    pooled = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:pool]
    counting = pooled[: pool if counted is None else counted]
    per_chapter: dict[int, float] = {}
    for pid, score in counting:
        per_chapter[chapter_of[pid]] = per_chapter.get(chapter_of[pid], 0.0) + score
    own = dict(counting)
    return {
        pid: score + weight * (per_chapter.get(chapter_of[pid], 0.0) - own.get(pid, 0.0))
        for pid, score in pooled
    }


def best_of_each_chapter(ranked: Sequence[Fused], chapter_of: Mapping[int, int]) -> dict[int, Fused]:
    """Each chapter's first passage in ``ranked``, by chapter, in the order the chapters appear."""
    best: dict[int, Fused] = {}
    for hit in ranked:
        best.setdefault(chapter_of[hit.passage_id], hit)
    return best


def firsts_then_rest(firsts: Sequence[Fused], ranked: Sequence[Fused]) -> list[Fused]:
    """``firsts``, then every other passage of ``ranked`` in its order."""
    chosen = {hit.passage_id for hit in firsts}
    return [*firsts, *(hit for hit in ranked if hit.passage_id not in chosen)]


def one_per_chapter_first(ranked: Sequence[Fused], chapter_of: Mapping[int, int]) -> list[Fused]:
    """Each chapter's best passage, in rank order, then every other passage in rank order.

    Only the order changes: the same passages with the same scores, and the chapters in
    the order their best passages were ranked, so the first passage is still the best.
    """
    return firsts_then_rest(list(best_of_each_chapter(ranked, chapter_of).values()), ranked)


def served_order(
    ranked: Sequence[Fused], rule: FusionRule, chapter_of: Mapping[int, int] | None
) -> list[Fused]:
    """The order a fused ranking is served in under ``rule``."""
    if rule.spread_chapters and chapter_of is not None:
        return one_per_chapter_first(ranked, chapter_of)
    return list(ranked)


def rank(
    dense: Sequence[Scored],
    sparse: Sequence[Scored],
    limit: int,
    rule: FusionRule = FUSION,
    chapter_of: Mapping[int, int] | None = None,
    *,
    placed: Mapping[int, int] | None = None,
) -> list[Fused]:
    """The rule's whole pool fused, put in served order, then cut to ``limit``: what find serves of a
    book of 400 passages or more, before the chapter order and the ordinal (``find.find_order``),
    for the evaluations' comparisons."""
    pooled = fuse(dense, sparse, max(limit, rule.pool), rule, chapter_of, placed=placed)
    return served_order(pooled, rule, chapter_of)[:limit]


def single(ranking: Sequence[Scored], limit: int, *, dense: bool) -> list[Fused]:
    """One ranking alone, in the fused shape (for the evaluation's dense-only and sparse-only rows)."""
    return [
        Fused(passage_id=hit.passage_id, score=hit.score, dense=hit.score if dense else None)
        for hit in ranking[:limit]
    ]
