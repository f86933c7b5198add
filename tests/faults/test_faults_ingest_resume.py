"""kill -9 the ingest service in the middle of transcribing an audiobook: started again, it takes
up the job by itself and continues at the next chapter, not from the first.

The ingest service runs as its own process on the test's bus. A four-chapter m4b (the sample
story spoken by espeak-ng) is asked for; once the first chapter's transcript is reported
stored, the process is SIGKILLed. Nobody asks again: the restarted service finds the job
still running in its KV bucket, runs it from the stored chapters, and the book is announced.
"""

import asyncio
import signal
from pathlib import Path

import nats
import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts import subjects
from bedside_contracts.ingest import (
    BookIngested,
    IngestBook,
    IngestJob,
    IngestProgress,
    TranscriptionProgress,
)
from bedside_testing import start_system
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

CHAPTERS = 4


async def announced(client: Client, book: str, timeout_s: float) -> BookIngested | None:
    """The whole book's announcement (interim versions, adr/0032, come before it)."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while asyncio.get_running_loop().time() < deadline:
        try:
            message = await client.jetstream().get_last_msg(
                subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=book)
            )
            event = BookIngested.model_validate_json(message.data or b"")
            if event.transcript is None:
                return event
        except NotFoundError:
            pass
        await asyncio.sleep(0.5)
    return None


@pytest.mark.parametrize(
    ("stop", "falls"), [(signal.SIGKILL, 1), (signal.SIGTERM, 0)], ids=["killed", "stopped"]
)
async def test_a_stopped_transcription_resumes_at_the_next_chapter(
    nats_url: str, tmp_path: Path, stop: signal.Signals, falls: int
) -> None:
    """A kill counts as a fall (a job that falls three times is given up); a clean stop does not."""
    need_espeak()
    # another recording for each case: the same one would be taken whole from the first case's store
    speech = speak_book(sample_chapters(chapters=CHAPTERS, sentences=3 + falls))
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags={"title": "The Lantern at Gull Point"})
    system = await asyncio.to_thread(start_system, nats_url, ("ingest",))
    try:
        client = await nats.connect(nats_url)
        events: list[IngestProgress] = []
        first_stored = asyncio.Event()

        async def on_progress(message: Msg) -> None:
            event = IngestProgress.model_validate_json(message.data)
            events.append(event)
            if event.transcription is not None and event.transcription.chapter >= 1:
                first_stored.set()

        job = book = f"resume-{stop.name.lower()}"
        await client.subscribe(subjects.INGEST_PROGRESS.format(job=job), cb=on_progress)
        request = IngestBook(path=str(path), book=book, job=job)
        await client.publish(subjects.INGEST_BOOK, request.model_dump_json().encode())  # nobody waits
        await asyncio.wait_for(first_stored.wait(), 240)
        system.processes.children["ingest"].send_signal(stop)
        await asyncio.to_thread(system.restart, "ingest")

        event = await announced(client, book, 300)
        assert event is not None, system.log("ingest")[-3000:]
        runs: list[list[TranscriptionProgress]] = []
        for status in (e.transcription for e in events if e.transcription is not None):
            # each run reports where it starts before its first chapter (then each piece it hears)
            if status.chapter == 0 and status.audio_done_s == 0:
                runs.append([])
            runs[-1].append(status)
        killed, resumed = runs[0][-1], runs[-1][-1]
        print(
            f"\n[kill -9 mid-transcription] killed after chapter {killed.chapter} of {CHAPTERS}; "
            f"the restarted run took {resumed.resumed} chapters from the store and transcribed the rest"
        )
        assert len(runs) == 2
        assert 1 <= killed.chapter < CHAPTERS  # killed mid-book
        assert killed.chapter <= resumed.resumed < CHAPTERS  # nothing reported done was done again
        assert resumed.chapter == CHAPTERS

        store = await client.jetstream().key_value(subjects.INGEST_JOBS_BUCKET)
        record = IngestJob.model_validate_json((await store.get(job)).value or b"")
        # the job is recorded done just after its book is announced (its interim versions deleted between)
        for _ in range(500):
            if record.state != "running":
                break
            await asyncio.sleep(0.02)
            record = IngestJob.model_validate_json((await store.get(job)).value or b"")
        assert (record.state, record.interrupted) == ("done", falls)
        await client.close()
    finally:
        system.stop()
