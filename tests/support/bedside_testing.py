"""Helpers for tests: a real nats-server per test session, and the shared corpus.

A plain module, imported by tests and fixtures; nothing is imported from conftest.
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nats
import pytest
from bedside_contracts.subjects import SERVICES
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import default_cache
from bedside_player.listeners import Listeners
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from bedside_runtime.settings import Settings

from bedside.processes import ServiceProcesses

REPO = Path(__file__).resolve().parents[2]
CORPUS = corpus_dir()


async def add_listener(nats_url: str, name: str) -> str:
    """A new listener, made as `bedside listener add` makes one; their token."""
    client = await nats.connect(nats_url)
    try:
        return await (await Listeners.open(client.jetstream())).create(name)
    finally:
        await client.close()


async def until(check: Callable[[], bool], timeout_s: float = 20.0) -> None:
    """Wait, polling, until ``check`` holds; fail once ``timeout_s`` has passed without it."""
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"not reached in {timeout_s} s: {check}"
        await asyncio.sleep(0.02)


def start_test_nats(name: str = "test") -> NatsServer:
    """A JetStream server on free loopback ports with a fresh temporary store."""
    store = Path(tempfile.mkdtemp(prefix=f"bedside-nats-{name}-"))
    config = NatsServerConfig(store_dir=store, port=free_port(), monitor_port=free_port(), name=name)
    return NatsServer(config).start()


def corpus_file(relative: str) -> Path:
    """A file of ../shared/corpus, or skip the test where the corpus is absent (a user's machine)."""
    path = CORPUS / relative
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared corpus is only on the team's machines")
    return path


def corpus_book(name: str) -> dict[str, Any]:
    book: dict[str, Any] = json.loads(corpus_file(f"{name}.json").read_text())
    return book


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


class RunningSystem:
    """Real service processes (``bedside serve NAME``) on a test's own bus and data directory."""

    def __init__(
        self,
        nats_url: str,
        data_dir: Path,
        services: tuple[str, ...],
        http_port: int,
        *,
        kept_vectors: bool = False,
    ) -> None:
        self.nats_url = nats_url
        self.data_dir = data_dir
        self.services = services
        self.http_port = http_port
        self.env = {
            **os.environ,
            "NATS_URL": nats_url,
            "BEDSIDE_DATA_DIR": str(data_dir),
            "BEDSIDE_HTTP_PORT": str(http_port),
            "BEDSIDE_LOG_FORMAT": "json",
        }
        self.env.pop("ANTHROPIC_API_KEY", None)
        if kept_vectors:
            # the run's vector cache, where the search tests keep theirs: only for tests of what is done
            # with a book once ingested (embedding Black Beauty is a CPU-minute)
            self.env["BEDSIDE_VECTOR_CACHE_DIR"] = str(default_cache())
        self.processes = ServiceProcesses(Settings(data_dir=data_dir), self.env)

    @property
    def http_url(self) -> str:
        """The player's address as its environment sets it (a test may bind it elsewhere, or use TLS)."""
        scheme = "https" if self.env.get("BEDSIDE_TLS_CERTFILE") else "http"
        return f"{scheme}://{self.env.get('BEDSIDE_HTTP_HOST', '127.0.0.1')}:{self.http_port}"

    def start(self, timeout_s: float = 120.0) -> "RunningSystem":
        for name in self.services:
            self.processes.start(name)
        seen = asyncio.run(wait_until_healthy([self.nats_url], self.services, timeout_s))
        down = [name for name, health in seen.items() if health is None or not health.ready]
        if down:
            self.stop()
            logs = {name: self.log(name)[-2000:] for name in down}
            raise RuntimeError(f"services did not become ready: {down}\n{logs}")
        return self

    def log(self, name: str) -> str:
        path = self.processes.log_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def restart(self, name: str) -> None:
        """Start ``name`` again once its old process has ended; fail unless it comes back ready."""
        self.processes.children[name].wait()
        self.processes.start(name)
        health = asyncio.run(wait_until_healthy([self.nats_url], (name,), 120.0))[name]
        if health is None or not health.ready:
            raise RuntimeError(f"{name} did not come back ready:\n{self.log(name)[-2000:]}")

    def stop(self) -> None:
        self.processes.stop()


def start_system(
    nats_url: str, services: tuple[str, ...] = SERVICES, *, kept_vectors: bool = False
) -> RunningSystem:
    """Start ``services`` as real processes against ``nats_url`` with a fresh data directory."""
    data_dir = Path(tempfile.mkdtemp(prefix="bedside-data-"))
    return RunningSystem(nats_url, data_dir, services, free_port(), kept_vectors=kept_vectors).start()


@contextmanager
def system_running(
    nats_url: str, services: tuple[str, ...] = SERVICES, *, kept_vectors: bool = False
) -> Iterator[RunningSystem]:
    """``start_system`` for the span of a ``with``: stopped however it ends (a module's fixture)."""
    running = start_system(nats_url, services, kept_vectors=kept_vectors)
    try:
        yield running
    finally:
        running.stop()


def run_bedside(*args: str, env: dict[str, str], timeout_s: float = 240) -> subprocess.CompletedProcess[str]:
    """The ``bedside`` command as a person runs it, in a child process with ``env``."""
    return subprocess.run(
        [sys.executable, "-m", "bedside", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )
