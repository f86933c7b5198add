"""A book's own names, as hints for the recogniser: the words a general model mishears most.

A name here is a capitalised word that the book also writes in the middle of a sentence, so
"The" at a sentence start does not count but "Merrylegs" after "said" does. The most frequent
come first; a word the book also writes in lower case ("Master", "master") is a common word.
"""

import re
from collections import Counter
from collections.abc import Iterable

HINT_LIMIT = 40
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE_END = re.compile(r"[.!?…\"“”]\s*$")


def book_names(texts: Iterable[str], limit: int = HINT_LIMIT) -> list[str]:
    """The book's names, most frequent first, at most ``limit``."""
    mid_sentence: Counter[str] = Counter()
    lower: set[str] = set()
    for text in texts:
        for match in _WORD.finditer(text):
            # "Jerry's" is Jerry; "I'll" is no name
            word = re.split("['’]", match.group())[0].strip("-")
            if not word:
                continue
            if word[0].islower():
                lower.add(word.lower())
                continue
            before = text[: match.start()]
            if before.strip() and not _SENTENCE_END.search(before) and len(word) > 1:
                mid_sentence[word] += 1
    ranked = sorted(
        (w for w in mid_sentence if w.lower() not in lower),
        key=lambda w: (-mid_sentence[w], w),
    )
    return ranked[:limit]


def hint_text(names: Iterable[str]) -> str | None:
    """The hints as the recogniser takes them: one line of words, or nothing."""
    line = " ".join(names)
    return line or None
