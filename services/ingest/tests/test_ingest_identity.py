"""Which id a new book takes (``bedside_ingest.identity``), without a bus."""

from itertools import islice

from bedside_contracts.ingest import MadeFrom
from bedside_ingest.identity import (
    book_made_from,
    ids_to_try,
    known_to_be_another,
    may_take,
    replaces_another,
)

SHELF = MadeFrom(path="/shelf/book.m4b", fingerprint="a" * 32)


def test_the_ids_tried_stay_ids_however_long_the_name() -> None:
    assert list(islice(ids_to_try("book"), 3)) == ["book", "book-2", "book-3"]
    long = "n" * 64
    assert [len(i) for i in islice(ids_to_try(long), 11)] == [64] * 11
    assert list(islice(ids_to_try(long), 11))[-1] == "n" * 61 + "-11"


def test_an_id_is_taken_by_the_same_file_or_a_copy_never_by_another_file() -> None:
    edited = MadeFrom(path=SHELF.path, fingerprint="b" * 32)
    copied = MadeFrom(path="/downloads/book.m4b", fingerprint=SHELF.fingerprint)
    other = MadeFrom(path="/downloads/book.m4b", fingerprint="c" * 32)
    assert may_take([], other, its_name=True)
    assert may_take([SHELF], edited, its_name=True)
    assert may_take([SHELF], copied, its_name=False)
    assert not may_take([SHELF], other, its_name=True)
    assert not may_take([copied, SHELF], edited, its_name=True)  # a job making a copy holds it as well


def test_a_book_announced_before_books_said_what_they_were_made_from_holds_only_its_names_id() -> None:
    assert may_take([None], SHELF, its_name=True)  # as every book of that name was then
    assert not may_take([None], SHELF, its_name=False)  # "book-2" was "Book (2).m4b", another file


def test_a_file_a_book_was_made_from_is_that_book_whatever_its_id() -> None:
    copied = MadeFrom(path="/downloads/book.m4b", fingerprint=SHELF.fingerprint)
    other = MadeFrom(path="/downloads/other.m4b", fingerprint="c" * 32)
    books = [("zz", other, False), ("dr", SHELF, True), ("dr-2", SHELF, False), ("old", None, False)]
    assert book_made_from(books, copied) == "dr-2"  # one still served before one removed
    assert book_made_from(books[:2], SHELF) == "dr"  # a removed one comes back with its listeners' places
    assert book_made_from(books, MadeFrom(path="/new.m4b", fingerprint="d" * 32)) is None


def test_a_book_from_before_made_from_under_another_id_is_in_the_way_but_not_known_to_be_another() -> None:
    """``replaces_another([None], ...)`` under an id asked for is True (the same file may be that book,
    or not), and the refusal said the book was made from another file, which Bedside does not know."""
    other = MadeFrom(path="/downloads/book.m4b", fingerprint="c" * 32)
    assert replaces_another([None], SHELF, its_name=False)
    assert not known_to_be_another([None], SHELF, its_name=False)
    assert known_to_be_another([SHELF], other, its_name=False)
    assert known_to_be_another([None, SHELF], other, its_name=False)  # a job making another file
    assert not known_to_be_another([SHELF], SHELF, its_name=False)  # not in the way at all
