"""Numbers as a listener says them, without I/O: "21", "twenty-one", "a hundred and five", "a few".

A long book has more than a hundred chapters, and "twenty five minutes" is not five: a number in
words is read whole, up to 999, or not at all.
"""

import re

from bedside_guard.numbers import IN_WORDS, ONES, ORDINALS, TENS, one_of, value_in_words

_LOOSE = {"a couple of": 2, "a couple": 2, "a few": 3, "another": 1, "an": 1, "a": 1}
"""Said for a number without being one ("back a few minutes", "an hour")."""
SAID = rf"(?:\d+(?:\.\d+)?|{IN_WORDS}|{one_of(_LOOSE)})"
"""Any number a listener says, "a" and "a few" among them ("back an hour")."""
SAID_AS_A_NUMBER = rf"(?:\d+(?:\.\d+)?|{IN_WORDS})"
"""A number said as one, not "a" or "an" ("back an hour" has its unit; "back a" is no amount)."""


def number_of(said: str) -> float:
    """The value of a number ``SAID`` matched; KeyError for words that are no number."""
    said = said.strip()
    if said[:1].isdigit():
        return float(said)
    if said in _LOOSE:
        return float(_LOOSE[said])
    value = value_in_words(said)
    if value is None:
        raise KeyError(said)
    return float(value)


ORDINAL_WORDS = tuple(ORDINALS)
"""The ordinal words in order from "first"."""
_ORDINAL_CHAPTER = re.compile(
    rf"(?:\bthe |^)(?:((?:{one_of(TENS)})[\s-]))?({one_of(ORDINALS)})"
    r" chapter\b|(?:\bthe |^)(\d+)(?:st|nd|rd|th) chapter\b"
)


def ordinal_chapters_as_numbers(text: str) -> str:
    """``text`` with "the third chapter", "the twenty-first chapter" and "the 3rd chapter" said as
    "chapter three", "chapter twenty one" and "chapter 3", the one way every reader knows."""

    def as_number(said: re.Match[str]) -> str:
        tens, ordinal, digits = said.groups()
        if digits:
            return f"chapter {digits}"
        return f"chapter {tens.strip(' -') + ' ' if tens else ''}{ORDINALS[ordinal]}"

    return _ORDINAL_CHAPTER.sub(as_number, text)


_TIME_UNIT = r"(?:minutes?|mins?|seconds?|secs?|hours?)\b"
_JOINED_TENS = re.compile(
    rf"\b(?P<before>chapter )?(?P<tens>{one_of(TENS)})(?P<ones>{one_of(ONES)})\b(?P<after> {_TIME_UNIT})?"
)
"""A number typed as one word, "twentyfive": said, it would be two. Only as a chapter's number or
an amount of time: elsewhere it may be a word of the story (a name)."""
_ROMAN_LETTERS = (
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)
_ROMAN_CHAPTER = re.compile(r"\bchapter ([ivxlc]+)(?=(?: please)?$)")
"""A chapter as a book heads it, "Chapter XXV", said last: in "the chapter Liv left home" it is a
name (below 400: "d" and "m" make words)."""


def roman_value(numeral: str) -> int | None:
    """The value of a Roman numeral written the usual way ("xxv", "xiv"), else None ("iiii", "ixi")."""
    value, rest = 0, numeral
    for worth, letters in _ROMAN_LETTERS:
        while rest.startswith(letters):
            value, rest = value + worth, rest[len(letters) :]
    return value if not rest and value and _as_roman(value) == numeral else None


def _as_roman(value: int) -> str:
    said = ""
    for worth, letters in _ROMAN_LETTERS:
        count, value = divmod(value, worth)
        said += letters * count
    return said


def numbers_as_said(text: str) -> str:
    """``text`` (lower case) with "chapter twentyfive" and "twentyfive minutes" in two words, and
    "chapter xxv" as "chapter 25"."""

    def spaced(said: re.Match[str]) -> str:
        before, after = said["before"] or "", said["after"] or ""
        return f"{before}{said['tens']} {said['ones']}{after}" if before or after else said.group(0)

    def chapter(said: re.Match[str]) -> str:
        value = roman_value(said.group(1))
        return said.group(0) if value is None else f"chapter {value}"

    return _ROMAN_CHAPTER.sub(chapter, _JOINED_TENS.sub(spaced, text))
