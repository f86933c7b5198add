"""The ingest handler: a thin shell over the pipeline, with progress events and the bus."""

import asyncio
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

import structlog
from bedside_contracts import subjects
from bedside_contracts.ingest import (
    BookIngested,
    IngestBook,
    IngestJob,
    IngestProgress,
    IngestReport,
    JobState,
    Stage,
    TranscriptionProgress,
)
from bedside_embedding import Embedder
from bedside_runtime.errors import InvalidRequest
from faststream.nats import NatsBroker

from bedside_ingest.artifact import message_id, object_name
from bedside_ingest.audiojobs import Audiobooks, is_audiobook
from bedside_ingest.errors import BadInput
from bedside_ingest.jobs import JobStore
from bedside_ingest.pipeline import Prepared, Progress, StageClock, build_artifact, embed_passages, prepare
from bedside_ingest.store import BookStore

log = structlog.get_logger("bedside.ingest")

PUBLISH_TIMEOUT_S = 5.0


class ProgressPublisher:
    """Progress events of one job, published in order from whatever thread a stage runs on."""

    def __init__(self, broker: NatsBroker, job: str | None) -> None:
        self._broker = broker
        self._job = job
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[IngestProgress | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._drain()) if job else None

    def __call__(self, stage: Stage, done: int, total: int, detail: str) -> None:
        if self._job is not None:
            event = IngestProgress(job=self._job, stage=stage, done=done, total=total, detail=detail)
            self._loop.call_soon_threadsafe(self._queue.put_nowait, event)

    def transcription(self, status: TranscriptionProgress) -> None:
        if self._job is not None:
            event = IngestProgress(
                job=self._job,
                stage="transcribe",
                done=status.chapter,
                total=status.chapters,
                detail=f"chapter {status.chapter} of {status.chapters}",
                transcription=status,
            )
            self._loop.call_soon_threadsafe(self._queue.put_nowait, event)

    async def _drain(self) -> None:
        while (event := await self._queue.get()) is not None:
            subject = subjects.INGEST_PROGRESS.format(job=event.job)
            await self._broker.publish(event.model_dump_json().encode(), subject)

    async def close(self) -> None:
        if self._task is not None:
            # Behind any event still scheduled by __call__ (call_soon keeps their order).
            self._loop.call_soon(self._queue.put_nowait, None)
            await self._task


class IngestService:
    def __init__(
        self,
        broker: NatsBroker,
        store: BookStore,
        embedders: Sequence[Embedder],
        narration_wpm: int,
        *,
        jobs: JobStore,
        audiobooks: Audiobooks,
    ) -> None:
        self._broker = broker
        self._store = store
        self._embedders = embedders
        self._wpm = narration_wpm
        self._jobs = jobs
        self._audiobooks = audiobooks
        self._lock = asyncio.Lock()  # one ingest at a time: the CPU is the limit anyway

    async def ingest(self, request: IngestBook) -> IngestReport:
        audio = is_audiobook(Path(request.path))
        if audio and request.job is None:
            request = request.model_copy(update={"job": uuid.uuid4().hex[:16]})
        progress = ProgressPublisher(self._broker, request.job)
        try:
            if audio:
                await self._record(request, "queued")
            async with self._lock:
                if audio:
                    await self._record(request, "running")
                report = await self._ingest(request, progress, audio)
            if audio:
                await self._record(request, "done", report.book)
            return report
        except InvalidRequest as error:
            if audio:
                await self._record(request, "failed", str(error))
            raise
        finally:
            await progress.close()

    async def _record(self, request: IngestBook, state: JobState, detail: str = "") -> None:
        if request.job is not None:
            await self._jobs.put_job(IngestJob(job=request.job, request=request, state=state, detail=detail))

    async def resume_unfinished(self) -> None:
        """Run again every audiobook job a stopped service left queued or running: its finished
        chapters are stored, so each continues at the chapter it had not finished."""
        unfinished = [job for job in await self._jobs.jobs() if job.state in ("queued", "running")]
        for job in unfinished:
            log.info("resuming job", job=job.job, path=job.request.path)
        results = await asyncio.gather(
            *(self.ingest(job.request) for job in unfinished), return_exceptions=True
        )
        for job, result in zip(unfinished, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("resumed job failed", job=job.job, error=str(result))

    async def _read(
        self, request: IngestBook, progress: ProgressPublisher, audio: bool, clock: StageClock
    ) -> Prepared:
        if audio:
            return await self._audiobooks.prepare(
                request,
                embedding_model=self._embedders[0].model_id,
                progress=progress,
                transcription=progress.transcription,
                clock=clock,
            )
        return await asyncio.to_thread(
            prepare,
            request,
            embedding_model=self._embedders[0].model_id,
            narration_wpm=self._wpm,
            progress=progress,
            clock=clock,
        )

    async def _ingest(self, request: IngestBook, progress: ProgressPublisher, audio: bool) -> IngestReport:
        started = time.perf_counter()
        clock = StageClock()
        try:
            prepared = await self._read(request, progress, audio, clock)
        except BadInput as error:
            log.info("bad input refused", path=request.path, error=error.message)
            raise InvalidRequest(error.message) from None
        name = object_name(prepared.book_id, prepared.version)
        stored = await self._store.has(name)
        if stored:
            progress("embed", len(prepared.passages), len(prepared.passages), "stored before")
        else:
            await self._embed_and_store(prepared, name, progress, clock)
        newest = await self._store.announced(prepared.book_id)
        announced = newest is not None and newest[0] == prepared.version
        if not announced:
            await self._announce(prepared, name, newest[1] if stored and newest else None)
        unchanged = stored and announced
        progress("store", 1, 1, "unchanged" if unchanged else name)
        log.info("book ingested", book=prepared.book_id, version=prepared.version, unchanged=unchanged)
        return self._report(prepared, name, unchanged, time.perf_counter() - started, clock)

    async def _embed_and_store(
        self, prepared: Prepared, name: str, progress: Progress, clock: StageClock
    ) -> None:
        texts = [p.text for p in prepared.passages]
        with clock.stage("embed"):
            vectors = await asyncio.to_thread(embed_passages, texts, self._embedders, progress)
        with clock.stage("store"):
            progress("store", 0, 1, name)
            data = await asyncio.to_thread(
                lambda: build_artifact(prepared, vectors).model_dump_json().encode()
            )
            await self._store.put(name, data)

    async def _announce(self, prepared: Prepared, name: str, superseding: int | None) -> None:
        event = BookIngested(
            book=prepared.book_id, version=prepared.version, object_name=name, title=prepared.book.title
        )
        await self._broker.publish(
            event.model_dump_json().encode(),
            subjects.BOOK_INGESTED.format(book=prepared.book_id),
            stream=subjects.BOOKS_STREAM,
            headers={"Nats-Msg-Id": message_id(prepared.book_id, prepared.version, superseding)},
            timeout=PUBLISH_TIMEOUT_S,
        )

    @staticmethod
    def _report(
        prepared: Prepared, name: str, unchanged: bool, seconds: float, clock: StageClock
    ) -> IngestReport:
        return IngestReport(
            book=prepared.book_id,
            version=prepared.version,
            object_name=name,
            title=prepared.book.title,
            chapters=len(prepared.chapters),
            passages=len(prepared.passages),
            duration_ms=prepared.duration_ms,
            estimated=prepared.book.estimated,
            unchanged=unchanged,
            seconds=round(seconds, 3),
            stage_seconds=clock.seconds,
        )
