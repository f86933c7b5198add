"""Recall at chapter starts: does it say "not come up yet" when it has not, and answer when it has?

Each question of ``questions/*.json`` is asked by search's own recall at the first moment of
a chapter. A "has not" question is right when recall finds nothing heard; a "has come up"
one when it answers and its first place (the one the keyless reply quotes) is in a chapter
that answers it.
"""

from pathlib import Path

from bedside_embedding import Embedder
from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from bedside_evaluation.command import run_named
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.recall_at_chapters import (
    QuestionFile,
    load_questions,
    questions_by_book,
    recall_at_chapter,
    recall_engine,
    served_book,
)


class ComeUpQuestion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=3)
    at: PositiveInt
    answered_in: tuple[PositiveInt, ...]


def load_come_up(name: str) -> QuestionFile[ComeUpQuestion]:
    return load_questions(name, QuestionFile[ComeUpQuestion])


async def run(embedder: Embedder, names: list[str], corpus: Path | None = None) -> str:
    corpus = corpus_dir() if corpus is None else corpus
    by_book = questions_by_book(names, QuestionFile[ComeUpQuestion])
    lines: list[str] = []
    totals = {"not yet": [0, 0], "come up": [0, 0]}
    async with recall_engine(embedder) as engine:
        for book_name, questions in by_book.items():
            book = await served_book(engine, embedder, corpus, book_name)
            for question in questions:
                recalled = await recall_at_chapter(engine, book, question.at, question.text)
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
    for kind, (count, total) in totals.items():
        lines.append(f"{kind}: {count}/{total} right ({count / max(total, 1):.0%})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_named(run, argv, "come_up")


if __name__ == "__main__":
    raise SystemExit(main())
