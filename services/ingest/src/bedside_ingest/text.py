"""Plain rules about English prose: sentences, words, and what a chapter heading looks like."""

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

NUMBER_WORDS = (  # noqa: SIM905 (one readable line of words)
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty"
).split()
_NUMBER = (
    r"(?:\d{1,4}|[IVXLCDM]{1,8}|(?:"
    + "|".join(NUMBER_WORDS)
    + r")(?:[- ](?:"
    + "|".join(NUMBER_WORDS[:9])
    + r"))?)"
)
HEADING = re.compile(
    rf"^\s*(?:chapter|part|book)\s+(?P<number>{_NUMBER})\b\s*(?:[.:—–-]\s*)?(?P<title>.*)$",
    re.IGNORECASE,
)
MAX_HEADING_WORDS = 12


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


def heading_title(text: str) -> tuple[str, str] | None:
    """``(number, title)`` when ``text`` is a chapter heading ("Chapter 3. The Storm"), else None."""
    line = clean(text)
    if word_count(line) > MAX_HEADING_WORDS:
        return None
    match = HEADING.match(line)
    if match is None:
        return None
    title = match.group("title").strip().rstrip(".").strip()
    return match.group("number"), title
