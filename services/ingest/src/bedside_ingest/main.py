"""Composition root of the ingest service."""

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial

import structlog
from bedside_contracts import subjects
from bedside_contracts.ingest import (
    AddUploadedBook,
    CancelJob,
    IngestBook,
    JobsRequest,
    RemoveBook,
    UploadNames,
)
from bedside_runtime.bus import Broker, serve_requests
from bedside_runtime.host import run_bus_service
from bedside_runtime.settings import Settings
from bedside_runtime.tasks import cancel_and_wait
from bedside_speech import WhisperTranscriber

from bedside_ingest.audiojobs import Audiobooks
from bedside_ingest.embedders import load_embedders
from bedside_ingest.freeing import OwnFolders
from bedside_ingest.jobcontrol import JobControl
from bedside_ingest.jobs import JobStore
from bedside_ingest.media_bucket import MediaBucket
from bedside_ingest.service import IngestService, InterimHook
from bedside_ingest.store import BookStore
from bedside_ingest.uploads import Uploads

log = structlog.get_logger("bedside.ingest")


async def register(
    broker: Broker, settings: Settings, *, after_interim: InterimHook | None = None
) -> Callable[[], Awaitable[None]]:
    """Declare the books stream and bucket, load the embedder, then answer INGEST_BOOK.

    Health only answers once this returns, after the embedder has loaded, so the
    service is reported ready exactly when it can embed. ``after_interim`` is awaited after
    each interim version of an audiobook is announced (a test holds the job there).
    """
    js = broker.connection.jetstream()
    store = await BookStore.declare(js, settings.stream_replicas)
    jobs = await JobStore.declare(js, settings.stream_replicas)
    own = OwnFolders(
        uploads=settings.data_dir / "uploads",
        covers=settings.data_dir / "covers",
        joined=settings.data_dir / "audio",
    )
    uploads = await Uploads.declare(js, settings.stream_replicas, own.uploads)
    media = await MediaBucket.declare(js, settings.stream_replicas)
    embedders = await asyncio.to_thread(load_embedders)
    log.info("embedders loaded", model=embedders[0].model_id, sessions=len(embedders))
    audiobooks = Audiobooks(
        jobs,
        partial(WhisperTranscriber, settings.whisper_model_dir),
        covers=own.covers,
        joined=own.joined,
    )
    service = IngestService(
        broker,
        store,
        embedders,
        settings.narration_wpm,
        control=JobControl(jobs),
        audiobooks=audiobooks,
        uploads=uploads,
        media=media,
        after_interim=after_interim,
        own=own,
        vector_cache=settings.vector_cache_dir,
    )
    await serve_requests(broker, subjects.INGEST_BOOK, "ingest", IngestBook, service.ingest)
    await serve_requests(broker, subjects.INGEST_JOBS, "ingest", JobsRequest, service.jobs)
    await serve_requests(broker, subjects.INGEST_CANCEL, "ingest", CancelJob, service.cancel)
    await serve_requests(broker, subjects.INGEST_REMOVE, "ingest", RemoveBook, service.remove)
    await serve_requests(broker, subjects.INGEST_UPLOADED, "ingest", AddUploadedBook, service.add_uploaded)
    await serve_requests(broker, subjects.INGEST_CHECK_UPLOAD, "ingest", UploadNames, service.check_upload)
    resuming = asyncio.create_task(service.resume_unfinished())

    async def close() -> None:
        await cancel_and_wait(resuming)
        await service.stop_started()

    return close


async def serve(settings: Settings) -> None:
    await run_bus_service("ingest", settings, register)
