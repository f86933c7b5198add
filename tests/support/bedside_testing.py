"""Helpers for tests: a real nats-server per test session, and the shared corpus.

A plain module, imported by tests and fixtures; nothing is imported from conftest.
"""

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"


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
