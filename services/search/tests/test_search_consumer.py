"""Indexing from BookIngested over JetStream: the stream may come late, BookReady follows,
a repeat is a no-op, a bad event goes to the dead letters. A real nats-server of its own."""

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookIngested, BookReady
from bedside_contracts.search import CatalogRequest, FindPassage
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_search import consumer
from bedside_search.consumer import DURABLE, consume_books, stop_if_cancelled
from bedside_search.engine import SearchEngine
from bedside_search.main import Readiness
from bedside_search.open_store import open_store
from bedside_search.server_store import ServerStore
from bedside_search_testing import chapters_of, small_passages
from bedside_testing import start_test_nats
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, StreamConfig
from nats.js.errors import NotFoundError


@pytest.fixture
async def client() -> AsyncIterator[Client]:
    server = start_test_nats("search-consumer")
    connection = await nats.connect(server.url)
    yield connection
    await connection.close()
    server.stop()


async def small_book_stored(js: JetStreamContext) -> tuple[BookArtifact, BookIngested]:
    """The books stream and the artifacts bucket declared, the small book's artifact put in it,
    and the event that announces it (not published)."""
    await js.add_stream(StreamConfig(name=subjects.BOOKS_STREAM, subjects=[subjects.BOOKS_SUBJECTS]))
    bucket = await js.create_object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    passages = small_passages()
    artifact = artifact_of("small", "The Harbour Lamps", passages, chapters_of(passages), load_minilm())
    name = f"small/{artifact.version}.json"
    await bucket.put(name, artifact.model_dump_json().encode())
    return artifact, BookIngested(
        book="small", version=artifact.version, object_name=name, title=artifact.title
    )


def never_done_indexing(engine: SearchEngine) -> asyncio.Event:
    """``engine`` made to index for ever; the event is set once it has begun."""
    began = asyncio.Event()

    async def for_ever(artifact: BookArtifact) -> BookReady:
        began.set()
        await asyncio.Event().wait()
        raise AssertionError("never reached")

    engine.index = for_ever  # type: ignore[method-assign]
    return began


async def until_indexed(engine: SearchEngine, book: str, within_s: float) -> None:
    """Waits until ``engine`` serves ``book``, for ``within_s`` at most (the test's assertion says if not)."""
    for _ in range(round(within_s * 10)):
        if book in engine.books:
            return
        await asyncio.sleep(0.1)


@contextlib.asynccontextmanager
async def consuming(client: Client, engine: SearchEngine) -> AsyncIterator[None]:
    """``engine`` indexing from the books stream while inside, its consumer stopped on leaving."""
    consumer = asyncio.create_task(consume_books(client, engine, retry_s=0.1))
    try:
        yield
    finally:
        consumer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await consumer


async def test_books_are_indexed_from_the_stream_once_it_exists(client: Client, tmp_path: Path) -> None:
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    js = client.jetstream()
    ready_messages: asyncio.Queue[BookReady] = asyncio.Queue()
    dead: asyncio.Queue[bytes] = asyncio.Queue()

    async def on_dead(msg: Msg) -> None:
        await dead.put(msg.data)

    async def on_ready(msg: Msg) -> None:
        await ready_messages.put(BookReady.model_validate_json(msg.data))

    await client.subscribe(subjects.DEAD_LETTER.format(service="search"), cb=on_dead)
    try:
        async with consuming(client, engine):
            await asyncio.sleep(0.3)  # the consumer is waiting for a stream nobody has declared yet
            artifact, event = await small_book_stored(js)
            await client.subscribe(subjects.BOOK_READY.format(book="*"), cb=on_ready)
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            ready = await asyncio.wait_for(ready_messages.get(), timeout=60)
            assert ready == BookReady(book="small", version=artifact.version, passages=12)
            assert engine.book("small").version == artifact.version

            await js.publish(subjects.BOOK_INGESTED.format(book="small"), b'{"book": "small"}')
            assert await asyncio.wait_for(dead.get(), timeout=30) == b'{"book": "small"}'

            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            again = await asyncio.wait_for(ready_messages.get(), timeout=60)
            assert again == ready
            # Announced again, said ready again (``bedside ingest`` waits for it); the id of each
            # BookReady names its announcement, so only a redelivery of one is deduplicated. The
            # catch-up may have said the first announcement ready before the durable consumer
            # did: that second saying is deduplicated by the stream but still reaches ``on_ready``,
            # so the message above may be it, and the stream is read until the third is said.
            for _ in range(100):
                stream_ready = await js.get_last_msg(
                    subjects.BOOKS_STREAM, subjects.BOOK_READY.format(book="small")
                )
                if stream_ready.seq == 5:
                    break
                await asyncio.sleep(0.05)
            assert stream_ready.seq == 5
            info = await js.stream_info(subjects.BOOKS_STREAM)
            assert info.state.messages == 5  # 3 ingested events and two BookReady
            # BookReady goes out before the ack, so the ack may still be on its way
            for _ in range(100):
                consumer_info = await js.consumer_info(subjects.BOOKS_STREAM, "search-indexer")
                if consumer_info.num_ack_pending == 0:
                    break
                await asyncio.sleep(0.05)
            assert consumer_info.num_ack_pending == 0

            await a_fresh_store_catches_up(client, tmp_path, artifact.version)
    finally:
        await store.close()


async def a_fresh_store_catches_up(client: Client, tmp_path: Path, version: str) -> None:
    """A search whose store was lost still serves the newest version: the stream is the record,
    though the durable consumer acked every message long ago."""
    store = await open_store(path=tmp_path / "fresh")
    fresh = SearchEngine(store, load_minilm())
    try:
        async with consuming(client, fresh):
            for _ in range(600):
                if "small" in fresh.books:
                    break
                await asyncio.sleep(0.1)
            assert fresh.book("small").version == version
    finally:
        await store.close()


async def test_a_withdrawn_book_is_served_no_more_even_by_a_search_that_was_away(
    client: Client, tmp_path: Path
) -> None:
    """ingest withdraws the interim version of a job that failed (adr/0032): the consumer drops the
    book, and a search that was stopped meanwhile drops it when it catches up from the stream."""
    js = client.jetstream()
    artifact, event = await small_book_stored(js)
    withdrawn = event.model_copy(update={"withdrawn": True}).model_dump_json().encode()
    await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())

    async def served(engine: SearchEngine, wanted: bool) -> bool:
        for _ in range(600):
            if ("small" in engine.books) == wanted:
                break
            await asyncio.sleep(0.05)
        return "small" in engine.books

    away_store = await open_store(path=tmp_path / "away")
    away = SearchEngine(away_store, load_minilm())
    await away.index(artifact)
    await away_store.close()

    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    try:
        async with consuming(client, engine):
            assert await served(engine, True)
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), withdrawn)
            assert not await served(engine, False)
            assert engine.catalog(CatalogRequest()).books == []
    finally:
        await store.close()

    back_store = await open_store(path=tmp_path / "away")
    back = SearchEngine(back_store, load_minilm())
    await back.restore()
    assert "small" in back.books  # its store still names the book
    try:
        async with consuming(client, back):
            assert not await served(back, False)
            assert [entry.info.id for entry in await back_store.catalog()] == []
    finally:
        await back_store.close()


async def test_a_cancel_swallowed_inside_a_fetch_still_stops_the_consumer() -> None:
    """What Python 3.11's wait_for can do inside nats-py's fetch: the CancelledError never
    reaches the loop, but the task still counts the request, and the loop's check stops it."""

    async def loop_that_lost_its_cancel() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(10)
        stop_if_cancelled()

    task = asyncio.create_task(loop_that_lost_its_cancel())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_catalog_entry_stored_before_it_said_what_its_times_came_from_learns_it_at_start(
    client: Client, tmp_path: Path
) -> None:
    """A transcribed recording indexed by an earlier search, whose catalog entry and artifact were
    stored before either named ``times_from``: it is read from the artifact's source at start, and
    the book is not indexed again."""
    js = client.jetstream()
    await js.add_stream(StreamConfig(name=subjects.BOOKS_STREAM, subjects=[subjects.BOOKS_SUBJECTS]))
    bucket = await js.create_object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    passages = small_passages()
    made = artifact_of("small", "The Harbour Lamps", passages, chapters_of(passages), load_minilm())
    stored = made.model_dump(mode="json", exclude={"times_from"})
    old = BookArtifact.model_validate(
        {**stored, "source": "audio: harbour.m4b (tiny.en)", "estimated": False}
    )
    assert old.times_from == "transcription"
    name = f"small/{old.version}"
    await bucket.put(name, json.dumps({**stored, "source": old.source, "estimated": False}).encode())
    event = BookIngested(book="small", version=old.version, object_name=name, title=old.title)
    await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())

    store = await open_store(path=tmp_path / "q")
    earlier = SearchEngine(store, load_minilm())
    await earlier.index(old)
    served = earlier.book("small")
    await store.make_current(served.info.model_copy(update={"times_from": None}), served.collection)
    await store.close()

    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    await engine.restore()
    assert engine.book("small").info.times_from is None  # as an entry stored back then reads
    consumer = asyncio.create_task(consume_books(client, engine, retry_s=0.1))
    try:
        for _ in range(600):
            if engine.book("small").info.times_from is not None:
                break
            await asyncio.sleep(0.05)
        assert engine.catalog(CatalogRequest()).books[0].times_from == "transcription"
        assert engine.book("small").collection == served.collection  # not indexed again
        assert [entry.info.times_from for entry in await store.catalog()] == ["transcription"]
    finally:
        consumer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await consumer
        await store.close()


@pytest.mark.parametrize("failures", [1, 2])
async def test_a_book_whose_indexing_fails_is_tried_again_until_it_is_indexed(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failures: int
) -> None:
    """A review: a full disk while indexing ended the consumer for good, health still ready, and no
    book announced after it was ever indexed. A second review: once the last delivery failed too (a
    disk full for minutes; two deliveries here), the stream delivered the announcement no more,
    nothing said so, and the book waited for a restart: it is dead-lettered and caught up later."""
    monkeypatch.setattr(consumer, "MAX_DELIVER", 2)
    monkeypatch.setattr(consumer, "RETRY_LATER_S", 0.1)
    # failing once, the redelivery indexes it; failing on both, only a catch-up can
    monkeypatch.setattr(consumer, "CATCH_UP_EVERY_S", 1.0 if failures == consumer.MAX_DELIVER else 600.0)
    js = client.jetstream()
    _artifact, event = await small_book_stored(js)
    dead: list[Msg] = []

    async def on_dead(message: Msg) -> None:
        dead.append(message)

    await client.subscribe(subjects.DEAD_LETTER.format(service="search"), cb=on_dead)
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    indexing = engine.index
    tries: list[str] = []

    async def disk_full_at_first(artifact: BookArtifact) -> BookReady:
        tries.append(artifact.book)
        # Failing on every delivery, the disk stays full until the stream gives up: a catch-up run
        # while a slow machine held the second delivery back would otherwise index the book first.
        if (not dead) if failures == consumer.MAX_DELIVER else len(tries) <= failures:
            raise OSError(28, "No space left on device")
        return await indexing(artifact)

    engine.index = disk_full_at_first  # type: ignore[method-assign]
    try:
        async with consuming(client, engine):
            await asyncio.sleep(0.5)  # caught up on an empty stream: the consumer is fetching
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            await until_indexed(engine, "small", within_s=10)
            assert "small" in engine.books, tries
        given_up = [subjects.BOOK_INGESTED.format(book="small")] if failures == consumer.MAX_DELIVER else []
        assert [m.headers and m.headers.get("Bedside-Subject") for m in dead] == given_up
    finally:
        await store.close()


async def test_a_catch_up_that_fails_leaves_the_consumer_indexing(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second review: the periodic catch-up ran unguarded in the consumer's loop, so one slow
    reply of the bus every five minutes ended indexing for good."""
    monkeypatch.setattr(consumer, "CATCH_UP_EVERY_S", 0.2)
    catching_up = consumer.catch_up
    calls: list[int] = []

    async def slow_bus_after_start(js: JetStreamContext, engine: SearchEngine) -> None:
        calls.append(1)
        if len(calls) > 1:
            raise NatsTimeout
        await catching_up(js, engine)

    monkeypatch.setattr(consumer, "catch_up", slow_bus_after_start)
    js = client.jetstream()
    _artifact, event = await small_book_stored(js)
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    try:
        async with consuming(client, engine):
            for _ in range(50):
                if len(calls) > 1:
                    break
                await asyncio.sleep(0.1)
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            await until_indexed(engine, "small", within_s=10)
            assert len(calls) > 1
            assert "small" in engine.books
    finally:
        await store.close()


@pytest.mark.parametrize("slow_step", ["bring_the_consumer_up_to_date", "catch_up"])
async def test_a_bus_slow_to_answer_as_search_starts_leaves_the_consumer_indexing(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slow_step: str
) -> None:
    """CI under load: a JetStream request of the consumer's start met nats-py's 5 s timeout, the
    consumer ended, and no book announced after it was indexed (the growing-transcript test waited
    300 s for a BookReady that never came)."""
    monkeypatch.setattr(consumer, "RETRY_LATER_S", 0.1)
    step = getattr(consumer, slow_step)
    calls: list[int] = []

    async def slow_bus_at_first(js: JetStreamContext, *rest: object) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise NatsTimeout
        await step(js, *rest)

    monkeypatch.setattr(consumer, slow_step, slow_bus_at_first)
    js = client.jetstream()
    _artifact, event = await small_book_stored(js)
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    try:
        async with consuming(client, engine):
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            await until_indexed(engine, "small", within_s=60)
            assert calls
            assert "small" in engine.books
    finally:
        await store.close()


async def test_a_book_being_indexed_when_search_stops_is_indexed_at_once_by_the_next_start(
    client: Client, tmp_path: Path
) -> None:
    """An ingest review: `bedside up` stopped while a book was being indexed left its announcement
    unacked, the one in hand (`max_ack_pending=1`), and after the restart nothing was indexed for
    five minutes (`ACK_WAIT_S`), every finished book told "Ready" and not searchable."""
    js = client.jetstream()
    _artifact, event = await small_book_stored(js)
    store = await open_store(path=tmp_path / "q")
    stopped = SearchEngine(store, load_minilm())
    began = never_done_indexing(stopped)  # as long as it takes: search stops first
    try:
        async with consuming(client, stopped):
            await asyncio.sleep(0.5)
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            await asyncio.wait_for(began.wait(), 10)
        started_again = SearchEngine(store, load_minilm())
        async with consuming(client, started_again):
            await asyncio.sleep(0.5)  # caught up (the stopped book among them): fetching
            passages = small_passages()
            other = artifact_of("other", "Another Book", passages, chapters_of(passages), load_minilm())
            bucket = await js.object_store(subjects.BOOK_ARTIFACTS_BUCKET)
            await bucket.put("other.json", other.model_dump_json().encode())
            announced = BookIngested(
                book="other", version=other.version, object_name="other.json", title="Another"
            )
            await js.publish(
                subjects.BOOK_INGESTED.format(book="other"), announced.model_dump_json().encode()
            )
            for _ in range(100):
                if "other" in started_again.books:
                    break
                await asyncio.sleep(0.1)
            assert "other" in started_again.books  # a book finished after the restart, not 5 minutes on
    finally:
        await store.close()


async def test_health_says_not_ready_once_the_consumer_has_stopped(tmp_path: Path) -> None:
    store = await open_store(path=tmp_path / "q")
    readiness = Readiness()
    readiness.engine = SearchEngine(store, load_minilm())

    async def stops() -> None:
        raise ConnectionError("the bus went away")

    readiness.consumer = asyncio.create_task(stops())
    with contextlib.suppress(ConnectionError):
        await readiness.consumer
    try:
        assert not readiness.ready()
        assert "indexing stopped" in readiness.detail()
    finally:
        await store.close()


async def test_an_announcement_a_newer_one_replaced_is_never_served(client: Client, tmp_path: Path) -> None:
    """Started with v1, v2 and a withdrawal on the stream, search caught up (nothing to serve),
    then its consumer served v1 and v2 again, each for a while, announcing each ready (a review)."""
    js = client.jetstream()
    artifact, first = await small_book_stored(js)
    bucket = await js.object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    edited = artifact.model_copy(update={"version": "edited01", "title": "The Harbour Lamps, edited"})
    await bucket.put("small/edited.json", edited.model_dump_json().encode())
    second = first.model_copy(update={"version": "edited01", "object_name": "small/edited.json"})
    for event in (first, second, second.model_copy(update={"withdrawn": True})):
        await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    served: list[str | None] = []

    async def watch() -> None:
        while True:
            book = engine.books.get("small")
            now = book.version if book is not None else None
            if not served or served[-1] != now:
                served.append(now)
            await asyncio.sleep(0.005)

    watching = asyncio.create_task(watch())
    try:
        async with consuming(client, engine):
            for _ in range(100):
                await asyncio.sleep(0.1)
                with contextlib.suppress(NotFoundError):  # not made yet
                    info = await js.consumer_info(subjects.BOOKS_STREAM, "search-indexer")
                    if info.num_pending == 0 and info.num_ack_pending == 0:
                        break
            await asyncio.sleep(0.3)
        assert served == [None]
    finally:
        watching.cancel()
        await store.close()


async def test_copies_sharing_one_store_each_serve_what_another_indexed_or_withdrew(
    client: Client, tmp_path: Path
) -> None:
    """Two search copies share one Qdrant server and one durable consumer (deploy/SCALING.md), so
    each book is indexed by one copy: the other answered "no book 'small'", and after a new version
    still searched the old one's dropped collection (a review)."""
    js = client.jetstream()
    artifact, event = await small_book_stored(js)
    shared = await ServerStore.open(path=str(tmp_path / "qdrant-server"))
    first, second = SearchEngine(shared, load_minilm()), SearchEngine(shared, load_minilm())

    async def all_serve(version: str | None) -> bool:
        for _ in range(300):
            served = [copy.books.get("small") for copy in (first, second)]
            if all((book.version if book else None) == version for book in served):
                return True
            await asyncio.sleep(0.05)
        return False

    try:
        async with consuming(client, first), consuming(client, second):
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            assert await all_serve(artifact.version)
            # one announcement in hand at a time, across the copies: never two versions indexed at once
            assert (
                await js.consumer_info(subjects.BOOKS_STREAM, "search-indexer")
            ).config.max_ack_pending == 1
            bucket = await js.object_store(subjects.BOOK_ARTIFACTS_BUCKET)
            edited = artifact.model_copy(update={"version": "edited01"})
            await bucket.put("small/edited.json", edited.model_dump_json().encode())
            newer = event.model_copy(update={"version": "edited01", "object_name": "small/edited.json"})
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), newer.model_dump_json().encode())
            assert await all_serve("edited01")
            for copy in (first, second):
                assert (await copy.find(FindPassage(book="small", here_ms=0, query="the amber lamp"))).hits
            withdrawn = newer.model_copy(update={"withdrawn": True})
            await js.publish(
                subjects.BOOK_INGESTED.format(book="small"), withdrawn.model_dump_json().encode()
            )
            assert await all_serve(None)
            for _ in range(300):  # and the copy that took the withdrawal dropped it from the store
                if not await shared.catalog():
                    break
                await asyncio.sleep(0.05)
            assert await shared.catalog() == []
    finally:
        await shared.close()


async def test_a_book_that_cannot_be_announced_ready_is_tried_again_and_the_consumer_goes_on(
    client: Client, tmp_path: Path
) -> None:
    """books.ready could not be published (a bus timing out): the consumer ended for good, and
    nothing said why (a review)."""
    js = client.jetstream()
    await js.add_stream(StreamConfig(name=subjects.BOOKS_STREAM, subjects=["books.ingested.>"]))
    bucket = await js.create_object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    passages = small_passages()
    artifact = artifact_of("small", "The Harbour Lamps", passages, chapters_of(passages), load_minilm())
    await bucket.put("small/a.json", artifact.model_dump_json().encode())
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    consumer = asyncio.create_task(consume_books(client, engine, retry_s=0.1))
    try:
        await asyncio.sleep(0.5)
        event = BookIngested(book="small", version=artifact.version, object_name="small/a.json", title="T")
        await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
        await until_indexed(engine, "small", within_s=10)
        for _ in range(150):  # its announcement times out, and it is delivered again
            info = await js.consumer_info(subjects.BOOKS_STREAM, "search-indexer")
            if consumer.done() or info.num_redelivered:
                break
            await asyncio.sleep(0.1)
        assert not consumer.done(), consumer.exception()
        assert info.num_redelivered == 1
    finally:
        consumer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await consumer
        await store.close()


async def test_a_book_indexed_for_longer_than_the_ack_wait_stays_in_this_copys_hand(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ack wait is short, so that a copy killed mid-way (nothing given back) holds up the books
    after it for seconds, not five minutes (a chaos session); a copy still working says so, and no
    other copy takes the same book meanwhile (two indexing one book could leave the older current)."""
    monkeypatch.setattr(consumer, "ACK_WAIT_S", 1.0)
    js = client.jetstream()
    _artifact, event = await small_book_stored(js)
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    indexing = engine.index
    began = asyncio.Event()

    async def slowly(artifact: BookArtifact) -> BookReady:
        began.set()
        await asyncio.sleep(3.5)
        return await indexing(artifact)

    engine.index = slowly  # type: ignore[method-assign]
    try:
        async with consuming(client, engine):
            await asyncio.sleep(0.5)
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            await asyncio.wait_for(began.wait(), 10)
            other_copy = await js.pull_subscribe_bind(DURABLE, stream=subjects.BOOKS_STREAM)
            with pytest.raises(NatsTimeout):  # handed nothing while the book is indexed
                await other_copy.fetch(1, timeout=3)
            await other_copy.unsubscribe()
            await until_indexed(engine, "small", within_s=10)
            assert "small" in engine.books
    finally:
        await store.close()


async def test_a_consumer_made_by_an_older_version_takes_the_ack_wait_of_this_one(
    client: Client, tmp_path: Path
) -> None:
    js = client.jetstream()
    await small_book_stored(js)
    older = ConsumerConfig(
        durable_name=DURABLE,
        filter_subject=subjects.BOOK_INGESTED.format(book="*"),
        ack_policy=AckPolicy.EXPLICIT,
        ack_wait=600,
        max_ack_pending=1,
    )
    await js.add_consumer(subjects.BOOKS_STREAM, older)
    store = await open_store(path=tmp_path / "q")
    try:
        async with consuming(client, SearchEngine(store, load_minilm())):
            await asyncio.sleep(0.5)
            info = await js.consumer_info(subjects.BOOKS_STREAM, DURABLE)
            assert info.config.ack_wait == consumer.ACK_WAIT_S
    finally:
        await store.close()


async def test_a_copy_stuck_on_a_book_lets_it_go_to_another(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review: saying "still working" for as long as a copy is stuck (a store call that never
    returns) held the one announcement in hand for good, where the ack wait let it go before."""
    monkeypatch.setattr(consumer, "ACK_WAIT_S", 1.0)
    monkeypatch.setattr(consumer, "LONGEST_INDEXING_S", 2.0)
    js = client.jetstream()
    _artifact, event = await small_book_stored(js)
    store = await open_store(path=tmp_path / "q")
    stuck = SearchEngine(store, load_minilm())
    began = never_done_indexing(stuck)
    try:
        async with consuming(client, stuck):
            await asyncio.sleep(0.5)
            await js.publish(subjects.BOOK_INGESTED.format(book="small"), event.model_dump_json().encode())
            await asyncio.wait_for(began.wait(), 10)
            other_copy = await js.pull_subscribe_bind(DURABLE, stream=subjects.BOOKS_STREAM)
            (taken,) = await other_copy.fetch(1, timeout=10)
            assert taken.subject == subjects.BOOK_INGESTED.format(book="small")
            await taken.ack()
            await other_copy.unsubscribe()
    finally:
        await store.close()
