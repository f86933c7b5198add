"""The books, as the search service knows them: cached briefly, refreshed behind the callers.

A book already known is served from the cache even when the cache is old, and the refresh
runs in the background: a position report must not wait on search, or fail while search is
restarting. Only a book not known yet (or the first listing) waits for search.
"""

import asyncio
import time
from collections.abc import Awaitable, Callable

import structlog
from bedside_contracts.search import BookInfo, Catalog, CatalogRequest
from bedside_runtime.errors import NotFound
from bedside_runtime.tasks import cancel_and_wait

CACHE_S = 5.0
NEW_VERSION_WAIT_S = 1.0
"""How long a read of a listener's state waits for the length of a book search serves anew (ADR 81)."""

Fetch = Callable[[CatalogRequest], Awaitable[Catalog]]

log = structlog.get_logger("bedside.player.catalog")


class Books:
    def __init__(self, fetch: Fetch) -> None:
        self.fetch = fetch
        self.books: dict[str, BookInfo] = {}
        self.fetched_at: float | None = None
        self.lock = asyncio.Lock()
        self._background: asyncio.Task[None] | None = None
        self._forgotten_at: dict[str, float] = {}
        """Books withdrawn, and when: a catalog asked of search before that still lists them."""
        self._anew: dict[str, float] = {}
        """Books search serves a new version of, and since when: a catalog asked before is the old one."""

    async def refresh(self) -> None:
        """Ask search for the catalog; many callers at once share one request."""
        asked_at = time.monotonic()
        async with self.lock:
            if self.fetched_at is not None and self.fetched_at >= asked_at:
                return  # someone refreshed while this caller waited
            catalog = await self.fetch(CatalogRequest())
            self.books = {
                book.id: book for book in catalog.books if not self._forgotten_since(book.id, asked_at)
            }
            self._forgotten_at = {b: at for b, at in self._forgotten_at.items() if at >= asked_at}
            self._anew = {b: at for b, at in self._anew.items() if at >= asked_at}
            self.fetched_at = time.monotonic()

    def _stale(self) -> bool:
        return self.fetched_at is None or time.monotonic() - self.fetched_at > CACHE_S

    def _refresh_behind(self) -> None:
        if self._background is None or self._background.done():
            self._background = asyncio.create_task(self._refresh_logged())

    async def _refresh_logged(self) -> None:
        try:
            await self.refresh()
        except Exception as error:  # the cache stays as it was; the next stale read tries again
            log.warning("the book catalog could not be refreshed", error=repr(error))

    async def stop(self) -> None:
        """End a refresh still running behind the callers."""
        await cancel_and_wait(self._background)

    def forget(self, book: str) -> None:
        """A book withdrawn (``bedside remove``): refused from now on, not at the next refresh."""
        self.books.pop(book, None)
        self._forgotten_at[book] = time.monotonic()

    def _forgotten_since(self, book: str, asked_at: float) -> bool:
        at = self._forgotten_at.get(book)
        return at is not None and at >= asked_at

    async def all(self) -> list[BookInfo]:
        if self.fetched_at is None:
            await self.refresh()
        elif self._stale():
            self._refresh_behind()
        return list(self.books.values())

    def served_anew(self, book: str) -> None:
        """Search serves a new version of ``book`` (``BookReady``): it is asked for again now, and a
        caller of ``length_of`` meanwhile waits for it rather than be told the old one (a place past
        the end of a shorter version is its end, ADR 81). Reports go on with the old one."""
        self._anew[book] = time.monotonic()
        self._refresh_behind()

    async def length_of(self, book: str) -> int | None:
        """The book's length as the cache has it (None: not known here), after waiting a moment for
        search's catalog when it serves a new version. A read never fails, nor waits long, on search:
        when it does not answer in time the length is the one cached."""
        if book in self._anew:
            try:
                await asyncio.wait_for(self._read_anew(book), NEW_VERSION_WAIT_S)
            except Exception as error:
                log.warning("a new version's length was not read in time", book=book, error=repr(error))
        return self.end_of(book)

    async def _read_anew(self, book: str) -> None:
        while book in self._anew:  # a refresh asked before the new version, finished since, is not it
            await self.refresh()

    def end_of(self, book: str) -> int | None:
        """The book's length as the cache has it, without waiting on search (None: not known here)."""
        known = self.books.get(book)
        if known is not None and self._stale():
            self._refresh_behind()
        return None if known is None else known.duration_ms

    async def get(self, book: str) -> BookInfo:
        """The book, or ``NotFound`` (asking search again when it is not in the cache)."""
        if book not in self.books:
            await self.refresh()
            if book not in self.books:
                raise NotFound("there is no such book; GET /api/books lists the books there are")
        elif self._stale():
            self._refresh_behind()
        return self.books[book]
