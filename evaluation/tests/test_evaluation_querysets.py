"""The evaluation query sets are well-formed and paraphrased.

Shape checks need no corpus; checks against the books read ../shared/corpus at run time and
skip cleanly where it is absent. Run with ``-s`` to see the measured word overlap.
"""

import statistics
from collections import Counter
from typing import Any

import pytest
from bedside_evaluation import QuerySet, query_sets
from bedside_evaluation.overlap import (
    PASSAGE_WORDS,
    best_window_overlap,
    content_words,
    stems,
    word_overlap,
    words,
)
from bedside_testing import corpus_book

QUERY_SETS = query_sets()
BY_BOOK = pytest.mark.parametrize("query_set", QUERY_SETS, ids=[qs.book for qs in QUERY_SETS])

# Bounds chosen after measuring (mean chapter overlap 0.59 and 0.82, mean best-window overlap
# 0.43 and 0.44 for Black Beauty and Sherlock Holmes). A Sherlock chapter is a whole story of
# ~9,000 words and holds most common words, hence its looser chapter bound; the passage-sized
# window is the stricter test of copying and has one bound for both books.
MEAN_CHAPTER_OVERLAP_BELOW = {"black_beauty": 0.65, "adventures_of_sherlock_holmes": 0.85}
MEAN_WINDOW_OVERLAP_BELOW = 0.5
ONE_QUERY_WINDOW_OVERLAP_BELOW = 0.85  # for queries of 3+ content words: no copied sentence


def _chapters(query_set: QuerySet) -> dict[int, str]:
    book: dict[str, Any] = corpus_book(query_set.book)
    return {int(chapter["n"]): str(chapter["text"]) for chapter in book["chapters"]}


def test_one_query_set_per_book() -> None:
    books = [qs.book for qs in QUERY_SETS]
    assert len(books) == len(set(books)) == 2


@BY_BOOK
def test_at_least_thirty_queries(query_set: QuerySet) -> None:
    assert len(query_set.queries) >= 30


@BY_BOOK
def test_no_duplicate_queries(query_set: QuerySet) -> None:
    normalised = Counter(" ".join(words(navigation.text)) for navigation in query_set.queries)
    assert [text for text, count in normalised.items() if count > 1] == []
    assert all(len(set(q.chapters)) == len(q.chapters) for q in query_set.queries)


@BY_BOOK
def test_every_query_names_something(query_set: QuerySet) -> None:
    assert [q.text for q in query_set.queries if not content_words(q.text)] == []


@BY_BOOK
def test_target_chapters_exist_in_the_book(query_set: QuerySet) -> None:
    chapters = _chapters(query_set)
    missing = [(q.text, n) for q in query_set.queries for n in q.chapters if n not in chapters]
    assert missing == []


@BY_BOOK
def test_queries_cover_beginning_middle_and_end(query_set: QuerySet) -> None:
    last = max(_chapters(query_set))
    thirds = Counter(min(3 * (n - 1) // last, 2) for q in query_set.queries for n in q.chapters)
    assert all(thirds[third] >= 5 for third in range(3)), thirds


@BY_BOOK
def test_queries_share_few_words_with_their_target(query_set: QuerySet) -> None:
    chapters = _chapters(query_set)
    chapter_stems = {n: stems(words(text)) for n, text in chapters.items()}
    chapter_overlaps: list[float] = []
    window_overlaps: list[float] = []
    copied: list[tuple[str, float]] = []
    for navigation in query_set.queries:
        target = set().union(*(chapter_stems[n] for n in navigation.chapters))
        chapter_overlaps.append(word_overlap(navigation.text, target))
        window = max(best_window_overlap(navigation.text, chapters[n]) for n in navigation.chapters)
        window_overlaps.append(window)
        if len(content_words(navigation.text)) >= 3 and window >= ONE_QUERY_WINDOW_OVERLAP_BELOW:
            copied.append((navigation.text, window))
    chapter_mean = statistics.mean(chapter_overlaps)
    window_mean = statistics.mean(window_overlaps)
    print(
        f"\n{query_set.book}: {len(query_set.queries)} queries, mean word overlap with the target "
        f"chapter {chapter_mean:.3f}, with the best {PASSAGE_WORDS}-word window {window_mean:.3f}"
    )
    assert chapter_mean < MEAN_CHAPTER_OVERLAP_BELOW[query_set.book]
    assert window_mean < MEAN_WINDOW_OVERLAP_BELOW
    assert copied == []
