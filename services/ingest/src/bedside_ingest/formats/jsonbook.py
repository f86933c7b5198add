"""The JSON book: ``{title, author, chapters: [{n, title, text}]}``, paragraphs split by blank lines."""

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bedside_ingest.book import Book
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.untimed import untimed_chapter


class JsonChapter(BaseModel):
    model_config = ConfigDict(extra="ignore")

    n: int = Field(ge=0)
    title: str
    text: str


class JsonBook(BaseModel):
    model_config = ConfigDict(extra="ignore")

    title: str = Field(min_length=1)
    author: str = ""
    chapters: list[JsonChapter] = Field(min_length=1)


def is_json_book(data: Any) -> bool:
    chapters = data.get("chapters") if isinstance(data, dict) else None
    return isinstance(chapters, list) and any(isinstance(c, dict) and "text" in c for c in chapters)


def read_json_book(path: Path, data: Any) -> Book:
    try:
        parsed = JsonBook.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or None
        raise BadInput(path, f"not a JSON book: {first['msg']}", where) from None
    chapters = []
    for chapter in parsed.chapters:
        where = f"chapter n={chapter.n} ({chapter.title!r})"
        paragraphs = [(p, where) for p in chapter.text.split("\n\n")]
        chapters.append(untimed_chapter(chapter.n, chapter.title, paragraphs, where))
    return Book(
        title=parsed.title, author=parsed.author, chapters=tuple(chapters), format="json-book", timed=False
    )


def load_json_book(path: Path | str) -> Book:
    """A JSON book file (the corpus format) read into a ``Book``; times are not estimated yet."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(path, f"cannot read it as JSON: {error}") from None
    return read_json_book(path, data)
