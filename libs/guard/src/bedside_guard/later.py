"""Words that reach past the listener's line, without I/O: a question that asks what comes
later, and a sentence that tells of it."""

import re

_LATER_IN_THE_STORY = r"in the end|at the end|by the end|eventually|in the long run"

_SOMEONE = r"(?!(?:you|we)\b)[\w']+(?: [\w']+){0,3}?"
"""Who a question asks about: a pronoun, a name or a few words ("the old horse", "Wren and Oskar");
not the listener, whose "will you go back?" asks something of Bedside."""
_FATES = r"(get|find|come|die|marry|win|escape|survive|live|make it|meet|catch|save|lose|leave)"

_ASKS_LATER = re.compile(
    rf"\b({_LATER_IN_THE_STORY}|ever|end up|ends up|ending"
    r"|how does .{0,40}\bend|will (he|she|they|it|i)"
    rf"|(is|are) {_SOMEONE} going to|will {_SOMEONE} {_FATES}|does (he|she|they|it) {_FATES}"
    rf"|^\s*(does|do) {_SOMEONE} {_FATES}"
    r"|what becomes of|what happens (next|later|after)"
    r"|(in|of) the (next|coming) (chapter|story|part)|the rest of the (book|story))\b",
    re.IGNORECASE,
)


def asks_what_comes_later(question: str) -> bool:
    """True when a question asks about what happens further on than it is asked from.

    Such a question is answered from what was heard or not at all: any guess, and any "yes,
    later", would tell what lies ahead.
    """
    return _ASKS_LATER.search(question) is not None


_TELLS_LATER = re.compile(
    rf"\b(later|{_LATER_IN_THE_STORY}|turns out|soon after|at last|finally|afterwards)\b",
    re.IGNORECASE,
)


def tells_of_later(sentence: str) -> bool:
    """True when a sentence places what it tells later in the story ("in the end", "years later",
    "it turns out"). Not "ever", "one day" or "ended up": tried, they cut heard sentences said
    back or faithful replies (adr/0025)."""
    return _TELLS_LATER.search(sentence) is not None
