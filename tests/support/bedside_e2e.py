"""A whole Bedside for end-to-end tests: its own bus, all four services, books, listeners.

Used by tests/faults, tests/fuzz and tests/guard_e2e. Each stack gets its own nats-server
(a fresh store), so the durable consumers and streams of other tests' systems on the
session bus cannot hide or repeat anything.
"""

import asyncio
import tempfile
import threading
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import nats
from bedside_contracts.ingest import IngestBook, IngestReport
from bedside_contracts.subjects import SERVICES
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_ingest.sample import SAMPLE_TRANSCRIPT
from bedside_runtime.nats_server import NatsServer, free_port
from bedside_testing import RunningSystem, add_listener, start_test_nats

T = TypeVar("T")
SAMPLE_BOOK = "sample"
READY_TIMEOUT_S = 240.0


@dataclass
class Stack:
    server: NatsServer
    system: RunningSystem
    books: dict[str, IngestReport] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def nats_url(self) -> str:
        return self.server.url

    @property
    def http_url(self) -> str:
        return self.system.http_url

    def stop(self) -> None:
        try:
            self.system.stop()
        finally:
            self.server.stop()

    async def ingest(self, path: Path, book: str) -> IngestReport:
        """Ingest ``path`` as ``book`` and wait until search announces it ready."""
        client = await nats.connect(self.nats_url)
        try:
            report = await request_ingest(client, IngestBook(path=str(path), book=book), timeout_s=600)
            if not await wait_until_ready(client, report.book, report.version, READY_TIMEOUT_S):
                raise AssertionError(f"search never announced {book} {report.version} ready")
        finally:
            await client.close()
        self.books[book] = report
        return report

    async def add_listener(self, name: str) -> str:
        token = self.tokens[name] = await add_listener(self.nats_url, name)
        return token

    def http(self, listener: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.http_url,
            headers={"Authorization": f"Bearer {self.tokens[listener]}"},
            timeout=30,
        )

    async def wait_for_http(self, timeout_s: float = 60) -> None:
        """Until the player's HTTP server accepts connections (it binds after its health is ready)."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        async with httpx.AsyncClient(base_url=self.http_url, timeout=5) as http:
            while True:
                player = self.system.processes.children.get("player")
                if player is not None and player.poll() is not None:
                    raise AssertionError(
                        f"the player exited ({player.returncode}): {self.system.log('player')[-3000:]}"
                    )
                try:
                    await http.get("/api/books")
                    return
                except httpx.TransportError:
                    if asyncio.get_running_loop().time() > deadline:
                        raise
                    await asyncio.sleep(0.1)

    async def wait_for_book_on_player(
        self, listener: str, book: str, timeout_s: float = 60
    ) -> dict[str, Any]:
        """The player learns books from search's catalog; wait until it serves ``book``."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        async with self.http(listener) as http:
            while True:
                response = await http.get(f"/api/books/{book}")
                if response.status_code == 200:
                    body: dict[str, Any] = response.json()
                    return body
                if asyncio.get_running_loop().time() > deadline:
                    raise AssertionError(
                        f"player never served {book}: {response.status_code} {response.text}"
                    )
                await asyncio.sleep(0.25)


def start_stack(
    name: str, services: tuple[str, ...] = SERVICES, timeout_s: float = 300, *, kept_vectors: bool = False
) -> Stack:
    """A fresh bus and the services on it, keyless (no Claude key reaches the processes);
    ``kept_vectors``: its ingest reads vectors embedded before in the run (the run's vector cache)."""
    server = start_test_nats(name)
    system = RunningSystem(
        server.url,
        Path(tempfile.mkdtemp(prefix=f"bedside-{name}-")),
        services,
        free_port(),
        kept_vectors=kept_vectors,
    )
    try:
        system.start(timeout_s=timeout_s)
    except BaseException:
        system.stop()
        server.stop()
        raise
    return Stack(server, system)


def sample_transcript() -> Path:
    path: Path = SAMPLE_TRANSCRIPT
    return path


def sample_book_stack(name: str, listeners: Sequence[str]) -> Iterator[Stack]:
    """A module's stack: the sample book ingested and served, ``listeners`` added (for a fixture to
    yield from)."""
    running = start_stack(name)

    async def prepare() -> None:
        await running.ingest(sample_transcript(), SAMPLE_BOOK)
        for listener in listeners:
            await running.add_listener(listener)
        await running.wait_for_book_on_player(listeners[0], SAMPLE_BOOK)

    try:
        asyncio.run(prepare())
        yield running
    finally:
        running.stop()


class Loop:
    """An event loop on its own thread, so a plain (hypothesis) test can drive async clients."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout_s: float = 60) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        return future.result(timeout_s)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
