"""The shape of an evaluation query: what a sleepy listener says, and where that moment is.

The query sets are JSON files in ``queries/``: the book, how and when the set was written
(``about``), and its queries in groups (``about`` of a group says what they have in common).
"""

from importlib.resources import files

from pydantic import BaseModel, ConfigDict, Field, PositiveInt


class NavigationQuery(BaseModel):
    """A spoken "take me to..." request and the chapter number(s) (`n`) that answer it.

    More than one chapter only when the moment truly spans them; a ranking is a hit when
    any of them comes up.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=3)
    chapters: tuple[PositiveInt, ...] = Field(min_length=1)


class QuerySet(BaseModel):
    """All queries for one book; `book` is the corpus file stem (``black_beauty``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    book: str = Field(min_length=1)
    queries: tuple[NavigationQuery, ...] = Field(min_length=1)


def query(text: str, *chapters: int) -> NavigationQuery:
    """Shorthand for tests: ``query("the bit with the fire", 16)``."""
    return NavigationQuery(text=text, chapters=chapters)


class QueryGroup(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str = ""
    queries: tuple[NavigationQuery, ...] = Field(min_length=1)


class QueryFile(BaseModel):
    """One file of ``queries/`` as written."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    book: str = Field(min_length=1)
    about: tuple[str, ...] = ()
    groups: tuple[QueryGroup, ...] = Field(min_length=1)


def load_query_set(name: str) -> QuerySet:
    """The query set in ``queries/<name>.json``, its groups in order."""
    text = files("bedside_evaluation").joinpath("queries", f"{name}.json").read_text(encoding="utf-8")
    written = QueryFile.model_validate_json(text)
    return QuerySet(book=written.book, queries=tuple(q for group in written.groups for q in group.queries))
