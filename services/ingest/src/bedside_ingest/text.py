"""Plain rules about English prose: words and clauses. Where a sentence ends (``sentences_of``,
``ends_sentence``) and what a chapter heading looks like (``heading_title``) are the guard's, so
each is known by one rule where a book is read and where it is quoted."""

import re
import unicodedata

from bedside_guard import sentences_of

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[\w’']+")
_CLAUSE_MARKS = (",", ";", ":", "—", "–", "-")
_CLOSERS = "\"'”’)]»"


NOTE_MARK = re.compile(r"\[(?:\d{1,3}|[a-z*])\]")
"""A footnote's mark in running text ("Tallow Street.[1] Every"): never read aloud."""


def clean(text: str) -> str:
    """One line of text with single spaces, without footnote marks."""
    return _SPACE.sub(" ", NOTE_MARK.sub("", text)).strip()


def is_note(paragraph: str) -> bool:
    """Whether a paragraph of plain text is a footnote's own ("[1] Tallow Street was renamed...")."""
    return NOTE_MARK.match(paragraph.lstrip()) is not None


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def ends_clause(text: str) -> bool:
    return text.rstrip().rstrip(_CLOSERS).endswith(_CLAUSE_MARKS)


def split_sentences(paragraph: str) -> list[str]:
    """The sentences of one paragraph, on one line each: the guard's splitter (``sentences_of``),
    so a passage closes where a sentence read out or quoted ends, and never after "Mr."."""
    return sentences_of(clean(paragraph))


NOT_TEXT_MOST = 0.01
"""The share of characters no text holds past which a decoded file is no text: an old e-text may
carry a stray control character (DOS's end-of-file mark), binary data taken for text a great many."""
NOT_TEXT_LOOKED_AT = 200_000
"""Characters looked at, from the start: binary data shows at once, and a long book costs no more."""
_NOT_IN_TEXT = frozenset({"Cc", "Co", "Cn", "Cs"})  # control, private-use, unassigned, lone surrogate
_TEXT_CONTROLS = frozenset("\t\n\r\f\v")


def not_text_share(text: str) -> float:
    """The share of ``text``'s characters (of its first ``NOT_TEXT_LOOKED_AT``) that no text holds:
    random bytes decoded as UTF-16 are a quarter private-use or unassigned, as Windows-1252 a tenth
    control characters."""
    head = text[:NOT_TEXT_LOOKED_AT]
    odd = sum(1 for char in head if char not in _TEXT_CONTROLS and unicodedata.category(char) in _NOT_IN_TEXT)
    return odd / len(head) if head else 0.0
