"""The long development book joins its parts in order, and the parts' sets keep their targets."""

import statistics

from bedside_evaluation import query
from bedside_evaluation.books import held_out_sets, long_book_sets, query_sets
from bedside_evaluation.long_book import LONG_BOOK, PARTS, joined_book
from bedside_evaluation.overlap import best_window_overlap, words
from bedside_evaluation.queryset import QuerySet
from bedside_ingest.chunking import chunk_book, load_json_book
from bedside_testing import corpus_file


def test_each_part_keeps_its_chapters_in_order_numbered_on() -> None:
    corpus = corpus_file("black_beauty.json").parent
    joined = joined_book(corpus)
    numbers = [c.n for c in joined.book.chapters]
    assert numbers == list(range(1, len(numbers) + 1))
    first = 1
    for part in PARTS:
        own = load_json_book(corpus / f"{part}.json").chapters
        assert [c.n for c in own] == list(joined.renumbered[part])
        assert list(joined.renumbered[part].values()) == list(range(first, first + len(own)))
        assert [joined.book.chapters[first - 1 + i].units for i in range(len(own))] == [c.units for c in own]
        first += len(own)


def test_a_parts_passages_are_the_texts_it_has_alone() -> None:
    corpus = corpus_file("black_beauty.json").parent
    joined = joined_book(corpus)
    passages = chunk_book(joined.book)
    for part, numbers in joined.parts:
        alone = [p.text for p in chunk_book(load_json_book(corpus / f"{part}.json"))]
        assert [p.text for p in passages if p.chapter in numbers] == alone


def test_targets_are_renumbered_into_the_joined_book() -> None:
    joined = joined_book(corpus_file("black_beauty.json").parent)
    holmes = QuerySet(book="adventures_of_sherlock_holmes", queries=(query("the blue goose", 7),))
    renumbered = joined.query_set(holmes)
    assert renumbered.book == LONG_BOOK
    assert renumbered.queries[0].chapters == (49 + 7,)


def test_long_book_sets_target_chapters_of_the_long_book() -> None:
    joined = joined_book(corpus_file("black_beauty.json").parent)
    last = len(joined.book.chapters)
    for query_set in long_book_sets(final=True, heldout=True, last=True).values():
        assert query_set.book == LONG_BOOK
        assert all(1 <= n <= last for q in query_set.queries for n in q.chapters)


def test_the_held_out_third_is_a_third_and_new() -> None:
    sets = long_book_sets(final=True)
    held = len(sets["long_book_final"].queries)
    assert 3 * held >= sum(len(s.queries) for s in sets.values())
    texts = [q.text.lower() for s in sets.values() for q in s.queries]
    assert len(set(texts)) == len(texts)


def test_long_book_queries_are_paraphrases_of_their_chapters() -> None:
    """The bound the tuning sets meet (mean best-window overlap under 0.5). A short query may
    use only words its chapter has ("the start of the fire in the inn's stable"), so no
    single query is bounded."""
    joined = joined_book(corpus_file("black_beauty.json").parent)
    texts = {c.n: " ".join(u.text for u in c.units) for c in joined.book.chapters}
    for query_set in long_book_sets(final=True, heldout=True, last=True).values():
        windows = [max(best_window_overlap(q.text, texts[n]) for n in q.chapters) for q in query_set.queries]
        assert statistics.mean(windows) < 0.5


def test_the_second_held_out_set_covers_every_part_and_is_new() -> None:
    joined = joined_book(corpus_file("black_beauty.json").parent)
    (held,) = long_book_sets(heldout=True).keys() - long_book_sets().keys()
    queries = long_book_sets(heldout=True)[held].queries
    assert len(queries) >= 30
    targets = {n for q in queries for n in q.chapters}
    assert all(not targets.isdisjoint(numbers) for _, numbers in joined.parts)
    others = [*long_book_sets(final=True).values(), *query_sets(), *held_out_sets().values()]
    seen = {" ".join(words(q.text)) for s in others for q in s.queries}
    assert [q.text for q in queries if " ".join(words(q.text)) in seen] == []


def test_the_second_held_out_set_copies_no_five_words_of_the_book() -> None:
    joined = joined_book(corpus_file("black_beauty.json").parent)
    runs: set[tuple[str, ...]] = set()
    for chapter in joined.book.chapters:
        text = words(" ".join(u.text for u in chapter.units))
        runs.update(tuple(text[i : i + 5]) for i in range(len(text) - 4))
    (held,) = long_book_sets(heldout=True).keys() - long_book_sets().keys()
    copied = [
        q.text
        for q in long_book_sets(heldout=True)[held].queries
        if any(tuple(words(q.text)[i : i + 5]) in runs for i in range(len(words(q.text)) - 4))
    ]
    assert copied == []
