"""Recall@k and the results table, on hand-made rankings."""

import pytest
from bedside_evaluation.overlap import best_window_overlap, stems, word_overlap, words
from bedside_evaluation.queryset import NavigationQuery, query
from bedside_evaluation.scoring import (
    Miss,
    RecallResult,
    distinct_chapters,
    evaluate,
    format_table,
    hit_at,
    recall_at,
)

QUERIES = (
    query("the bit with the fire", 16),
    query("the runaway ride", 24),
    query("the long storm", 12, 13),
    query("the ending", 49),
)


def test_distinct_chapters_keep_first_appearance() -> None:
    assert distinct_chapters([5, 5, 3, 5, 9, 3, 1]) == (5, 3, 9, 1)
    assert distinct_chapters([]) == ()


def test_repeated_passages_of_one_chapter_count_once() -> None:
    # Four passages of chapter 7 then the target: the target is the second distinct chapter.
    ranking = [7, 7, 7, 7, 16]
    assert not hit_at(ranking, (16,), 1)
    assert hit_at(ranking, (16,), 2)
    assert hit_at(ranking, (16,), 4)


def test_a_hit_when_any_target_chapter_is_in_the_first_k() -> None:
    assert hit_at([1, 2, 3, 13], (12, 13), 4)
    assert not hit_at([1, 2, 3, 4, 13], (12, 13), 4)
    assert not hit_at([], (12,), 4)


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        hit_at([1], (1,), 0)


def test_recall_at_k() -> None:
    rankings = [[16, 1], [3, 24], [1, 2, 3, 4, 13], [49]]
    targets = [q.chapters for q in QUERIES]
    assert recall_at(rankings, targets, 1) == pytest.approx(2 / 4)
    assert recall_at(rankings, targets, 4) == pytest.approx(3 / 4)
    assert recall_at(rankings, targets, 5) == pytest.approx(4 / 4)


def test_recall_needs_one_ranking_per_query() -> None:
    with pytest.raises(ValueError, match="rankings"):
        recall_at([[1]], [(1,), (2,)], 1)
    with pytest.raises(ValueError, match="undefined"):
        recall_at([], [], 1)
    with pytest.raises(ValueError, match="rankings"):
        evaluate(QUERIES, [[16]])
    with pytest.raises(ValueError, match="undefined"):
        evaluate((), [])


def test_evaluate_counts_hits_and_lists_misses() -> None:
    rankings = [[16, 16, 2], [3, 3, 24], [1, 1, 2, 3, 4, 13], [48, 47, 46, 45, 44, 49]]
    result = evaluate(QUERIES, rankings)
    assert (result.total, result.hits_at_1, result.hits_at_4) == (4, 1, 2)
    assert result.recall_at_1 == pytest.approx(0.25)
    assert result.recall_at_4 == pytest.approx(0.5)
    assert result.misses == (
        Miss(query="the long storm", targets=(12, 13), got=(1, 2, 3, 4)),
        Miss(query="the ending", targets=(49,), got=(48, 47, 46, 45)),
    )


def test_queries_reject_empty_targets() -> None:
    with pytest.raises(ValueError, match="chapters"):
        NavigationQuery(text="the fire", chapters=())
    with pytest.raises(ValueError, match="chapters"):
        query("the fire", 0)


def test_table_has_a_row_per_method_and_two_columns_per_book() -> None:
    perfect = RecallResult(total=4, hits_at_1=4, hits_at_4=4, misses=())
    half = evaluate(QUERIES, [[16], [24], [1], [2]])
    table = format_table(
        {
            "dense": {"black_beauty": half, "sherlock": perfect},
            "sparse": {"black_beauty": perfect},
            "hybrid": {"black_beauty": perfect, "sherlock": half},
        }
    )
    lines = table.splitlines()
    assert len(lines) == 5
    assert [cell.strip() for cell in lines[0].strip("|").split("|")] == [
        "method",
        "black_beauty R@1",
        "black_beauty R@4",
        "sherlock R@1",
        "sherlock R@4",
    ]
    assert [cell.strip() for cell in lines[2].strip("|").split("|")] == [
        "dense",
        "0.50 (2/4)",
        "0.50 (2/4)",
        "1.00 (4/4)",
        "1.00 (4/4)",
    ]
    assert [cell.strip() for cell in lines[3].strip("|").split("|")][3:] == ["-", "-"]
    assert len({len(line) for line in lines}) == 1  # columns line up


def test_word_overlap_ignores_stopwords_and_suffixes() -> None:
    target = stems(words("The old horse burned in the field of glasses."))
    # content words: horses, burning, fields, glass, water -> four of five meet the target
    assert word_overlap("take me back to where the horses burning in the fields glass water", target) == 0.8
    assert word_overlap("take me back to where it is", target) == 0.0


def test_best_window_overlap_finds_a_copied_sentence_only_in_one_window() -> None:
    text = " ".join(["filler"] * 200 + ["the", "grey", "pony", "bolted", "home"] + ["filler"] * 200)
    assert best_window_overlap("the grey pony bolted home", text) == 1.0
    assert best_window_overlap("the grey pony bolted home", text, width=2, step=1) == 0.5
    scattered = " ".join(["grey"] + ["filler"] * 300 + ["pony"])
    assert best_window_overlap("grey pony", scattered) == 0.5
