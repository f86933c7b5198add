"""Listening does not wait for the whole transcript (adr/0032): while an audiobook's later
chapters are still being transcribed, search serves an interim version of the chapters done,
reaches the others by chapter and time, and the whole book replaces it at the end.

Ingest and search run in this process on the test's real nats-server; ingest's hook holds the
job after the interim version of chapter 1 is announced, so chapter 2 is certainly not
transcribed while the test asks search (no timing is relied on).
"""

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import nats
import pytest
from bedside_audiobooks import Speech, need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts import subjects
from bedside_contracts.ingest import BookReady, IngestBook
from bedside_contracts.search import FindPassage, Resolve, Target, TranscriptCoverage
from bedside_ingest.client import request_ingest
from bedside_ingest.main import register
from bedside_player.routes.books import view
from bedside_runtime.bus import new_broker
from bedside_runtime.settings import Settings
from bedside_search.consumer import consume_books
from bedside_search.engine import SearchEngine
from bedside_search.main import open_engine
from nats.aio.client import Client
from nats.aio.msg import Msg

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

BOOK = "growing-lantern"


@dataclass
class Held:
    """Ingest's hook: records each interim version and holds the job until released."""

    reached: asyncio.Event
    release: asyncio.Event
    seen: list[TranscriptCoverage]

    async def __call__(self, book: str, coverage: TranscriptCoverage) -> None:
        self.seen.append(coverage)
        self.reached.set()
        await self.release.wait()


@dataclass
class Running:
    client: Client
    engine: SearchEngine
    held: Held
    ready: asyncio.Queue[BookReady]


@pytest.fixture
async def running(nats_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    held = Held(asyncio.Event(), asyncio.Event(), [])
    ingest_settings = Settings(nats_url=nats_url, data_dir=tmp_path / "ingest")
    broker = new_broker(ingest_settings, "ingest")
    await broker.connect()
    close_ingest = await register(broker, ingest_settings, after_interim=held)
    engine = await open_engine(Settings(nats_url=nats_url, data_dir=tmp_path / "search"))
    client = await nats.connect(nats_url)
    ready: asyncio.Queue[BookReady] = asyncio.Queue()

    async def on_ready(message: Msg) -> None:
        await ready.put(BookReady.model_validate_json(message.data))

    await client.subscribe(subjects.BOOK_READY.format(book=BOOK), cb=on_ready)
    consumer = asyncio.create_task(consume_books(client, engine, retry_s=0.1))
    try:
        yield Running(client, engine, held, ready)
    finally:
        held.release.set()
        consumer.cancel()
        await asyncio.gather(consumer, return_exceptions=True)
        await engine.store.close()
        await client.close()
        await broker.stop()
        await close_ingest()


async def ready_version(running: Running, version: str | None = None) -> BookReady:
    while True:
        ready = await asyncio.wait_for(running.ready.get(), 300)
        if version is None or ready.version == version:
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
    await asyncio.wait_for(running.held.reached.wait(), 300)
    interim = await ready_version(running)

    # The job is held before chapter 2: what search serves is the interim version of chapter 1.
    served = running.engine.books[BOOK]
    assert served.version == interim.version
    coverage = served.info.transcript
    assert coverage is not None
    assert (coverage.chapters_done, coverage.chapters, coverage.pending) == (1, 2, [2])
    assert coverage.audio_ms == pytest.approx(speech.chapters[-1].end_s * 1000, abs=50)
    assert {p.chapter for p in served.passages} == {1}
    assert [c.n for c in served.info.chapters] == [1, 2]
    second_start = round(speech.chapters[1].start_s * 1000)
    assert served.info.chapters[1].start_ms == pytest.approx(second_start, abs=2)
    assert served.info.audio_path == str(path)  # playable now

    end = round(speech.chapters[-1].end_s * 1000)
    assert (await chapters_of_hits(running.engine, "the suitcase", end))[0] == 1
    assert 2 not in await chapters_of_hits(running.engine, "the raincoat", end)

    # Chapter 2 is reachable by its number and by a time inside it, though it has no words yet.
    inside = second_start + 1_500
    resolved = running.engine.resolve(
        Resolve(book=BOOK, here_ms=0, targets=[Target(chapter=2), Target(position_ms=inside)])
    )
    by_chapter, by_time = resolved.resolutions
    assert by_chapter.passage is not None
    assert (by_chapter.passage.chapter, by_chapter.at_ms, by_chapter.passage.text) == (
        2,
        by_chapter.passage.start_ms,
        "",
    )
    assert by_chapter.passage.start_ms == pytest.approx(second_start, abs=2)
    assert by_time.passage is not None
    assert (by_time.passage.chapter, by_time.at_ms) == (2, inside)
    page = view(served.info, here_ms=0)
    assert page.transcript == coverage

    running.held.release.set()
    report = await asyncio.wait_for(job, 300)
    assert report.version != interim.version
    await ready_version(running, report.version)
    whole = running.engine.books[BOOK]
    assert whole.info.transcript is None
    assert whole.untranscribed == ()
    assert {p.chapter for p in whole.passages} == {1, 2}
    assert 2 in (await chapters_of_hits(running.engine, "the raincoat", end))[:2]
    assert len(running.held.seen) == 1  # no interim after the last chapter: the whole book is next
