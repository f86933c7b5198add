"""What a person types wrong at the `bedside` commands is refused in a sentence, before the bus."""

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
