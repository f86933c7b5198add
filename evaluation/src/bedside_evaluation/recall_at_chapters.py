"""Search's own recall over corpus books, in process, for question sets asked at chapter starts."""

import asyncio
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Generic, TypeVar

from bedside_contracts.search import Recall, Recalled
from bedside_embedding import Embedder
from bedside_search.domain.book import ServedBook
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from pydantic import BaseModel, ConfigDict

from bedside_evaluation.corpus_books import corpus_artifact

CORPUS_FILE = {"black_beauty": "black_beauty", "sherlock_holmes": "adventures_of_sherlock_holmes"}
"""The books question sets are written for, by their name in a set, and their corpus file."""
Asked = TypeVar("Asked", bound=BaseModel)


@asynccontextmanager
async def recall_engine(embedder: Embedder) -> AsyncIterator[SearchEngine]:
    """A search engine over a store in a temporary directory, gone afterwards."""
    with tempfile.TemporaryDirectory(prefix="bedside-recall-") as directory:
        store = await open_store(path=Path(directory))
        try:
            yield SearchEngine(store, embedder)
        finally:
            await store.close()


async def served_book(engine: SearchEngine, embedder: Embedder, corpus: Path, book_name: str) -> ServedBook:
    """``book_name`` indexed from the corpus, as search serves it."""
    artifact = await asyncio.to_thread(corpus_artifact, corpus / f"{CORPUS_FILE[book_name]}.json", embedder)
    await engine.index(artifact)
    return engine.book(artifact.book)


async def recall_at_chapter(engine: SearchEngine, book: ServedBook, chapter: int, question: str) -> Recalled:
    """Recall asked with the listener's line at the first moment of ``chapter``."""
    start = book.first_of_chapter(chapter)
    assert start is not None, f"{book.id} has no chapter {chapter}"
    return await engine.recall(Recall(book=book.id, here_ms=start.start_ms, question=question))


class BookQuestions(BaseModel, Generic[Asked]):
    model_config = ConfigDict(frozen=True, extra="forbid")

    book: str
    questions: tuple[Asked, ...]


class QuestionFile(BaseModel, Generic[Asked]):
    """A set of ``questions/NAME.json``: what it is (``about``) and its questions, book by book."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    about: tuple[str, ...] = ()
    books: tuple[BookQuestions[Asked], ...]


def load_questions(name: str, shape: type[QuestionFile[Asked]]) -> QuestionFile[Asked]:
    """The set ``questions/NAME.json``, read as ``shape`` (``QuestionFile`` of a question type)."""
    text = files("bedside_evaluation").joinpath("questions", f"{name}.json").read_text(encoding="utf-8")
    return shape.model_validate_json(text)


def questions_by_book(names: Sequence[str], shape: type[QuestionFile[Asked]]) -> dict[str, list[Asked]]:
    """The questions of the sets ``names``, gathered by book."""
    by_book: dict[str, list[Asked]] = {}
    for name in names:
        for written in load_questions(name, shape).books:
            by_book.setdefault(written.book, []).extend(written.questions)
    return by_book
