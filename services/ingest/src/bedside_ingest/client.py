"""Talking to the ingest service (and waiting for search) from outside it: the CLI, first start."""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bedside_contracts import subjects
from bedside_contracts.common import Health, HealthCheck
from bedside_contracts.ingest import (
    UNFINISHED,
    BookIngested,
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
from bedside_runtime.errors import CallFailed, NoAnswer, NoService, RemoteFailure
from bedside_runtime.health import check
from bedside_runtime.tasks import cancel_and_wait
from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js.errors import NotFoundError

from bedside_ingest.fingerprint import made_from as file_made_from
from bedside_ingest.given import timed_by_its_recording
from bedside_ingest.identity import book_id_for, known_to_be_another, replaces_another

INGEST_TIMEOUT_S = 6 * 3600.0
"""A long book takes tens of seconds to embed on two cores, a long recording tens of minutes to
transcribe; the request waits for all of it (the job goes on in the service if the caller leaves)."""
ASKS = 3
"""How often a book is asked for when the ingest service restarts before it answers."""
RESTART_WATCH_S = 5.0
BACK_ON_THE_BUS_S = 15.0
"""How long, from the first ask, a request no copy took is asked again when the connection has been
through a restart of the bus (the services may still be subscribing again); past it, or with no
restart, it is told as the service not running."""
BACK_ON_THE_BUS_POLL_S = 0.5
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

    def ask() -> asyncio.Task[IngestReport]:
        return asyncio.create_task(
            call(client, subjects.INGEST_BOOK, request, IngestReport, timeout_s=timeout_s)
        )

    asking: list[asyncio.Task[IngestReport]] = []
    try:
        restarts = 0
        back_by = time.monotonic() + BACK_ON_THE_BUS_S
        asking.append(ask())
        while restarts < ASKS:
            # after the ask: the task asking has sent it by the time the watchers first run
            restarted = asyncio.create_task(until_ingest_restarts(client))
            lost = asyncio.create_task(until_ask_lost(client, request))
            await asyncio.wait({*asking, restarted, lost}, return_when=asyncio.FIRST_COMPLETED)
            await cancel_and_wait(restarted, lost)
            if answered := next((task for task in asking if task.done()), None):
                asking.remove(answered)
                try:
                    return answered.result()
                except CallFailed as failed:
                    if asking:  # an ask lost with the bus, ended: the one asked again is still out
                        continue
                    # No copy took it: after a restart of the bus the service may still be subscribing
                    # again, so it is asked again (a watcher started afresh, so a copy started since
                    # is not taken for one restarted under the request).
                    if not isinstance(failed, NoService):
                        raise
                    if not client.stats["reconnects"] or time.monotonic() >= back_by:
                        raise
                    await asyncio.sleep(BACK_ON_THE_BUS_POLL_S)
                    asking.append(ask())
                    continue
            if lost.done():
                # The same request again, the same job: the first ask's reply is still awaited, in case
                # it was only slow (a text book is read with no job to be known by).
                asking.append(ask())
                continue
            # No reply will come from the copy that took the request: asked again, once the job it
            # was (resumed by the copy started since) has ended; a text book, not a job, made nothing.
            await cancel_and_wait(*asking)
            asking = []
            restarts += 1
            if request.job is not None:
                await until_job_ends(client, request.job)
            asking.append(ask())
        raise NoAnswer(
            f"the ingest service restarted {ASKS} times while it made the book; see its log", "ingest"
        )
    finally:
        await cancel_and_wait(*asking)
        if subscription is not None:
            await subscription.drain()  # type: ignore[no-untyped-call]  # events may queue behind the reply


async def until_ask_lost(client: Client, request: IngestBook) -> None:
    """Returns once the bus has restarted under the ask (``client`` reconnected) and the ingest service,
    answering on it again, does not know the ask's job: the ask went down with the bus, unread, and no
    reply will come (the service stayed up, so ``until_ingest_restarts`` never returns). Looked at a
    poll after the reconnect is seen: an ask the client held while it was away is sent as it is back.
    Never returns for a request without a job: asked again, it would start a second one."""
    if request.job is None:
        await asyncio.Event().wait()
    reconnects = client.stats["reconnects"]
    seen = False
    while True:
        await asyncio.sleep(RESTART_WATCH_S)
        if client.stats["reconnects"] == reconnects:
            continue
        if not seen:
            seen = True
            continue
        known = await job_known(client, request.job or "")
        if known is False:
            return
        if known is True:
            reconnects, seen = client.stats["reconnects"], False


async def job_known(client: Client, job: str) -> bool | None:
    """Whether the ingest service knows ``job``; None when it does not answer (still subscribing)."""
    try:
        return bool(await list_jobs(client, job))
    except RemoteFailure as error:
        return False if error.code == "not_found" else None
    except CallFailed:
        return None


async def until_ingest_restarts(client: Client) -> None:
    """Returns once an ingest service answers that started after the request just sent on ``client``
    reached the bus: a copy that subscribed while it was on its way took it, though it started after
    it was sent."""
    asked_at = time.monotonic()
    if await _passed_on_after(client):
        asked_at = time.monotonic()
    while True:
        await asyncio.sleep(RESTART_WATCH_S)
        # Read before the check goes out: the copy reads its uptime on the way, so the time its answer
        # takes to come back (long on a loaded machine) would count as the copy having started later.
        since_asked_s = time.monotonic() - asked_at
        health = await check(client, "ingest")
        if health is not None and health.uptime_s < since_asked_s:
            return


async def _passed_on_after(client: Client) -> bool:
    """Whether the bus has passed on a health check sent after what ``client`` sent before it (the bus
    passes on one connection's messages in order); False when it did not answer in time."""
    try:
        health = subjects.HEALTH.format(service="ingest")
        await call(client, health, HealthCheck(), Health, timeout_s=RESTART_WATCH_S)
    except NoAnswer:
        return False
    except CallFailed:  # none subscribed, or a failure: the bus has passed it on all the same
        return True
    return True


async def until_job_ends(client: Client, job: str) -> None:
    """Returns once ``job`` has ended, or is no job the service knows (a text book's id for its progress)."""
    while True:
        try:
            jobs = await list_jobs(client, job)
        except RemoteFailure as error:
            if error.code == "not_found":
                return
        except CallFailed:  # the service still starting
            pass
        else:
            if not jobs or jobs[0].state not in UNFINISHED:
                return
        await asyncio.sleep(RESTART_WATCH_S)


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


@dataclass(frozen=True)
class Replaced:
    """A book an ingest under an id asked for would replace, as the CLI says it before it asks."""

    book: str
    title: str
    listeners: int | None
    """Listeners with a place in it, by the player's stream; None when it could not be read."""
    file_known: bool
    """Whether it is known to be made from another file (``identity.known_to_be_another``)."""


async def book_replaced(client: Client, request: IngestBook) -> Replaced | None:
    """The book, made from another file, that ``request``'s id asked for would replace (the service
    refuses the same unless ``replace`` is asked, ``identity.replaces_another``); None when there is
    none. A book being made by a job and announced nothing yet is left to the service's refusal."""
    if request.book is None:
        return None
    try:
        newest = await client.jetstream().get_last_msg(
            subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=request.book)
        )
    except NotFoundError:
        return None
    held = BookIngested.model_validate_json(newest.data or b"")
    made_from = await asyncio.to_thread(file_made_from, Path(timed_by_its_recording(request).path))
    its_name = request.book == book_id_for(Path(request.path))
    if not replaces_another([held.made_from], made_from, its_name=its_name):
        return None
    return Replaced(
        book=request.book,
        title=held.title,
        listeners=await listeners_in(client, request.book),
        file_known=known_to_be_another([held.made_from], made_from, its_name=its_name),
    )


async def listeners_in(client: Client, book: str) -> int | None:
    """How many listeners have a place in ``book``: each has events on a subject of their own in the
    player's stream, which the stream counts without reading them. None when it cannot be asked (a
    deployment's user without the right, or no player ever started)."""
    events = subjects.PLAYER_EVENTS.format(partition="*", listener="*", book=book)
    try:
        info = await client.jetstream().stream_info(subjects.PLAYER_STREAM, subjects_filter=events)
    except (TimeoutError, NatsError):
        return None
    return len({subject.split(".")[2] for subject in info.state.subjects or {}})


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
