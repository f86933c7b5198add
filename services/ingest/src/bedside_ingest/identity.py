"""Which id a new book takes, without I/O: the one place for that rule.

A book's id comes from its file's name, and two books can share a name (two recordings called
"book.m4b" in different folders). A listener's position, history and sleep timer belong to an
id, so a book made from another file never takes an id that a book has, even one removed since:
it is given the name with "-2", "-3" and so on. The same file again (the same path, edited or
not) or a copy of it (the same content, as a second upload of one recording is) is that book, and
makes a new version of it, whatever id it was given. An id asked for by name is the asker's, but
one that a book made from another file has replaces that book only when the replacement is asked
for too (``replaces_another``): its listeners are in it.
"""

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from itertools import count
from pathlib import Path

from bedside_contracts.common import LONGEST_NAME
from bedside_contracts.ingest import IngestBook, MadeFrom

from bedside_ingest.accepted import name_without_type

_LETTERS_NOT_DECOMPOSED = str.maketrans(
    {"ß": "ss", "æ": "ae", "Æ": "Ae", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "Oe", "ł": "l", "Ł": "L", "đ": "d"}
)


def _in_plain_letters(name: str) -> str:
    """A name in plain letters ("Édition für Ærø" is "Edition fur Aero"): accents taken off, letters kept."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_LETTERS_NOT_DECOMPOSED))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def book_id_for(path: Path) -> str:
    """A book id from a file or folder name without the type of file it is ("Dr. Jekyll and Mr.
    Hyde.m4b" is ``dr-jekyll-and-mr-hyde``): letters, digits, - and _ only (one safe subject token)."""
    plain = _in_plain_letters(name_without_type(path))
    slug = re.sub(r"[^A-Za-z0-9_]+", "-", plain).strip("-").lower()  # " - " is one "-"
    return slug[:LONGEST_NAME] or "book"


def book_made_from(books: Iterable[tuple[str, MadeFrom | None, bool]], made_from: MadeFrom) -> str | None:
    """Which of ``books`` (id, what it is made from, whether it was removed) the file ``made_from`` made,
    if any, whatever its id: ids were once cut at a name's first dot, and an id asked for is any.
    One still served comes first, then the first by id; a removed one comes back with its places."""
    same = [
        (removed, book)
        for book, held, removed in books
        if held is not None and (held.path == made_from.path or held.fingerprint == made_from.fingerprint)
    ]
    return min(same)[1] if same else None


def book_of(request: IngestBook) -> str:
    """The id of the book a request makes: the one it names, else the file's own."""
    return request.book or book_id_for(Path(request.path))


def ids_to_try(named: str) -> Iterator[str]:
    """The id a file's name gives, then the same with "-2", "-3", ... (cut to stay an id)."""
    yield named
    for n in count(2):
        suffix = f"-{n}"
        yield named[: LONGEST_NAME - len(suffix)] + suffix


def may_take(held_by: Sequence[MadeFrom | None], made_from: MadeFrom, *, its_name: bool) -> bool:
    """Whether a book made from ``made_from`` takes an id that the books and jobs ``held_by`` have
    (none: no book has it); ``its_name``: the id its file's name gives. ``None`` is a book announced
    before books said what they were made from: of its own name's id it is taken to be this
    book, as every book of that name was then; a "-2" id it has was its own file's name
    ("Book (2).m4b"), so another's."""
    return all(
        its_name if held is None else held.path == made_from.path or held.fingerprint == made_from.fingerprint
        for held in held_by
    )


def replaces_another(held_by: Sequence[MadeFrom | None], made_from: MadeFrom, *, its_name: bool) -> bool:
    """Whether a book made from ``made_from`` under an id asked for replaces a book (or a book being
    made) of another file that has the id: the same file, a copy of it or the file edited where it is
    only makes a new version. ``its_name`` as for ``may_take``."""
    return not may_take(held_by, made_from, its_name=its_name)


def known_to_be_another(held_by: Sequence[MadeFrom | None], made_from: MadeFrom, *, its_name: bool) -> bool:
    """Whether a book in the way of ``made_from`` under an id asked for (``replaces_another``) is known
    to be made from another file: one announced before books said what they were made from is in the
    way under an id its file's name does not give, but it may be this very file."""
    return any(held is not None and not may_take([held], made_from, its_name=its_name) for held in held_by)


def replacement_refused(book: str, title: str | None, listeners: int | None, *, file_known: bool) -> str:
    """Why an id asked for is not given to another file's book unless the replacement is asked for;
    ``file_known`` as ``known_to_be_another`` tells."""
    made = (
        "made from another file"
        if file_known
        else "made before Bedside recorded what a book is made from, so it does not know which file it "
        "was made from"
    )
    return (
        f"{book!r} is {_the_book(title, listeners)}, {made}; ask again with --replace "
        "to put this one in its place (its listeners keep their places, within the new book)"
    )


def replacing_said(book: str, title: str | None, listeners: int | None) -> str:
    """Said before a replacement asked for is made."""
    listening = f"; {_listeners_said(listeners)}" if listeners is not None else ""
    named = f"the book {title!r}" if title is not None else "the book being made"
    return f"replacing {named} ({book}{listening})"


def _the_book(title: str | None, listeners: int | None) -> str:
    named = f"the book {title!r}" if title is not None else "a book being made"
    return f"{named} ({_listeners_said(listeners)})" if listeners is not None else named


def _listeners_said(listeners: int) -> str:
    return (
        "no listener has a place in it"
        if listeners == 0
        else (f"{listeners} listener{' has' if listeners == 1 else 's have'} a place in it")
    )
