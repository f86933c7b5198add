"""What a person types wrong at the `bedside` commands is refused in a sentence, before the bus."""

import socket
import subprocess
import sys
from pathlib import Path

import pytest

SAID_PLAINLY = "letters, digits, '-' or '_'"


def bedside(*args: str) -> subprocess.CompletedProcess[str]:
    wide = {"COLUMNS": "300", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}  # one line per message
    return subprocess.run(
        [sys.executable, "-m", "bedside", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=wide,
    )


@pytest.mark.parametrize("book_id", ["my book", "a/b", "x" * 500])
def test_a_book_id_that_is_not_an_id_is_refused_in_words(tmp_path: Path, book_id: str) -> None:
    text = tmp_path / "book.txt"
    text.write_text("Chapter 1\n\nTom had a red kite.\n")
    for args in (
        ("ingest", str(text), "--id", book_id),
        ("ask", "--book", book_id, "who is Tom?"),
        ("find", "--book", book_id, "the kite"),
    ):
        done = bedside(*args)
        said = done.stdout + done.stderr
        assert done.returncode != 0, args
        assert SAID_PLAINLY in " ".join(said.split()), said
        assert "pydantic" not in said, said
        assert "[A-Za-z0-9_-]" not in said, said


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    "args",
    [
        ("status",),
        ("listener", "add", "anna"),
        ("pair",),
        ("replay",),
        ("books",),
        ("jobs",),
        ("ask", "--book", "sample", "where was I?"),
    ],
)
def test_a_command_run_while_bedside_is_down_says_so_and_exits(tmp_path: Path, args: tuple[str, ...]) -> None:
    # nothing listens on the port: the command must give up with one sentence, not retry for ever
    down = {
        "COLUMNS": "300",
        "NO_COLOR": "1",
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "BEDSIDE_DATA_DIR": str(tmp_path / "data"),
        "BEDSIDE_NATS_PORT": str(free_port()),
    }
    done = subprocess.run(
        [sys.executable, "-m", "bedside", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=down,
    )
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 1, said
    assert "is Bedside running? start it with `bedside up`" in said, said
    assert "Traceback" not in said, said
