"""An ingest job's record: what it made and why it ended are fields of their own."""

from bedside_contracts.ingest import IngestBook, IngestJob
from bedside_contracts.player import AddingBook

REQUEST = IngestBook(path="/books/gull.m4b", job="j1", book="gull-point")


def test_a_record_from_before_the_fields_were_split_is_read_by_its_state() -> None:
    """Records stay in the jobs bucket across upgrades: one ``detail`` held the book or the reason."""
    base = {"job": "j1", "request": REQUEST.model_dump()}
    done = IngestJob.model_validate({**base, "state": "done", "detail": "gull-point"})
    failed = IngestJob.model_validate({**base, "state": "failed", "detail": "the file is not audio"})
    assert (done.book, done.reason) == ("gull-point", "")
    assert (failed.book, failed.reason) == (None, "the file is not audio")


def test_the_page_is_told_the_book_made_or_why_not() -> None:
    done = IngestJob(job="j1", request=REQUEST, state="done", book="gull-point-2")
    cancelled = IngestJob(job="j1", request=REQUEST, state="cancelled", reason="cancelled by request")
    assert (AddingBook.of(done).book, AddingBook.of(done).reason) == ("gull-point-2", "")
    assert (AddingBook.of(cancelled).book, AddingBook.of(cancelled).reason) == (
        "gull-point",
        "cancelled by request",
    )
