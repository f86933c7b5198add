"""Bookmarks (ADR 83): a listener's marked places in a book, decided here and folded by ``evolve``.

A bookmark is made where the book is: the device's own place, or, for a caller with no device place
(the turn), where the player has the book got to now. It holds a time and the listener's own words,
nothing of the book's text. A book keeps at most ``MAX_BOOKMARKS_PER_BOOK``: one more is refused,
so none the listener made is ever dropped without their word.
"""

from bedside_contracts.player import (
    MAX_BOOKMARKS_PER_BOOK,
    AddBookmark,
    Bookmark,
    BookmarkAdded,
    BookmarkRemoved,
    RemoveBookmark,
)


class BookmarkRefused(Exception):
    """A bookmark command that cannot be carried out (``decide`` raises it as ``Invalid``)."""


def add(bookmarks: tuple[Bookmark, ...], command: AddBookmark, at_ms: int, now_ms: int) -> BookmarkAdded:
    """The bookmark at ``at_ms`` (a place already checked against the book), unless the book is full."""
    if len(bookmarks) >= MAX_BOOKMARKS_PER_BOOK:
        raise BookmarkRefused(
            f"this book has {MAX_BOOKMARKS_PER_BOOK} bookmarks, the most kept in one book; "
            "remove one to add another"
        )
    request_key = command.heard.request_key if command.heard else None  # a turn's, for heard_twice
    return BookmarkAdded(
        at_ms=at_ms, title=command.title, device=command.device, added_at_ms=now_ms, request_key=request_key
    )


def remove(bookmarks: tuple[Bookmark, ...], command: RemoveBookmark) -> BookmarkRemoved:
    if all(bookmark.seq != command.bookmark_seq for bookmark in bookmarks):
        raise BookmarkRefused(f"there is no bookmark {command.bookmark_seq} in this book (removed already?)")
    return BookmarkRemoved(bookmark_seq=command.bookmark_seq, device=command.device)


def with_added(bookmarks: tuple[Bookmark, ...], event: BookmarkAdded, seq: int) -> tuple[Bookmark, ...]:
    """Kept oldest first, as the stream made them; told newest first (``newest_first``)."""
    made = Bookmark(
        seq=seq, at_ms=event.at_ms, title=event.title, device=event.device, added_at_ms=event.added_at_ms
    )
    return (*bookmarks, made)


def without(bookmarks: tuple[Bookmark, ...], event: BookmarkRemoved) -> tuple[Bookmark, ...]:
    return tuple(bookmark for bookmark in bookmarks if bookmark.seq != event.bookmark_seq)


def newest_first(bookmarks: tuple[Bookmark, ...]) -> list[Bookmark]:
    return list(reversed(bookmarks))


def held_within(bookmarks: tuple[Bookmark, ...], book_end_ms: int) -> tuple[Bookmark, ...]:
    """A bookmark past the end of the book served now (a shorter one given its id, ADR 81) is at its end."""
    if all(bookmark.at_ms <= book_end_ms for bookmark in bookmarks):
        return bookmarks
    return tuple(
        bookmark.model_copy(update={"at_ms": book_end_ms}) if bookmark.at_ms > book_end_ms else bookmark
        for bookmark in bookmarks
    )
