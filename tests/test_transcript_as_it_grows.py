"""Listening does not wait for the whole transcript (adr/0032): while an audiobook's later
chapters are still being transcribed, search serves an interim version of the chapters done,
reaches the others by chapter and time, and the whole book replaces it at the end.

Ingest and search run in this process on a nats-server of this module's own (on the session's
server, a job an earlier test left queued would be resumed here and held by the hook); ingest's
hook holds the job after the interim version of chapter 1 is announced, so chapter 2 is
certainly not transcribed while the test asks search (no timing is relied on).
"""

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import nats
import numpy as np
import pytest
from bedside_adding import bucket_objects
from bedside_audiobooks import Speech, need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts import subjects
from bedside_contracts.ingest import BookReady, IngestBook
from bedside_contracts.search import CatalogRequest, FindPassage, Resolve, Target, TranscriptCoverage
from bedside_ingest.client import request_ingest
from bedside_ingest.main import register
from bedside_player.routes.books import view
from bedside_runtime.bus import new_broker
from bedside_runtime.errors import RemoteFailure
from bedside_runtime.settings import Settings
from bedside_search.consumer import consume_books
from bedside_search.engine import SearchEngine
from bedside_search.main import open_engine
from bedside_testing import start_test_nats
from nats.aio.client import Client
from nats.aio.msg import Msg

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

BOOK = f"growing-{uuid.uuid4().hex[:8]}"
QUIET_BOOK = f"quiet-{uuid.uuid4().hex[:8]}"


@dataclass
class Held:
    """Ingest's hook: each interim version is handed to the test, and the job waits until the
    test lets it go on to the next chapter."""

    reached: asyncio.Queue[TranscriptCoverage]
    go_on: asyncio.Queue[None]

    async def __call__(self, book: str, coverage: TranscriptCoverage) -> None:
        await self.reached.put(coverage)
        await self.go_on.get()


@dataclass
class Running:
    client: Client
    engine: SearchEngine
    held: Held
    ready: asyncio.Queue[BookReady]
    nats_url: str
    consumer: asyncio.Task[None]


@pytest.fixture(scope="module")
def own_nats_url() -> Iterator[str]:
    server = start_test_nats("growing")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def running(own_nats_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    nats_url = own_nats_url
    held = Held(asyncio.Queue(), asyncio.Queue())
    ingest_settings = Settings(nats_url=nats_url, data_dir=tmp_path / "ingest")
    broker = new_broker(ingest_settings, "ingest")
    await broker.connect()
    close_ingest = await register(broker, ingest_settings, after_interim=held)
    engine = await open_engine(Settings(nats_url=nats_url, data_dir=tmp_path / "search"))
    client = await nats.connect(nats_url)
    ready: asyncio.Queue[BookReady] = asyncio.Queue()

    async def on_ready(message: Msg) -> None:
        await ready.put(BookReady.model_validate_json(message.data))

    await client.subscribe(subjects.BOOK_READY.format(book="*"), cb=on_ready)
    consumer = asyncio.create_task(consume_books(client, engine, retry_s=0.1))
    try:
        yield Running(client, engine, held, ready, nats_url, consumer)
    finally:
        for _ in range(4):
            held.go_on.put_nowait(None)
        consumer.cancel()
        await asyncio.gather(consumer, return_exceptions=True)
        await engine.store.close()
        await client.close()
        await broker.stop()
        await close_ingest()


async def ready_version(
    running: Running, book: str = BOOK, version: str | None = None, *, not_version: str | None = None
) -> BookReady:
    """The next BookReady of ``book`` (of ``version``, when given; of another than ``not_version``)."""
    while True:
        try:
            ready = await asyncio.wait_for(running.ready.get(), 300)
        except TimeoutError:
            if running.consumer.done():  # search stopped indexing: why, rather than only how long
                running.consumer.result()
            raise
        if ready.book == book and version in (None, ready.version) and ready.version != not_version:
            return ready


async def chapters_of_hits(engine: SearchEngine, query: str, here_ms: int) -> list[int]:
    result = await engine.find(FindPassage(book=BOOK, here_ms=here_ms, query=query))
    return [hit.chapter for hit in result.hits]


@pytest.fixture(scope="module")
def speech() -> Speech:
    need_espeak()
    return speak_book(sample_chapters(chapters=2, sentences=2))


async def test_search_serves_chapter_one_while_chapter_two_is_transcribed(
    running: Running, speech: Speech, tmp_path: Path
) -> None:
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags={"title": "The Lantern at Gull Point"})
    job = asyncio.create_task(request_ingest(running.client, IngestBook(path=str(path), book=BOOK)))
    end = round(speech.chapters[-1].end_s * 1000)
    second_start = round(speech.chapters[1].start_s * 1000)

    # Read, nothing transcribed: the book plays, every chapter is reachable, nothing is found.
    read = await asyncio.wait_for(running.held.reached.get(), 300)
    assert (read.chapters_done, read.chapters, read.pending) == (0, 2, [1, 2])
    first = await ready_version(running)
    served = running.engine.books[BOOK]
    assert (served.version, served.passages, served.info.audio_path) == (first.version, (), str(path))
    assert served.info.duration_ms == pytest.approx(end, abs=50)
    assert await chapters_of_hits(running.engine, "the suitcase", end) == []
    (chapter_one,) = running.engine.resolve(
        Resolve(book=BOOK, here_ms=0, targets=[Target(chapter=1)])
    ).resolutions
    assert chapter_one.passage is not None
    assert (chapter_one.passage.chapter, chapter_one.at_ms) == (1, 0)
    running.held.go_on.put_nowait(None)

    # Held before chapter 2: what search serves is the interim version of chapter 1.
    coverage = await asyncio.wait_for(running.held.reached.get(), 300)
    # A version may be said ready twice (by the catch-up at the consumer's start and by the consumer,
    # or again after a slow ack): the read version's second saying is not the interim's.
    interim = await ready_version(running, not_version=first.version)
    served = running.engine.books[BOOK]
    assert served.version == interim.version
    assert served.info.transcript == coverage
    assert (coverage.chapters_done, coverage.chapters, coverage.pending) == (1, 2, [2])
    assert coverage.audio_ms == pytest.approx(end, abs=50)
    assert {p.chapter for p in served.passages} == {1}
    assert [c.n for c in served.info.chapters] == [1, 2]
    assert served.info.chapters[1].start_ms == pytest.approx(second_start, abs=2)
    assert served.info.audio_path == str(path)

    assert (await chapters_of_hits(running.engine, "the suitcase", end))[0] == 1
    assert 2 not in await chapters_of_hits(running.engine, "the raincoat", end)

    # Chapter 2 is reachable by its number and by a time inside it, though it has no words yet.
    inside = second_start + 1_500
    resolved = running.engine.resolve(
        Resolve(book=BOOK, here_ms=0, targets=[Target(chapter=2), Target(position_ms=inside)])
    )
    by_chapter, by_time = resolved.resolutions
    assert by_chapter.passage is not None
    assert (by_chapter.passage.chapter, by_chapter.passage.text) == (2, "")
    assert by_chapter.at_ms == by_chapter.passage.start_ms == pytest.approx(second_start, abs=2)
    assert by_time.passage is not None
    assert (by_time.passage.chapter, by_time.at_ms) == (2, inside)
    assert view(served.info, here_ms=0).transcript == coverage  # what the page shows
    running.held.go_on.put_nowait(None)

    # The whole book replaces it, and no interim came after the last chapter.
    report = await asyncio.wait_for(job, 300)
    assert report.version not in (first.version, interim.version)
    await ready_version(running, BOOK, report.version)
    whole = running.engine.books[BOOK]
    assert whole.info.transcript is None
    assert whole.wordless == ()
    assert {p.chapter for p in whole.passages} == {1, 2}
    assert 2 in (await chapters_of_hits(running.engine, "the raincoat", end))[:2]
    assert running.held.reached.empty()
    # The interim versions' artifacts went with them: a long book made one per chapter, each the
    # size of the book so far.
    artifacts = await bucket_objects(running.nats_url, subjects.BOOK_ARTIFACTS_BUCKET)
    assert [name for name in artifacts if name.startswith(f"{BOOK}/")] == [report.object_name]


async def test_a_recording_that_fails_is_withdrawn_from_search(running: Running, tmp_path: Path) -> None:
    silence = np.zeros(16_000 * 8, dtype=np.int16)
    path = write_audiobook(tmp_path / "quiet.m4b", Speech(silence, 16_000, [], []), chapters=False)
    job = asyncio.create_task(request_ingest(running.client, IngestBook(path=str(path), book=QUIET_BOOK)))
    await asyncio.wait_for(running.held.reached.get(), 300)
    await ready_version(running, QUIET_BOOK)
    assert running.engine.books[QUIET_BOOK].info.transcript is not None  # read, and so served
    running.held.go_on.put_nowait(None)
    with pytest.raises(RemoteFailure, match="no speech"):
        await job
    for _ in range(600):  # the withdrawal reaches search's consumer
        if QUIET_BOOK not in running.engine.books:
            break
        await asyncio.sleep(0.05)
    assert QUIET_BOOK not in running.engine.books
    assert QUIET_BOOK not in {b.id for b in running.engine.catalog(CatalogRequest()).books}
