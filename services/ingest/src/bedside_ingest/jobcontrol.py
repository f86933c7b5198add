"""The bookkeeping of audiobook jobs: their records (queued, running with its progress, done,
failed, cancelled), the cancel command, and which jobs a restarted service must take up again.
"""

import asyncio
from collections.abc import Callable

import structlog
from bedside_contracts.ingest import (
    UNFINISHED,
    IngestBook,
    IngestJob,
    JobList,
    JobState,
    TranscriptionProgress,
)
from bedside_runtime.errors import Conflict, NotFound

from bedside_ingest.jobs import JobStore

log = structlog.get_logger("bedside.ingest")

MAX_INTERRUPTIONS = 3
"""Starts that find a job running before it is given up: a file the decoder crashes on, or a book
that runs the machine out of memory, would otherwise stop the service at every start."""


def given_up(times: int) -> str:
    return (
        f"Bedside's ingest stopped {times} times while reading this book (a crash, or the machine running "
        "out of memory), so it is not tried again by itself. The chapters it finished are kept: add the "
        "book again to go on from them"
    )


def taken_up(job: IngestJob) -> IngestJob:
    """A job found unfinished at a start, as it is recorded then: waiting its turn again, one fall more
    if it was running (a service that stops cleanly records its job queued), and given up at
    ``MAX_INTERRUPTIONS``."""
    interrupted = job.interrupted + (job.state == "running")
    if interrupted >= MAX_INTERRUPTIONS:
        return job.model_copy(
            update={"state": "failed", "interrupted": interrupted, "reason": given_up(interrupted)}
        )
    return job.model_copy(update={"state": "queued", "interrupted": interrupted})


class JobControl:
    def __init__(self, store: JobStore) -> None:
        self._store = store
        self._cancelled: set[str] = set()
        self._interrupted: dict[str, int] = {}
        self._progress: dict[str, TranscriptionProgress] = {}
        self._pending: set[asyncio.Future[None]] = set()

    def stopped(self, job: str) -> bool:
        return job in self._cancelled

    async def record(
        self,
        request: IngestBook,
        state: JobState,
        *,
        reason: str = "",
        book: str | None = None,
        note: str = "",
    ) -> None:
        job = request.job or ""
        if self.stopped(job) and state != "cancelled":
            return  # the cancel command wrote the last word on this job
        await self._store.put_job(
            IngestJob(
                job=job,
                request=request,
                state=state,
                book=book,
                reason=reason,
                note=note,
                progress=self._progress.get(job),
                interrupted=self._interrupted.get(job, 0),
            )
        )

    async def record_quietly(self, request: IngestBook, state: JobState) -> None:
        """``record`` while the service stops: a bus already gone loses the record, not the stop."""
        try:
            await asyncio.shield(self.record(request, state))
        except Exception as error:
            log.warning("job not recorded at the stop", job=request.job, error=str(error))

    async def take_up(self, job: IngestJob) -> IngestJob:
        """Record a job found unfinished at a start (``taken_up``); the count goes on in its records."""
        taken = taken_up(job)
        self._interrupted[job.job] = taken.interrupted
        await self._store.put_job(taken)
        return taken

    def progress_recorder(self, request: IngestBook) -> Callable[[TranscriptionProgress], None]:
        """A callback (for the transcription thread) that keeps the job's record up to date."""
        loop = asyncio.get_running_loop()
        job = request.job or ""

        def recorded(status: TranscriptionProgress) -> None:
            def schedule() -> None:
                self._progress[job] = status
                future = asyncio.ensure_future(self.record(request, "running"))
                self._pending.add(future)
                future.add_done_callback(self._pending.discard)

            loop.call_soon_threadsafe(schedule)

        return recorded

    async def settle(self) -> None:
        """Wait for the progress records already scheduled, so none lands after the final state."""
        await asyncio.sleep(0)  # let call_soon_threadsafe callbacks scheduled just before run
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def cancel(self, job_id: str) -> IngestJob:
        job = await self.job(job_id)
        if job is None:
            raise NotFound(f"no job {job_id!r}")
        if job.state not in UNFINISHED:
            raise Conflict(f"job {job_id!r} is {job.state}, not queued or running")
        self._cancelled.add(job_id)
        cancelled = job.model_copy(update={"state": "cancelled", "reason": "cancelled by request"})
        await self._store.put_job(cancelled)
        return cancelled

    async def job(self, job_id: str) -> IngestJob | None:
        return await self._store.get_job(job_id)

    async def listing(self, job_id: str | None) -> JobList:
        if job_id is not None:
            job = await self.job(job_id)
            if job is None:
                raise NotFound(f"no job {job_id!r}")
            return JobList(jobs=[job])
        jobs = await self._store.jobs()
        return JobList(jobs=sorted(jobs, key=lambda j: j.state not in UNFINISHED))  # kept newest first

    async def unfinished(self) -> list[IngestJob]:
        return [job for job in await self._store.jobs() if job.state in UNFINISHED]
