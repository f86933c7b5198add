"""A book replaced by a shorter recording under its id (`bedside ingest ... --id`, ADR 62) holds its
listeners within it: one past the new end is at its end, and a sleep timer past it stops there.
Over real search, ingest, player and turn processes, through the commands a person types."""

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from bedside_testing import RunningSystem, run_bedside, system_running

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

BOOK = "gull"
SENTENCES = (
    "The lantern keeper climbed the stairs at dusk.",
    "Gulls wheeled over the black rocks below the light.",
    "She trimmed the wick and watched the grey sea.",
    "A boat came round the point with no lights showing.",
)


def timed_book(folder: Path, length_s: int, chapter_starts_s: tuple[int, ...]) -> Path:
    """A WebVTT transcript of ``length_s`` seconds, with a chapters file beside it (one name in two
    folders: a transcript of another recording)."""
    folder.mkdir()

    def stamp(s: int) -> str:
        return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}.000"

    cues = [
        f"{stamp(start)} --> {stamp(min(start + 5, length_s))}\n{SENTENCES[n % len(SENTENCES)]} Cue {n}.\n"
        for n, start in enumerate(range(0, length_s, 5))
    ]
    transcript = folder / "book.vtt"
    transcript.write_text("WEBVTT\n\n" + "\n".join(cues))
    chapters = ", ".join(
        f'{{"title": "Part {n}", "start": {start}}}' for n, start in enumerate(chapter_starts_s, 1)
    )
    (folder / "book.chapters.json").write_text(f"[{chapters}]")
    return transcript


@pytest.fixture(scope="module")
def system(nats_url: str) -> Iterator[RunningSystem]:
    with system_running(nats_url, ("search", "ingest", "player", "turn")) as running:
        yield running


def bedside(system: RunningSystem, *args: str, code: int = 0) -> str:
    """All ``bedside ARGS`` said, on one line; it must end with ``code``."""
    done = run_bedside(*args, env={**system.env, "COLUMNS": "300", "NO_COLOR": "1"})
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == code, said
    return said


def test_a_listener_past_the_end_of_a_shorter_book_put_in_its_place_is_at_its_end(
    system: RunningSystem, tmp_path: Path
) -> None:
    added = bedside(system, "listener", "add", "nell")
    token = re.search(r"token (\S+)", added)
    assert token, added
    longer = timed_book(tmp_path / "long", 360, (0, 120, 240))
    shorter = timed_book(tmp_path / "short", 85, (0, 30, 61))
    bedside(system, "ingest", str(longer), "--id", BOOK, "--title", "The Long Watch", "--wait", "60")

    base = f"/api/listeners/nell/books/{BOOK}"
    headers = {"Authorization": f"Bearer {token.group(1)}"}
    with httpx.Client(base_url=system.http_url, headers=headers, timeout=30) as http:

        def state() -> dict[str, Any]:
            got = http.get(f"{base}/state")
            got.raise_for_status()
            told: dict[str, Any] = got.json()
            return told

        http.post(f"{base}/devices", json={"device": "phone"}).raise_for_status()
        seek = {"device": "phone", "position_ms": 305_000, "basis_seq": state()["seq"]}
        http.post(f"{base}/seek", json=seek).raise_for_status()
        http.post(f"{base}/sleep-timer", json={"device": "phone", "after": 15}).raise_for_status()
        assert state()["sleep_timer"]["stop_at_ms"] == 360_000  # the book ends first

        # Another file under the book's id replaced it without a word while nell was in it: now it is
        # refused, saying which book and that a listener is in it, until the replacement is asked for.
        refused = bedside(system, "ingest", str(shorter), "--id", BOOK, "--wait", "60", code=1)
        assert f"'{BOOK}' is the book 'The Long Watch' (1 listener has a place in it)" in refused, refused
        assert "--replace" in refused, refused
        assert state()["position_ms"] == 305_000  # nothing was sent

        # read at once after the ingest said the book searchable: the player's catalog, fetched a
        # moment ago, is not yet due to be asked again
        replaced = bedside(system, "ingest", str(shorter), "--id", BOOK, "--replace", "--wait", "60")
        assert replaced.startswith(
            f"replacing the book 'The Long Watch' ({BOOK}; 1 listener has a place in it)"
        ), replaced
        held = state()
        assert held["position_ms"] == 85_000
        assert held["sleep_timer"]["stop_at_ms"] == 85_000
        assert held["sleep_timer"]["book_ends_first"] is True

    where = bedside(system, "ask", "--listener", "nell", "--book", BOOK, "where am I?")
    assert 'chapter 3, "Part 3", 24 seconds in; at the end of the book' in where, where
    timer = bedside(system, "ask", "--listener", "nell", "--book", BOOK, "when will the sleep timer stop?")
    assert "The book ends first, in less than a minute" in timer, timer
