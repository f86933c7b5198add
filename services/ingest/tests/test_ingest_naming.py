"""Which title and author a recording's book takes: a --title, else the recording's tags, else
the e-book's, else the recording's name."""

from bedside_contracts.ingest import LONGEST_TITLE
from bedside_ingest.audiobook import Audiobook
from bedside_ingest.book import Book
from bedside_ingest.naming import book_names


def recording(title_tag: str, author: str = "") -> Audiobook:
    return Audiobook(
        title=title_tag or "lantern",  # the file's name where there is no tag, as audiobook_of makes it
        author=author,
        narrator="",
        chapters=(),
        files=("lantern.m4b",),
        title_tag=title_tag,
    )


EBOOK = Book(
    title="The Lantern at Gull Point", author="The Bedside authors", chapters=(), format="epub", timed=False
)


def test_the_recordings_own_tag_wins_over_the_e_books_title() -> None:
    tagged = recording("Gull Point, read aloud", author="A Reader")
    assert book_names(None, tagged, EBOOK) == ("Gull Point, read aloud", "A Reader")


def test_the_e_book_names_a_recording_that_has_no_tags() -> None:
    assert book_names(None, recording(""), EBOOK) == ("The Lantern at Gull Point", "The Bedside authors")


def test_a_title_given_wins_over_both() -> None:
    tagged = recording("Gull Point, read aloud")
    assert book_names("My Lantern", tagged, EBOOK)[0] == "My Lantern"
    assert book_names("My Lantern", recording(""), None)[0] == "My Lantern"


def test_without_tags_or_an_e_book_the_recordings_name_is_its_title() -> None:
    assert book_names(None, recording(""), None) == ("lantern", "")


def test_a_tag_of_any_length_names_the_book_cut_to_the_longest_title() -> None:
    """An ingest review: a title tag of 3000 letters was kept whole and panned the page sideways."""
    title, author = book_names(None, recording("A" * 3000, author="B " * 600), None)
    assert (len(title), title[-1]) == (LONGEST_TITLE, "…")
    assert len(author) <= LONGEST_TITLE
    assert book_names(None, recording("  Gull   Point "), None)[0] == "Gull Point"
