"""Recall at chapter starts: does it say "not come up yet" when it has not, and answer when it has?

Each question of ``questions/*.json`` is asked by search's own recall at the first moment of
a chapter. A "has not" question is right when recall finds nothing heard; a "has come up"
one when it answers and its first place (the one the keyless reply quotes) is in a chapter
that answers it.
"""

import asyncio
import tempfile
from importlib.resources import files
from pathlib import Path

from bedside_contracts.search import Recall
from bedside_embedding import Embedder
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from bedside_evaluation.command import run_named
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import corpus_artifact

CORPUS_FILE = {"black_beauty": "black_beauty", "sherlock_holmes": "adventures_of_sherlock_holmes"}


class ComeUpQuestion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=3)
    at: PositiveInt
    answered_in: tuple[PositiveInt, ...]


class BookQuestions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    book: str
    questions: tuple[ComeUpQuestion, ...]


class QuestionFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    about: tuple[str, ...] = ()
    books: tuple[BookQuestions, ...]


def load_questions(name: str) -> QuestionFile:
    text = files("bedside_evaluation").joinpath("questions", f"{name}.json").read_text(encoding="utf-8")
    return QuestionFile.model_validate_json(text)


async def run(embedder: Embedder, names: list[str], corpus: Path | None = None) -> str:
    corpus = corpus_dir() if corpus is None else corpus
    by_book: dict[str, list[ComeUpQuestion]] = {}
    for name in names:
        for written in load_questions(name).books:
            by_book.setdefault(written.book, []).extend(written.questions)
    lines: list[str] = []
    totals = {"not yet": [0, 0], "come up": [0, 0]}
    with tempfile.TemporaryDirectory(prefix="bedside-comeup-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for book_name, questions in by_book.items():
                artifact = await asyncio.to_thread(
                    corpus_artifact, corpus / f"{CORPUS_FILE[book_name]}.json", embedder
                )
                await engine.index(artifact)
                book = engine.book(artifact.book)
                for question in questions:
                    start = book.first_of_chapter(question.at)
                    assert start is not None, f"{book_name} has no chapter {question.at}"
                    recalled = await engine.recall(
                        Recall(book=book.id, here_ms=start.start_ms, question=question.text)
                    )
                    said = "not yet" if not recalled.come_up else f"ch {recalled.hits[0].chapter}"
                    kind = "come up" if question.answered_in else "not yet"
                    right: bool = (
                        recalled.come_up and recalled.hits[0].chapter in question.answered_in
                        if question.answered_in
                        else not recalled.come_up
                    )
                    totals[kind][0] += int(right)
                    totals[kind][1] += 1
                    why = f" names={recalled.unheard_names}" if recalled.unheard_names else ""
                    why += " later" if recalled.asks_later else ""
                    lines.append(
                        f"{'ok ' if right else 'BAD'} {book_name} at ch {question.at}: {question.text!r}"
                        f" -> {said}{why} (wanted {list(question.answered_in) or 'not yet'})"
                    )
        finally:
            await store.close()
    for kind, (count, total) in totals.items():
        lines.append(f"{kind}: {count}/{total} right ({count / max(total, 1):.0%})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_named(run, argv, "come_up")


if __name__ == "__main__":
    raise SystemExit(main())
