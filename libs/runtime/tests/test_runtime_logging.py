"""What a service's log lines hold, in a process of its own (the set-up is the whole process's)."""

import subprocess
import sys

import pytest

FAILING_HANDLER = """
from bedside_runtime.logging import configure_logging

log = configure_logging("probe", {fmt!r})

def handle(token: str) -> None:
    passages = ["a line of the book not yet heard"] * 3
    raise RuntimeError("search is down")

try:
    handle("listener-token-3f9a")
except RuntimeError:
    log.exception("handler failed")
"""


@pytest.mark.parametrize("fmt", ["console", "json"])
def test_a_failing_handlers_traceback_is_logged_without_its_locals(fmt: str) -> None:
    """On a terminal the traceback was drawn with every local: a listener's token and the book's
    lines in the log, and seconds of the event loop for a handler holding a book."""
    done = subprocess.run(
        [sys.executable, "-c", FAILING_HANDLER.format(fmt=fmt)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "RuntimeError" in done.stdout
    assert "search is down" in done.stdout
    assert "listener-token-3f9a" not in done.stdout
    assert "not yet heard" not in done.stdout
