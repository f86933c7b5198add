"""Sent files named by their part in what ingest says of them (``as_said_to_the_sender``)."""

from bedside_contracts.ingest import IngestBook, as_said_to_the_sender

SENT = IngestBook(path="/d/uploads/j1/a.mp3", text_path="/d/uploads/j1/a.mp3.txt")


def test_each_file_is_named_by_its_part_and_never_by_its_path() -> None:
    assert as_said_to_the_sender("/d/uploads/j1/a.mp3: has no audio stream", SENT) == (
        "the recording: has no audio stream"
    )
    # the e-book's path holds the recording's: still named whole, as the e-book
    assert as_said_to_the_sender("/d/uploads/j1/a.mp3.txt: not JSON", SENT) == "the e-book: not JSON"
    assert as_said_to_the_sender("nothing of a file", SENT) == "nothing of a file"
    alone = IngestBook(path="/d/uploads/j2/b.m4b")
    assert as_said_to_the_sender("/d/uploads/j2/b.m4b: is raw AAC", alone) == "the recording: is raw AAC"
