"""Plain rules about English prose every service reads it by: where a sentence ends, how a
sentence inside dialogue is made whole, and what a chapter heading looks like. Pure.

A sentence ends at . ! or ? (and any closing quotes or brackets) followed by a space and
the start of another: a capital, a digit, or an opening quote before one. So ``"Is it
yours?" asked Wren.`` is one sentence, and a title such as "Mrs." ends none.
"""

import re

TITLES = ("Mr", "Mrs", "Ms", "Dr", "St", "Messrs", "Mme", "Col", "Capt", "Rev", "Prof")
"""Abbreviations whose full stop ends no sentence: the name after "Mrs." stands inside one."""

_SENTENCE_END = re.compile(
    "".join(rf"(?<!\b{title}\.)" for title in TITLES)
    + r"(?<=[.!?])(?P<close>[\"\u201d\u2019')\]]*)\s+(?=[\"'\u201c\u2018(\[]*[A-Z0-9])"
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of ``text`` starts and ends (its closing quotes included)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.end("close")))
        start = match.end()
    spans.append((start, len(text)))
    return [_stripped(text, s, e) for s, e in spans if text[s:e].strip()]


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    start += len(piece) - len(piece.lstrip())
    return start, end - (len(piece) - len(piece.rstrip()))


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text``, as written."""
    return [text[s:e] for s, e in sentence_spans(text)]


def is_whole_sentence(text: str) -> bool:
    """Whether ``text`` is a sentence as written, not a piece of one: it starts as a sentence
    does (not in lower case, not with a closing mark) and ends with its full stop (closing
    quotes and brackets aside). What a passage starts mid-way, the line cuts short or an
    excerpt cuts off is a piece."""
    opening = text.lstrip("\"'\u201c\u2018(")
    ending = text.rstrip("\"'\u201d\u2019)]")
    starts = bool(opening) and not opening[0].islower() and not text.startswith(("\u201d", "\u2019"))
    return starts and ending.endswith((".", "!", "?", "\u2026"))


_PAIRS = {"\u201c": "\u201d"}
_CLOSING = {"\u201d": "\u201c"}


def balance_quotes(text: str) -> str:
    """``text`` with the double quote marks it leaves open closed, and those it closes opened.

    A sentence taken out of a quotation of several ("She said it always pointed home.") keeps
    its speaker's marks on both sides, so it reads, and is shown, as the dialogue it is. A
    straight mark opens after a space or at the start, and closes anywhere else.
    """
    opened: list[str] = []
    missing: list[str] = []
    for i, mark in enumerate(text):
        if mark == '"':
            opens = i == 0 or text[i - 1].isspace() or text[i - 1] in "([\u2014"
            if opens:
                opened.append('"')
            elif opened:
                opened.pop()
            else:
                missing.append('"')
        elif mark in _PAIRS:
            opened.append(_PAIRS[mark])
        elif mark in _CLOSING:
            if opened:
                opened.pop()
            else:
                missing.append(_CLOSING[mark])
    return "".join(reversed(missing)) + text + "".join(reversed(opened))


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
_WORD = re.compile(r"[\w’']+")


def heading_title(text: str) -> tuple[str, str] | None:
    """``(number, title)`` when ``text`` is a chapter heading ("Chapter 3. The Storm"), else None."""
    line = " ".join(text.split())
    if len(_WORD.findall(line)) > MAX_HEADING_WORDS:
        return None
    match = HEADING.match(line)
    if match is None:
        return None
    title = match.group("title").strip().rstrip(".").strip()
    return match.group("number"), title


def is_heading(sentence: str) -> bool:
    """Whether a sentence of a passage is its chapter's heading, read out, not the story."""
    return heading_title(sentence) is not None


def without_headings(text: str) -> str:
    """``text`` without the chapter headings read out in it: the story's own sentences. A title
    ("Chapter Five: What Pudding Kept.") names someone as no sentence of the story does."""
    return " ".join(s for s in sentences_of(text) if not is_heading(s))
