"""Which id a new book takes (``bedside_ingest.identity``), without a bus."""

from itertools import islice

from bedside_contracts.ingest import MadeFrom
from bedside_ingest.identity import ids_to_try, may_take

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
    assert may_take([], other)
    assert may_take([SHELF], edited)
    assert may_take([SHELF], copied)
    assert not may_take([SHELF], other)
    assert not may_take([copied, SHELF], edited)  # a job making a copy holds it as well
    assert may_take([None], other)  # announced before books said what they were made from
