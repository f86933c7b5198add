"""Whole numbers written in English words, one to 999: a heading's "Chapter Twenty-One" and a
listener's "skip a hundred and five seconds" are read by this one rule.

"twenty five" is twenty-five, not five: a number is matched whole or not at all.
"""

import re
from collections.abc import Iterable

ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_WORD_VALUES = {**ONES, **TEENS, **TENS, "a": 1}

ORDINALS = {
    "first": "one",
    "second": "two",
    "third": "three",
    "fourth": "four",
    "fifth": "five",
    "sixth": "six",
    "seventh": "seven",
    "eighth": "eight",
    "ninth": "nine",
    "tenth": "ten",
    "eleventh": "eleven",
    "twelfth": "twelve",
    **{f"{teen}th": teen for teen in TEENS if teen.endswith("teen")},
    **{f"{tens[:-1]}ieth": tens for tens in TENS},
}
"""The ordinal words up to "ninetieth", each with the number it says ("third": "three")."""


def one_of(words: Iterable[str]) -> str:
    """A regex alternative of ``words``, longest first, so "seventeen" is not taken for "seven"."""
    return "|".join(sorted(words, key=len, reverse=True))


_BELOW_A_HUNDRED = (
    rf"(?:(?:{one_of(TENS)})(?:[\s-](?:{one_of(ONES)})\b)?|(?:{one_of(TEENS)}|{one_of(ONES)})\b)"
)
IN_WORDS = rf"(?:(?:a|{one_of(ONES)})\s+hundred(?:\s+(?:and\s+)?{_BELOW_A_HUNDRED})?|{_BELOW_A_HUNDRED})"
"""A whole number from one to 999 in lower-case words ("a hundred and five", "twenty-one")."""


def value_in_words(words: str) -> int | None:
    """The value of a number ``IN_WORDS`` matches, in any case; None for words that are no number."""
    said = words.strip().lower()
    if re.fullmatch(IN_WORDS, said) is None:
        return None
    total = 0
    for word in re.split(r"[\s-]+", said):
        if word == "hundred":
            total = max(total, 1) * 100
        elif word != "and":
            total += _WORD_VALUES[word]
    return total
