"""Names asked ("what's the pony called?"): does the keyless reply say the name?

Each question of ``questions/names_asked*.json`` is asked by search's own recall at the first moment
of a chapter, and answered as the keyless turn answers it: a quote from the first recalled place
(``speech.quoting``). It is right when the quote holds the name; beside it, whether the first place
is in a chapter that tells the name, and whether any of the four places holds the name (what a
model reads).
"""

import re
from pathlib import Path

from bedside_embedding import Embedder
from bedside_turn.domain import speech
from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from bedside_evaluation.command import run_named
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.recall_at_chapters import (
    QuestionFile,
    questions_by_book,
    recall_at_chapter,
    recall_engine,
    served_book,
)

READ_BY_A_MODEL = 4


class NameQuestion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=3)
    at: PositiveInt
    name: str = Field(min_length=2)
    named_in: tuple[PositiveInt, ...] = Field(min_length=1)


def says(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name.lower())}\b", text.lower()) is not None


async def run(embedder: Embedder, names: list[str], corpus: Path | None = None) -> str:
    corpus = corpus_dir() if corpus is None else corpus
    by_book = questions_by_book(names, QuestionFile[NameQuestion])
    lines: list[str] = []
    quoted = chapter = read = total = 0
    async with recall_engine(embedder) as engine:
        for book_name, questions in by_book.items():
            book = await served_book(engine, embedder, corpus, book_name)
            for question in questions:
                recalled = await recall_at_chapter(engine, book, question.at, question.text)
                places = recalled.places if recalled.come_up else []
                asked = recalled.read_as or question.text  # as the keyless turn quotes it
                reply = speech.quoting(places[0], asked) if places else speech.NOT_YET
                right = says(reply, question.name)
                first_chapter = places[0].chapter if places else None
                total += 1
                quoted += int(right)
                chapter += int(first_chapter in question.named_in)
                read += int(any(says(p.words or "", question.name) for p in places[:READ_BY_A_MODEL]))
                lines.append(
                    f"{'ok ' if right else 'BAD'} {book_name} at ch {question.at}: {question.text!r} "
                    f"-> ch {first_chapter} (named in {list(question.named_in)}, {question.name}): {reply}"
                )
    lines.append(f"the keyless reply says the name: {quoted}/{total} ({quoted / max(total, 1):.0%})")
    lines.append(f"the first place is in a chapter that tells it: {chapter}/{total}")
    lines.append(
        f"one of the first {READ_BY_A_MODEL} places holds the name (a model reads them): {read}/{total}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_named(run, argv, "names_asked")


if __name__ == "__main__":
    raise SystemExit(main())
