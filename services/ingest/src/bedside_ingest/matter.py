"""Pages of an e-book about the book or around it, not of the story, known by their titles: pure.

Read alone, an e-book keeps no page about the book as a chapter: a blurb tells what happens later,
and as a chapter it would be heard from the start. Aligned to a recording, no page around the story
that the recording lacks (acknowledgements, a note on the author) is news to the listener.
"""

import re
from collections.abc import Iterable, Sequence

from bedside_guard import number_value

_ABOUT_THE_BOOK = frozenset(
    (
        "about this book",
        "about the book",
        "about the ebook",
        "about the e-book",
        "about the novel",
        "about the story",
        "blurb",
        "synopsis",
        "praise",
        "by the same author",
        "copyright",
        "copyright page",
        "contents",
        "table of contents",
        "title page",
        "half title",
        "half-title",
        "in this book",
        "cast of characters",
        "list of characters",
        "characters",
        "the characters",
        "principal characters",
        "main characters",
        "dramatis personae",
        "who's who",
        "the cast",
        "cast",
        "persons of the play",
        "family tree",
        "back cover",
        "from the back cover",
        "jacket copy",
        "description",
        "book description",
    )
)
"""Pages about the book: a cast list and a back cover tell who comes later as a blurb does."""
_ABOUT_LEADS = ("praise for", "also by", "books by", "other books by", "more books by", "about")
"""Said before the book's title or its author: "Praise for The Lantern", "Also by Ada Lovell"."""
_AROUND_THE_STORY = frozenset(
    (
        "acknowledgements",
        "acknowledgments",
        "about the author",
        "about the authors",
        "a note on the author",
        "author's note",
        "a note from the author",
        "notes",
        "glossary",
        "bibliography",
        "index",
        "reading group guide",
        "discussion questions",
        "further reading",
    )
)
_PLAIN_END = re.compile(r"[^\w\s'-].*$")
"""From the first mark that is no part of a name on: "Copyright © 2024", "Also by Ada Lovell:"."""


def _folded(text: str) -> str:
    """``text`` in lower case, one space apart, however it writes an apostrophe or "æ"."""
    return " ".join(text.casefold().replace("\u2019", "'").replace("æ", "ae").split())


def _plain(text: str) -> str:
    return _PLAIN_END.sub("", _folded(text)).strip(" -")


def _names(book_title: str, author: str) -> set[str]:
    """The book and its author as a page's title may name them: "The Lantern" of "The Lantern: A
    Novel", "Ada Lovell" and "Lovell" of "Lovell, Ada"."""
    names = {_plain(book_title), _plain(author), "the author"}
    if "," in author:
        last, first = (part.strip() for part in author.split(",", 1))
        names |= {_plain(f"{first} {last}"), _plain(last)}
    return {name for name in names if name}


def about_the_book(title: str, book_title: str, author: str) -> bool:
    """Whether a page so titled is about the book, by its whole title: "Also by Moonlight" is a chapter."""
    said = _plain(title)
    named = _names(book_title, author)
    return said in _ABOUT_THE_BOOK or said in {f"{lead} {name}" for lead in _ABOUT_LEADS for name in named}


_NUMBERED = re.compile(r"^(?:chapter\s+[\w-]+\b[.:)]?|(?:\d+|[ivxlc]+)[.:)])\s*|\s+\d+$", re.IGNORECASE)
"""A number before a title, as a heading or a contents list writes it ("Chapter 1:", "Chapter One.",
"1.", "IV)"), and a page number after it."""
_CHAPTER_WORD = re.compile(r"^chapter\s+", re.IGNORECASE)
_DOT_LEADERS = re.compile(r"\s*(?:\.\s*){2,}\d*$")
LISTED_LEAST = 3
"""How many of the book's chapter titles a page must list to be its contents."""


def lists_the_chapters(paragraphs: Sequence[str], titles: Sequence[str]) -> bool:
    """Whether a page is the book's contents under any title ("In This Book"): at least
    ``LISTED_LEAST`` of its paragraphs, and most of them, are other chapters' titles, numbered or not."""
    known = known_titles(titles)
    entries = [paragraph for paragraph in paragraphs if not number_alone(paragraph)]  # "1" over its title
    listed = sum(listed_entry(entry, known) for entry in entries)
    return listed >= LISTED_LEAST and listed * 2 > len(entries)


def known_titles(titles: Iterable[str]) -> set[str]:
    """The book's chapter titles as ``listed_entry`` compares them."""
    return {_unnumbered(title) for title in titles} - {""}


def listed_entry(line: str, known: set[str]) -> bool:
    """Whether a line or a paragraph is an entry of the book's contents: one of its chapters' titles
    (``known_titles``), numbered or not, with a page number or not."""
    return _unnumbered(line) in known


def number_alone(line: str) -> bool:
    """A number with nothing besides, as a contents list may set it above its title ("Chapter 1", "IV")."""
    return number_value(_CHAPTER_WORD.sub("", line.strip()).rstrip(".:)")) is not None


def _unnumbered(title: str) -> str:
    """A title or a contents entry whole, in lower case, without its number, page or dot leaders: "Arya,
    come here." is no entry "Arya"."""
    said = _NUMBERED.sub("", _folded(title))
    return _DOT_LEADERS.sub("", said).strip(" .:;,!?-")


def around_the_story(title: str, book_title: str, author: str) -> bool:
    """Whether a page so titled is about the book or around its story (acknowledgements, notes)."""
    return about_the_book(title, book_title, author) or _plain(title) in _AROUND_THE_STORY
