"""Forms of a word made to meet ("dies", "died", "dying"), and the words that say nothing of a topic:
pure.

Search's sparse terms and the turn's keyless quote both match words this way, so a word the
listener says meets the book's form of it in one way everywhere.
"""

_FUNCTION_WORDS = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves shall may might must upon said says say
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
"""Words every passage says: search's queries weigh none of them, and a track that shares only these
with a chapter of the e-book is not that chapter."""

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
