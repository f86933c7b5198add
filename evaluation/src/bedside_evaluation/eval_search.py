"""The retrieval evaluation: corpus books indexed in process, the evaluation helper's
navigation queries run against them, recall@1 and recall@4 printed per method.

Run with ``bedside eval-search`` or ``python -m bedside_evaluation.eval_search``. It needs
the shared corpus (``corpus_dir()``; absent on a user's machine: it says so and stops).

It also measures recall's "has it come up" threshold: each query is asked as a question
from a place just after its last target chapter (it has come up) and from the start of
its first target chapter (it has not), and the best cosine behind the line is recorded.
"""

import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
from bedside_contracts.ingest import BookArtifact
from bedside_embedding import Embedder, load_minilm
from bedside_guard import MAX_ROWS
from bedside_search.domain.behind import COME_UP_THRESHOLD
from bedside_search.domain.book import ServedBook, vectors_of
from bedside_search.domain.find import find_order
from bedside_search.domain.fusion import (
    FUSION,
    Fused,
    FusionRule,
    Scored,
    fuse,
    one_per_chapter_first,
    rank,
    single,
)
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

from bedside_evaluation import query_sets
from bedside_evaluation.alternatives import ChapterIndex, rocchio_dense, score_fusion, two_stage
from bedside_evaluation.books import held_out_sets
from bedside_evaluation.corpus import corpus_dir, corpus_missing
from bedside_evaluation.corpus_books import corpus_artifact
from bedside_evaluation.queryset import NavigationQuery
from bedside_evaluation.scoring import RecallResult, evaluate, format_table

RANK_DEPTH = 8
"""How many passages a method is judged on: find's largest limit (``FindPassage.limit``), so
the table says what a find shows. Before the chapter spread the table read 20 passages,
more than find ever serves."""
OFFERED = MAX_ROWS
"""How many places the keyless turn offers from a find's first hits."""

VARIANTS: dict[str, FusionRule] = {
    "hybrid rrf k=60 (plain)": FusionRule(k=60),
    "hybrid rrf k=20": FusionRule(k=20),
    "hybrid rrf k=60 sparse x1.5": FusionRule(k=60, sparse_weight=1.5),
    "hybrid rrf k=60 + chapter 0.3": FusionRule(k=60, chapter_weight=0.3),
    "hybrid rrf k=20 + chapter 0.25": FusionRule(k=20, chapter_weight=0.25),
    "hybrid rrf k=40 + chapter 0.25": FusionRule(k=40, chapter_weight=0.25),
    "hybrid rrf k=60 + chapter 0.5": FusionRule(k=60, chapter_weight=0.5),
}
"""Other rules, each with the chapter spread so that they compare with the served one."""


@dataclass(frozen=True)
class QueryRankings:
    navigation: NavigationQuery
    vector: npt.NDArray[np.float32]
    dense: list[Scored]
    sparse: list[Scored]


@dataclass(frozen=True)
class BookContext:
    """What the engine holds in memory for a book: enough for any method to be served."""

    book: ServedBook
    vectors: npt.NDArray[np.float32]
    """One row per passage of ``book.passages`` (start order)."""
    vector_of: dict[int, npt.NDArray[np.float32]]
    chapters: ChapterIndex

    @classmethod
    def of(cls, book: ServedBook, artifact: BookArtifact) -> "BookContext":
        by_id = dict(zip((p.id for p in artifact.passages), vectors_of(artifact), strict=True))
        vectors = np.stack([by_id[p.id] for p in book.passages])
        return cls(book, vectors, by_id, ChapterIndex(book.passages))

    def best_passage_of(self, vector: npt.NDArray[np.float32]) -> dict[int, int]:
        """Each chapter's passage closest to the query (no bound: the evaluation asks from the end)."""
        cosines = self.vectors @ vector
        best: dict[int, tuple[float, int]] = {}
        for passage, cosine in zip(self.book.passages, cosines.tolist(), strict=True):
            if passage.chapter not in best or cosine > best[passage.chapter][0]:
                best[passage.chapter] = (cosine, passage.id)
        return {chapter: pid for chapter, (_, pid) in best.items()}


Method = Callable[[QueryRankings, BookContext], list[Fused]]


def _spread(ranked: Sequence[Fused], c: BookContext) -> list[Fused]:
    return one_per_chapter_first(ranked, c.book.chapter_of)[:RANK_DEPTH]


def _rocchio(r: QueryRankings, c: BookContext) -> list[Fused]:
    first = [f.passage_id for f in fuse(r.dense, r.sparse, ROCCHIO_FEEDBACK, FUSION, c.book.chapter_of)]
    dense = rocchio_dense(r.dense, r.vector, c.vector_of, first, feedback=ROCCHIO_FEEDBACK, weight=0.5)
    return rank(dense, r.sparse, RANK_DEPTH, FUSION, c.book.chapter_of)


def _two_stage(r: QueryRankings, c: BookContext) -> list[Fused]:
    fused = fuse(r.dense, r.sparse, FUSION.pool, FUSION, c.book.chapter_of)
    ranking = c.chapters.ranking(r.navigation.text)
    staged = two_stage(fused, ranking, c.book.chapter_of, c.best_passage_of(r.vector), FUSION.pool, k=10)
    return _spread(staged, c)


ROCCHIO_FEEDBACK = 3
UNSPREAD = replace(FUSION, spread_chapters=False, part_weight=0.0)
WITHOUT_PART = replace(FUSION, part_weight=0.0)


def methods() -> dict[str, Method]:
    served = (
        f"hybrid served (rrf k={FUSION.k:g} d={FUSION.dense_weight:g} s={FUSION.sparse_weight:g}"
        f" + chapter {FUSION.chapter_weight:g}, chapters spread)"
    )
    table: dict[str, Method] = {
        "dense": lambda r, c: _spread(single(r.dense, len(r.dense), dense=True), c),
        "sparse": lambda r, c: _spread(single(r.sparse, len(r.sparse), dense=False), c),
        served: lambda r, c: find_order(c.book, r.navigation.text, (r.dense, r.sparse), RANK_DEPTH),
        f"  the same, first {OFFERED} hits only (what keyless offers)": lambda r, c: find_order(
            c.book, r.navigation.text, (r.dense, r.sparse), OFFERED
        ),
        "  the same without the part prior": lambda r, c: rank(
            r.dense, r.sparse, RANK_DEPTH, WITHOUT_PART, c.book.chapter_of
        ),
        "before: the same rule unspread": lambda r, c: rank(
            r.dense, r.sparse, RANK_DEPTH, UNSPREAD, c.book.chapter_of
        ),
        f"  before, first {OFFERED} hits only": lambda r, c: rank(
            r.dense, r.sparse, OFFERED, UNSPREAD, c.book.chapter_of
        ),
        "before, judged on 20 passages (the old table)": lambda r, c: rank(
            r.dense, r.sparse, 20, UNSPREAD, c.book.chapter_of
        ),
    }
    for name, rule in VARIANTS.items():
        table[name] = lambda r, c, rule=rule: rank(  # type: ignore[misc]
            r.dense, r.sparse, RANK_DEPTH, replace(rule, spread_chapters=True), c.book.chapter_of
        )
    table["not served: min-max score fusion 0.5/0.5 + chapter 0.2"] = lambda r, c: _spread(
        score_fusion(r.dense, r.sparse, FUSION.pool, dense_share=0.5, chapter_of=c.book.chapter_of), c
    )
    table[f"not served: dense Rocchio (top {ROCCHIO_FEEDBACK}, 0.5) + served fusion"] = _rocchio
    table["not served: chapter BM25 two-stage (chapter rrf k=10)"] = _two_stage
    return table


async def rankings_for(
    engine: SearchEngine, book: ServedBook, queries: Sequence[NavigationQuery]
) -> list[QueryRankings]:
    out = []
    for navigation in queries:
        vector = engine.embedder.embed_query(navigation.text)
        dense, sparse = await engine.rankings(book, vector, navigation.text, None)
        out.append(QueryRankings(navigation, vector, dense, sparse))
    return out


def chapters_of(book: ServedBook, ranked: list[Fused]) -> list[int]:
    return [p.chapter for f in ranked if (p := book.passage(f.passage_id)) is not None]


async def come_up_scores(
    engine: SearchEngine, book: ServedBook, queries: Sequence[NavigationQuery]
) -> tuple[list[float], list[float]]:
    """Best cosine behind the line just after the target (has come up) and at its start (has not)."""
    ends = {c.n: c.end_ms for c in book.info.chapters}
    starts = {c.n: c.start_ms for c in book.info.chapters}
    after: list[float] = []
    before: list[float] = []
    for navigation in queries:
        vector = engine.embedder.embed_query(navigation.text)
        for here, bucket in (
            (ends[max(navigation.chapters)], after),
            (starts[min(navigation.chapters)], before),
        ):
            dense, _ = await engine.rankings(book, vector, navigation.text, here)
            bucket.append(dense[0].score if dense else 0.0)
    return after, before


def quantiles(values: list[float]) -> str:
    return " ".join(f"{q:.2f}" for q in statistics.quantiles(values, n=10))


def threshold_report(after: list[float], before: list[float]) -> list[str]:
    def accuracy(threshold: float) -> float:
        right = sum(s >= threshold for s in after) + sum(s < threshold for s in before)
        return right / (len(after) + len(before))

    candidates = [t / 100 for t in range(10, 80)]
    best = max(candidates, key=accuracy)
    keeps_95 = statistics.quantiles(after, n=20)[0]
    return [
        f"best cosine behind, target heard     deciles: {quantiles(after)}",
        f"best cosine behind, target not heard deciles: {quantiles(before)}",
        f"heard: lowest {min(after):.2f}, 5th percentile {keeps_95:.2f} (keeps 95% of heard answers)",
        f"most accurate threshold {best:.2f} ({accuracy(best):.2f});"
        f" served COME_UP_THRESHOLD {COME_UP_THRESHOLD:.2f} ({accuracy(COME_UP_THRESHOLD):.2f});"
        f" heard kept {sum(s >= COME_UP_THRESHOLD for s in after)}/{len(after)},"
        f" not-heard refused {sum(s < COME_UP_THRESHOLD for s in before)}/{len(before)}",
    ]


async def run(embedder: Embedder, corpus: Path | None = None, *, threshold: bool = True) -> str:
    results: dict[str, dict[str, RecallResult]] = {}
    costs: dict[str, list[float]] = {}
    places: dict[str, dict[str, float]] = {}
    notes: list[str] = []
    corpus = corpus_dir() if corpus is None else corpus
    with tempfile.TemporaryDirectory(prefix="bedside-eval-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for query_set in query_sets():
                path = corpus / f"{query_set.book}.json"
                started = time.monotonic()
                artifact = await asyncio.to_thread(corpus_artifact, path, embedder)
                await engine.index(artifact)
                book = engine.book(artifact.book)
                notes.append(
                    f"{query_set.book}: {len(artifact.passages)} passages, {len(query_set.queries)} queries, "
                    f"built and indexed in {time.monotonic() - started:.1f} s"
                )
                context = BookContext.of(book, artifact)
                sets = [(query_set.book, query_set)] + [
                    (label, held) for label, held in held_out_sets().items() if held.book == query_set.book
                ]
                for label, measured in sets:
                    ranked = await rankings_for(engine, book, measured.queries)
                    for name, method in methods().items():
                        started = time.perf_counter()
                        fused = [method(r, context) for r in ranked]
                        costs.setdefault(name, []).append((time.perf_counter() - started) / len(ranked))
                        chapter_rankings = [chapters_of(book, f) for f in fused]
                        results.setdefault(name, {})[label] = evaluate(measured.queries, chapter_rankings)
                        places.setdefault(name, {})[label] = statistics.fmean(
                            len(set(chapters)) for chapters in chapter_rankings
                        )
                if threshold:
                    after, before = await come_up_scores(engine, book, query_set.queries)
                    notes += [f"{query_set.book} come-up: {line}" for line in threshold_report(after, before)]
        finally:
            await store.close()
    return "\n".join([format_table(results), "", *notes, "", *cost_report(costs), "", *places_report(places)])


def places_report(places: Mapping[str, Mapping[str, float]]) -> list[str]:
    """How many distinct chapters each method's hits show, on average, per query set."""
    lines = ["distinct chapters among the hits judged, mean per query:"]
    for name, by_set in places.items():
        lines.append(f"  {name}: " + ", ".join(f"{label} {mean:.1f}" for label, mean in by_set.items()))
    return lines


def cost_report(costs: Mapping[str, Sequence[float]]) -> list[str]:
    """Each method's time per query after the store's rankings (fusion and any re-scoring)."""
    lines = ["fusion cost per query, in process, mean over every query set (ms):"]
    for name, per_set in costs.items():
        lines.append(f"  {name}: {1000 * statistics.fmean(per_set):.3f}")
    return lines


def main() -> int:
    if corpus_missing():
        return 2
    print(asyncio.run(run(load_minilm())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
