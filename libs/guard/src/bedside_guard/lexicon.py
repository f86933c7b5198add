"""Whether a word is an ordinary English word, known without any book: a find tells a name the
listener typed in lower case from the words of a moment by this alone (``unheard_names``).

The words are lemminflect's lookup of English forms ("dies", "boarded", "ponies"), which holds no
person's or place's name unless it is a word too ("ginger", "wren"); it leaves out words with no
other form, numbers and the calendar's names, so those a listener says are listed here.
"""

import re

from bedside_guard.numbers import ONES, ORDINALS, TEENS, TENS
from bedside_guard.prose import ABBREVIATIONS
from bedside_guard.words import FUNCTION_WORDS

_WORDS_WITHOUT_FORMS = """
    every among amongst amid amidst although though unless lest beside besides beneath toward
    towards onto whilst cannot yes oh okay ok yeah hello goodbye bye hundred thousand million
    monday tuesday wednesday thursday friday saturday sunday january february march april may june
    july august september october november december christmas o'clock ma'am
    ha hm hmm alas twas tis ere och hurrah huzzah ahoy goodnight hey hi eh bah ugh ooh aha hullo
    halloo gee whoa woah pshaw tush fie alack
"""
_LISTED = frozenset(
    [
        *_WORDS_WITHOUT_FORMS.split(),
        *ONES,
        *TEENS,
        *TENS,
        *ORDINALS,
        *(abbreviation.lower() for abbreviation in ABBREVIATIONS),
    ]
)
_CONTRACTION = re.compile(r"^(?P<word>[a-z]+)(?:'(?:ll|re|ve|d|m)|n't)$")
"""A word and its contraction ("they'll", "don't"): ordinary when the word is ("won't" and "can't" too)."""


def ordinary_word(word: str) -> bool:
    """Whether ``word`` (lower case, as ``words_of`` gives it) is an English word whatever the book:
    a form lemminflect knows, a function word, a number, a title ("mrs"), a day or a month, or one
    of these contracted ("don't"). "Ra'zac" is none."""
    if word in FUNCTION_WORDS or word in _LISTED:
        return True
    if contracted := _CONTRACTION.match(word):
        return word.endswith("n't") or ordinary_word(contracted["word"])
    return bool(_lemmas(word))


def load_lexicon() -> None:
    """Read the dictionary now (about a third of a second) rather than in the first find."""
    _lemmas("word")


def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    import lemminflect  # noqa: PLC0415 (only a find needs it; it brings numpy into whatever imports the guard)

    lemmas: dict[str, tuple[str, ...]] = lemminflect.getAllLemmas(word)
    return lemmas
