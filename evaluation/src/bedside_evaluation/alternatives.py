"""Fusion methods measured against the served rule and not adopted: pure, no I/O.

``bedside eval-search`` prints a row for each, beside the served rule, so the reason they
are not served can be re-measured rather than taken on trust. Each takes only what the
engine has for a query: the two bounded rankings the store returned, the query vector,
and the book's passages and vectors in memory (the chapter index reads only passages
that start before a bound), so any of them could be served without widening what recall
reads. None needs a second embedding.

- ``score_fusion``: a convex combination of min-max normalised cosine and BM25 over the
  union of both rankings, instead of reciprocal ranks (keeps the score gaps RRF drops).
- ``rocchio_dense``: pseudo-relevance feedback on the dense side: the query vector plus a
  fraction of the mean vector of the first round's best passages re-scores the bounded
  dense candidates.
- ``ChapterIndex`` and ``two_stage``: BM25 over whole chapters (a thematic request's
  words are spread over a chapter, not packed into one passage), fused with the served
  ranking's chapter order; passages then follow their chapter.
"""

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from bedside_guard import Passage
from bedside_search.domain.fusion import Fused, Scored, chapter_nudged
from bedside_search.domain.terms import K1, B, terms

Vector = npt.NDArray[np.float32]


def _min_max(values: Mapping[int, float]) -> dict[int, float]:
    if not values:
        return {}
    low, high = min(values.values()), max(values.values())
    span = high - low
    return {pid: (v - low) / span if span > 0 else 0.0 for pid, v in values.items()}


def score_fusion(
    dense: Sequence[Scored],
    sparse: Sequence[Scored],
    limit: int,
    *,
    dense_share: float = 0.5,
    chapter_of: Mapping[int, int] | None = None,
    chapter_weight: float = 0.2,
    pool: int = 40,
) -> list[Fused]:
    """``dense_share`` x normalised cosine + the rest x normalised BM25, then the chapter nudge.

    A passage one ranking did not return counts as that ranking's floor (0 after
    normalisation): it was below everything the bounded ranking kept.
    """
    if not 0.0 <= dense_share <= 1.0:
        raise ValueError(f"dense_share must be within [0, 1], not {dense_share}")
    cosine = {hit.passage_id: hit.score for hit in dense}
    dense_norm = _min_max(cosine)
    sparse_norm = _min_max({hit.passage_id: hit.score for hit in sparse})
    scores = {
        pid: dense_share * dense_norm.get(pid, 0.0) + (1 - dense_share) * sparse_norm.get(pid, 0.0)
        for pid in dict.fromkeys([*(h.passage_id for h in dense), *(h.passage_id for h in sparse)])
    }
    if chapter_weight and chapter_of is not None:
        scores = chapter_nudged(scores, chapter_weight, pool, chapter_of)
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [Fused(passage_id=pid, score=score, dense=cosine.get(pid)) for pid, score in ordered]


def rocchio_dense(
    dense: Sequence[Scored],
    query_vector: Vector,
    vector_of: Mapping[int, Vector],
    first_round: Sequence[int],
    *,
    feedback: int = 3,
    weight: float = 0.5,
) -> list[Scored]:
    """The bounded dense candidates re-scored against ``q + weight * mean(best feedback vectors)``.

    ``first_round`` is the fused ranking's passage ids, best first; only candidates the
    store already returned are re-scored, so the bound holds by construction.
    """
    chosen = [vector_of[pid] for pid in first_round[:feedback] if pid in vector_of]
    if not chosen or not dense:
        return list(dense)
    moved = query_vector + weight * np.mean(chosen, axis=0)
    moved = moved / float(np.linalg.norm(moved))
    rescored = [Scored(hit.passage_id, float(vector_of[hit.passage_id] @ moved)) for hit in dense]
    return sorted(rescored, key=lambda hit: (-hit.score, hit.passage_id))


@dataclass(frozen=True)
class _Counted:
    chapter: int
    start_ms: int
    counts: Counter[str]


class ChapterIndex:
    """BM25 with whole chapters as documents, each made of its passages before a bound."""

    def __init__(self, passages: Sequence[Passage], k1: float = K1, b: float = B) -> None:
        self.k1 = k1
        self.b = b
        self._passages = [_Counted(p.chapter, p.start_ms, Counter(terms(p.text))) for p in passages]
        self._holding: dict[str, list[int]] = defaultdict(list)
        for index, counted in enumerate(self._passages):
            for term in counted.counts:
                self._holding[term].append(index)

    def ranking(self, query: str, below_ms: int | None = None) -> list[int]:
        """Chapter numbers, best first (ties by number); only passages with start_ms < below_ms count."""
        inside = [below_ms is None or c.start_ms < below_ms for c in self._passages]
        lengths: Counter[int] = Counter()
        for counted, kept in zip(self._passages, inside, strict=True):
            if kept:
                lengths[counted.chapter] += sum(counted.counts.values())
        if not lengths:
            return []
        average = sum(lengths.values()) / len(lengths)
        scores: dict[int, float] = {}
        for term in set(terms(query, query=True)):
            tf: Counter[int] = Counter()
            for index in self._holding.get(term, []):
                if inside[index]:
                    tf[self._passages[index].chapter] += self._passages[index].counts[term]
            if not tf:
                continue
            idf = math.log(1 + (len(lengths) - len(tf) + 0.5) / (len(tf) + 0.5))
            for chapter, count in tf.items():
                norm = self.k1 * (1 - self.b + self.b * lengths[chapter] / average)
                scores[chapter] = scores.get(chapter, 0.0) + idf * count * (self.k1 + 1) / (count + norm)
        return [c for c, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))]


def two_stage(
    fused: Sequence[Fused],
    chapter_ranking: Sequence[int],
    chapter_of: Mapping[int, int],
    best_passage_of: Mapping[int, int],
    limit: int,
    *,
    k: float = 10.0,
) -> list[Fused]:
    """Chapters first (RRF of the fused ranking's chapter order and ``chapter_ranking``), then
    each chapter's passages in fused order.

    A chapter only the chapter ranking found is represented by ``best_passage_of[chapter]``
    (the caller's best bounded passage of it); a chapter with none is skipped.
    """
    fused_chapters = list(dict.fromkeys(chapter_of[f.passage_id] for f in fused))
    chapter_score: dict[int, float] = {}
    for ranking in (fused_chapters, chapter_ranking):
        for rank, chapter in enumerate(ranking, start=1):
            chapter_score[chapter] = chapter_score.get(chapter, 0.0) + 1.0 / (k + rank)
    by_chapter: dict[int, list[Fused]] = defaultdict(list)
    for hit in fused:
        by_chapter[chapter_of[hit.passage_id]].append(hit)
    ordered: list[Fused] = []
    for chapter, score in sorted(chapter_score.items(), key=lambda item: (-item[1], item[0])):
        hits = by_chapter.get(chapter)
        if not hits and chapter in best_passage_of:
            hits = [Fused(passage_id=best_passage_of[chapter], score=0.0, dense=None)]
        ordered.extend(Fused(h.passage_id, score, h.dense) for h in hits or [])
    return ordered[:limit]
