"""Ingest time for ../shared/corpus/black_beauty.json (target <= 30 s on 2 cores).

A real ingest service process on a fresh nats-server is asked over the bus to ingest the
book; the time the client waits is the figure, and the service's own per-stage timings
are printed beside it. The floor is the raw embedding of the same passages in this
process with the same pool of sessions (ingest's own embed_passages, no parsing, bus or
store): what ingest cannot go below. CPU seconds are printed too: on a shared machine
the wall time is mostly waiting for a core, and CPU / 2 is what two idle cores would take.

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
from bedside_ingest.embedders import load_embedders
from bedside_ingest.formats.jsonbook import load_json_book
from bedside_ingest.pipeline import embed_passages
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port

from bench.processes import process_cpu_s
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


def wait_for_ingest(url: str) -> None:
    """Return once the ingest service on ``url`` says it is ready; end the benchmark if it never does."""
    health = asyncio.run(wait_until_healthy([url], ("ingest",), 120.0))
    if not (health["ingest"] and health["ingest"].ready):
        raise SystemExit("the ingest service did not become ready")


async def ingest_over_the_bus(url: str, pid: int) -> tuple[float, float, dict[str, float], int]:
    """Wall seconds the client waits, CPU seconds the service spends, its stages, passages."""
    client = await nats.connect(url)
    try:
        cpu = process_cpu_s(pid)
        started = time.perf_counter()
        result = await request_ingest(client, IngestBook(path=str(BOOK), book="black-beauty"))
        wall = time.perf_counter() - started
        return wall, process_cpu_s(pid) - cpu, result.stage_seconds, result.passages
    finally:
        await client.close()


def raw_embedding(pooled: bool) -> tuple[float, float]:
    """Wall and CPU seconds to embed the book's passages in this process: with ingest's pool of
    single-threaded sessions (the floor), or with one session on two intra-op threads.
    """
    texts = [p.text for p in chunk_book(load_json_book(BOOK))]
    embedders = load_embedders() if pooled else [load_minilm(2)]
    embed_passages(texts[:64], embedders)  # warm the sessions
    cpu, started = time.process_time(), time.perf_counter()
    embed_passages(texts, embedders)
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    if not BOOK.exists():
        print(f"{BOOK} is absent; nothing to measure")
        return
    server = start_nats()
    service = start_ingest(server.url)
    try:
        wait_for_ingest(server.url)
        load = os.getloadavg()[0]
        total, total_cpu, stages, passages = asyncio.run(ingest_over_the_bus(server.url, service.pid))
        load_after = os.getloadavg()[0]
        floor, floor_cpu = raw_embedding(pooled=True)
        other, other_cpu = raw_embedding(pooled=False)
    finally:
        service.terminate()
        service.wait(10)
        server.stop()
    print(
        f"{passages} passages; load average {load:.1f} before, {load_after:.1f} after; {os.cpu_count()} cores"
    )
    # On a shared machine the wall time is mostly waiting for a core; CPU seconds are what the
    # work costs, and CPU / 2 is what it would take on two idle cores.
    figures = [
        Figure("ingest black_beauty.json over NATS", total, "s", floor=floor, floor_unit="s"),
        Figure(
            "ingest black_beauty.json, service CPU", total_cpu, "cpu-s", floor=floor_cpu, floor_unit="cpu-s"
        ),
        Figure("ingest on 2 idle cores (service CPU / 2)", total_cpu / 2, "s"),
    ]
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
    figures.append(Figure("raw embedding, one session on 2 threads", other, "s", floor=floor, floor_unit="s"))
    figures.append(
        Figure(
            "raw embedding CPU, one session on 2 threads",
            other_cpu,
            "cpu-s",
            floor=floor_cpu,
            floor_unit="cpu-s",
        )
    )
    report(figures)


if __name__ == "__main__":
    main()
