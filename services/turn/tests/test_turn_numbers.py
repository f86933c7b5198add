"""Numbers said in words are read whole: "twenty five minutes" is not five, chapter 121 is not 1."""

import re

import pytest
from bedside_contracts.turn import RecapArgs
from bedside_turn.domain import intents
from bedside_turn.domain.intents import Chapter, Jump, SleepTimer
from bedside_turn.domain.numbers import SAID, number_of
from bedside_turn.domain.recap import RecapAsked
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

_SMALL = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def spelled(n: int, dash: bool, hundred_and: bool) -> str:
    """``n`` (1-999) in words, as a listener might say or a recogniser write it."""
    if n >= 100:
        rest = n % 100
        head = f"{_SMALL[n // 100]} hundred"
        return (
            head if not rest else f"{head}{' and' if hundred_and else ''} {spelled(rest, dash, hundred_and)}"
        )
    if n < 20:
        return _SMALL[n]
    return _TENS[n // 10] + ("" if n % 10 == 0 else ("-" if dash else " ") + _SMALL[n % 10])


@given(n=st.integers(min_value=1, max_value=999), dash=st.booleans(), hundred_and=st.booleans())
def test_every_number_to_999_said_in_words_is_read_whole(n: int, dash: bool, hundred_and: bool) -> None:
    words = spelled(n, dash, hundred_and)
    said = re.fullmatch(SAID, words)
    assert said is not None, words
    assert number_of(said.group(0)) == n


@pytest.mark.parametrize(
    ("utterance", "intent"),
    [
        ("go to chapter twenty one", Chapter(21)),
        ("chapter one hundred and twenty-one", Chapter(121)),
        ("go to chapter a hundred", Chapter(100)),
        ("chapter seventeen", Chapter(17)),
        ("back twenty five minutes", Jump(-1_500_000)),
        ("skip ahead ninety seconds", Jump(90_000)),
        ("back a few minutes", Jump(-180_000)),
        ("sleep in forty five minutes", SleepTimer(after=45)),
        ("stop at the end of chapter eighty", SleepTimer(after="chapter_end", chapter=80)),
    ],
)
def test_a_number_in_words_inside_a_request_is_the_whole_number(
    utterance: str, intent: intents.Intent
) -> None:
    assert intents.read(utterance) == intent


def test_words_that_are_no_number_are_refused() -> None:
    for words in ("few", "and", "hundredth"):
        with pytest.raises(KeyError):
            number_of(words)


@pytest.mark.parametrize(
    ("utterance", "intent"),
    [
        ("go to the third chapter", Chapter(3)),
        ("take me to the twenty-first chapter", Chapter(21)),
        ("go back to the 2nd chapter", Chapter(2)),
        ("stop at the end of the third chapter", SleepTimer(after="chapter_end", chapter=3)),
        ("what happened in the second chapter?", RecapAsked(RecapArgs(span="chapter", chapter=2))),
    ],
)
def test_a_chapter_named_by_its_place_in_the_book_is_that_numbered_chapter(
    utterance: str, intent: intents.Intent
) -> None:
    """Before, "the third chapter" was words to search for, and "stop at the end of the third chapter"
    read "the end" and offered the end of the book."""
    assert intents.read(utterance) == intent


def roman(n: int) -> str:
    letters = (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    )
    out = ""
    for value, numeral in letters:
        while n >= value:
            out, n = out + numeral, n - value
    return out


@given(n=st.integers(min_value=2, max_value=399), lower=st.booleans())
def test_a_chapter_named_by_its_roman_numeral_is_that_numbered_chapter(n: int, lower: bool) -> None:
    """As the book heads it, "Chapter XXV": before, the numeral was words to search for."""
    numeral = roman(n).lower() if lower else roman(n)
    assert intents.read(f"go to chapter {numeral}") == Chapter(n)


@pytest.mark.parametrize(
    ("utterance", "intent"),
    [
        ("go back to chapter twentyfive", Chapter(25)),  # typed as one word: this searched the book
        ("chapter thirtyone", Chapter(31)),
        ("go to chapter i", Chapter(1)),
        ("go to chapter i please", Chapter(1)),
        ("chapter iv please", Chapter(4)),
        ("sleep in twentyfive minutes", SleepTimer(after=25)),
    ],
)
def test_a_number_typed_as_one_word_or_a_roman_numeral_is_read(
    utterance: str, intent: intents.Intent
) -> None:
    assert intents.read(utterance) == intent


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("take me to the end of the chapter i think", intents.ChapterEnd()),
        ("go back to the chapter li died", intents.FindPlace("li died", direction="back")),  # a name
        ("where fortyone said hello", intents.FindPlace("where fortyone said hello")),
        ("go to chapter iiii", intents.FindPlace("iiii")),  # not a numeral written the usual way
    ],
)
def test_what_only_looks_like_a_number_stays_words(said: str, read: intents.Intent) -> None:
    assert intents.read(said) == read


def test_a_recap_of_a_chapter_names_its_number_and_nothing_else_does() -> None:
    RecapArgs(span="chapter", chapter=4)
    for wrong in ({"span": "chapter"}, {"span": "last_chapter", "chapter": 4}):
        with pytest.raises(ValidationError):
            RecapArgs.model_validate(wrong)
