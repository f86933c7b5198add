"""Which title and author a recording's book takes, without I/O: the one place for that rule.

The recording's own tags are what the listener's library (and their phone's player) shows for
it, so they win over an e-book given with ``--text``; the e-book names the book only where the
recording has no tag, and before the recording's file or folder name. A ``--title`` given to
``bedside ingest`` wins over both.
"""

from bedside_contracts.ingest import LONGEST_TITLE

from bedside_ingest.audiobook import Audiobook
from bedside_ingest.book import Book


def book_names(given_title: str | None, recording: Audiobook, ebook: Book | None) -> tuple[str, str]:
    """``(title, author)`` of the book a recording (and its e-book, if given) makes, each cut to
    ``LONGEST_TITLE`` characters: tags and e-books are the sender's, of any length."""
    title = given_title or recording.title_tag or (ebook.title if ebook else "") or recording.title
    author = recording.author or (ebook.author if ebook else "")
    return _kept(title), _kept(author)


def _kept(name: str) -> str:
    name = " ".join(name.split())
    return name if len(name) <= LONGEST_TITLE else f"{name[: LONGEST_TITLE - 1].rstrip()}…"
