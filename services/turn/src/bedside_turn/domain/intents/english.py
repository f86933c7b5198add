"""Whether a request is in English, the one language Bedside reads and answers in: plain code, no I/O.

A question or a moment is passed on to search as its words, and search reads any words: "¿quién es
Oskar?" was recalled, found nothing and was told "that hasn't come up yet", as if Oskar were ahead or
in no book. Words it cannot read are said not to be understood instead (``reading.read``).
"""

import re

from bedside_guard.lexicon import ordinary_word

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")


def mostly_not_english(utterance: str, normalised: str) -> bool:
    """Whether more than half the words of ``utterance`` are no English word: none the dictionary of
    the guard has (``ordinary_word``, after ``normalise`` put a slip like "whos" right), or one with a
    letter English does not use ("quién"). A name is no language: a word written with a capital in
    English letters is not counted ("Oskar"), nor is one in lower case, which the dictionary lacks too,
    worth more than the English words around it ("who is isold quarington" is English: half, not most).
    """
    names = {word.lower() for word in _WORD.findall(utterance) if word[0].isupper() and word.isascii()}
    counted = [word for word in _WORD.findall(normalised) if word not in names]
    foreign = [word for word in counted if not (word.isascii() and ordinary_word(_POSSESSIVE.sub("", word)))]
    return 2 * len(foreign) > len(counted)
