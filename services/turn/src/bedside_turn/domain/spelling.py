"""A command word typed with one slip, as it was meant: "pasue", "chaper 3", "go bakc 30 seconds": pure.

Only the words the reader's commands are made of are put right, and only a word one slip away
from exactly one of them (a letter added, dropped or changed, or two letters swapped). Whether
the respelling is taken is the reader's call (``intents.read``): only when the words as typed read
as nothing and the respelled ones read as a command, so a word of the story is never changed.
"""

import re

COMMAND_WORDS = frozenset(
    {
        "again",
        "ahead",
        "another",
        "back",
        "backwards",
        "beginning",
        "cancel",
        "chapter",
        "chapters",
        "continue",
        "forward",
        "forwards",
        "hours",
        "minute",
        "minutes",
        "next",
        "pause",
        "play",
        "please",
        "previous",
        "restart",
        "resume",
        "rewind",
        "second",
        "seconds",
        "skip",
        "sleep",
        "start",
        "stop",
        "timer",
        "undo",
    }
)
REAL_WORDS_NEAR = frozenset(
    [
        "aback",
        "ahmad",
        "alain",
        "asleep",
        "atop",
        "bach",
        "backs",
        "backward",
        "bank",
        "bark",
        "beck",
        "beginnings",
        "black",
        "buck",
        "cancer",
        "cause",
        "chancel",
        "charter",
        "charters",
        "chatter",
        "clay",
        "continued",
        "continues",
        "fours",
        "gain",
        "hack",
        "head",
        "hour",
        "indo",
        "jack",
        "lack",
        "lay",
        "lease",
        "mack",
        "mundo",
        "neat",
        "nest",
        "net",
        "newt",
        "ours",
        "pack",
        "paused",
        "pauses",
        "pay",
        "plan",
        "plays",
        "pleas",
        "pleased",
        "pray",
        "precious",
        "rack",
        "remind",
        "resumed",
        "sack",
        "sheep",
        "ship",
        "shop",
        "sip",
        "ski",
        "skin",
        "sleek",
        "sleeps",
        "sleepy",
        "slip",
        "smart",
        "star",
        "stare",
        "stark",
        "starr",
        "stars",
        "starts",
        "stat",
        "steep",
        "step",
        "stops",
        "stuart",
        "sweep",
        "tack",
        "text",
        "tier",
        "tiger",
        "timber",
        "time",
        "timed",
        "times",
        "timor",
        "top",
        "tours",
        "und",
        "uno",
        "unto",
        "yours",
        "zack",
    ]
)
"""English words one slip from a command word ("top", "cause", "time"): meant as typed, never put right.
They are the lower-case whole words of the embedding model's vocabulary that ``one_slip_apart`` finds
near a command word; ``test_turn_spelling`` derives them again, so the list follows the command words."""
SHORTEST_SLIP = 3
"""Shorter words ("bak" is one, "ot" is not) are too near too many others to put right."""
_WORD = re.compile(r"[a-z]+", re.IGNORECASE)


def one_slip_apart(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with a letter added, dropped or changed, or two side by side swapped."""
    if typed == word or abs(len(typed) - len(word)) > 1:
        return False
    if len(typed) == len(word):
        differ = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
        if len(differ) == 1:
            return True
        first, *rest = differ
        return rest == [first + 1] and typed[first] == word[first + 1] and typed[first + 1] == word[first]
    shorter, longer = sorted((typed, word), key=len)
    return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def meant(typed: str) -> str | None:
    """The one command word ``typed`` is a slip of; None for a word already right, or none or several near.
    A word and its plural near together ("minuts": "minute" and "minutes") are one word, said plural."""
    lower = typed.lower()
    if lower in COMMAND_WORDS or lower in REAL_WORDS_NEAR or len(lower) < SHORTEST_SLIP:
        return None
    near = [word for word in COMMAND_WORDS if one_slip_apart(lower, word)]
    one_word = len({word.removesuffix("s") for word in near}) == 1
    return max(near, key=len) if near and one_word else None


def respelled(text: str) -> str | None:
    """``text`` with each slipped command word put right, or None when there is none."""
    mended = _WORD.sub(lambda found: meant(found.group(0)) or found.group(0), text)
    return mended if mended != text else None
