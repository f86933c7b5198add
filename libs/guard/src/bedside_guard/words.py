"""Forms of a word made to meet ("dies", "died", "dying"): pure.

Search's sparse terms and the turn's keyless quote both match words this way, so a word the
listener says meets the book's form of it in one way everywhere.
"""

_SUFFIXES = ("ingly", "edly", "ness", "ings", "ing", "ies", "ied", "ed", "es", "ly", "s")


def stem(word: str) -> str:
    """A light suffix strip, the same on both sides, so "dies", "died" and "dying" meet."""
    word = word.removesuffix("'s")
    if word.endswith(("ies", "ied")):
        return word[:-1] if len(word) == 4 else word[:-3] + "y"  # "dies"/"died" -> "die"; "ponies" -> "pony"
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "stopped" -> "stopp" -> "stop"
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]  # "frightened"/"frighten", "hire"/"hired" meet without the e
    return word
