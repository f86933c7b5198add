"""Composition root of the search service: the model, the store, the handlers, the consumer."""

import asyncio
from collections.abc import Awaitable, Callable

import structlog
from bedside_embedding import load_minilm
from bedside_guard import load_lexicon
from bedside_runtime.bus import Broker
from bedside_runtime.host import run_bus_service
from bedside_runtime.settings import Settings
from bedside_runtime.tasks import cancel_and_wait

from bedside_search.consumer import consume_books
from bedside_search.engine import SearchEngine
from bedside_search.handlers import serve_search
from bedside_search.open_store import open_store

log = structlog.get_logger("bedside.search")


class Readiness:
    """What health reports: ready once the model is loaded and the store is open, and while the
    consumer indexing new books runs (a search that indexes nothing new is not well)."""

    def __init__(self) -> None:
        self.engine: SearchEngine | None = None
        self.consumer: asyncio.Task[None] | None = None

    def ready(self) -> bool:
        return self.engine is not None and not self._indexing_stopped()

    def detail(self) -> str:
        if self.engine is None:
            return "loading"
        books = f"books: {len(self.engine.books)}"
        return f"{books}; indexing stopped, see the log" if self._indexing_stopped() else books

    def _indexing_stopped(self) -> bool:
        return self.consumer is not None and self.consumer.done()


async def open_engine(settings: Settings) -> SearchEngine:
    """The model and the store, opened once; the store's current books served again."""
    embedder = await asyncio.to_thread(load_minilm)
    await asyncio.to_thread(load_lexicon)
    store = await open_store(path=settings.vector_dir, url=settings.qdrant_url)
    engine = SearchEngine(store, embedder)
    await engine.restore()
    log.info(
        "search engine open", books=len(engine.books), store=settings.qdrant_url or str(settings.vector_dir)
    )
    return engine


def make_register(
    readiness: Readiness,
) -> Callable[[Broker, Settings], Awaitable[Callable[[], Awaitable[None]]]]:
    async def register(broker: Broker, settings: Settings) -> Callable[[], Awaitable[None]]:
        engine = await open_engine(settings)
        await serve_search(broker, engine)
        client = await broker.connect()
        consumer = asyncio.create_task(consume_books(client, engine))
        consumer.add_done_callback(_log_stopped)
        readiness.engine, readiness.consumer = engine, consumer

        async def close() -> None:
            await cancel_and_wait(consumer)
            await engine.store.close()

        return close

    return register


def _log_stopped(consumer: asyncio.Task[None]) -> None:
    """Why the consumer stopped, once: health then says indexing stopped and points to the log."""
    if not consumer.cancelled() and (error := consumer.exception()) is not None:
        log.error("indexing stopped", error=repr(error), exc_info=error)


async def serve(settings: Settings) -> None:
    readiness = Readiness()
    await run_bus_service(
        "search", settings, make_register(readiness), ready=readiness.ready, detail=readiness.detail
    )
