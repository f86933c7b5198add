"""``bedside ingest`` and the first-start step against real ingest and search processes."""

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts.ingest import UNFINISHED, IngestReport
from bedside_ingest.cli import first_start, summary
from bedside_ingest.client import list_jobs
from bedside_ingest.sample import SAMPLE_TITLE, SAMPLE_TRANSCRIPT
from bedside_runtime.bus import connected
from bedside_runtime.settings import Settings
from bedside_testing import run_bedside as bedside
from bedside_testing import start_system, start_test_nats


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ingest_command_returns_once_search_serves_the_book(tmp_path: Path) -> None:
    server = start_test_nats("ingest-cli")  # its own bus: search indexes every book announced on it
    system = start_system(server.url, ("ingest", "search"))
    try:
        done = bedside("ingest", str(SAMPLE_TRANSCRIPT), "--id", "lantern", env=system.env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "6 chapters" in done.stdout
        assert "(timed)" in done.stdout
        assert "searchable: lantern" in done.stdout
        # It handed back a job id that `bedside jobs --attach` said was no job: only an audiobook's is.
        read_now = bedside(
            "ingest", str(SAMPLE_TRANSCRIPT), "--id", "lantern-now", "--detach", env=system.env
        )
        assert read_now.returncode == 0, read_now.stdout + read_now.stderr
        assert "only a recording is transcribed as a job: this book is read now" in read_now.stdout
        assert "searchable: lantern-now" in read_now.stdout
        assert "--attach" not in read_now.stdout

        bad = tmp_path / "bad.srt"
        bad.write_text("1\n00:00:01,000 --> 00:00:04,000\nOne.\n\n2\n00:00:03,000 --> 00:00:05,000\nTwo.\n")
        refused = bedside("ingest", str(bad), env=system.env)
        assert refused.returncode == 1
        assert str(bad) in refused.stdout.replace("\n", "")
        assert "overlaps" in refused.stdout

        settings = Settings(nats_url=server.url, data_dir=system.data_dir)
        first = asyncio.run(first_start(settings, [server.url]))
        assert len(first) == 1
        assert "ingested" in first[0]
        assert SAMPLE_TITLE in first[0]
        again = asyncio.run(first_start(settings, [server.url]))
        assert again == ["sample     'sample' is in the catalog"]
    finally:
        system.stop()
        server.stop()


def spoken_audiobook(path: Path, title: str, *, chapters: int, sentences: int) -> Path:
    """An m4b of the sample story's first chapters, spoken by espeak-ng."""
    need_espeak()
    return write_audiobook(path, speak_book(sample_chapters(chapters, sentences)), tags={"title": title})


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ingest_command_transcribes_an_audiobook_and_jobs_lists_it(tmp_path: Path) -> None:
    book = spoken_audiobook(tmp_path / "lantern.m4b", "The Lantern at Gull Point", chapters=2, sentences=1)
    server = start_test_nats("ingest-cli-audio")
    system = start_system(server.url, ("ingest", "search"))
    try:
        done = bedside("ingest", str(book), "--id", "lantern-audio", env=system.env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "2 chapters" in done.stdout
        assert "(transcribed)" in done.stdout
        assert "chapter 2 of 2" in done.stdout  # the transcription bar's line
        assert "searchable: lantern-audio" in done.stdout
        books = bedside("books", env=system.env)
        assert books.returncode == 0, books.stdout + books.stderr
        line = next(line for line in books.stdout.splitlines() if line.startswith("lantern-audio "))
        assert " transcribed " in line  # its times came from its recording, not a timed file

        listed = bedside("jobs", env=system.env)
        assert listed.returncode == 0, listed.stdout + listed.stderr
        assert "done" in listed.stdout
        assert "lantern-audio" in listed.stdout

        again = spoken_audiobook(tmp_path / "again.m4b", "Again", chapters=2, sentences=1)
        handed = bedside("ingest", str(again), "--id", "again-audio", "--detach", env=system.env)
        assert handed.returncode == 0, handed.stdout + handed.stderr
        match = re.search(r"^job (\S+) handed to the ingest service", handed.stdout)
        assert match, handed.stdout
        attached = bedside("jobs", "--attach", match.group(1), env=system.env)
        assert attached.returncode == 0, attached.stdout + attached.stderr
        assert re.search(rf"{match.group(1)}\s+done", attached.stdout), attached.stdout

        drm = tmp_path / "bought.aax"
        drm.write_bytes(b"\x00" * 512)
        refused = bedside("ingest", str(drm), env=system.env)
        assert refused.returncode == 1
        assert "DRM" in refused.stdout
    finally:
        system.stop()
        server.stop()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ingest_command_waits_through_a_restart_of_the_bus(tmp_path: Path) -> None:
    """A household's check: the bus killed and started again while `bedside ingest` waited for a
    recording's transcription; the command ended in a traceback ("nats: connection closed") while
    the job went on in the service."""
    book = spoken_audiobook(tmp_path / "restart.m4b", "Through a Restart", chapters=3, sentences=4)
    server = start_test_nats("ingest-cli-bus-restart")
    system = start_system(server.url, ("ingest", "search"))
    try:
        command = [sys.executable, "-m", "bedside", "ingest", str(book), "--id", "through-restart"]
        waiting = subprocess.Popen(
            command, env=system.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        # Killed once the service has the ask: on a loaded machine the command took longer than a
        # fixed wait to start, met the bus started again before the service was back on it, and was
        # rightly told it was not running; that is not what this checks.
        asyncio.run(until_a_job_is_under_way(server.url, waiting))
        server.kill()
        time.sleep(2)  # `up` waits a moment before it starts a dead bus again
        server.start()
        said, _ = waiting.communicate(timeout=400)
        assert waiting.returncode == 0, said
        assert "searchable: through-restart" in said
    finally:
        system.stop()
        server.stop()


async def until_a_job_is_under_way(url: str, command: "subprocess.Popen[str]") -> None:
    """Returns once the ingest service on the bus at ``url`` has a job not ended; fails if ``command``
    ended first."""
    async with connected([url]) as client:
        while not any(job.state in UNFINISHED for job in await list_jobs(client)):
            assert command.poll() is None, command.communicate()[0]
            await asyncio.sleep(0.1)


def a_report(book: str = "y", title: str = "Y", taken_id: str | None = None) -> IngestReport:
    """A report of one chapter and one passage."""
    return IngestReport(
        book=book,
        version="2ef65955c5092d99",
        object_name=book,
        title=title,
        chapters=1,
        passages=1,
        duration_ms=2_000,
        estimated=False,
        unchanged=False,
        seconds=0.0,
        taken_id=taken_id,
    )


def test_a_book_of_one_chapter_and_one_passage_is_said_in_the_singular() -> None:
    assert summary(a_report()).startswith("'Y' as y: 1 chapter, 1 passage, 0:00:02 (timed); ")


def test_a_book_given_an_id_beside_anothers_says_so_and_how_to_replace_that_one_instead() -> None:
    assert summary(a_report("book-2", "Book", taken_id="book")).splitlines()[1] == (
        "another book, made from another file, is 'book': this one is 'book-2' beside it "
        "(--id book --replace replaces that one instead)"
    )


def test_what_the_listener_should_know_of_the_book_is_said_under_its_summary() -> None:
    told = "book.mp3 ends at 0:10:00, not at the 1:00:00 it says: ..."
    assert summary(a_report().model_copy(update={"notes": [told]})).splitlines()[1] == told
