"""`bedside books`: each book's line, as a listener reads it."""

from bedside_contracts.search import BookInfo, ChapterInfo, TranscriptCoverage
from bedside_search.cli import book_line

ONE_CHAPTER = BookInfo(
    id="y",
    title="Y",
    duration_ms=2_000,
    estimated=False,
    times_from="file",
    passages=1,
    chapters=[ChapterInfo(n=1, title="Y", start_ms=0, end_ms=2_000)],
)


def test_a_book_of_one_chapter_and_one_passage_is_listed_in_the_singular_and_aligned() -> None:
    one = ONE_CHAPTER
    two = one.model_copy(update={"id": "fog", "passages": 2, "chapters": one.chapters * 2})
    assert book_line(one).split()[2:6] == ["1", "chapter", "1", "passage"]
    assert book_line(two).split()[2:6] == ["2", "chapters", "2", "passages"]
    assert book_line(one).index("timed") == book_line(two).index("timed")


def test_a_book_says_what_its_times_came_from() -> None:
    book = ONE_CHAPTER.model_copy(update={"id": "lantern", "title": "The Lantern"})
    transcribed = book.model_copy(update={"times_from": "transcription"})
    aligned = book.model_copy(update={"times_from": "alignment"})
    estimated = book.model_copy(update={"estimated": True})
    assert book_line(transcribed).split()[-3:] == ["transcribed", "The", "Lantern"]
    assert book_line(aligned).split()[-3:] == ["aligned", "The", "Lantern"]
    assert book_line(book).split()[-3:] == ["timed", "The", "Lantern"]
    assert book_line(estimated).split()[-3:] == ["estimated", "The", "Lantern"]
    assert len({line.index("The Lantern") for line in map(book_line, (book, transcribed, aligned))}) == 1


def test_a_catalog_entry_stored_before_books_said_what_their_times_came_from_says_so() -> None:
    # The entry of an m4b transcribed before BookInfo had times_from: it is not "timed" by a file.
    stored = ONE_CHAPTER.model_dump(mode="json", exclude={"times_from"})
    old = BookInfo.model_validate({**stored, "id": "lantern", "title": "The Lantern"})
    assert book_line(old).split()[-4:] == ["not", "recorded", "The", "Lantern"]
    assert book_line(old).index("The Lantern") == book_line(ONE_CHAPTER).index("Y")


def test_a_book_whose_transcription_stopped_part_way_says_how_much_of_it_can_be_searched() -> None:
    """A book whose job was cancelled (or is still running) was listed "transcribed", as if whole."""
    partial = ONE_CHAPTER.model_copy(
        update={
            "id": "lantern",
            "title": "The Lantern",
            "times_from": "transcription",
            "transcript": TranscriptCoverage(
                chapters_done=3,
                chapters=12,
                audio_done_ms=900_000,
                audio_ms=3_600_000,
                pending=list(range(4, 13)),
            ),
        }
    )
    assert book_line(partial).endswith(
        "The Lantern (3 of 12 chapters transcribed: the rest play, unsearched)"
    )
    assert book_line(partial).index("The Lantern") == book_line(ONE_CHAPTER).index("Y")
