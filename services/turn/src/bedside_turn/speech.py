"""What a turn says when plain code speaks: the keyless router and every fallback.

It speaks only from what the tools returned (guarded lines and rows), so it can say
nothing the model could not have read.
"""

import re

from bedside_contracts.player import OfferOutcome
from bedside_guard import excerpt

NO_MODEL = "I can't reach my language model just now, so here is the simple answer. "
CANNOT_HELP = "I can take you to a moment in the book, or answer about what you've already heard."
NOT_FOUND = "I couldn't find that moment in the book. Could you describe it another way?"
NOT_YET = "That hasn't come up yet in what you've heard."
TROUBLE = "Something went wrong on my side; please ask me again in a moment."

_LINE = re.compile(r'^\[[^\]]*\]\s*chapter (\d+), "([^"]*)": (.*)$')


def for_offer(outcome: OfferOutcome | None, preview: bool = False) -> str:
    """One sentence for what an offer came to."""
    if outcome is None or outcome.outcome == "refused":
        return NOT_FOUND
    if outcome.outcome == "moved":
        to = outcome.moved_to
        if to is not None and to.chapter is not None:
            title = f', "{to.chapter_title}"' if to.chapter_title else ""
            return f"There you are: chapter {to.chapter}{title}."
        return "There you are."
    count = len(outcome.rows)
    if preview:
        return f"From there I would put {count} place{'s' if count != 1 else ''} on the screen."
    if count == 1 and outcome.rows[0].ahead:
        return "That's further on than you've got. It's on the screen: press it to go there."
    if count == 1:
        return "It's on the screen: press it to go there."
    return f"I've put {count} places on the screen, best first. Press the one you mean."


def quoting(line: str, just_before: bool = False) -> str:
    """An answer from one heard recall line: its chapter and a few of its words."""
    match = _LINE.match(line)
    if match is None:
        return NOT_YET
    chapter, title, words = match.groups()
    quote = excerpt(words.rstrip(" …"), 30)
    if just_before:
        return f'Just before this, in chapter {chapter}, "{title}": "{quote}"'
    return f'In chapter {chapter}, "{title}", you heard: "{quote}"'
