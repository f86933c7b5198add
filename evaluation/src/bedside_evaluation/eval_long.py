"""What length does to find: every query set on its own book and on the long development book.

    python -m bedside_evaluation.eval_long          # development sets
    python -m bedside_evaluation.eval_long final    # and the long book's held-out third, once
    python -m bedside_evaluation.eval_long heldout  # and the second held-out set (issue 14), once
    python -m bedside_evaluation.eval_long last     # and the third (issue 14's third round), once
    python -m bedside_evaluation.eval_long sweep    # the part prior's weight and reach
    python -m bedside_evaluation.eval_long sweep-ordinal   # the ordinal rule's share and reach
    python -m bedside_evaluation.eval_long sweep-chapters  # the chapter order's three constants

Each row is one query set; each column one rule of find, on the set's own book and on the
joined long book (``long_book``), as recall@4 (recall@1), judged on the 8 passages a find
returns. The rows marked "not served" are the rules of ``long_alternatives``. Alice in
Wonderland and Moby-Dick are not read.
"""

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from bedside_contracts.ingest import BookArtifact
from bedside_embedding import Embedder, load_minilm
from bedside_search.domain.book import ServedBook, vectors_of
from bedside_search.domain.book_part import Part, part_named
from bedside_search.domain.chapter_order import CHAPTER_ORDER, ChapterOrderRule
from bedside_search.domain.find import find_order
from bedside_search.domain.fusion import (
    FUSION,
    Fused,
    FusionRule,
    Scored,
    fuse,
    one_per_chapter_first,
    rank,
    served_order,
    single,
)
from bedside_search.domain.ordinal import ORDINAL, OrdinalRule, in_story_order, ordinal_named
from bedside_search.domain.terms import terms
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

from bedside_evaluation.books import held_out_sets, long_book_sets, query_sets
from bedside_evaluation.corpus import corpus_dir, corpus_missing
from bedside_evaluation.corpus_books import cached_vectors, corpus_artifact
from bedside_evaluation.eval_search import RANK_DEPTH, QueryRankings, chapters_of, rankings_for
from bedside_evaluation.long_alternatives import (
    Cooccurrence,
    Vector,
    book_words,
    bridged_terms,
    chapter_centroids,
    chapter_factors,
    reweighted,
    unknown_words,
    weighted_query,
)
from bedside_evaluation.long_book import LONG_BOOK, joined_book, long_book_artifact
from bedside_evaluation.queryset import QuerySet
from bedside_evaluation.scoring import RecallResult, evaluate


@dataclass(frozen=True)
class LongRankings:
    """A query's served rankings, and the sparse rankings of its bridged and expanded forms."""

    served: QueryRankings
    bridged: list[Scored]
    cooccurring: list[Scored]


@dataclass(frozen=True)
class BookFields:
    """What the chapter-level rules read of a book: its chapters' mean vectors and titles' vectors."""

    centroids: dict[int, Vector]
    titles: dict[int, Vector]


LongMethod = Callable[[LongRankings, ServedBook, BookFields], list[Fused]]
WITHOUT_PART = replace(FUSION, part_weight=0.0)
BRIDGE_FLOOR = 0.5
BRIDGE_NEIGHBOURS = 3
COOCCURRING_WEIGHT = 0.25
COOCCURRING_PER_TERM = 1
CENTROID_WEIGHT = 2.0
TITLE_WEIGHT = 1.0
TITLE_FLOOR = 0.2
"""The best of each rule's offline sweep on the development sets (search README)."""


def _spread(ranked: Sequence[Fused], book: ServedBook) -> list[Fused]:
    return one_per_chapter_first(ranked, book.chapter_of)[:RANK_DEPTH]


FLAT_SHARE = 0.2
FLAT_RULE = replace(FUSION, part_weight=1.0)
"""The prior before issue 14: every passage in the first or last fifth doubled, no middle."""


def _flat_fifth(r: QueryRankings, b: ServedBook) -> list[Fused]:
    part = part_named(r.navigation.text)
    distances = b.distances_from(part) if part is not Part.MIDDLE else None
    edge = FLAT_SHARE * b.info.duration_ms
    placed = {pid: 0 if d < edge else 10**12 for pid, d in distances.items()} if distances else None
    return rank(r.dense, r.sparse, RANK_DEPTH, FLAT_RULE, b.chapter_of, placed=placed)


def _with(
    rule: FusionRule,
    ordinal: OrdinalRule | None = ORDINAL,
    chapters: ChapterOrderRule | None = CHAPTER_ORDER,
) -> LongMethod:
    return lambda r, b, _: find_order(
        b,
        r.served.navigation.text,
        (r.served.dense, r.served.sparse),
        RANK_DEPTH,
        rule,
        ordinal_rule=ordinal,
        chapter_rule=chapters,
    )


def _served_with(sparse: Callable[[LongRankings], list[Scored]]) -> LongMethod:
    """The rule served before the chapter order, on another sparse ranking of the same query."""
    return lambda r, b, _: find_order(
        b, r.served.navigation.text, (r.served.dense, sparse(r)), RANK_DEPTH, chapter_rule=None
    )


def _chapter_weighted(factors: Callable[[LongRankings, BookFields], Mapping[int, float]]) -> LongMethod:
    """The served rule with each pooled passage's score multiplied by its chapter's factor."""

    def method(r: LongRankings, b: ServedBook, fields: BookFields) -> list[Fused]:
        text = r.served.navigation.text
        placed = b.distances_from(part_named(text))
        pooled = fuse(
            r.served.dense, r.served.sparse, max(RANK_DEPTH, FUSION.pool), FUSION, b.chapter_of, placed=placed
        )
        ranked = served_order(reweighted(pooled, b.chapter_of, factors(r, fields)), FUSION, b.chapter_of)
        ordinal = ordinal_named(text)
        if ordinal is not None:
            ranked = in_story_order(ranked, b.chapter_of, ordinal, ORDINAL)
        return ranked[:RANK_DEPTH]

    return method


METHODS: dict[str, LongMethod] = {
    "dense": lambda r, b, _: _spread(single(r.served.dense, len(r.served.dense), dense=True), b),
    "sparse": lambda r, b, _: _spread(single(r.served.sparse, len(r.served.sparse), dense=False), b),
    "fused, no part prior": lambda r, b, _: rank(
        r.served.dense, r.served.sparse, RANK_DEPTH, WITHOUT_PART, b.chapter_of
    ),
    "before: flat fifth": lambda r, b, _: _flat_fifth(r.served, b),
    "smooth prior, no ordinals": _with(FUSION, None, None),
    "before: + ordinals": _with(FUSION, ORDINAL, None),
    "served: + chapter order": _with(FUSION),
    "not served: vocabulary bridge": _served_with(lambda r: r.bridged),
    "not served: co-occurrence expansion": _served_with(lambda r: r.cooccurring),
    "not served: chapter vectors": _chapter_weighted(
        lambda r, f: chapter_factors(f.centroids, r.served.vector, CENTROID_WEIGHT)
    ),
    "not served: chapter titles": _chapter_weighted(
        lambda r, f: chapter_factors(f.titles, r.served.vector, TITLE_WEIGHT, TITLE_FLOOR)
    ),
}
if "sweep" in sys.argv[1:]:
    for weight in (1.0, 2.0):
        for minutes in (20, 40, 60, 90, 120):
            rule = replace(FUSION, part_weight=weight, part_reach_ms=minutes * 60_000)
            METHODS[f"w{weight:g} r{minutes}m"] = _with(rule)
if "sweep-chapters" in sys.argv[1:]:
    for ranking_k in (2.0, 3.0, 5.0, 8.0, 10.0):
        for blend_k in (5.0, 10.0, 20.0, 30.0):
            for served_weight in (1.5, 2.0, 3.0):
                label = f"c{ranking_k:g} b{blend_k:g} w{served_weight:g}"
                METHODS[label] = _with(FUSION, ORDINAL, ChapterOrderRule(ranking_k, blend_k, served_weight))
if "sweep-ordinal" in sys.argv[1:]:
    for share in (0.4, 0.5, 0.6, 0.7, 0.8):
        for among in (3, 4, 6, 8):
            METHODS[f"o{share:g} a{among}"] = _with(FUSION, OrdinalRule(share, among))


def all_sets(*, final: bool = False, heldout: bool = False, last: bool = False) -> dict[str, QuerySet]:
    """Every set measured, by label: the development sets, the held-out ones, the long-book ones."""
    return {
        **{query_set.book: query_set for query_set in query_sets()},
        **held_out_sets(),
        **long_book_sets(final=final, heldout=heldout, last=last),
    }


@dataclass(frozen=True)
class Vocabulary:
    """A book's content words and their MiniLM vectors (cached on disk like the passages')."""

    words: list[str]
    vectors: Vector
    known: set[str]
    cooccurrence: Cooccurrence


def vocabulary_of(book: ServedBook, embedder: Embedder) -> Vocabulary:
    words = book_words(book.passages)
    known = {t for p in book.passages for t in terms(p.text)}
    return Vocabulary(words, cached_vectors(embedder, words), known, Cooccurrence(book.passages))


def fields_of(book: ServedBook, artifact: BookArtifact, embedder: Embedder) -> BookFields:
    by_id = dict(zip((p.id for p in artifact.passages), vectors_of(artifact), strict=True))
    vectors = np.stack([by_id[p.id] for p in book.passages])
    chapters = book.info.chapters
    titles = cached_vectors(embedder, [c.title for c in chapters])
    return BookFields(
        chapter_centroids(book.passages, vectors), {c.n: v for c, v in zip(chapters, titles, strict=True)}
    )


@dataclass
class PreparationCosts:
    """What the bridge and the expansion add before the sparse search, per query (seconds)."""

    bridge: list[float]
    """Embedding the words the book does not use (0 for a query that uses only the book's)."""
    expansion: list[float]
    methods: dict[str, list[float]] = field(default_factory=dict)
    """Each method's time per query after the store's rankings, one entry per set measured."""


async def long_rankings(
    engine: SearchEngine, book: ServedBook, vocabulary: Vocabulary, queries: Sequence[QueryRankings]
) -> tuple[list[LongRankings], PreparationCosts]:
    """Each query's bridged and expanded sparse rankings, and what preparing them cost."""
    out: list[LongRankings] = []
    costs = PreparationCosts([], [])
    for served in queries:
        text = served.navigation.text
        started = time.perf_counter()
        unknown = unknown_words(text, vocabulary.known)
        vectors = dict(zip(unknown, engine.embedder.embed_passages(unknown), strict=True)) if unknown else {}
        bridged = bridged_terms(
            text,
            vocabulary.known,
            vocabulary.words,
            vocabulary.vectors,
            vectors,
            floor=BRIDGE_FLOOR,
            neighbours=BRIDGE_NEIGHBOURS,
        )
        costs.bridge.append(time.perf_counter() - started if unknown else 0.0)
        started = time.perf_counter()
        expanded = vocabulary.cooccurrence.expanded(
            text, weight=COOCCURRING_WEIGHT, per_term=COOCCURRING_PER_TERM
        )
        costs.expansion.append(time.perf_counter() - started)
        sparse = []
        for weights in (bridged, expanded):
            _, ranking = await engine.store.search(
                book.collection, served.vector, weighted_query(weights), engine.depth, None
            )
            sparse.append(ranking)
        out.append(LongRankings(served, sparse[0], sparse[1]))
    return out, costs


async def measure(
    engine: SearchEngine, book: ServedBook, fields: BookFields, sets: Mapping[str, QuerySet]
) -> tuple[dict[str, dict[str, RecallResult]], PreparationCosts]:
    """results[set label][method] on ``book``, and what the bridge and the expansion cost."""
    vocabulary = await asyncio.to_thread(vocabulary_of, book, engine.embedder)
    results: dict[str, dict[str, RecallResult]] = {}
    costs = PreparationCosts([], [])
    for label, measured in sets.items():
        ranked, cost = await long_rankings(
            engine, book, vocabulary, await rankings_for(engine, book, measured.queries)
        )
        costs.bridge += cost.bridge
        costs.expansion += cost.expansion
        for name, method in METHODS.items():
            started = time.perf_counter()
            found = [method(r, book, fields) for r in ranked]
            costs.methods.setdefault(name, []).append((time.perf_counter() - started) / len(ranked))
            chapters = [chapters_of(book, f) for f in found]
            results.setdefault(label, {})[name] = evaluate(measured.queries, chapters)
    return results, costs


def _preparation_cost(book: str, costs: PreparationCosts) -> str:
    """The bridge's and the expansion's extra query-time work on one book."""
    spent = [c for c in costs.bridge if c > 0]
    expansion = (
        f"the co-occurrence expansion p50 {1000 * statistics.median(costs.expansion):.2f} ms per query"
    )
    if not spent:
        return f"{book}: the bridge embedded no words; {expansion}"
    return (
        f"{book}: the bridge embedded the unknown words of {len(spent)} of {len(costs.bridge)} queries,"
        f" p50 {1000 * statistics.median(spent):.2f} ms, max {1000 * max(spent):.2f} ms among them"
        f" (p50 over all queries {1000 * statistics.median(costs.bridge):.2f} ms); {expansion}"
    )


def _add_method_seconds(into: dict[str, list[float]], costs: PreparationCosts) -> None:
    for name, per_set in costs.methods.items():
        into.setdefault(name, []).extend(per_set)


def cell(result: RecallResult | None) -> str:
    if result is None:
        return "-"
    return f"{result.recall_at_4:.2f} ({result.recall_at_1:.2f}) {result.hits_at_4}/{result.total}"


Results = Mapping[str, Mapping[str, RecallResult]]


def table(own: Results, joined: Results) -> str:
    header = ["set", *(f"{m} {where}" for m in METHODS for where in ("own", "joined"))]
    rows = [
        [label, *(cell(by.get(label, {}).get(m)) for m in METHODS for by in (own, joined))]
        for label in dict.fromkeys([*own, *joined])
    ]
    totals = ["all sets"]
    for m in METHODS:
        for by in (own, joined):
            found = [r[m] for r in by.values()]
            hits = sum(r.hits_at_4 for r in found)
            total = sum(r.total for r in found)
            totals.append(f"{hits / total:.2f} {hits}/{total}" if total else "-")
    rows.append(totals)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


async def run(
    embedder: Embedder, corpus: Path, *, final: bool = False, heldout: bool = False, last: bool = False
) -> str:
    sets = all_sets(final=final, heldout=heldout, last=last)
    joined = joined_book(corpus)
    own: dict[str, dict[str, RecallResult]] = {}
    on_long: dict[str, dict[str, RecallResult]] = {}
    notes: list[str] = []
    method_seconds: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bedside-eval-long-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for part in ("black_beauty", "adventures_of_sherlock_holmes"):
                artifact = await asyncio.to_thread(corpus_artifact, corpus / f"{part}.json", embedder)
                await engine.index(artifact)
                book = engine.book(part)
                mine = {label: s for label, s in sets.items() if s.book == part}
                results, costs = await measure(engine, book, fields_of(book, artifact, embedder), mine)
                own.update(results)
                notes.append(_preparation_cost(part, costs))
                _add_method_seconds(method_seconds, costs)
            artifact = await asyncio.to_thread(long_book_artifact, corpus, embedder)
            await engine.index(artifact)
            renumbered = {
                label: s if s.book == LONG_BOOK else joined.query_set(s)
                for label, s in sets.items()
                if s.book == LONG_BOOK or s.book in joined.renumbered
            }
            book = engine.book(LONG_BOOK)
            results, costs = await measure(engine, book, fields_of(book, artifact, embedder), renumbered)
            on_long.update(results)
            notes.append(_preparation_cost(LONG_BOOK, costs))
            _add_method_seconds(method_seconds, costs)
            notes.insert(
                0,
                f"long book: {len(joined.book.chapters)} chapters, {len(artifact.passages)} passages,"
                f" {artifact.duration_ms / 3_600_000:.1f} h of narration; cells: R@4 (R@1) hits/total",
            )
        finally:
            await store.close()
    misses = [
        f"  {label}: {m.query!r} -> {list(m.targets)}, got {list(m.got)}"
        for label, by_method in on_long.items()
        if label in long_book_sets(final=final, heldout=heldout, last=last)
        for m in by_method["served: + chapter order"].misses
    ]
    timings = [
        f"  {name}: {1000 * statistics.fmean(per_set):.3f} ms" for name, per_set in method_seconds.items()
    ]
    return "\n".join(
        [
            table(own, on_long),
            "",
            *notes,
            "each rule's time per query after the store's rankings, mean over the sets, in process:",
            *timings,
            "served misses on the long book's own sets:",
            *misses,
        ]
    )


def main() -> int:
    if corpus_missing():
        return 2
    corpus = corpus_dir()
    arguments = sys.argv[1:]
    chosen = {name: name in arguments for name in ("final", "heldout", "last")}
    print(asyncio.run(run(load_minilm(), corpus, **chosen)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
