"""The shape of an evaluation query: what a sleepy listener says, and where that moment is."""

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
    """Shorthand used by the query modules: ``query("the bit with the fire", 16)``."""
    return NavigationQuery(text=text, chapters=chapters)
