"""`bedside remove`: a book is served no more, and ingesting it again brings it back; over real
search and ingest processes, through the command a person types."""

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from bedside_adding import bucket_objects
from bedside_audiobooks import silent_wav
from bedside_contracts import subjects
from bedside_ingest.media_bucket import shared_name
from bedside_testing import RunningSystem, run_bedside, system_running

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def system(nats_url: str) -> Iterator[RunningSystem]:
    with system_running(nats_url, ("search", "ingest")) as running:
        yield running


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


def test_a_version_announced_again_after_another_is_said_ready_again(
    system: RunningSystem, tmp_path: Path
) -> None:
    """Going back to a version made before (a title given and taken back) waited 120 s and said
    search was not running: its "ready" was taken for a repeat of the first and dropped."""
    text = tmp_path / "swing.txt"
    text.write_text("The Swing\n\nChapter 1\n\nMia swung so high she saw the sea.\n")
    for title in ("The Swing", "The Garden Swing", "The Swing"):
        code, said = bedside(system, "ingest", str(text), "--id", "swing", "--title", title, "--wait", "30")
        assert code == 0, said
        assert "searchable: swing" in said, said


def test_a_book_never_ingested_is_refused_by_name(system: RunningSystem) -> None:
    code, said = bedside(system, "remove", "no-such-book")
    assert code == 1
    assert "there is no book 'no-such-book' to remove" in said, said


async def stored(system: RunningSystem) -> tuple[set[str], set[str]]:
    """The names in the artifacts bucket and in the media bucket."""
    return (
        set(await bucket_objects(system.nats_url, subjects.BOOK_ARTIFACTS_BUCKET)),
        set(await bucket_objects(system.nats_url, subjects.MEDIA_BUCKET)),
    )


def test_deleting_a_removed_books_files_frees_what_no_other_book_has_and_never_the_listeners_own(
    system: RunningSystem, tmp_path: Path
) -> None:
    # a timed transcript beside its recording (an e-book beside one is transcribed from it: these are silent)
    text = tmp_path / "tide.vtt"
    text.write_text(
        "WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nThe tide came in over the flat grey sand at noon.\n"
    )
    own = silent_wav(tmp_path / "tide.wav", 2)  # the listener's own recording, read where it is
    made = silent_wav(system.data_dir / "audio" / "tide-joined.wav", 3)  # as ingest writes one
    for book, audio in (("removed-tide", own), ("removed-tide-again", own), ("removed-tide-made", made)):
        code, said = bedside(
            system, "ingest", str(text), "--id", book, "--title", "The Tide", "--audio", str(audio)
        )
        assert code == 0, said
    artifacts, media = asyncio.run(stored(system))
    own_media, made_media = shared_name(own), shared_name(made)
    assert {own_media, made_media} <= media

    # Another book has the recording: only the book's own versions go.
    code, said = bedside(system, "remove", "removed-tide", "--delete-files")
    assert code == 0, said
    assert re.fullmatch(
        r"removed 'The Tide' \(removed-tide\), and deleted its files: [\d.]+ [MG]B freed", said
    ), said
    left, media = asyncio.run(stored(system))
    assert not any(name.startswith("removed-tide/") for name in left), left
    assert {name for name in artifacts if not name.startswith("removed-tide/")} == left
    assert own_media in media

    # Removed before, its files kept: they can still be deleted.
    code, said = bedside(system, "remove", "removed-tide-again")
    assert code == 0, said
    assert own_media in asyncio.run(stored(system))[1]
    code, said = bedside(system, "remove", "removed-tide-again", "--delete-files")
    assert code == 0, said
    assert own_media not in asyncio.run(stored(system))[1]
    assert own.is_file()  # the listener's own file is never Bedside's to delete

    code, said = bedside(system, "remove", "removed-tide-made", "--delete-files")
    assert code == 0, said
    assert made_media not in asyncio.run(stored(system))[1]
    assert not made.exists()  # what ingest wrote goes with it

    # Ingested again, the book is back, its recording stored again.
    code, said = bedside(
        system, "ingest", str(text), "--id", "removed-tide", "--title", "The Tide", "--audio", str(own)
    )
    assert code == 0, said
    assert "removed-tide" in listed(system)
    assert own_media in asyncio.run(stored(system))[1]
