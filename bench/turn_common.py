"""Shared parts of the turn benchmarks: a fresh bus with the real services and ingested books.

Run from the repository root, e.g. ``.venv/bin/python -m bench.turn_keyless``. Nothing
here asserts a time; everything is printed. With ``NATS_URL`` set, the running system on
that bus is used as it is (the books must already be ingested).
"""

import json
import os
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
from bedside_contracts import subjects
from bedside_contracts.ingest import IngestBook
from bedside_contracts.search import BookInfo, Catalog, CatalogRequest
from bedside_evaluation.corpus import corpus_dir
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from bedside_runtime.settings import Settings
from nats.aio.client import Client

from bedside.processes import ServiceProcesses
from bench.report import percentile

REPO = Path(__file__).resolve().parents[1]
CORPUS = corpus_dir()


def summary(values_ms: Sequence[float]) -> str:
    return (
        f"p50 {percentile(values_ms, 50):6.2f} ms  p95 {percentile(values_ms, 95):6.2f} ms  "
        f"(n={len(values_ms)}, mean {statistics.fmean(values_ms):.2f})"
    )


@dataclass
class System:
    """A bus and the four services as processes (or an existing system at NATS_URL)."""

    services: tuple[str, ...] = ("search", "ingest", "player", "turn")
    server: NatsServer | None = None
    processes: ServiceProcesses | None = None
    client: Client | None = None
    url: str = ""
    env: dict[str, str] = field(default_factory=dict)

    async def start(self) -> "System":
        if os.environ.get("NATS_URL"):
            self.url = os.environ["NATS_URL"]
        else:
            store = Path(tempfile.mkdtemp(prefix="bedside-bench-nats-"))
            config = NatsServerConfig(
                store_dir=store, port=free_port(), monitor_port=free_port(), name="bench"
            )
            self.server = NatsServer(config).start()
            self.url = self.server.url
            data = Path(tempfile.mkdtemp(prefix="bedside-bench-data-"))
            self.env = {
                **os.environ,
                "NATS_URL": self.url,
                "BEDSIDE_DATA_DIR": str(data),
                "BEDSIDE_HTTP_PORT": str(free_port()),
                "BEDSIDE_LOG_FORMAT": "json",
                "BEDSIDE_LOG_LEVEL": "warning",
            }
            self.env.pop("ANTHROPIC_API_KEY", None)
            self.processes = ServiceProcesses(Settings(data_dir=data), self.env)
            for name in self.services:
                self.processes.start(name)
            seen = await wait_until_healthy([self.url], self.services, 180.0)
            if not all(h is not None and h.ready for h in seen.values()):
                raise RuntimeError(f"services did not start: {seen}; logs in {data / 'logs'}")
        self.client = await nats.connect(self.url)
        return self

    @property
    def nc(self) -> Client:
        assert self.client is not None
        return self.client

    async def book(self, book_id: str, path: Path) -> BookInfo:
        """The book, ingested first unless search already serves it."""
        everything = await self.request(subjects.SEARCH_CATALOG, CatalogRequest().model_dump(), 10)
        books = [b for b in Catalog.model_validate(everything).books if b.id == book_id]
        if not books:
            report = await request_ingest(self.nc, IngestBook(path=str(path), book=book_id))
            if not await wait_until_ready(self.nc, report.book, report.version, 600):
                raise RuntimeError(f"search did not index {book_id}")
            catalog = await self.request(
                subjects.SEARCH_CATALOG, CatalogRequest(book=book_id).model_dump(), 10
            )
            books = Catalog.model_validate(catalog).books
        return books[0]

    async def request(self, subject: str, body: dict[str, Any], timeout_s: float = 10.0) -> Any:
        reply = await self.nc.request(subject, json.dumps(body).encode(), timeout=timeout_s)
        data = json.loads(reply.data)
        if isinstance(data, dict) and data.get("ok") is False:
            raise RuntimeError(f"{subject}: {data}")
        return data

    async def stop(self) -> None:
        if self.client is not None:
            await self.client.close()
        if self.processes is not None:
            self.processes.stop()
        if self.server is not None:
            self.server.stop()
