"""Rules measured on the long development book for issue 14 and not served: pure, no I/O.

Each addresses one cause of the long book's misses (more chapters and passages compete, and a
listener's words are not the book's). ``eval_long`` prints a row for each beside the served
rule, on every set's own book and on the joined one; the figures and why none is served are in
services/search/README.md and adr/0031.

- ``bridged_terms``: a query word the book never uses ("mum", "taxi") is matched, by MiniLM
  vectors of single words, to the nearest words the book does use ("mother", "cab"), which
  join the sparse query at their cosine. Vocabulary bridging from the book's own words.
- ``Cooccurrence.expanded``: each query term brings the terms that most often share a passage
  with it in this book (cosine over passage incidence), at a fraction of a weight.
- ``chapter_centroids`` and ``chapter_factors``: a chapter-level vector (the mean of its
  passages' vectors) as a second field: a passage's fused score is multiplied by
  ``1 + weight * max(0, cosine - mean cosine)`` of its chapter. Chapter titles as a field are
  the same factor with each chapter's title embedded instead.
"""

import math
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from bedside_guard import FUNCTION_WORDS, Passage, stem
from bedside_search.domain.fusion import Fused
from bedside_search.domain.terms import NAVIGATION_WORDS, SparseTerms, term_index, terms

Vector = npt.NDArray[np.float32]


def book_words(passages: Sequence[Passage]) -> list[str]:
    """The distinct content words the book uses, as written (lower case), sorted."""
    return sorted({w for p in passages for w in _content_words(p.text, navigation=False)})


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
"""The words ``terms`` reads (its own pattern)."""


def _content_words(text: str, *, navigation: bool) -> list[str]:
    """Surface words that ``terms`` would keep, each once, in order (the query side drops
    navigation words too)."""
    dropped = FUNCTION_WORDS | NAVIGATION_WORDS if navigation else FUNCTION_WORDS
    found = _WORD.findall(text.lower().replace("\u2019", "'"))
    return list(dict.fromkeys(w for w in found if w not in dropped and len(w) > 1 and not w.isdigit()))


def unknown_words(query: str, known_stems: Mapping[str, object] | set[str]) -> list[str]:
    """The query's content words whose stem the book never uses, in order, each once."""
    return [w for w in _content_words(query, navigation=True) if stem(w) not in known_stems]


def bridged_terms(
    query: str,
    known_stems: Mapping[str, object] | set[str],
    vocabulary: Sequence[str],
    vocabulary_vectors: Vector,
    word_vectors: Mapping[str, Vector],
    *,
    floor: float = 0.5,
    neighbours: int = 3,
) -> dict[str, float]:
    """The query's own terms at 1, and for each unknown word the stems of its ``neighbours``
    nearest book words at their cosine, when it is at least ``floor`` (the highest if two
    words bring one stem)."""
    weights = dict.fromkeys(terms(query, query=True), 1.0)
    for word in unknown_words(query, known_stems):
        vector = word_vectors.get(word)
        if vector is None:
            continue
        cosines = vocabulary_vectors @ vector
        for index in np.argsort(-cosines, kind="stable")[:neighbours]:
            cosine = float(cosines[index])
            bridged = stem(vocabulary[index])
            if cosine < floor or bridged == stem(word) or bridged not in known_stems:
                continue
            weights[bridged] = max(weights.get(bridged, 0.0), cosine)
    return weights


class Cooccurrence:
    """Which terms share passages in one book: each passage's set of terms."""

    def __init__(self, passages: Sequence[Passage]) -> None:
        self._sets = [set(terms(p.text)) for p in passages]
        self.frequency: Counter[str] = Counter(t for s in self._sets for t in s)
        self._holding: dict[str, list[int]] = defaultdict(list)
        for index, held in enumerate(self._sets):
            for term in held:
                self._holding[term].append(index)

    def expanded(self, query: str, *, weight: float, per_term: int, least: int = 3) -> dict[str, float]:
        """The query's terms at 1; each brings its ``per_term`` most associated terms (seen in at
        least ``least`` passages) at ``weight`` times the association."""
        own = set(terms(query, query=True))
        weights = dict.fromkeys(own, 1.0)
        for term in own:
            if term not in self.frequency:
                continue
            shared = Counter(u for index in self._holding[term] for u in self._sets[index])
            associated = sorted(
                (
                    (count / math.sqrt(self.frequency[term] * self.frequency[u]), u)
                    for u, count in shared.items()
                    if u != term and self.frequency[u] >= least
                ),
                key=lambda item: (-item[0], item[1]),
            )[:per_term]
            for association, u in associated:
                if u not in own:
                    weights[u] = max(weights.get(u, 0.0), weight * association)
        return weights


def weighted_query(weights: Mapping[str, float]) -> SparseTerms:
    """Term weights as the sparse query the store takes (two terms on one index keep the higher)."""
    by_index: dict[int, float] = {}
    for term, weight in weights.items():
        index = term_index(term)
        by_index[index] = max(by_index.get(index, 0.0), weight)
    ordered = sorted(by_index.items())
    return SparseTerms(indices=[i for i, _ in ordered], values=[v for _, v in ordered])


def chapter_centroids(passages: Sequence[Passage], vectors: Vector) -> dict[int, Vector]:
    """Each chapter's mean passage vector, normalised; ``vectors[i]`` belongs to ``passages[i]``."""
    rows: dict[int, list[int]] = defaultdict(list)
    for index, passage in enumerate(passages):
        rows[passage.chapter].append(index)
    centroids = {}
    for chapter, indices in rows.items():
        mean = vectors[indices].mean(axis=0)
        centroids[chapter] = (mean / float(np.linalg.norm(mean))).astype(np.float32)
    return centroids


def chapter_factors(
    chapter_vectors: Mapping[int, Vector], query_vector: Vector, weight: float, floor: float | None = None
) -> dict[int, float]:
    """``1 + weight * max(0, cosine - floor)`` per chapter; the floor is the chapters' mean
    cosine when None."""
    cosines = {chapter: float(vector @ query_vector) for chapter, vector in chapter_vectors.items()}
    base = sum(cosines.values()) / len(cosines) if floor is None else floor
    return {chapter: 1.0 + weight * max(0.0, cosine - base) for chapter, cosine in cosines.items()}


def reweighted(
    ranked: Sequence[Fused], chapter_of: Mapping[int, int], factors: Mapping[int, float]
) -> list[Fused]:
    """``ranked`` with each score multiplied by its chapter's factor, re-sorted (ties by id)."""
    scaled = [Fused(f.passage_id, f.score * factors[chapter_of[f.passage_id]], f.dense) for f in ranked]
    return sorted(scaled, key=lambda f: (-f.score, f.passage_id))
