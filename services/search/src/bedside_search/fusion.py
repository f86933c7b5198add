"""How the dense and the sparse rankings become one: pure, measured on the evaluation sets.

Both rankings come from the engine already bounded (recall's line is a filter inside each
query), so fusion only orders what it is given and can never widen what was read.
"""

from collections.abc import Sequence
from dataclasses import dataclass


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
    """Weighted reciprocal-rank fusion: score = sum of weight / (k + rank)."""

    k: float = 60.0
    dense_weight: float = 1.0
    sparse_weight: float = 1.0


FUSION = FusionRule(k=60.0, dense_weight=1.0, sparse_weight=1.0)
"""The rule in service; see the evaluation report in bedside_search.eval_search."""


def fuse(
    dense: Sequence[Scored], sparse: Sequence[Scored], limit: int, rule: FusionRule = FUSION
) -> list[Fused]:
    """The best ``limit`` passages of both rankings, best first; ties break on the id."""
    scores: dict[int, float] = {}
    for weight, ranking in ((rule.dense_weight, dense), (rule.sparse_weight, sparse)):
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.passage_id] = scores.get(hit.passage_id, 0.0) + weight / (rule.k + rank)
    cosine = {hit.passage_id: hit.score for hit in dense}
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [Fused(passage_id=pid, score=score, dense=cosine.get(pid)) for pid, score in ordered]


def single(ranking: Sequence[Scored], limit: int, *, dense: bool) -> list[Fused]:
    """One ranking alone, in the fused shape (for the evaluation's dense-only and sparse-only rows)."""
    return [
        Fused(passage_id=hit.passage_id, score=hit.score, dense=hit.score if dense else None)
        for hit in ranking[:limit]
    ]
