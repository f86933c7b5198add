"""The served order (each chapter's best passage first) and the measured-but-unserved methods."""

import numpy as np
import pytest
from bedside_evaluation.alternatives import ChapterIndex, rocchio_dense, score_fusion, two_stage
from bedside_guard import Passage
from bedside_search.domain.fusion import (
    FUSION,
    Fused,
    FusionRule,
    Scored,
    fuse,
    one_per_chapter_first,
    rank,
    served_order,
)

CHAPTER_OF = {1: 1, 2: 1, 3: 1, 4: 2, 5: 3, 6: 2}
DENSE = [Scored(1, 0.9), Scored(2, 0.85), Scored(3, 0.8), Scored(4, 0.7), Scored(5, 0.6), Scored(6, 0.5)]
SPARSE = [Scored(2, 9.0), Scored(1, 8.0), Scored(3, 7.0), Scored(5, 3.0), Scored(4, 2.0)]


def _fused(pid: int, score: float) -> Fused:
    return Fused(passage_id=pid, score=score, dense=None)


def test_one_per_chapter_first_keeps_passages_scores_and_chapter_order() -> None:
    ranked = [_fused(1, 0.9), _fused(2, 0.8), _fused(4, 0.7), _fused(3, 0.6), _fused(5, 0.5), _fused(6, 0.4)]
    spread = one_per_chapter_first(ranked, CHAPTER_OF)
    assert [f.passage_id for f in spread] == [1, 4, 5, 2, 3, 6]
    assert sorted(spread, key=lambda f: f.passage_id) == sorted(ranked, key=lambda f: f.passage_id)
    assert spread[0] == ranked[0]
    firsts = list(dict.fromkeys(CHAPTER_OF[f.passage_id] for f in ranked))
    assert [CHAPTER_OF[f.passage_id] for f in spread[: len(firsts)]] == firsts
    assert one_per_chapter_first([], CHAPTER_OF) == []


def test_rank_spreads_chapters_before_cutting_to_the_limit() -> None:
    unspread = FusionRule(k=60, chapter_weight=0.2, spread_chapters=False)
    spread = FusionRule(k=60, chapter_weight=0.2, spread_chapters=True)
    plain = rank(DENSE, SPARSE, 3, unspread, CHAPTER_OF)
    served = rank(DENSE, SPARSE, 3, spread, CHAPTER_OF)
    assert {CHAPTER_OF[f.passage_id] for f in plain} == {1}  # three passages of one chapter
    assert [CHAPTER_OF[f.passage_id] for f in served] == [1, 2, 3]
    assert served[0] == plain[0]
    assert len(rank(DENSE, SPARSE, 8, spread, CHAPTER_OF)) == len(CHAPTER_OF)


def test_served_order_needs_chapters_and_the_rules_consent() -> None:
    fused = fuse(DENSE, SPARSE, 6, FUSION, CHAPTER_OF)
    assert served_order(fused, FUSION, None) == fused
    assert served_order(fused, FusionRule(spread_chapters=False), CHAPTER_OF) == fused
    assert FUSION.spread_chapters  # the served rule spreads


def test_score_fusion_uses_score_gaps_and_counts_a_missing_ranking_as_its_floor() -> None:
    dense = [Scored(1, 0.9), Scored(2, 0.899), Scored(3, 0.1)]  # 1 and 2 all but tie
    sparse = [Scored(3, 10.0), Scored(2, 1.0), Scored(1, 0.9), Scored(9, 0.0)]
    assert fuse(dense, sparse, 1, FusionRule(k=60))[0].passage_id == 1  # RRF sees ranks only
    fused = score_fusion(dense, sparse, 4, dense_share=0.5, chapter_weight=0.0)
    assert fused[0].passage_id == 2  # the gap says 2 is as good as 1 on dense, better on sparse
    assert {f.passage_id for f in fused} == {1, 2, 3, 9}
    assert next(f for f in fused if f.passage_id == 9).dense is None
    assert next(f for f in fused if f.passage_id == 9).score == 0.0
    with pytest.raises(ValueError, match="dense_share"):
        score_fusion(dense, sparse, 4, dense_share=1.5)


def test_rocchio_rescores_only_the_candidates_it_was_given() -> None:
    vectors = {i: np.eye(4, dtype=np.float32)[i % 4] for i in range(1, 5)}
    dense = [Scored(1, 0.9), Scored(2, 0.5)]
    query = np.array([0.8, 0.6, 0.0, 0.0], dtype=np.float32)
    moved = rocchio_dense(dense, query, vectors, first_round=[2], feedback=1, weight=2.0)
    assert [s.passage_id for s in moved] == [2, 1]  # pulled towards the feedback passage
    assert {s.passage_id for s in moved} == {1, 2}  # never a passage the store did not return
    assert rocchio_dense(dense, query, vectors, first_round=[], feedback=1) == dense


def _passage(pid: int, chapter: int, start_ms: int, text: str) -> Passage:
    return Passage(
        id=pid,
        start_ms=start_ms,
        end_ms=start_ms + 1000,
        chapter=chapter,
        chapter_title=f"Chapter {chapter}",
        text=text,
    )


def test_chapter_index_reads_only_passages_behind_the_bound() -> None:
    index = ChapterIndex(
        [
            _passage(1, 1, 0, "the kettle whistled in the kitchen"),
            _passage(2, 1, 1000, "a quiet kitchen at dawn"),
            _passage(3, 2, 2000, "the kettle boiled over and the kettle cracked"),
            _passage(4, 3, 3000, "rain on the orchard"),
        ]
    )
    assert index.ranking("kettle")[0] == 2  # two mentions in a short chapter
    assert index.ranking("kettle", below_ms=2000) == [1]  # chapter 2 starts at the bound
    assert index.ranking("kettle", below_ms=0) == []
    assert index.ranking("orchard rain") == [3]


def test_two_stage_puts_chapters_first_and_represents_a_chapter_only_the_index_found() -> None:
    fused = [_fused(1, 0.9), _fused(4, 0.8), _fused(2, 0.7)]
    staged = two_stage(fused, [3, 1], CHAPTER_OF, {3: 5}, limit=10, k=1.0)
    assert [CHAPTER_OF[f.passage_id] for f in staged] == [1, 1, 3, 2]
    assert [f.passage_id for f in staged] == [1, 2, 5, 4]
    assert two_stage(fused, [7], CHAPTER_OF, {}, limit=10)[-1].passage_id == 4  # nothing for 7
