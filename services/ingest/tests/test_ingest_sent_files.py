"""Sent files named by their part in what ingest says of them (``BadInput.said_to_the_sender``)."""

from bedside_contracts.ingest import IngestBook
from bedside_ingest.errors import BadInput

SENT = IngestBook(path="/d/uploads/j1/a.mp3", text_path="/d/uploads/j1/a.mp3.txt")


def test_each_file_is_named_by_its_part_and_never_by_its_path() -> None:
    said = BadInput(SENT.path, "has no audio stream").said_to_the_sender(SENT)
    assert said == "the recording: has no audio stream"
    assert BadInput(str(SENT.text_path), "not JSON").said_to_the_sender(SENT) == "the e-book: not JSON"
    chapter = BadInput(str(SENT.text_path), "has no words", where="chapter 3")
    assert chapter.said_to_the_sender(SENT) == "the e-book, chapter 3: has no words"
    alone = IngestBook(path="/d/uploads/j2/b.m4b")
    assert BadInput(alone.path, "is raw AAC").said_to_the_sender(alone) == "the recording: is raw AAC"


def test_a_file_named_like_a_word_of_the_problem_is_named_once_and_the_problem_kept_whole() -> None:
    """An ingest review: a recording named "audio" was said as "the recording: is not an the
    recordingbook" while the refusal was a string whose paths were replaced; it is said from its
    parts now, so a name is never looked for in the words."""
    problem = "is not an audiobook: send its recording (.m4b .m4a .mp3 .ogg)"
    for name in ("audio", "s", ".mp3", "an"):
        said = BadInput(name, problem).said_to_the_sender(IngestBook(path=name))
        assert said == f"the recording: {problem}", name
