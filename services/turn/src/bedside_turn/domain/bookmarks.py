"""Which of the listener's bookmarks a request means (ADR 83), without I/O.

The player keeps them, newest first, on the listener's state; the turn reads that list and never
tells the model any of it: a bookmark is a place the listener was (ADR 75).
"""

import re
from collections.abc import Sequence

from bedside_contracts.player import Bookmark
from bedside_guard import words_of

BOOKMARKS_SAID = 3
"""How many bookmarks a spoken answer names: the newest few, as a listener in the dark can take in."""
_NOT_THE_TITLE = frozenset({"the", "a", "an", "my"})
_A_CLOCK_TIME = re.compile(r"\b\d{1,3}:\d{2}:\d{2}\b")


def without_its_place(lines: Sequence[str]) -> list[str]:
    """What an offer of a bookmark's place leaves for the model to read later: a covered row's line opens
    with its time, the place the listener marked, which the model never reads (ADR 75)."""
    return [_A_CLOCK_TIME.sub("the bookmark's place", line) for line in lines]


def _title_words(title: str) -> list[str]:
    return [word for word in words_of(title.lower()) if word not in _NOT_THE_TITLE]


def titled(bookmarks: Sequence[Bookmark], asked: str) -> Bookmark | None:
    """The newest bookmark called what was asked, articles aside ("storm" is "The Storm"); else the
    newest whose title holds every word asked in that order ("the storm" finds "the storm at sea")."""
    said = _title_words(asked)
    if not said:
        return None
    named = [(bookmark, _title_words(bookmark.title)) for bookmark in bookmarks if bookmark.title]
    exact = next((bookmark for bookmark, words in named if words == said), None)
    if exact is not None:
        return exact
    return next((bookmark for bookmark, words in named if _holds(words, said)), None)


def _holds(words: list[str], said: list[str]) -> bool:
    return any(words[start : start + len(said)] == said for start in range(len(words) - len(said) + 1))


def titles_kept(bookmarks: Sequence[Bookmark]) -> list[str]:
    """The titles of the newest titled bookmarks, each once, as many as an answer names."""
    kept: list[str] = []
    for bookmark in bookmarks:
        if bookmark.title and bookmark.title not in kept:
            kept.append(bookmark.title)
    return kept[:BOOKMARKS_SAID]
