"""The search service as a real process: health, a book arriving over JetStream, and the CLI."""

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.ingest import BookIngested
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import NatsServer, free_port
from bedside_search_testing import chapters_of, small_passages
from bedside_testing import RunningSystem, start_system, start_test_nats
from nats.js.api import StreamConfig

BEDSIDE = str(Path(sys.executable).with_name("bedside"))


@pytest.fixture(scope="module")
def bus() -> Iterator[NatsServer]:
    server = start_test_nats("search-process")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def system(bus: NatsServer) -> Iterator[RunningSystem]:
    running = start_system(bus.url, ("search",))
    yield running
    running.stop()


def cli(system: RunningSystem, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BEDSIDE, *args], env=system.env, capture_output=True, text=True, timeout=60, check=False
    )


async def ingest_small_book(url: str) -> None:
    """What ingest does for a book: the artifact in the object store, then BookIngested."""
    client = await nats.connect(url)
    js = client.jetstream()
    try:
        await js.add_stream(StreamConfig(name=subjects.BOOKS_STREAM, subjects=[subjects.BOOKS_SUBJECTS]))
        bucket = await js.create_object_store(subjects.BOOK_ARTIFACTS_BUCKET)
        passages = small_passages()
        artifact = artifact_of("small", "The Harbour Lamps", passages, chapters_of(passages), load_minilm())
        await bucket.put("small", artifact.model_dump_json().encode())
        ready = await client.subscribe(subjects.BOOK_READY.format(book="small"))
        event = BookIngested(
            book="small", version=artifact.version, object_name="small", title=artifact.title
        )
        await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
        await ready.next_msg(timeout=90)
    finally:
        await client.close()


@pytest.mark.slow
def test_the_service_reports_ready_and_serves_a_book_it_is_given(
    system: RunningSystem, bus: NatsServer
) -> None:
    health = asyncio.run(wait_until_healthy([bus.url], ("search",), 30))["search"]
    assert health is not None
    assert health.ready
    assert health.detail == "books: 0"
    assert "no books yet" in cli(system, "books").stdout

    asyncio.run(ingest_small_book(bus.url))

    listed = cli(system, "books")
    assert listed.returncode == 0
    assert "small" in listed.stdout
    assert "The Harbour Lamps" in listed.stdout
    found = cli(system, "find", "--book", "small", "--at", "0:03:00", "the terrier in the icy water")
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert len(lines) == 8
    assert 'chapter 2, "The Frozen Canal"' in lines[0]
    as_json = cli(
        system, "find", "--book", "small", "--at", "0:00:00", "--json", "the terrier in the icy water"
    )
    rows = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert set(rows[0]) == {"id", "start_ms", "chapter", "score", "line"}
    assert rows[0]["chapter"] == 2
    assert "Pepper" not in rows[0]["line"]
    # a listener session: a name not heard printed nothing at all
    unheard = cli(system, "find", "--book", "small", "--at", "3:00", "Zebulon Quill")
    assert (unheard.returncode, unheard.stdout) == (0, "")
    assert "no passages: Zebulon Quill not heard by 0:03:00" in unheard.stderr
    health = asyncio.run(wait_until_healthy([bus.url], ("search",), 30))["search"]
    assert health is not None
    assert health.detail == "books: 1"


@pytest.mark.slow
def test_the_cli_names_an_unknown_book(system: RunningSystem) -> None:
    result = cli(system, "find", "--book", "nope", "--at", "1:00:00", "anything")
    assert result.returncode == 1
    assert "no book 'nope' is indexed" in result.stderr


def test_the_cli_says_when_the_bus_is_not_running() -> None:
    env = {**os.environ, "NATS_URL": f"nats://127.0.0.1:{free_port()}"}
    result = subprocess.run(
        [BEDSIDE, "find", "--book", "small", "--at", "0:00:10", "x"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "is Bedside running?" in result.stderr


def test_the_cli_says_when_search_is_not_running() -> None:
    server = start_test_nats("search-absent")
    try:
        env = {**os.environ, "NATS_URL": server.url}
        result = subprocess.run(
            [BEDSIDE, "books"], env=env, capture_output=True, text=True, timeout=60, check=False
        )
    finally:
        server.stop()
    assert result.returncode == 1
    assert "the search service is not running" in result.stderr
