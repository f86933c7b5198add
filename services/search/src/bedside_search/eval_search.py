"""The retrieval evaluation: corpus books indexed in process, the evaluation helper's
navigation queries run against them, recall@1 and recall@4 printed per method.

Run with ``bedside eval-search`` or ``python -m bedside_search.eval_search``. It needs
../shared/corpus (absent on a user's machine: it says so and stops).

It also measures recall's "has it come up" threshold: each query is asked as a question
from a place just after its last target chapter (it has come up) and from the start of
its first target chapter (it has not), and the best cosine behind the line is recorded.
"""

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bedside_embedding import Embedder, load_minilm

from bedside_search.behind import COME_UP_THRESHOLD
from bedside_search.book import ServedBook
from bedside_search.corpus_books import corpus_artifact
from bedside_search.engine import SearchEngine
from bedside_search.evaluation import query_sets
from bedside_search.evaluation.queryset import NavigationQuery
from bedside_search.evaluation.scoring import RecallResult, evaluate, format_table
from bedside_search.fusion import FUSION, Fused, FusionRule, Scored, fuse, single
from bedside_search.store import open_store

CORPUS = Path(__file__).resolve().parents[4].parent / "shared" / "corpus"
RANK_DEPTH = 20
"""How many passages of each ranking are turned into a chapter ranking (4 distinct are read)."""

VARIANTS: dict[str, FusionRule] = {
    "hybrid rrf k=60 (plain)": FusionRule(k=60),
    "hybrid rrf k=20": FusionRule(k=20),
    "hybrid rrf k=60 sparse x1.5": FusionRule(k=60, sparse_weight=1.5),
    "hybrid rrf k=60 + chapter 0.3": FusionRule(k=60, chapter_weight=0.3),
    "hybrid rrf k=20 + chapter 0.25": FusionRule(k=20, chapter_weight=0.25),
    "hybrid rrf k=40 + chapter 0.25": FusionRule(k=40, chapter_weight=0.25),
    "hybrid rrf k=60 + chapter 0.5": FusionRule(k=60, chapter_weight=0.5),
}


@dataclass(frozen=True)
class QueryRankings:
    navigation: NavigationQuery
    dense: list[Scored]
    sparse: list[Scored]


Method = Callable[[QueryRankings, Mapping[int, int]], list[Fused]]


def methods() -> dict[str, Method]:
    served = (
        f"hybrid served (rrf k={FUSION.k:g} d={FUSION.dense_weight:g} s={FUSION.sparse_weight:g}"
        f" + chapter {FUSION.chapter_weight:g})"
    )
    table: dict[str, Method] = {
        "dense": lambda r, _: single(r.dense, RANK_DEPTH, dense=True),
        "sparse": lambda r, _: single(r.sparse, RANK_DEPTH, dense=False),
        served: lambda r, chapters: fuse(r.dense, r.sparse, RANK_DEPTH, FUSION, chapters),
    }
    for name, rule in VARIANTS.items():
        table[name] = lambda r, chapters, rule=rule: fuse(  # type: ignore[misc]
            r.dense, r.sparse, RANK_DEPTH, rule, chapters
        )
    return table


async def rankings_for(
    engine: SearchEngine, book: ServedBook, queries: Sequence[NavigationQuery]
) -> list[QueryRankings]:
    out = []
    for navigation in queries:
        vector = engine.embedder.embed_query(navigation.text)
        dense, sparse = await engine.rankings(book, vector, navigation.text, None)
        out.append(QueryRankings(navigation, dense, sparse))
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


async def run(embedder: Embedder, corpus: Path = CORPUS, *, threshold: bool = True) -> str:
    results: dict[str, dict[str, RecallResult]] = {}
    notes: list[str] = []
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
                ranked = await rankings_for(engine, book, query_set.queries)
                for name, method in methods().items():
                    chapter_rankings = [chapters_of(book, method(r, book.chapter_of)) for r in ranked]
                    results.setdefault(name, {})[query_set.book] = evaluate(
                        query_set.queries, chapter_rankings
                    )
                if threshold:
                    after, before = await come_up_scores(engine, book, query_set.queries)
                    notes += [f"{query_set.book} come-up: {line}" for line in threshold_report(after, before)]
        finally:
            await store.close()
    return "\n".join([format_table(results), "", *notes])


def main() -> int:
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent: the evaluation needs the shared corpus", file=sys.stderr)
        return 2
    print(asyncio.run(run(load_minilm())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
