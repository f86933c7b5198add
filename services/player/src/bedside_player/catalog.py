"""The books, as the search service knows them: cached briefly, asked again on a miss."""

import asyncio
import time
from collections.abc import Awaitable, Callable

from bedside_contracts.search import BookInfo, Catalog, CatalogRequest
from bedside_runtime.errors import NotFound

CACHE_S = 5.0

Fetch = Callable[[CatalogRequest], Awaitable[Catalog]]


class Books:
    def __init__(self, fetch: Fetch) -> None:
        self.fetch = fetch
        self.books: dict[str, BookInfo] = {}
        self.fetched_at = 0.0
        self.lock = asyncio.Lock()

    async def refresh(self) -> None:
        """Ask search for the catalog; many callers at once share one request."""
        asked_at = time.monotonic()
        async with self.lock:
            if self.fetched_at >= asked_at:
                return  # someone refreshed while this caller waited
            catalog = await self.fetch(CatalogRequest())
            self.books = {book.id: book for book in catalog.books}
            self.fetched_at = time.monotonic()

    async def all(self) -> list[BookInfo]:
        if time.monotonic() - self.fetched_at > CACHE_S:
            await self.refresh()
        return list(self.books.values())

    async def get(self, book: str) -> BookInfo:
        """The book, or ``NotFound`` (asking search again when it is not in the cache)."""
        if book not in self.books or time.monotonic() - self.fetched_at > CACHE_S:
            await self.refresh()
        if book not in self.books:
            raise NotFound("there is no such book; GET /api/books lists the books there are")
        return self.books[book]
