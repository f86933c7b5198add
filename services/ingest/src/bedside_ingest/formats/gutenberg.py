"""Project Gutenberg's own words around a book, told apart from the book: pure, no I/O.

A free e-book most often comes from Project Gutenberg, wrapped in its header ("*** START OF THE
PROJECT GUTENBERG EBOOK ... ***") and followed by its "End of" line and licence, some three
thousand words. Read as the book, the licence became the end of the last chapter: "the end"
landed in it and a recap of the last chapter could read it out.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

_START = re.compile(r"^\s*\*{3}\s*START OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK\b", re.IGNORECASE)
_END = re.compile(
    r"^\s*(?:\*{3}\s*END OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK\b"
    r"|End of (?:the )?Project Gutenberg(?:'s)?\b)",
    re.IGNORECASE,
)
_FIELD = re.compile(r"^\s*(Title|Author):\s*(\S.*?)\s*$")
BOILERPLATE_IDS = frozenset({"pg-header", "pg-footer"})
BOILERPLATE_CLASS = "pg-boilerplate"
"""How Project Gutenberg's EPUB pages mark the header and the licence (an element's id or class)."""


@dataclass(frozen=True)
class Wrapping:
    """Where the book lies among a text's lines or blocks, and what the header says of it."""

    start: int
    """The first line of the book itself: the one after the START line (0 when there is none)."""
    end: int
    """Where the book stops: the END or "End of" line, or the text's length."""
    title: str = ""
    author: str = ""


def wrapping(texts: Sequence[str]) -> Wrapping:
    """Where the book lies among ``texts`` (a file's lines, or a page's blocks, in order).

    Only a START line marks a header: before one, "Title:" and "Author:" are the header's fields,
    and a text without one is read whole up to an END line, as an EPUB page holding only the
    licence's start is.
    """
    start = next((i + 1 for i, text in enumerate(texts) if _START.match(text)), 0)
    end = next((i for i in range(start, len(texts)) if _END.match(texts[i])), len(texts))
    header = texts[: max(start - 1, 0)]
    fields = {m.group(1).lower(): m.group(2) for text in header if (m := _FIELD.match(text))}
    return Wrapping(start, end, fields.get("title", ""), fields.get("author", ""))


def is_boilerplate(attributes: dict[str, str | None]) -> bool:
    """Whether an (X)HTML element is Project Gutenberg's header or licence, by its marks."""
    classes = (attributes.get("class") or "").split()
    return attributes.get("id") in BOILERPLATE_IDS or BOILERPLATE_CLASS in classes
