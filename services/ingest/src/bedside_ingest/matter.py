"""Pages of an e-book about the book or around it, not of the story, known by their titles: pure.

Read alone, an e-book keeps no page about the book as a chapter: a blurb tells what happens later,
and as a chapter it would be heard from the start. Aligned to a recording, no page around the story
that the recording lacks (acknowledgements, a note on the author) is news to the listener.
"""

import re

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
    )
)
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


def _plain(text: str) -> str:
    return _PLAIN_END.sub("", " ".join(text.casefold().split())).strip(" -")


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


def around_the_story(title: str, book_title: str, author: str) -> bool:
    """Whether a page so titled is about the book or around its story (acknowledgements, notes)."""
    return about_the_book(title, book_title, author) or _plain(title) in _AROUND_THE_STORY
