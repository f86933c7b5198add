"""The long development book: Black Beauty, the Holmes stories and Civil Disobedience read as
one book, built at run time from the corpus (never copied here), chapters numbered on.

A long book loosens every rule tuned on a 49-chapter one (issue 14); Alice in Wonderland and
Moby-Dick are the held-out long books and nothing here is measured or tuned on them. The
query sets of the joined books keep their targets, renumbered into the joined chapters.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from bedside_contracts.ingest import BookArtifact
from bedside_embedding import Embedder
from bedside_ingest.book import Book, Chapter
from bedside_ingest.chunking import chapter_infos, chunk_book, load_json_book

from bedside_evaluation.corpus_books import artifact_of, cached_vectors
from bedside_evaluation.queryset import NavigationQuery, QuerySet

LONG_BOOK = "long_development_book"
LONG_TITLE = "The long development book"
PARTS = ("black_beauty", "adventures_of_sherlock_holmes", "civil_disobedience")
"""The corpus books joined, in this order."""


@dataclass(frozen=True)
class JoinedBook:
    book: Book
    renumbered: dict[str, dict[int, int]]
    """For each part, its own chapter number to the joined book's."""
    parts: tuple[tuple[str, tuple[int, ...]], ...]
    """Each part's joined chapter numbers, in order."""

    def query_set(self, query_set: QuerySet) -> QuerySet:
        """``query_set`` of one part with its targets renumbered into the joined book."""
        numbers = self.renumbered[query_set.book]
        return QuerySet(
            book=LONG_BOOK,
            queries=tuple(
                NavigationQuery(text=q.text, chapters=tuple(numbers[n] for n in q.chapters))
                for q in query_set.queries
            ),
        )


def joined_book(corpus: Path, parts: Sequence[str] = PARTS) -> JoinedBook:
    """The corpus books ``parts`` as one untimed book, chapters numbered 1.. across them."""
    chapters: list[Chapter] = []
    renumbered: dict[str, dict[int, int]] = {}
    spans = []
    for part in parts:
        book = load_json_book(corpus / f"{part}.json")
        numbers: dict[int, int] = {}
        for chapter in book.chapters:
            numbers[chapter.n] = len(chapters) + 1
            chapters.append(replace(chapter, n=numbers[chapter.n]))
        renumbered[part] = numbers
        spans.append((part, tuple(numbers.values())))
    joined = Book(title=LONG_TITLE, author="", chapters=tuple(chapters), format="json-book", timed=False)
    return JoinedBook(joined, renumbered, tuple(spans))


def long_book_artifact(corpus: Path, embedder: Embedder, cache_dir: Path | None = None) -> BookArtifact:
    """The joined book chunked by ingest's chunker and embedded.

    Passages never cross a chapter, so each part's passages are the texts it has alone and
    its vectors come from the same cache as the part's own evaluation.
    """
    joined = joined_book(corpus)
    passages = chunk_book(joined.book)
    vectors = np.concatenate(
        [
            cached_vectors(embedder, [p.text for p in passages if p.chapter in set(numbers)], cache_dir)
            for _, numbers in joined.parts
        ]
    )
    return artifact_of(
        LONG_BOOK,
        LONG_TITLE,
        passages,
        chapter_infos(joined.book, passages),
        embedder,
        vectors=vectors,
        estimated=True,
    )
