"""The search service's request-reply surface: thin shells over the engine."""

import asyncio

from bedside_contracts import subjects
from bedside_contracts.search import (
    Catalog,
    CatalogRequest,
    CheckAnswer,
    FindPassage,
    HeardNames,
    NameHints,
    Recall,
    Recap,
    Recapped,
    Resolve,
    Resolved,
)
from bedside_guard import CheckedAnswer
from bedside_runtime.bus import Broker, serve_requests

from bedside_search.engine import SearchEngine

SERVICE = "search"


async def serve_search(broker: Broker, engine: SearchEngine) -> None:
    async def resolve(request: Resolve) -> Resolved:
        return engine.resolve(request)

    async def catalog(request: CatalogRequest) -> Catalog:
        return engine.catalog(request)

    async def recap(request: Recap) -> Recapped:
        # Embedding a span's sentences takes up to seconds: off the loop, so finds are not held up.
        return await asyncio.to_thread(engine.recap, request)

    async def check(request: CheckAnswer) -> CheckedAnswer:
        return await engine.check(request)

    async def hints(request: NameHints) -> HeardNames:
        return engine.hints(request)

    await serve_requests(broker, subjects.SEARCH_FIND, SERVICE, FindPassage, engine.find)
    await serve_requests(broker, subjects.SEARCH_RECALL, SERVICE, Recall, engine.recall)
    await serve_requests(broker, subjects.SEARCH_RESOLVE, SERVICE, Resolve, resolve)
    await serve_requests(broker, subjects.SEARCH_CATALOG, SERVICE, CatalogRequest, catalog)
    await serve_requests(broker, subjects.SEARCH_CHECK, SERVICE, CheckAnswer, check)
    await serve_requests(broker, subjects.SEARCH_HINTS, SERVICE, NameHints, hints)
    await serve_requests(broker, subjects.SEARCH_RECAP, SERVICE, Recap, recap)
