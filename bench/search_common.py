"""Shared set-up of the search benchmarks: Black Beauty indexed in embedded Qdrant, a
nats-server of their own, and the evaluation's listener queries. Not a benchmark itself."""

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bedside_embedding import load_minilm
from bedside_evaluation import query_sets
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import corpus_artifact
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

CORPUS = corpus_dir()
BOOK = "black_beauty"


@dataclass
class Bench:
    engine: SearchEngine
    nats_url: str
    queries: list[str]
    duration_ms: int


def listener_queries(count: int) -> list[str]:
    texts = [q.text for s in query_sets() if s.book == BOOK for q in s.queries]
    return [texts[i % len(texts)] for i in range(count)]


@asynccontextmanager
async def black_beauty_bench(count: int) -> AsyncIterator[Bench]:
    path = CORPUS / f"{BOOK}.json"
    if not path.exists():
        raise SystemExit(f"{path} is absent: the search benchmarks need the shared corpus")
    embedder = load_minilm()
    artifact = corpus_artifact(path, embedder)  # vectors cached on disk after the first run
    server = NatsServer(
        NatsServerConfig(
            store_dir=Path(tempfile.mkdtemp(prefix="bench-nats-")), port=free_port(), monitor_port=free_port()
        )
    ).start()
    with tempfile.TemporaryDirectory(prefix="bench-qdrant-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        await engine.index(artifact)
        try:
            yield Bench(engine, server.url, listener_queries(count), artifact.duration_ms)
        finally:
            await store.close()
            server.stop()
