"""`bedside jobs`: those under way, then those ended, the newest first, each as a listener reads it."""

from collections.abc import AsyncIterator

import nats
import pytest
from bedside_contracts.ingest import IngestBook, IngestJob, TranscriptionProgress
from bedside_ingest.jobcontrol import JobControl
from bedside_ingest.jobs import JobStore
from bedside_ingest.jobs_cli import RECENT_ENDED, job_line, jobs_to_list

HEARD = TranscriptionProgress(chapter=9, chapters=9, resumed=0, audio_done_s=2585.2, audio_total_s=2586.0)


def job(name: str, state: str = "done") -> IngestJob:
    request = IngestBook(path=f"/books/{name}.m4b", job=name, book=name)
    return IngestJob.model_validate({"job": name, "request": request, "state": state, "progress": HEARD})


@pytest.fixture
async def control(nats_url: str) -> AsyncIterator[JobControl]:
    client = await nats.connect(nats_url)
    try:
        store = await JobStore.declare(client.jetstream(), replicas=1)
        for name in ("zz-old", "aa-new"):  # ids in the other order from their ages
            await store.put_job(job(name))
        await store.put_job(job("mm-running", "running"))
        yield JobControl(store)
    finally:
        await client.close()


async def test_the_jobs_under_way_come_first_then_those_ended_the_newest_first(control: JobControl) -> None:
    listed = [j.job for j in (await control.listing(None)).jobs]
    mine = [name for name in listed if name in ("zz-old", "aa-new", "mm-running")]
    assert mine == ["mm-running", "aa-new", "zz-old"]  # before, by id: the order of nothing


def test_a_finished_job_says_what_it_made_not_its_last_progress() -> None:
    done = job("aa-new").model_copy(update={"book": "aa-new"})
    assert job_line(done) == "aa-new  done      /books/aa-new.m4b (aa-new)"
    running = job("mm-running", "running")
    assert job_line(running).endswith("chapter 9 of 9, 0:43:05 of 0:43:06 audio")


def test_the_list_keeps_every_job_under_way_and_the_newest_ended_ones_unless_all_are_asked_for() -> None:
    """`bedside jobs` listed every job ever made, a screenful of old ones above the one running."""
    ended = [job(f"done-{n:02d}") for n in range(RECENT_ENDED + 5)]  # newest first, as the service lists
    listing = [job("running", "running"), job("queued", "queued"), *ended]
    shown, older = jobs_to_list(listing, everything=False)
    assert [j.job for j in shown] == ["running", "queued", *(j.job for j in ended[:RECENT_ENDED])]
    assert older == 5
    assert jobs_to_list(listing, everything=True) == (listing, 0)
