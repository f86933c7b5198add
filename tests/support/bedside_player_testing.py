"""A stand-in for the search service, for the player's tests and benchmarks.

It answers SEARCH_CATALOG and SEARCH_RESOLVE on the bus for synthetic books: a passage
every 30 s, a chapter every 30 minutes. It knows nothing of any real book. Also the player's
app without the command lanes, to hold the lanes' answers against the routes', and the states a
device's event stream pushes.
"""

import json
from collections.abc import AsyncIterator
from functools import cached_property
from typing import Any

from bedside_contracts import subjects
from bedside_contracts.common import Failure
from bedside_contracts.search import (
    BookInfo,
    Catalog,
    CatalogRequest,
    ChapterInfo,
    Resolution,
    Resolve,
    Resolved,
    Target,
)
from bedside_guard import Passage
from bedside_player.routes.command_lane import CommandLane
from bedside_search.domain.book import ServedBook
from bedside_search.domain.places import resolve_one
from fastapi import FastAPI
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from starlette.routing import Route

PASSAGE_MS = 30_000
CHAPTER_MS = 30 * 60_000


class SyntheticBook:
    def __init__(
        self,
        book: str,
        duration_ms: int = 10 * 3600_000,
        audio_path: str | None = None,
        cover_path: str | None = None,
        audio_object: str | None = None,
    ) -> None:
        self.id = book
        self.duration_ms = duration_ms
        self.audio_path = audio_path
        self.cover_path = cover_path
        self.audio_object = audio_object

    @property
    def passages(self) -> int:
        return -(-self.duration_ms // PASSAGE_MS)

    def chapters(self) -> list[ChapterInfo]:
        count = -(-self.duration_ms // CHAPTER_MS)
        return [
            ChapterInfo(
                n=n + 1,
                title=f"Chapter title {n + 1}",
                start_ms=n * CHAPTER_MS,
                end_ms=min((n + 1) * CHAPTER_MS, self.duration_ms),
            )
            for n in range(count)
        ]

    def info(self) -> BookInfo:
        return BookInfo(
            id=self.id,
            title=f"Synthetic {self.id}",
            duration_ms=self.duration_ms,
            estimated=False,
            passages=self.passages,
            chapters=self.chapters(),
            audio_path=self.audio_path,
            cover_path=self.cover_path,
            audio_object=self.audio_object,
        )

    def passage(self, pid: int) -> Passage | None:
        if not 0 <= pid < self.passages:
            return None
        start = pid * PASSAGE_MS
        chapter = start // CHAPTER_MS + 1
        return Passage(
            id=pid,
            start_ms=start,
            end_ms=min(start + PASSAGE_MS, self.duration_ms),
            chapter=chapter,
            chapter_title=f"Chapter title {chapter}",
            text=f"the words of passage {pid}",
        )

    @cached_property
    def served(self) -> ServedBook:
        passages = [p for pid in range(self.passages) if (p := self.passage(pid)) is not None]
        return ServedBook.of(self.info(), passages, collection="")

    def resolve(self, target: Target, here_ms: int) -> Resolution:
        """Search's own rules on this book."""
        return resolve_one(self.served, here_ms, target)


class FakeSearch:
    def __init__(self, client: Client, books: list[SyntheticBook]) -> None:
        self.client = client
        self.books = {book.id: book for book in books}
        self.subs: list[Subscription] = []
        self.resolves = 0
        self.stalled = False
        """Search as a stalled process leaves it: a resolve is taken and never answered."""

    async def start(self) -> "FakeSearch":
        for book in self.books.values():
            assert book.served.passages  # built before the first request, not inside it
        queue = subjects.queue_for("search")
        self.subs.append(await self.client.subscribe(subjects.SEARCH_CATALOG, queue=queue, cb=self._catalog))
        self.subs.append(await self.client.subscribe(subjects.SEARCH_RESOLVE, queue=queue, cb=self._resolve))
        await self.client.flush()
        return self

    async def stop(self) -> None:
        for sub in self.subs:
            await sub.unsubscribe()

    async def _catalog(self, msg: Msg) -> None:
        request = CatalogRequest.model_validate_json(msg.data)
        books = [b.info() for b in self.books.values() if request.book in (None, b.id)]
        await msg.respond(Catalog(books=books).model_dump_json().encode())

    async def _resolve(self, msg: Msg) -> None:
        self.resolves += 1
        if self.stalled:
            return
        request = Resolve.model_validate_json(msg.data)
        book = self.books.get(request.book)
        if book is None:
            failure = Failure(code="not_found", error=f"no book {request.book}")
            await msg.respond(failure.model_dump_json().encode())
            return
        reply = Resolved(resolutions=[book.resolve(t, request.here_ms) for t in request.targets])
        await msg.respond(reply.model_dump_json().encode())


def lane_routes(app: FastAPI) -> dict[str, tuple[Route, CommandLane[Any]]]:
    """Each route that holds a command's lane, and the lane, by the last part of its path
    ("reports", "seek"); none in an app without lanes."""
    return {
        route.path.rsplit("/", 1)[-1]: (route, route.app)
        for route in app.router.routes
        if isinstance(route, Route) and isinstance(route.app, CommandLane)
    }


def without_the_lanes(app: FastAPI) -> FastAPI:
    """The player's app with every command answered by its FastAPI route, as before the lanes."""
    for route, _lane in lane_routes(app).values():
        app.router.routes.remove(route)
    return app


async def pushed_states(lines: AsyncIterator[str]) -> AsyncIterator[dict[str, Any]]:
    """The data of each ``state`` event of a device's event stream, in order (pings are skipped)."""
    event = ""
    async for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "state":
            state: dict[str, Any] = json.loads(line.split(":", 1)[1])
            yield state
