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


def test_a_file_name_that_is_also_a_word_of_the_message_is_named_once() -> None:
    """An ingest review: a recording named "audio" was said as "the recording: is not an the
    recordingbook", one named ".mp3" put "the recording" in the list of kinds of audio."""
    refusal = "{}: is not an audiobook: send its recording (.m4b .m4a .mp3 .ogg)"
    for name in ("audio", "s", ".mp3", "an"):
        said = as_said_to_the_sender(refusal.format(name), IngestBook(path=name))
        assert said == refusal.format("the recording"), name
    quoted = as_said_to_the_sender("cannot open 'audio': the audio is cut short", IngestBook(path="audio"))
    assert quoted == "cannot open 'the recording': the audio is cut short"
