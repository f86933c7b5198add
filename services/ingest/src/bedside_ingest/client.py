"""Talking to the ingest service (and waiting for search) from outside it: the CLI, first start."""

import asyncio
import time
from collections.abc import Callable

from bedside_contracts import subjects
from bedside_contracts.ingest import (
    BookReady,
    BookRemoved,
    CancelJob,
    IngestBook,
    IngestJob,
    IngestProgress,
    IngestReport,
    JobList,
    JobsRequest,
    RemoveBook,
)
from bedside_contracts.search import Catalog, CatalogRequest
from bedside_runtime.bus import DEFAULT_TIMEOUT_S, call
from bedside_runtime.errors import RemoteFailure
from nats.aio.client import Client
from nats.js.errors import NotFoundError

INGEST_TIMEOUT_S = 6 * 3600.0
"""A long book takes tens of seconds to embed on two cores, a long recording tens of minutes to
transcribe; the request waits for all of it (the job goes on in the service if the caller leaves)."""
READY_POLL_S = 0.25
DELETING_TIMEOUT_S = 600.0
"""A removal that deletes files reads every stored version of the library, one at a time."""


async def request_ingest(
    client: Client,
    request: IngestBook,
    on_progress: Callable[[IngestProgress], None] | None = None,
    timeout_s: float = INGEST_TIMEOUT_S,
) -> IngestReport:
    """Ask ingest for a book; progress events of the request's job go to ``on_progress``.

    Failures raise the ``CallFailed`` family of ``bedside_runtime.bus.call``.
    """
    subscription = None
    if request.job is not None and on_progress is not None:

        async def forward(message: object) -> None:
            data: bytes = getattr(message, "data", b"")
            on_progress(IngestProgress.model_validate_json(data))

        subscription = await client.subscribe(subjects.INGEST_PROGRESS.format(job=request.job), cb=forward)
    try:
        return await call(client, subjects.INGEST_BOOK, request, IngestReport, timeout_s=timeout_s)
    finally:
        if subscription is not None:
            await subscription.drain()  # type: ignore[no-untyped-call]  # events may queue behind the reply


async def list_jobs(client: Client, job: str | None = None) -> list[IngestJob]:
    """The ingest service's audiobook jobs (unfinished first), or the one named."""
    return (await call(client, subjects.INGEST_JOBS, JobsRequest(job=job), JobList)).jobs


async def cancel_job(client: Client, job: str) -> IngestJob:
    return await call(client, subjects.INGEST_CANCEL, CancelJob(job=job), IngestJob)


async def submit_job(client: Client, request: IngestBook) -> None:
    """Hand a job to the ingest service without waiting for it (``bedside jobs`` follows it)."""
    await client.publish(subjects.INGEST_BOOK, request.model_dump_json().encode())
    await client.flush()


async def ready_version(client: Client, book: str) -> str | None:
    """The version of ``book`` search last announced ready, if any."""
    try:
        message = await client.jetstream().get_last_msg(
            subjects.BOOKS_STREAM, subjects.BOOK_READY.format(book=book)
        )
    except NotFoundError:
        return None
    return BookReady.model_validate_json(message.data or b"").version


async def wait_until_ready(client: Client, book: str, version: str, timeout_s: float) -> bool:
    """Whether search announces ``version`` of ``book`` ready within ``timeout_s``.

    BookReady events stay in the BOOKS stream, so a book indexed before the wait began
    counts too.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        if await ready_version(client, book) == version:
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(READY_POLL_S)


async def catalog_has(client: Client, book: str, timeout_s: float = 5.0) -> bool:
    """Whether search's catalog lists ``book``; raises ``CallFailed`` when search does not answer."""
    try:
        catalog = await call(
            client, subjects.SEARCH_CATALOG, CatalogRequest(book=book), Catalog, timeout_s=timeout_s
        )
    except RemoteFailure:
        return False  # "no such book" is the answer we asked for
    return any(info.id == book for info in catalog.books)


async def remove_book(client: Client, request: RemoveBook, timeout_s: float) -> tuple[BookRemoved, bool]:
    """Ask ingest to serve a book no more; whether search had dropped it within ``timeout_s``."""
    asked_s = DELETING_TIMEOUT_S if request.delete_files else DEFAULT_TIMEOUT_S
    removed = await call(client, subjects.INGEST_REMOVE, request, BookRemoved, timeout_s=asked_s)
    deadline = time.monotonic() + timeout_s
    while await catalog_has(client, request.book):
        if time.monotonic() >= deadline:
            return removed, False
        await asyncio.sleep(READY_POLL_S)
    return removed, True
