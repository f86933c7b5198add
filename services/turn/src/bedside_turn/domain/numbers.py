"""Numbers as a listener says them, without I/O: "21", "twenty-one", "a hundred and five", "a few".

A long book has more than a hundred chapters, and "twenty five minutes" is not five: a number in
words is read whole, up to 999, or not at all.
"""

import re

_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {
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
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_LOOSE = {"a couple of": 2, "a few": 3, "an": 1, "a": 1}
"""Said for a number without being one ("back a few minutes", "an hour")."""
_WORD_VALUES = {**_ONES, **_TEENS, **_TENS, "a": 1}


def _either(words: dict[str, int]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


_BELOW_A_HUNDRED = (
    rf"(?:(?:{_either(_TENS)})(?:[\s-](?:{_either(_ONES)})\b)?|(?:{_either(_TEENS)}|{_either(_ONES)})\b)"
)
IN_WORDS = rf"(?:(?:a|{_either(_ONES)})\s+hundred(?:\s+(?:and\s+)?{_BELOW_A_HUNDRED})?|{_BELOW_A_HUNDRED})"
"""A whole number from one to 999 in words; tens before teens before ones, so "seventeen" is not "seven"."""
SAID = rf"(?:\d+(?:\.\d+)?|{IN_WORDS}|{_either(_LOOSE)})"
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
    total = 0
    for word in re.split(r"[\s-]+", said):
        if word == "hundred":
            total = max(total, 1) * 100
        elif word != "and":
            total += _WORD_VALUES[word]
    if not total:
        raise KeyError(said)
    return float(total)


_ORDINALS = {
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
    **{f"{teen}th": teen for teen in _TEENS if teen.endswith("teen")},
    **{f"{tens[:-1]}ieth": tens for tens in _TENS},
}
_ORDINAL_CHAPTER = re.compile(
    rf"\bthe (?:((?:{_either(_TENS)})[\s-]))?({'|'.join(sorted(_ORDINALS, key=len, reverse=True))})"
    r" chapter\b|\bthe (\d+)(?:st|nd|rd|th) chapter\b"
)


def ordinal_chapters_as_numbers(text: str) -> str:
    """``text`` with "the third chapter", "the twenty-first chapter" and "the 3rd chapter" said as
    "chapter three", "chapter twenty one" and "chapter 3", the one way every reader knows."""

    def as_number(said: re.Match[str]) -> str:
        tens, ordinal, digits = said.groups()
        if digits:
            return f"chapter {digits}"
        return f"chapter {tens.strip(' -') + ' ' if tens else ''}{_ORDINALS[ordinal]}"

    return _ORDINAL_CHAPTER.sub(as_number, text)
