"""Ingest time for ../shared/corpus/black_beauty.json (target <= 30 s on 2 cores).

A real ingest service process on a fresh nats-server is asked over the bus to ingest the
book; the time the client waits is the figure, and the service's own per-stage timings
are printed beside it. The floor is the raw embedding of the same passages in this
process (same model, same threads): what ingest cannot go below.

    .venv/bin/python -m bench.ingest_black_beauty
"""

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nats
from bedside_contracts.ingest import IngestBook
from bedside_embedding import load_minilm
from bedside_ingest.chunking import chunk_book
from bedside_ingest.client import request_ingest
from bedside_ingest.formats.jsonbook import load_json_book
from bedside_ingest.main import EMBEDDING_THREADS
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port

from bench.report import Figure, report

BOOK = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "black_beauty.json"


def start_nats() -> NatsServer:
    store = Path(tempfile.mkdtemp(prefix="bedside-bench-nats-"))
    return NatsServer(
        NatsServerConfig(store_dir=store, port=free_port(), monitor_port=free_port(), name="bench")
    ).start()


def start_ingest(url: str) -> subprocess.Popen[bytes]:
    data = Path(tempfile.mkdtemp(prefix="bedside-bench-data-"))
    env = {**os.environ, "NATS_URL": url, "BEDSIDE_DATA_DIR": str(data), "BEDSIDE_LOG_LEVEL": "warning"}
    log = (data / "ingest.log").open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "bedside", "serve", "ingest"], env=env, stdout=log, stderr=log
    )


async def ingest_over_the_bus(url: str) -> tuple[float, dict[str, float], int]:
    client = await nats.connect(url)
    try:
        started = time.perf_counter()
        result = await request_ingest(client, IngestBook(path=str(BOOK), book="black-beauty"))
        return time.perf_counter() - started, result.stage_seconds, result.passages
    finally:
        await client.close()


def raw_embedding_seconds(threads: int) -> float:
    texts = [p.text for p in chunk_book(load_json_book(BOOK))]
    embedder = load_minilm(threads)
    embedder.embed_passages(texts[:16])  # warm the session
    started = time.perf_counter()
    embedder.embed_passages(texts)
    return time.perf_counter() - started


def main() -> None:
    if not BOOK.exists():
        print(f"{BOOK} is absent; nothing to measure")
        return
    server = start_nats()
    service = start_ingest(server.url)
    try:
        health = asyncio.run(wait_until_healthy([server.url], ("ingest",), 120.0))
        if not (health["ingest"] and health["ingest"].ready):
            raise SystemExit("the ingest service did not become ready")
        load = os.getloadavg()[0]
        total, stages, passages = asyncio.run(ingest_over_the_bus(server.url))
        load_after = os.getloadavg()[0]
        floor = raw_embedding_seconds(EMBEDDING_THREADS)
        other = raw_embedding_seconds(3 - EMBEDDING_THREADS)
    finally:
        service.terminate()
        service.wait(10)
        server.stop()
    print(
        f"{passages} passages; load average {load:.1f} before, {load_after:.1f} after; {os.cpu_count()} cores"
    )
    figures = [Figure("ingest black_beauty.json over NATS", total, "s", floor=floor, floor_unit="s")]
    figures += [Figure(f"ingest stage: {name}", seconds, "s") for name, seconds in stages.items()]
    figures.append(
        Figure(
            "ingest embedding rate",
            passages / stages.get("embed", total),
            "passages/s",
            floor=passages / floor,
            floor_unit="passages/s",
        )
    )
    figures.append(
        Figure(
            f"raw embedding with {3 - EMBEDDING_THREADS} thread(s)", other, "s", floor=floor, floor_unit="s"
        )
    )
    report(figures)


if __name__ == "__main__":
    main()
