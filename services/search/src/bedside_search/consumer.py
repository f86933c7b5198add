"""Indexing books as ingest announces them: a durable JetStream consumer on BOOKS.

Ingest owns (declares) the BOOKS stream and the artifact bucket; search may start first,
so it retries until the stream exists. Each BookIngested is acked only after its book is
indexed and BookReady is published (with a Nats-Msg-Id, so a redelivery re-announces
nothing new). A message that can never be used goes to the dead-letter subject and is
terminated; a passing failure (the bucket not there yet, a full disk) is retried later, and one that
fails on every delivery is dead-lettered too and left to the next catch-up, which runs at start and
every few minutes after.
"""

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

import structlog
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookIngested, BookReady
from bedside_runtime.errors import InvalidRequest
from bedside_runtime.tasks import cancel_and_wait
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.client import JetStreamContext
from nats.js.errors import APIError, NotFoundError, ObjectNotFoundError
from pydantic import ValidationError

from bedside_search.engine import SearchEngine

log = structlog.get_logger("bedside.search.consumer")

DURABLE = "search-indexer"
ACK_WAIT_S = 30.0
"""How long the announcement in hand stays a copy's without a word from it: one killed mid-way
holds up the books after it (``max_ack_pending=1``) this long; one still working says so every
third of it (``still_working``). Indexing takes far less (ADR 9)."""
LONGEST_INDEXING_S = 600.0
RETRY_S = 1.0
RETRY_LATER_S = 5.0
"""How long a message whose indexing failed waits before it is delivered again."""
MAX_DELIVER = 20
"""Deliveries of one announcement before it is given up on (about a minute and a half of failing)."""
CATCH_UP_EVERY_S = 300.0
"""How often the newest announcement of every book is checked against what is served: a book given up
on is indexed once what failed is put right, without a restart."""
FETCH_ARTIFACT_S = 120.0
"""Longer than reading the artifact of any book takes from a local bus (tens of megabytes)."""


async def consume_books(client: Client, engine: SearchEngine, retry_s: float = RETRY_S) -> None:
    """Run until cancelled: index every BookIngested on the BOOKS stream."""
    js = client.jetstream()
    subscription = None
    while subscription is None:
        try:
            await bring_the_consumer_up_to_date(js)
            subscription = await js.pull_subscribe_bind(DURABLE, stream=subjects.BOOKS_STREAM)
        except NotFoundError:
            log.info("waiting for the BOOKS stream", stream=subjects.BOOKS_STREAM)
            await asyncio.sleep(retry_s)
        except TimeoutError:  # the bus slow to answer (a loaded machine): asked again, indexing goes on
            log.warning("the bus did not answer in time; setting up the indexer's consumer again")
            await asyncio.sleep(retry_s)
    following = await follow_other_copies(client, engine)
    try:
        next_catch_up = await caught_up(js, engine)
        log.info("consuming BookIngested", durable=DURABLE)
        while True:
            stop_if_cancelled()
            if time.monotonic() >= next_catch_up:
                next_catch_up = await caught_up(js, engine)
            try:
                messages = await subscription.fetch(1, timeout=5)
            except NatsTimeout:
                continue
            for message in messages:
                await handle(js, client, engine, message)
    finally:
        # a pull subscription left open holds up the connection's drain at shutdown
        await subscription.unsubscribe()
        for followed in following:
            await followed.unsubscribe()


async def bring_the_consumer_up_to_date(js: JetStreamContext) -> None:
    """Make the indexer's consumer, or bring it up to this version's settings (bound by name, it keeps
    its own); one the server will not change is left as it is."""
    config = ConsumerConfig(
        name=DURABLE,
        durable_name=DURABLE,
        filter_subject=subjects.BOOK_INGESTED.format(book="*"),
        ack_policy=AckPolicy.EXPLICIT,
        ack_wait=ACK_WAIT_S,
        deliver_policy=DeliverPolicy.ALL,
        max_deliver=MAX_DELIVER,
        # one announcement in hand across all copies: two versions of a book indexed at once by two
        # copies could switch the shared catalog to the older one last
        max_ack_pending=1,
    )
    try:
        await js.add_consumer(subjects.BOOKS_STREAM, config)
    except NotFoundError:  # no stream yet
        raise
    except APIError as error:
        log.warning("the indexer's consumer was not brought up to date", error=str(error))


async def follow_other_copies(client: Client, engine: SearchEngine) -> list[Subscription]:
    """Every copy hears each book made ready or withdrawn, whichever copy took it from the durable
    consumer, and serves what the shared store then holds for it (``SearchEngine.follow``)."""

    async def on_ready(message: Msg) -> None:
        try:
            await engine.follow(BookReady.model_validate_json(message.data).book)
        except Exception:  # the next announcement, or a restart, serves the store's word again
            log.exception("could not follow another copy", subject=message.subject)

    async def on_ingested(message: Msg) -> None:
        try:
            event = BookIngested.model_validate_json(message.data)
        except ValidationError:
            return  # the durable consumer sends it to the dead letters
        if event.withdrawn:
            engine.serve_no_more(event.book)  # whichever copy drops it from the store

    return [
        await client.subscribe(subjects.BOOK_READY.format(book="*"), cb=on_ready),
        await client.subscribe(subjects.BOOK_INGESTED.format(book="*"), cb=on_ingested),
    ]


async def caught_up(js: JetStreamContext, engine: SearchEngine) -> float:
    """``catch_up``, and when to run it next: a run that failed (the bus slow to answer) is tried again
    soon, and indexing goes on meanwhile."""
    try:
        await catch_up(js, engine)
    except Exception:
        log.exception("could not catch up on the books")
        return time.monotonic() + RETRY_LATER_S
    return time.monotonic() + CATCH_UP_EVERY_S


def stop_if_cancelled() -> None:
    """nats-py waits for a fetched message under ``asyncio.wait_for``, which on Python 3.11 can
    swallow a cancel that lands as a message arrives; the task still counts the request, and
    without this check the loop would go on fetching for ever (a hung shutdown)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def catch_up(js: JetStreamContext, engine: SearchEngine) -> None:
    """Serve the newest announced version of every book, even one the durable consumer has
    already acked (a store that was lost or moved): the stream, not the store, is the record."""
    info = await js.stream_info(
        subjects.BOOKS_STREAM, subjects_filter=subjects.BOOK_INGESTED.format(book="*")
    )
    for subject in sorted(info.state.subjects or {}):
        try:
            newest = await js.get_last_msg(subjects.BOOKS_STREAM, subject)
            event = BookIngested.model_validate_json(newest.data or b"")
            served = engine.books.get(event.book)
            if event.withdrawn:
                await engine.withdraw(event.book)
            elif served is None or served.version != event.version:
                log.info("catching up", book=event.book, version=event.version)
                await publish_ready(js, await engine.index(await fetch_artifact(js, event)), newest.seq)
            elif served.info.times_from is None:
                await engine.record_times_from(await fetch_artifact(js, event))
        except (ValidationError, InvalidRequest, NotFoundError, ObjectNotFoundError) as error:
            log.warning("cannot catch up on a book", subject=subject, error=str(error))
        except Exception:  # one book's trouble leaves the others served and the consumer running
            log.exception("cannot catch up on a book", subject=subject)


@contextlib.asynccontextmanager
async def still_working(message: Msg) -> AsyncIterator[None]:
    """Tells the stream, every third of the ack wait, that ``message`` is being worked on, for at most
    ``LONGEST_INDEXING_S``: a copy stuck on it lets it go to another, as one that died does."""

    async def say_so() -> None:
        for _ in range(round(LONGEST_INDEXING_S / (ACK_WAIT_S / 3))):
            await asyncio.sleep(ACK_WAIT_S / 3)
            with contextlib.suppress(NatsError):
                await message.in_progress()
        log.error("indexing a book has taken too long; it is let go", subject=message.subject)

    saying = asyncio.create_task(say_so())
    try:
        yield
    finally:
        await cancel_and_wait(saying)


async def handle(js: JetStreamContext, client: Client, engine: SearchEngine, message: Msg) -> None:
    async with still_working(message):
        await _handle(js, client, engine, message)


async def _handle(js: JetStreamContext, client: Client, engine: SearchEngine, message: Msg) -> None:
    try:
        event = BookIngested.model_validate_json(message.data)  # junk is dead-lettered, replaced or not
        if await replaced(js, message):
            await message.ack()
            return
        if event.withdrawn:
            await engine.withdraw(event.book)
            await message.ack()
            return
        ready = await engine.index(await fetch_artifact(js, event))
        await publish_ready(js, ready, message.metadata.sequence.stream)
        await message.ack()
    except (ValidationError, InvalidRequest) as error:
        log.warning("unusable BookIngested", subject=message.subject, error=str(error))
        await dead_letter(client, message, str(error))
    except (NotFoundError, ObjectNotFoundError) as error:
        log.warning("artifact not there yet", subject=message.subject, error=str(error))
        await retry_later(client, message, f"the artifact was not there: {error}")
    except Exception as error:  # a full disk, a store or the bus timing out: tried again
        log.exception("indexing failed", subject=message.subject)
        await retry_later(client, message, f"indexing failed: {error!r}")
    except asyncio.CancelledError:
        # Stopped mid-way (a restart): given back now. Held unacked, it is the one announcement in
        # hand (max_ack_pending=1), and no book after it would be indexed for ACK_WAIT_S.
        with contextlib.suppress(Exception):
            await asyncio.shield(message.nak())
        raise


async def retry_later(client: Client, message: Msg, reason: str) -> None:
    """Deliver ``message`` again in a while, or, on its last delivery, give it up as a dead letter: the
    next catch-up indexes its book once what failed is put right."""
    if message.metadata.num_delivered < MAX_DELIVER:
        await message.nak(delay=RETRY_LATER_S)
        return
    log.error("announcement given up on; the next catch-up tries its book again", subject=message.subject)
    await dead_letter(client, message, f"failed on all {MAX_DELIVER} deliveries; last: {reason}")


async def dead_letter(client: Client, message: Msg, reason: str) -> None:
    await client.publish(
        subjects.DEAD_LETTER.format(service="search"),
        message.data,
        headers={"Bedside-Subject": message.subject, "Bedside-Reason": reason[:1000]},
    )
    await message.term()


async def replaced(js: JetStreamContext, message: Msg) -> bool:
    """Whether a newer announcement of the book is on the stream: catching up served that one
    already, and serving this one again would bring an old version, or a withdrawn book, back."""
    newest = await js.get_last_msg(subjects.BOOKS_STREAM, message.subject)
    return (newest.seq or 0) > message.metadata.sequence.stream


async def fetch_artifact(js: JetStreamContext, event: BookIngested) -> BookArtifact:
    bucket = await js.object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    # nats-py reads an object's chunks with no end in sight: an artifact deleted while it is read (an
    # interim version, once its whole book is announced) would hold the consumer for good.
    async with asyncio.timeout(FETCH_ARTIFACT_S):
        stored = await bucket.get(event.object_name)
    artifact = BookArtifact.model_validate_json(stored.data or b"")
    if artifact.book != event.book or artifact.version != event.version:
        raise InvalidRequest(
            f"object {event.object_name} holds {artifact.book} {artifact.version}, "
            f"the event announced {event.book} {event.version}"
        )
    return artifact


async def publish_ready(js: JetStreamContext, ready: BookReady, announced_seq: int | None) -> None:
    """Say ``ready`` once per announcement (``announced_seq``, its stream sequence): an announcement
    delivered again is not said twice, and a version announced again after another (going back to
    an edit, a removed book added again) is said again, which ``bedside ingest`` waits for."""
    await js.publish(
        subjects.BOOK_READY.format(book=ready.book),
        ready.model_dump_json().encode(),
        stream=subjects.BOOKS_STREAM,
        headers={"Nats-Msg-Id": f"ready-{ready.book}-{ready.version}-{announced_seq}"},
    )
