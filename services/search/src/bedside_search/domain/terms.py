"""The sparse side of hybrid search: words to BM25-style term weights, pure and stateless.

Documents get BM25's saturated, length-normalised term frequency; the query gets one unit
per distinct term; Qdrant multiplies in each term's IDF over the book's own collection
(``Modifier.IDF``), so the dot product the engine computes is BM25.

A term's index is a stable hash of its text, so the encoder needs no vocabulary and the
same word gets the same index in every process and every version.
"""

import math
import re
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bedside_guard import FUNCTION_WORDS, stem

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

K1 = 1.2
B = 0.75
"""The textbook BM25 constants; measured on the evaluation sets, changing them did little."""


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


NAVIGATION_WORDS = _wordset(
    """
    take back go bit part where when place scene moment chapter start again skip jump
    remember bring find play let wait want
    """
)
"""Words a listener uses to ask for a place rather than to name it ("take me back to the
bit where..."): dropped from queries only, never from passages."""


@dataclass(frozen=True)
class SparseTerms:
    """A sparse vector in Qdrant's shape: parallel lists of term indices and weights."""

    indices: list[int]
    values: list[float]


def terms(text: str, *, query: bool = False) -> list[str]:
    """The stemmed content terms of a text, in order (repeats kept)."""
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    # a query's "the" must not outweigh its one rare noun
    dropped = FUNCTION_WORDS | NAVIGATION_WORDS if query else FUNCTION_WORDS
    return [stem(w) for w in words if w not in dropped and len(w) > 1]


def term_index(term: str) -> int:
    """A stable 31-bit index for a term (collisions are rare enough not to matter at book scale)."""
    return zlib.crc32(term.encode()) & 0x7FFFFFFF


def _sparse(weights: dict[int, float]) -> SparseTerms:
    ordered = sorted(weights.items())
    return SparseTerms(indices=[i for i, _ in ordered], values=[v for _, v in ordered])


def document_length(text: str) -> int:
    return len(terms(text))


def average_length(texts: Sequence[str]) -> float:
    """The mean number of terms of a book's passages, for BM25's length normalisation."""
    if not texts:
        return 1.0
    return max(1.0, sum(document_length(t) for t in texts) / len(texts))


def encode_document(text: str, average_terms: float) -> SparseTerms:
    """BM25 term-frequency weights of one passage (IDF is applied by the engine)."""
    counts = Counter(terms(text))
    length = sum(counts.values())
    norm = K1 * (1 - B + B * length / average_terms)
    weights: dict[int, float] = {}
    for term, tf in counts.items():
        index = term_index(term)
        weights[index] = weights.get(index, 0.0) + tf * (K1 + 1) / (tf + norm)
    return _sparse(weights)


def encode_query(text: str) -> SparseTerms:
    """One unit per distinct query term: BM25 ignores query term frequency for short queries."""
    return _sparse({term_index(term): 1.0 for term in set(terms(text, query=True))})


def idf(containing: int, total: int) -> float:
    """The IDF Qdrant multiplies in (``Modifier.IDF``, BM25's): ``ln(1 + (N - n + 0.5) / (n + 0.5))``."""
    return math.log(1.0 + (total - containing + 0.5) / (containing + 0.5))


@dataclass(frozen=True)
class BookTerms:
    """What BM25 knows of a book's passages: their mean length and how many hold each term.

    With it a text the store does not hold (the heard part of the passage holding the line) is
    scored as the store scores its passages, so the two scores can be ranked together.
    """

    average_terms: float
    passages: int
    containing: Mapping[int, int]
    """Each term index and how many passages hold it."""

    @classmethod
    def of(cls, passage_terms: Sequence[Sequence[str]]) -> "BookTerms":
        """From each passage's terms (``terms``), read once for this and the book's term index."""
        containing: Counter[int] = Counter()
        for held in passage_terms:
            containing.update({term_index(term) for term in held})
        total = sum(len(held) for held in passage_terms)
        average = max(1.0, total / len(passage_terms)) if passage_terms else 1.0  # as ``average_length``
        return cls(average_terms=average, passages=len(passage_terms), containing=dict(containing))

    def score(self, query: SparseTerms, text: str) -> float:
        """``text``'s BM25 score for ``query``, as the store would give a passage of these words."""
        document = encode_document(text, self.average_terms)
        weights = dict(zip(document.indices, document.values, strict=True))
        return sum(
            value * weights[index] * idf(self.containing.get(index, 0), self.passages)
            for index, value in zip(query.indices, query.values, strict=True)
            if index in weights
        )
