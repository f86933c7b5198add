"""The chapter order: the served order of chapters blended with each ranking's own."""

from bedside_search.domain.chapter_order import (
    CHAPTER_ORDER,
    ChapterOrderRule,
    blended_chapters,
    chapters_blended,
    distinct_chapters,
)
from bedside_search.domain.fusion import Fused, Scored

# passages 1..5 are the best of chapters 10..50 in the served order; 6 and 7 are second
# passages of chapters 10 and 20; 8 is in chapter 60, which the pool does not hold
CHAPTER_OF = {1: 10, 2: 20, 3: 30, 4: 40, 5: 50, 6: 10, 7: 20, 8: 60}
SERVED = [
    Fused(1, 0.09, 0.5),
    Fused(2, 0.08, 0.5),
    Fused(3, 0.07, None),
    Fused(4, 0.06, 0.4),
    Fused(5, 0.05, 0.6),
    Fused(6, 0.04, 0.4),
    Fused(7, 0.03, None),
]
RULE = ChapterOrderRule(ranking_k=5.0, blend_k=10.0, served_weight=2.0)


def scored(*ids: int) -> list[Scored]:
    return [Scored(pid, 1.0 - index / 10) for index, pid in enumerate(ids)]


def ids(ranked: list[Fused]) -> list[int]:
    return [hit.passage_id for hit in ranked]


def test_a_ranking_reads_as_its_chapters_in_order_of_their_best_passage() -> None:
    assert distinct_chapters(scored(2, 7, 5, 1, 6), CHAPTER_OF) == [20, 50, 10]


def test_a_chapter_both_rankings_put_near_the_top_comes_into_the_first_four() -> None:
    # chapter 50 is fifth served (its passages had few pooled chapter-mates), first in
    # sparse and second in dense
    dense = scored(2, 5, 1)
    sparse = scored(5, 3, 1)
    assert blended_chapters(SERVED, (dense, sparse), CHAPTER_OF, RULE) == [10, 20, 30, 50, 40]
    assert ids(chapters_blended(SERVED, (dense, sparse), CHAPTER_OF, RULE))[:4] == [1, 2, 3, 5]


def test_one_ranking_alone_moves_a_chapter_up_but_not_past_the_served_leaders() -> None:
    # the dense side puts chapter 40 first, the sparse side agrees with the served order
    dense = scored(4, 1, 2, 3, 5)
    sparse = scored(1, 2, 3, 4, 5)
    assert blended_chapters(SERVED, (dense, sparse), CHAPTER_OF, RULE) == [10, 20, 40, 30, 50]
    rankings_only = ChapterOrderRule(ranking_k=5.0, blend_k=10.0, served_weight=0.0)
    assert blended_chapters(SERVED, (dense, sparse), CHAPTER_OF, rankings_only) == [10, 40, 20, 30, 50]


def test_rankings_that_agree_with_the_served_order_change_nothing() -> None:
    agreeing = scored(1, 2, 3, 4, 5)
    assert chapters_blended(SERVED, (agreeing, agreeing), CHAPTER_OF) == SERVED


def test_only_the_order_changes_and_only_pooled_chapters_come_back() -> None:
    blended = chapters_blended(SERVED, (scored(8, 5, 7), scored(8, 4)), CHAPTER_OF, CHAPTER_ORDER)
    assert sorted(blended, key=lambda hit: hit.passage_id) == sorted(SERVED, key=lambda hit: hit.passage_id)
    assert 60 not in {CHAPTER_OF[hit.passage_id] for hit in blended}
    # each chapter's best passage first, then the second passages in their served order
    assert ids(blended)[5:] == [6, 7]
    assert chapters_blended([], (scored(1), scored(2)), CHAPTER_OF) == []
