"""Search itself: embed once, ask the store, fuse, and shape every line with the guard.

Used by the NATS handlers, the evaluation and the benchmarks alike, so what is measured
is what is served. Nothing here formats text for the model: places are shaped by bedside_guard.
"""

import asyncio
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import structlog
from bedside_contracts.ingest import BookArtifact, BookReady
from bedside_contracts.search import (
    Catalog,
    CatalogRequest,
    CheckAnswer,
    FindPassage,
    FoundPassages,
    HeardNames,
    Hit,
    NameHints,
    Recall,
    Recalled,
    Recap,
    Recapped,
    Resolve,
    Resolved,
)
from bedside_embedding import Embedder
from bedside_guard import (
    STOP_THERE,
    Candidate,
    CheckedAnswer,
    Passage,
    SentenceMatches,
    asked_after_by_name,
    asks_what_comes_later,
    check_answer,
    heard_names,
    heard_text,
    names_respelled,
    sentences_of,
    unheard_names,
    unheard_text,
    without_words,
    words_of,
)
from bedside_runtime.errors import NotFound

from bedside_search.domain import places
from bedside_search.domain import recap as recaps
from bedside_search.domain.answer_matches import CHECK_DEPTH, HoldingScores, sentence_matches
from bedside_search.domain.behind import Heard, heard_ranking, recalled_order
from bedside_search.domain.book import ServedBook, check_artifact, info_of, vectors_of
from bedside_search.domain.find import find_order
from bedside_search.domain.fusion import FUSION, Fused, FusionRule, Scored, agreed_best, fuse
from bedside_search.domain.subject import (
    name_asked_of,
    role_of,
    subject_of,
    thing_of,
    title_weights,
    whereabouts_of,
)
from bedside_search.domain.terms import SparseTerms, average_length, encode_document, encode_query
from bedside_search.store import CatalogEntry, VectorStore, collection_for

log = structlog.get_logger("bedside.search")

DEPTH = 40
"""How many passages each of the dense and the sparse ranking contributes to fusion."""


@dataclass(frozen=True)
class AtTheLine:
    """Rankings with the passage holding the line scored on its heard words, that passage's id, and
    the cosine of its heard words to the query (None: no passage holds the line, or none of it heard)."""

    rankings: tuple[list[Scored], list[Scored]]
    holding_id: int | None
    cosine: float | None


class SearchEngine:
    def __init__(
        self, store: VectorStore, embedder: Embedder, rule: FusionRule = FUSION, depth: int = DEPTH
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.rule = rule
        self.depth = depth
        self.books: dict[str, ServedBook] = {}
        self._indexing = asyncio.Lock()

    async def restore(self) -> None:
        """Serve what the store says is current; drop collections no catalog entry names, when the
        store is this process's alone (shared, one may be another copy's book half indexed)."""
        current = set()
        for entry in await self.store.catalog():
            passages = await self.store.passages(entry.collection)
            self.books[entry.info.id] = ServedBook.of(entry.info, passages, entry.collection)
            current.add(entry.collection)
        if not self.store.exclusive:
            return
        for name in await self.store.book_collections():
            if name not in current:
                log.info("dropping an unserved collection", collection=name)
                await self.store.drop(name)

    async def _entry(self, book_id: str) -> CatalogEntry | None:
        return next((e for e in await self.store.catalog() if e.info.id == book_id), None)

    def serve_no_more(self, book_id: str) -> None:
        """Stop serving a withdrawn book here; the copy that took the withdrawal drops it from the store."""
        if self.books.pop(book_id, None) is not None:
            log.info("book withdrawn", book=book_id)

    async def follow(self, book_id: str) -> None:
        """Serve what the store says is current for ``book_id`` now: a copy sharing the store may
        have indexed a version of it, or withdrawn it (each book reaches one copy to index)."""
        async with self._indexing:
            entry = await self._entry(book_id)
            served = self.books.get(book_id)
            if entry is None:
                if served is not None:
                    del self.books[book_id]
                    log.info("book withdrawn by another copy", book=book_id)
                return
            if served is not None and (served.collection, served.info) == (entry.collection, entry.info):
                return
            passages = await self.store.passages(entry.collection)
            self.books[book_id] = ServedBook.of(entry.info, passages, entry.collection)
            log.info("book indexed by another copy", book=book_id, version=entry.info.version)

    async def index(self, artifact: BookArtifact) -> BookReady:
        """Index a version fully, then switch to it, then drop the old one; same version: no-op."""
        async with self._indexing:
            served = self.books.get(artifact.book)
            ready = BookReady(book=artifact.book, version=artifact.version, passages=len(artifact.passages))
            if served is not None and served.version == artifact.version:
                log.info("book already served", book=artifact.book, version=artifact.version)
                return ready
            check_artifact(artifact, self.embedder.model_id)
            dense = vectors_of(artifact)
            average = average_length([p.text for p in artifact.passages])
            sparse = [encode_document(p.text, average) for p in artifact.passages]
            name = collection_for(artifact.book, artifact.version)
            await self.store.create_book_collection(name, self.embedder.dimensions)
            await self.store.add_passages(name, artifact.passages, dense, sparse)
            info = info_of(artifact)
            await self.store.make_current(info, name)
            self.books[artifact.book] = ServedBook.of(info, list(artifact.passages), name)
            if served is not None:
                await self.store.drop(served.collection)
            log.info(
                "book indexed", book=artifact.book, version=artifact.version, passages=len(artifact.passages)
            )
            return ready

    async def record_times_from(self, artifact: BookArtifact) -> None:
        """A catalog entry stored before entries said what their times came from takes it from the
        artifact it was indexed from (which tells it by its source), without indexing again."""
        async with self._indexing:
            served = self.books.get(artifact.book)
            if served is None or served.version != artifact.version or served.info.times_from is not None:
                return
            info = served.info.model_copy(update={"times_from": artifact.times_from})
            await self.store.make_current(info, served.collection)
            self.books[artifact.book] = ServedBook.of(info, list(served.passages), served.collection)
            log.info("times_from recorded", book=artifact.book, times_from=artifact.times_from)

    async def withdraw(self, book_id: str) -> None:
        """Serve the book no more (ingest withdrew the interim versions of a job that failed)."""
        async with self._indexing:
            self.books.pop(book_id, None)
            entry = await self._entry(book_id)  # the store's word: another copy may serve it still
            if entry is None:
                return
            await self.store.forget(book_id)
            await self.store.drop(entry.collection)
            log.info("book withdrawn from the store", book=book_id, version=entry.info.version)

    def book(self, book_id: str) -> ServedBook:
        served = self.books.get(book_id)
        if served is None:
            known = ", ".join(sorted(self.books)) or "none yet"
            raise NotFound(f"no book {book_id!r} is indexed (books: {known})")
        return served

    async def rankings(
        self, book: ServedBook, query_vector: npt.NDArray[np.float32], query: str, below_ms: int | None
    ) -> tuple[list[Scored], list[Scored]]:
        return await self.store.search(
            book.collection, query_vector, encode_query(query), self.depth, below_ms
        )

    async def find(self, request: FindPassage) -> FoundPassages:
        """The whole book (or what is behind the line, ``heard_only``), one query embedding, best first.
        Names not heard yet are left out of the query: searched for, they would tell whether the
        book has them further on, and where (adr/0066)."""
        book = self.book(request.book)
        query = names_respelled(request.query, book.names, request.here_ms)
        unheard = unheard_names(query, book.names, request.here_ms, query=True)
        request = request.model_copy(update={"query": without_words(query, unheard)})
        if not words_of(request.query):
            return FoundPassages(places=[], hits=[], unheard_names=unheard)
        vector = self.embedder.embed_query(request.query)
        below_ms = request.here_ms if request.heard_only else None
        terms = encode_query(request.query)
        rankings = await self.store.search(book.collection, vector, terms, self.depth, below_ms)
        at_the_line = self._at_the_line(book, request.here_ms, vector, terms, rankings)
        ranked = find_order(
            book, request.query, at_the_line.rankings, request.limit, self.rule, below_ms=below_ms
        )
        passages = [_passage(book, f) for f in ranked]
        return FoundPassages(
            places=[Candidate.hit(p, request.here_ms) for p in passages],
            hits=[_hit(p, f) for p, f in zip(passages, ranked, strict=True)],
            unheard_names=unheard,
        )

    async def recall(self, request: Recall) -> Recalled:
        """Only what is behind the line, bounded in the engine; heard words only."""
        book = self.book(request.book)
        question = names_respelled(request.question, book.names, request.here_ms)
        read_as = question if question != request.question else ""
        request = request.model_copy(update={"question": question})
        unheard = unheard_names(
            question, book.names, request.here_ms, asked_after=asked_after_by_name(question)
        )
        later = asks_what_comes_later(request.question) and not book.all_heard(request.here_ms)
        not_yet = Recalled(
            come_up=False,
            places=[],
            hits=[],
            unheard_names=unheard,
            asks_later=later,
            not_transcribed_here=book.not_transcribed_at(request.here_ms),
        )
        if unheard or later:  # whatever the cosine says: the book knows it has not been heard
            return not_yet
        vector = self.embedder.embed_query(request.question)
        query = encode_query(request.question)
        rankings = await self.store.search(book.collection, vector, query, self.depth, request.here_ms)
        at_the_line = self._at_the_line(book, request.here_ms, vector, query, rankings)
        dense, sparse = at_the_line.rankings
        holding_id = at_the_line.holding_id
        ranked = fuse(dense, sparse, max(self.rule.pool, request.limit + 1), self.rule, book.chapter_of)
        held = holding_id is not None and any(f.passage_id == holding_id for f in ranked)
        holding = Heard(holding_id, at_the_line.cosine) if held and holding_id is not None else None
        who = subject_of(request.question)
        where = () if who else whereabouts_of(request.question)
        naming = {word: book.heard_naming(word, request.here_ms, who or where) for word in who or where}
        name_asked = () if who or where else name_asked_of(request.question)
        titles = title_weights(request.question, book.heard_titles(request.here_ms))
        agreed = agreed_best(
            dense,
            sparse,
            self.rule,
            book.chapter_of,
            leaving_out=holding_id,
        )
        served = recalled_order(
            ranked,
            holding,
            request.limit,
            self.rule,
            book.chapter_of,
            naming=naming,
            whereabouts=bool(where),
            opening_chapter=book.passages[0].chapter if book.passages else None,
            titles=titles,
            agreed=agreed,
            mentions=book.heard_mentioning(thing_of(question) or role_of(question), request.here_ms),
            tellings=book.heard_telling_name(name_asked, request.here_ms) if name_asked else (),
        )
        if served is None:
            return not_yet
        passages = [_passage(book, f) for f in served]
        return Recalled(
            come_up=True,
            # all its heard words: the sentence that answers may lie past any excerpt's end
            places=[Candidate.hit(p, request.here_ms, whole=True) for p in passages],
            hits=[_hit(p, f) for p, f in zip(passages, served, strict=True)],
            read_as=read_as,
        )

    def _at_the_line(
        self,
        book: ServedBook,
        here_ms: int,
        vector: npt.NDArray[np.float32],
        query: SparseTerms,
        rankings: tuple[list[Scored], list[Scored]],
    ) -> AtTheLine:
        """The store's rankings with the passage holding the line scored on its heard words only:
        the store scored it on every word, those past the line too (``heard_ranking``)."""
        holding = book.holding(here_ms)
        if holding is None:
            return AtTheLine(rankings, None, None)
        heard = heard_text(holding, here_ms)
        cosine = _cosine(vector, self._embedded(heard))
        dense = heard_ranking(rankings[0], holding.id, cosine, self.depth)
        sparse = heard_ranking(rankings[1], holding.id, book.sparse_score(query, heard), self.depth)
        return AtTheLine((dense, sparse), holding.id, cosine)

    def recap(self, request: Recap) -> Recapped:
        """The heard sentences of a span, clamped to the line, and a few covering it (``recap.py``)."""
        book = self.book(request.book)
        span = recaps.clamp_span(request.from_ms, request.to_ms, request.here_ms)
        sentences = recaps.span_sentences(book.passages, span, request.here_ms)
        candidates = recaps.recap_candidates(sentences)
        picked = []
        if candidates:
            vectors = self.embedder.embed_passages([s.text for s in candidates])
            picked = recaps.recap_sentences(candidates, vectors, span, request.max_words)
        return Recapped(
            from_ms=span.from_ms,
            to_ms=span.to_ms,
            places=recaps.span_places(sentences, book.passages),
            sentences=picked,
        )

    def resolve(self, request: Resolve) -> Resolved:
        book = self.book(request.book)
        return Resolved(resolutions=places.resolve(book, request.here_ms, request.targets))

    async def check(self, request: CheckAnswer) -> CheckedAnswer:
        """An answer with what names or means the unheard cut (the guard's rule, on this book)."""
        book = self.book(request.book)
        if not request.from_model:
            return check_answer(
                request.answer, request.question, book.names, request.here_ms, titles=book.own_titles
            )
        holding = book.holding(request.here_ms)
        heard = heard_text(holding, request.here_ms) if holding is not None else ""
        unheard = unheard_text(holding, request.here_ms) if holding is not None else ""
        parts = _HoldingParts(heard, self._embedded(heard), unheard, self._embedded(unheard))
        matches = [
            await self._matches(book, sentence, request.here_ms, parts)
            for sentence in sentences_of(request.answer)
        ]
        return check_answer(
            request.answer, request.question, book.names, request.here_ms, matches, titles=book.own_titles
        )

    def _embedded(self, words: str) -> npt.NDArray[np.float32] | None:
        return self.embedder.embed_query(words) if words else None

    async def _matches(
        self, book: ServedBook, sentence: str, here_ms: int, holding: "_HoldingParts"
    ) -> SentenceMatches:
        if sentence == STOP_THERE:  # the guard never cuts its own sentence
            return SentenceMatches(terms=0, dense=(), sparse=())
        vector = self.embedder.embed_query(sentence)
        terms = encode_query(sentence)
        dense, sparse = await self.store.search(book.collection, vector, terms, CHECK_DEPTH, None)
        return sentence_matches(
            book,
            dense,
            sparse,
            terms=len(terms.indices),
            here_ms=here_ms,
            holding_scores=HoldingScores(
                heard_cosine=_cosine(vector, holding.heard_vector),
                heard_sparse=book.sparse_score(terms, holding.heard),
                unheard_cosine=_cosine(vector, holding.unheard_vector),
                unheard_sparse=book.sparse_score(terms, holding.unheard),
            ),
        )

    def hints(self, request: NameHints) -> HeardNames:
        """The names the recogniser may expect from a listener at the line (the guard's rule)."""
        book = self.book(request.book)
        return HeardNames(names=heard_names(book.names, request.here_ms, request.limit))

    def catalog(self, request: CatalogRequest) -> Catalog:
        if request.book is not None:
            return Catalog(books=[self.book(request.book).info])
        # by title, as a listener looks for a book (a name of other letters has the id "book")
        listed = sorted(
            self.books.values(), key=lambda served: (served.info.title.casefold(), served.info.id)
        )
        return Catalog(books=[served.info for served in listed])


@dataclass(frozen=True)
class _HoldingParts:
    """The words of the passage holding the line on each side of it, and their embeddings (None: no words)."""

    heard: str
    heard_vector: npt.NDArray[np.float32] | None
    unheard: str
    unheard_vector: npt.NDArray[np.float32] | None


def _cosine(vector: npt.NDArray[np.float32], other: npt.NDArray[np.float32] | None) -> float | None:
    return float(vector @ other) if other is not None else None


def _passage(book: ServedBook, fused: Fused) -> Passage:
    passage = book.passage(fused.passage_id)
    if passage is None:  # the store and the catalog disagree: a bug, never shown to the model
        raise RuntimeError(f"book {book.id} has no passage {fused.passage_id} in memory")
    return passage


def _hit(passage: Passage, fused: Fused) -> Hit:
    return Hit(passage_id=passage.id, start_ms=passage.start_ms, chapter=passage.chapter, score=fused.score)
