"""find and recall in process on the long development book (Black Beauty + the Holmes stories
+ Civil Disobedience, ~2,250 passages) beside the same on Black Beauty (733), each beside the
in-process floor (one query embedding + the vector search). The two books are asked in turn,
query by query, so both meet the same load on a shared machine.

    .venv/bin/python -m bench.search_long_latency
"""

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bedside_contracts.search import FindPassage, Recall
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import corpus_artifact
from bedside_evaluation.long_book import LONG_BOOK, long_book_artifact
from bedside_search.domain.terms import encode_query
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

from bench.report import Figure, latency_figures, percentile, report
from bench.search_common import BOOK, CORPUS, listener_queries

QUERIES = 300
FIND = "search find in process"
RECALL = "search recall bounded, in process"


async def main() -> None:
    if not CORPUS.is_dir():
        raise SystemExit(f"{CORPUS} is absent: the search benchmarks need the shared corpus")
    embedder = load_minilm()
    artifacts = [corpus_artifact(CORPUS / f"{BOOK}.json", embedder), long_book_artifact(CORPUS, embedder)]
    queries = listener_queries(QUERIES)
    floor: dict[str, list[float]] = {}
    find: dict[str, list[float]] = {}
    recall: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-qdrant-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for artifact in artifacts:
                await engine.index(artifact)
            rng = random.Random(7)
            for number, query in enumerate(queries):
                for artifact in artifacts:
                    book = engine.book(artifact.book)
                    here = rng.randrange(1, artifact.duration_ms)
                    started = time.perf_counter()
                    vector = engine.embedder.embed_query(query)
                    await engine.store.search(book.collection, vector, encode_query(query), engine.depth)
                    floor_ms = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                    await engine.find(FindPassage(book=book.id, here_ms=here, query=query))
                    find_ms = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                    await engine.recall(Recall(book=book.id, here_ms=here, question=query))
                    recall_ms = (time.perf_counter() - started) * 1000
                    if number >= 20:  # the first ones warm the model and the store
                        floor.setdefault(book.id, []).append(floor_ms)
                        find.setdefault(book.id, []).append(find_ms)
                        recall.setdefault(book.id, []).append(recall_ms)
        finally:
            await store.close()
    bb, long = BOOK, LONG_BOOK
    n = len(find[bb])
    report(
        [
            *latency_figures(FIND, find[bb], floor[bb], detail=f" ({n} q, BB)"),
            *latency_figures(FIND, find[long], floor[long], detail=f" ({n} q, long book)"),
            *latency_figures("search find, long book against BB", find[long], find[bb], detail=f" ({n} q)"),
            *latency_figures(RECALL, recall[bb], floor[bb], detail=f" ({n} q, BB)"),
            *latency_figures(RECALL, recall[long], floor[long], detail=f" ({n} q, long book)"),
            Figure("search floor (embed + search) p50, long book", percentile(floor[long], 50), "ms"),
        ]
    )


if __name__ == "__main__":
    asyncio.run(main())
