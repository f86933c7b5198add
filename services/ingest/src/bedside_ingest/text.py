"""Plain rules about English prose: sentences and words. What a chapter heading looks like is the
guard's (``heading_title``), so a heading is known by one rule where a book is read and where it
is quoted."""

import re

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[\w’']+")
_CLOSERS = "\"'”’)]»"
_SENTENCE_MARKS = (".", "!", "?", "…")
_CLAUSE_MARKS = (",", ";", ":", "—", "–", "-")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st mt jr sr vs etc prof rev capt col gen lt sgt no fig vol ch esq".split()  # noqa: SIM905
)
# A sentence ends at . ! ? … (and any closing quotes) followed by space and a capital or an opener.
_BOUNDARY = re.compile(r"(?<=[.!?…])([\"'”’)\]»]*)\s+(?=[\"'“‘(\[«]?[A-Z0-9])")


def clean(text: str) -> str:
    """One line of text with single spaces."""
    return _SPACE.sub(" ", text).strip()


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends a sentence (closing quotes and brackets aside)."""
    stripped = text.rstrip().rstrip(_CLOSERS)
    if not stripped.endswith(_SENTENCE_MARKS):
        return False
    last = stripped.rsplit(None, 1)[-1].rstrip(".").lower()
    return last not in _ABBREVIATIONS


def ends_clause(text: str) -> bool:
    return text.rstrip().rstrip(_CLOSERS).endswith(_CLAUSE_MARKS)


def split_sentences(paragraph: str) -> list[str]:
    """The sentences of one paragraph; abbreviations such as "Mr." do not end one."""
    text = clean(paragraph)
    if not text:
        return []
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.end(1)
        candidate = text[start:end]
        if not ends_sentence(candidate):
            continue
        sentences.append(candidate.strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences
