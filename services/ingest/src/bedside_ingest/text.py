"""Plain rules about English prose: words and clauses. Where a sentence ends (``sentences_of``,
``ends_sentence``) and what a chapter heading looks like (``heading_title``) are the guard's, so
each is known by one rule where a book is read and where it is quoted."""

import re

from bedside_guard import sentences_of

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[\w’']+")
_CLAUSE_MARKS = (",", ";", ":", "—", "–", "-")
_CLOSERS = "\"'”’)]»"


def clean(text: str) -> str:
    """One line of text with single spaces."""
    return _SPACE.sub(" ", text).strip()


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def ends_clause(text: str) -> bool:
    return text.rstrip().rstrip(_CLOSERS).endswith(_CLAUSE_MARKS)


def split_sentences(paragraph: str) -> list[str]:
    """The sentences of one paragraph, on one line each: the guard's splitter (``sentences_of``),
    so a passage closes where a sentence read out or quoted ends, and never after "Mr."."""
    return sentences_of(clean(paragraph))
