"""Whether a word is an ordinary English word, known without any book: a find tells a name the
listener typed in lower case from the words of a moment by this alone (``unheard_names``).

The words are lemminflect's lookup of English forms ("dies", "boarded", "ponies"), which holds no
person's or place's name unless it is a word too ("ginger", "wren"); it leaves out words with no
other form, so those a listener says are listed here.
"""

import lemminflect

from bedside_guard.numbers import ONES, TEENS, TENS
from bedside_guard.prose import ABBREVIATIONS
from bedside_guard.words import FUNCTION_WORDS

_WORDS_WITHOUT_FORMS = """
    every among amongst amid amidst although though unless lest beside besides beneath toward
    towards onto whilst cannot yes oh okay ok yeah hello goodbye bye hundred thousand million
"""
_WITHOUT_FORMS = frozenset(_WORDS_WITHOUT_FORMS.split())
_NUMBERS_AND_TITLES = frozenset([*ONES, *TEENS, *TENS, *(a.lower() for a in ABBREVIATIONS)])


def ordinary_word(word: str) -> bool:
    """Whether ``word`` (lower case, as ``words_of`` gives it) is an English word whatever the book:
    a form lemminflect knows, a function word, a number, a title ("mrs"), or a contraction ("don't")."""
    if word in FUNCTION_WORDS or word in _WITHOUT_FORMS or word in _NUMBERS_AND_TITLES or "'" in word:
        return True
    return bool(lemminflect.getAllLemmas(word))


def load_lexicon() -> None:
    """Read the dictionary now (about a third of a second) rather than in the first find."""
    lemminflect.getAllLemmas("word")
