"""Black Beauty's names as a recogniser writes them, asked in the dark: the book's own names table.

Black Beauty is read from the shared corpus at run time (skipped where absent). Pure: the names of
the chunked book, and the respelling recall reads a question with.
"""

import pytest
from bedside_evaluation.corpus import corpus_dir
from bedside_guard import BookNames, Passage, book_names, names_respelled
from bedside_ingest.chunking import chunk_book
from bedside_ingest.formats.jsonbook import load_json_book

BLACK_BEAUTY = corpus_dir() / "black_beauty.json"


class Book:
    def __init__(self, passages: list[Passage], names: BookNames) -> None:
        self.passages = passages
        self.names = names

    def start_of(self, chapter: int) -> int:
        return min(p.start_ms for p in self.passages if p.chapter == chapter)


@pytest.fixture(scope="module")
def black_beauty() -> Book:
    if not BLACK_BEAUTY.is_file():
        pytest.skip(f"{BLACK_BEAUTY} is absent (the shared corpus)")
    book = load_json_book(BLACK_BEAUTY)
    passages = chunk_book(book)
    return Book(passages, book_names(passages, book.title))


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("who is merry legs", "who is Merrylegs"),
        ("who is merry legs again?", "who is Merrylegs again?"),
        ("who is squire gorden", "who is squire Gordon"),
        ("who is john manley", "who is john Manly"),
        ("who is james howerd", "who is james Howard"),
        ("whos ginger", "whos ginger"),  # heard as said
    ],
)
def test_a_name_heard_said_as_it_sounds_is_read_as_the_books_name(
    black_beauty: Book, said: str, read: str
) -> None:
    """Chapter 6: the pony, the squire, the coachman and the stable boy have all been named."""
    assert names_respelled(said, black_beauty.names, black_beauty.start_of(6)) == read


@pytest.mark.parametrize(("said", "chapter"), [("who is merry legs", 3), ("who is captin", 30)])
def test_a_name_not_heard_yet_is_not_read_into_what_is_said(
    black_beauty: Book, said: str, chapter: int
) -> None:
    """Merrylegs is named in chapter 4 and Captain in chapter 33: asked before, nothing is made of it."""
    assert names_respelled(said, black_beauty.names, black_beauty.start_of(chapter)) == said
