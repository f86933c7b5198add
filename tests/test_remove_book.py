"""`bedside remove`: a book is served no more, and ingesting it again brings it back; over real
search and ingest processes, through the command a person types."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from bedside_testing import RunningSystem, run_bedside, start_system

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def system(nats_url: str) -> Iterator[RunningSystem]:
    running = start_system(nats_url, ("search", "ingest"))
    try:
        yield running
    finally:
        running.stop()


def bedside(system: RunningSystem, *args: str) -> tuple[int, str]:
    """What ``bedside ARGS`` exited with, and all it said, on one line."""
    done = run_bedside(*args, env={**system.env, "COLUMNS": "300", "NO_COLOR": "1"})
    return done.returncode, " ".join((done.stdout + done.stderr).split())


def listed(system: RunningSystem) -> list[str]:
    """The words `bedside books` prints (each book's id among them)."""
    code, said = bedside(system, "books")
    assert code == 0, said
    return said.split()


def test_a_removed_book_is_served_no_more_and_ingesting_it_again_brings_it_back(
    system: RunningSystem, tmp_path: Path
) -> None:
    text = tmp_path / "kite.txt"
    text.write_text("The Kite\n\nChapter 1\n\nTom had a red kite. It flew over the hill.\n")
    code, said = bedside(system, "ingest", str(text), "--id", "kite")
    assert code == 0, said
    assert "kite" in listed(system)

    code, said = bedside(system, "remove", "kite")
    assert (code, said) == (0, "removed 'The Kite' (kite)")
    assert "kite" not in listed(system)
    code, said = bedside(system, "find", "--book", "kite", "the hill")
    assert code == 1, said

    code, said = bedside(system, "remove", "kite")
    assert code == 1
    assert "there is no book 'kite' to remove" in said, said

    code, said = bedside(system, "ingest", str(text), "--id", "kite")
    assert code == 0, said
    assert "kite" in listed(system)


def test_a_book_never_ingested_is_refused_by_name(system: RunningSystem) -> None:
    code, said = bedside(system, "remove", "no-such-book")
    assert code == 1
    assert "there is no book 'no-such-book' to remove" in said, said
