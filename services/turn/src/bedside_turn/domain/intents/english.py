"""Whether a request is plainly in another language than English, the one Bedside reads and answers in:
plain code, no I/O.

A question or a moment is passed on to search as its words, and search reads any words: "¿quién es
Oskar?" was recalled, found nothing and was told "that hasn't come up yet", as if Oskar were ahead or
in no book. Words plainly of another language are said not to be understood instead (``reading.read``).
Only evidence of another language counts: a word no dictionary has is as likely a name ("oskar?",
"who's nan?"), and a short follow-up told "didn't follow" is worse than a search that finds nothing.
"""

import re
import unicodedata

from bedside_guard import FUNCTION_WORDS
from bedside_guard.lexicon import ordinary_word

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_OTHER_LANGUAGES_MARKS = re.compile(r"[¿¡]")
"""Spanish opens a question or an exclamation with these; English never does."""
_SAID_IN_OTHER_LANGUAGES = """
    es el los las qué quién quien quiénes dónde donde cómo está pasó por
    wer wie ist der das wo wann warum und nicht
    est qui où c'est qu'est quoi les une
    het een wat waar
    è cos'è sono
"""
_OTHER_LANGUAGES_WORDS = frozenset(_SAID_IN_OTHER_LANGUAGES.split())
"""Function words of Spanish, German, French, Dutch and Italian that English lacks. Words of both
("is", "in", "was", "die", "chi", "dove", "la") are left out: they tell no language."""
_BOTH = frozenset({"is", "in", "was"})
"""English function words a language above uses too ("wie is Oskar?"): neither way."""
_ENGLISH_WORDS = FUNCTION_WORDS - _BOTH
_FEWEST_JUDGED = 3
"""Fewer words than these tell no language by their words ("oskar?", "and oskar?")."""


def plainly_another_language(utterance: str) -> bool:
    """Whether ``utterance`` is plainly not English: it opens with "¿" or "¡", or more of its words are
    another language's (function words English lacks, or a word in lower case with letters English does
    not use and no dictionary has: "quién", "está") than are English function words, and two of them at
    least. A word capitalised within the sentence is a name ("is Les dead?", "Zoë"), a word no dictionary
    has in English letters is never evidence ("who iz oskar"), and fewer than three words are judged
    only when they carry such letters."""
    if _OTHER_LANGUAGES_MARKS.search(utterance):
        return True
    words = _WORD.findall(utterance.replace("’", "'"))
    lettered = [word for word in words if word[0].islower() and _letters_english_lacks(word)]
    if len(words) < _FEWEST_JUDGED and not lettered:
        return False
    said = [word.lower() for word in words]
    # a capitalised word within the sentence is a name ("is Les dead?", "where El meets Wat")
    as_written = [said[0], *(word for word in words[1:] if word[0].islower())] if words else []
    of_others = [word for word in as_written if word in _OTHER_LANGUAGES_WORDS]
    foreign = len(of_others) + len([word for word in lettered if word not in _OTHER_LANGUAGES_WORDS])
    english = len([word for word in said if word in _ENGLISH_WORDS])
    return foreign > english and foreign >= 2


def _letters_english_lacks(word: str) -> bool:
    """Whether ``word`` has a letter English does not write and is no English word without its marks
    ("quién"; "naïve" is English)."""
    if word.isascii():
        return False
    plain = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return not (plain.isascii() and ordinary_word(plain.lower()))
