"""The player's book cache: a known book never waits on search, an unknown one does."""

import asyncio

import pytest
from bedside_contracts.search import BookInfo, Catalog, CatalogRequest, ChapterInfo
from bedside_player import catalog
from bedside_player.catalog import Books
from bedside_player.routes.books import view
from bedside_runtime.errors import NotFound


def book(book_id: str, duration_ms: int = 60_000) -> BookInfo:
    return BookInfo(
        id=book_id, title=book_id, duration_ms=duration_ms, estimated=True, passages=1, chapters=[]
    )


class Search:
    """Answers the catalog request with ``books``; ``stalled`` holds every answer back."""

    def __init__(self, *books: BookInfo) -> None:
        self.books = list(books)
        self.asked = 0
        self.stalled = asyncio.Event()
        self.stalled.set()

    async def __call__(self, request: CatalogRequest) -> Catalog:
        self.asked += 1
        await self.stalled.wait()
        return Catalog(books=self.books)


async def test_a_known_book_is_served_while_search_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    search = Search(book("b1"))
    books = Books(search)
    assert (await books.get("b1")).duration_ms == 60_000
    monkeypatch.setattr(catalog, "CACHE_S", 0.0)  # every read from now on finds the cache old
    search.stalled.clear()
    search.books = [book("b1", duration_ms=90_000)]
    async with asyncio.timeout(5):
        assert (await books.get("b1")).duration_ms == 60_000
        assert [b.id for b in await books.all()] == ["b1"]
    await asyncio.sleep(0.01)
    assert search.asked == 2  # one refresh behind the callers, shared by both
    search.stalled.set()
    await asyncio.sleep(0.01)  # the refresh behind comes back: nothing else is in its way
    assert (await books.get("b1")).duration_ms == 90_000


async def test_a_book_not_known_yet_waits_for_search_and_a_missing_one_is_not_found() -> None:
    search = Search(book("b1"))
    books = Books(search)
    await books.get("b1")
    search.books.append(book("b2"))
    assert (await books.get("b2")).id == "b2"
    with pytest.raises(NotFound):
        await books.get("nope")


async def test_a_book_withdrawn_while_a_refresh_was_out_does_not_come_back_with_it() -> None:
    """A review: a refresh already asked of search before the withdrawal came back with the book,
    which then took reports again and reopened the pages' streams until the next refresh."""
    search = Search(book("b1"), book("b2"))
    books = Books(search)
    await books.get("b1")
    search.stalled.clear()
    refreshing = asyncio.create_task(books.refresh(), name="asked before the withdrawal")
    await asyncio.sleep(0.01)
    books.forget("b2")
    search.stalled.set()  # search answers from before it withdrew the book
    await refreshing
    assert [b.id for b in await books.all()] == ["b1"]
    search.books = [book("b1")]
    await asyncio.sleep(0.001)
    search.books.append(book("b2"))  # added again since: a catalog asked later has it
    await books.refresh()
    assert [b.id for b in await books.all()] == ["b1", "b2"]


async def test_a_failed_refresh_behind_keeps_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    search = Search(book("b1"))
    books = Books(search)
    await books.get("b1")

    async def broken(request: CatalogRequest) -> Catalog:
        raise TimeoutError("search did not answer")

    books.fetch = broken
    monkeypatch.setattr(catalog, "CACHE_S", 0.0)
    assert (await books.get("b1")).id == "b1"
    await asyncio.sleep(0.01)  # the refresh behind fails and is logged
    assert (await books.get("b1")).id == "b1"


async def test_a_refresh_behind_the_callers_ends_when_the_player_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search = Search(book("b1"))
    books = Books(search)
    await books.get("b1")
    search.stalled.clear()
    monkeypatch.setattr(catalog, "CACHE_S", 0.0)
    await books.get("b1")
    await asyncio.sleep(0.01)  # the refresh behind is waiting on search
    assert books._background is not None
    assert not books._background.done()
    await books.stop()
    assert books._background.done()


def test_the_page_is_given_a_title_only_where_it_says_more_than_the_number() -> None:
    chapters = [
        ChapterInfo(n=1, title="Chapter 1", start_ms=0, end_ms=10_000),
        ChapterInfo(n=2, title="CHAPTER II. The Hunt", start_ms=10_000, end_ms=20_000),
        ChapterInfo(n=3, title="Chapter 3", start_ms=20_000, end_ms=30_000),
    ]
    shown = view(book("b1").model_copy(update={"chapters": chapters}), here_ms=25_000).chapters
    assert [c.title for c in shown] == [None, "The Hunt", None]
    assert [c.ahead for c in shown] == [False, False, False]


async def test_a_new_versions_length_is_read_at_once_and_a_stalled_search_leaves_the_one_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ADR 81: after search's BookReady a listener's state is held within the new length. The review:
    a read waited on search for it, and failed while search did not answer (the page, "where am I?")."""
    search = Search(book("b1"))
    books = Books(search)
    await books.get("b1")
    search.books = [book("b1", duration_ms=30_000)]
    books.served_anew("b1")
    assert await books.length_of("b1") == 30_000
    monkeypatch.setattr(catalog, "NEW_VERSION_WAIT_S", 0.05)
    search.stalled.clear()
    search.books = [book("b1", duration_ms=20_000)]
    books.served_anew("b1")
    async with asyncio.timeout(5):
        assert await books.length_of("b1") == 30_000
        assert await books.length_of("never heard of") is None
