"""A job that stops the service again and again (a file the decoder crashes on, a book that runs the
machine out of memory) is given up after a few tries, so the house can stay up: before, every start
took it up again, and five crashes in a minute stopped every service."""

from collections.abc import AsyncIterator

import nats
import pytest
from bedside_contracts.ingest import IngestBook, IngestJob
from bedside_ingest.jobcontrol import MAX_INTERRUPTIONS, JobControl
from bedside_ingest.jobs import JobStore


def job(name: str, state: str, interrupted: int = 0) -> IngestJob:
    request = IngestBook(path=f"/books/{name}.m4b", job=name, book=name)
    return IngestJob(job=name, request=request, state=state, interrupted=interrupted)


@pytest.fixture
async def store(nats_url: str) -> AsyncIterator[JobStore]:
    client = await nats.connect(nats_url)
    try:
        yield await JobStore.declare(client.jetstream(), replicas=1)
    finally:
        await client.close()


async def test_a_job_found_running_at_a_start_counts_the_stop_and_keeps_the_count(store: JobStore) -> None:
    control = JobControl(store)
    taken = await control.take_up(job("crashed-once", "running"))
    assert (taken.state, taken.interrupted) == ("queued", 1)
    await control.record(taken.request, "running")  # its run records the count again, not 0
    assert (await control.job("crashed-once")) == taken.model_copy(update={"state": "running"})


async def test_a_job_queued_at_a_start_never_ran_and_counts_nothing(store: JobStore) -> None:
    taken = await JobControl(store).take_up(job("waiting", "queued", interrupted=1))
    assert (taken.state, taken.interrupted) == ("queued", 1)


async def test_a_job_the_service_stopped_in_again_and_again_is_given_up_saying_why(store: JobStore) -> None:
    control = JobControl(store)
    taken = await control.take_up(job("poison", "running", interrupted=MAX_INTERRUPTIONS - 1))
    assert (taken.state, taken.interrupted) == ("failed", MAX_INTERRUPTIONS)
    assert f"stopped {MAX_INTERRUPTIONS} times while reading this book" in taken.reason
    assert "add the book again" in taken.reason
    assert await control.job("poison") == taken
    assert "poison" not in [j.job for j in await control.unfinished()]
