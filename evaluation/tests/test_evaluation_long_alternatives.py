"""The long book's unserved rules: the vocabulary bridge, co-occurrence, chapter-level factors."""

import numpy as np
from bedside_embedding import load_minilm
from bedside_evaluation.long_alternatives import (
    Cooccurrence,
    book_words,
    bridged_terms,
    chapter_centroids,
    chapter_factors,
    reweighted,
    unknown_words,
    weighted_query,
)
from bedside_guard import Passage, stem
from bedside_search.domain.fusion import Fused
from bedside_search.domain.terms import term_index, terms


def _passage(pid: int, chapter: int, text: str) -> Passage:
    return Passage(
        id=pid,
        chapter=chapter,
        chapter_title=f"Chapter {chapter}",
        start_ms=pid * 1000,
        end_ms=pid * 1000 + 900,
        text=text,
    )


PASSAGES = [
    _passage(1, 1, "The foal ran beside his mother in the meadow."),
    _passage(2, 1, "His mother told him to be gentle and never kick."),
    _passage(3, 2, "The cab waited at the station in the rain."),
    _passage(4, 2, "The cabman drove the cab home through the rain."),
]
KNOWN = {t for p in PASSAGES for t in terms(p.text)}


def test_unknown_words_are_the_query_words_the_book_never_uses() -> None:
    assert unknown_words("take me back to the foal and his mum, his mum", KNOWN) == ["mum"]
    assert unknown_words("the foal and his mother", KNOWN) == []
    assert "meadow" in book_words(PASSAGES)
    assert "the" not in book_words(PASSAGES)


def test_a_word_the_book_never_uses_is_bridged_to_the_nearest_book_word() -> None:
    embedder = load_minilm()
    vocabulary = book_words(PASSAGES)
    vectors = embedder.embed_passages(vocabulary)
    words = {"mum": embedder.embed_passages(["mum"])[0], "taxi": embedder.embed_passages(["taxi"])[0]}
    mum = bridged_terms("the foal beside his mum", KNOWN, vocabulary, vectors, words, floor=0.5, neighbours=1)
    assert mum[stem("foal")] == 1.0
    assert 0.5 <= mum[stem("mother")] < 1.0
    taxi = bridged_terms("waiting in the taxi", KNOWN, vocabulary, vectors, words, floor=0.5, neighbours=1)
    assert stem("cab") in taxi
    assert stem("mother") not in taxi
    strict = bridged_terms(
        "the foal beside his mum", KNOWN, vocabulary, vectors, words, floor=0.99, neighbours=3
    )
    assert strict == dict.fromkeys(terms("the foal beside his mum", query=True), 1.0)


def test_cooccurring_terms_join_the_query_below_its_own() -> None:
    expanded = Cooccurrence(PASSAGES).expanded("the cab", weight=0.5, per_term=1, least=1)
    assert expanded[stem("cab")] == 1.0
    (other,) = set(expanded) - {stem("cab")}
    assert other in {
        stem("rain"),
        stem("station"),
        stem("waited"),
        stem("cabman"),
        stem("drove"),
        stem("home"),
    }
    assert 0 < expanded[other] <= 0.5


def test_weighted_query_keeps_one_weight_per_index() -> None:
    query = weighted_query({"mother": 0.8, "foal": 1.0})
    assert dict(zip(query.indices, query.values, strict=True)) == {
        term_index("mother"): 0.8,
        term_index("foal"): 1.0,
    }
    assert query.indices == sorted(query.indices)


def test_chapter_factors_lift_chapters_above_the_mean_and_reweighting_reorders() -> None:
    vectors = np.array([[1, 0], [1, 0], [0, 1], [0, 1]], dtype=np.float32)
    centroids = chapter_centroids(PASSAGES, vectors)
    assert np.allclose(centroids[1], [1, 0])
    assert np.allclose(centroids[2], [0, 1])
    factors = chapter_factors(centroids, np.array([0, 1], dtype=np.float32), weight=2.0)
    assert factors == {1: 1.0, 2: 2.0}
    assert chapter_factors(centroids, np.array([0, 1], dtype=np.float32), 2.0, floor=1.0) == {1: 1.0, 2: 1.0}
    chapter_of = {p.id: p.chapter for p in PASSAGES}
    ranked = [Fused(1, 0.3, None), Fused(3, 0.2, None), Fused(2, 0.1, None)]
    assert [f.passage_id for f in reweighted(ranked, chapter_of, factors)] == [3, 1, 2]
