"""What a listener has not heard of a book, to check that none of it reached the model."""

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import bedside_guard
import bedside_turn
from bedside_guard import Passage, ahead_of, heard_text


def tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


@lru_cache(maxsize=16_384)
def _tokens_of_book_text(text: str) -> frozenset[str]:
    """A passage's or a title's words, once each: the oracle reads a whole book on every check."""
    return frozenset(tokens(text))


def unheard_words(passages: list[Passage], here_ms: int) -> set[str]:
    """Words of the book that occur only in what is ahead of ``here_ms`` (not even once behind)."""
    heard: set[str] = set()
    ahead: set[str] = set()
    for passage in passages:
        said = heard_text(passage, here_ms)
        heard |= _tokens_of_book_text(said)
        if ahead_of(passage.start_ms, here_ms) or passage.end_ms > here_ms:
            unheard = passage.text.replace(said, " ", 1) if said else passage.text
            ahead |= _tokens_of_book_text(unheard)
        if not ahead_of(passage.start_ms, here_ms):
            heard |= _tokens_of_book_text(passage.chapter_title)
    return {w for w in ahead - heard if len(w) > 3}


def unheard_titles(passages: list[Passage], here_ms: int) -> set[str]:
    """Titles of chapters the listener has not begun, unless the words heard already say them.

    A title that is a name heard earlier ("Merrylegs", chapter 9 of Black Beauty, is a pony
    met in chapter 4) tells nothing when it appears in a heard line, so it is not counted.
    """
    begun = {p.chapter for p in passages if not ahead_of(p.start_ms, here_ms)}
    titles = {p.chapter_title for p in passages if p.chapter not in begun}
    heard = " ".join(heard_text(p, here_ms) for p in passages).lower()
    # once a title, not once a passage: each search reads all that was heard (a plain substring
    # search first, as most titles are nowhere in it)
    return {
        title
        for title in titles
        if title.lower() not in heard or not re.search(rf"\b{re.escape(title.lower())}\b", heard)
    }


@cache
def service_vocabulary() -> frozenset[str]:
    """Words the turn service and the guard write themselves (prompt, notes, refusals)."""
    sources = [
        *Path(bedside_turn.__file__).parent.rglob("*.py"),
        *Path(bedside_guard.__file__).parent.glob("*.py"),
    ]
    return frozenset(tokens(" ".join(path.read_text() for path in sources)))


TURN_ID = re.compile(r"\b[0-9a-f]{20}\b")
"""A turn's id (20 hex digits, in a reply, a list, the history): no words, though its letters may spell
one of the book ("beef", which failed a CI run)."""


def leaks(
    sent: str, passages: list[Passage], here_ms: int, allowed: frozenset[str] | set[str] = frozenset()
) -> set[str]:
    """Unheard words and titles found in ``sent``; ``allowed`` are words the listener said themselves.

    A title every word of which they said is theirs too ("liberty" searched for, read back by the
    model in its history, is not the title "Liberty" of a chapter not begun)."""
    said = tokens(" ".join(allowed))
    sent = TURN_ID.sub(" ", sent)
    found = (unheard_words(passages, here_ms) - said - service_vocabulary()) & tokens(sent)
    found |= {
        title
        for title in unheard_titles(passages, here_ms)
        if title.lower() in sent.lower() and not tokens(title) <= said
    }
    return found


POSITION_SAID = re.compile(
    r"into the book|\b(?:minutes?|seconds?|hours?) to go\b|\bleft of (?:this chapter|the book)"
    r"|of the book left|\bseconds in\b|\bminutes? in;|very start"
    r"|You're in chapter|You're (?:about|at the end)|back where you were, at|There you are: .*\d:\d\d"
)
"""How the turn's own answers say where the listener is in the book (how far in, how much is left)."""


def remembered_replies(messages: list[dict[str, Any]]) -> list[str]:
    """What the model reads of earlier turns' replies ("I said: ..." in ``history.as_messages``)."""
    said: list[str] = []
    for message in messages:
        content = message.get("content")
        if message.get("role") == "assistant" and isinstance(content, str):
            said += [
                line.removeprefix("I said: ") for line in content.splitlines() if line.startswith("I said: ")
            ]
    return said


def tells_position(messages: list[dict[str, Any]]) -> list[str]:
    """The earlier replies in ``messages`` that say where the listener is in the book."""
    return [reply for reply in remembered_replies(messages) if POSITION_SAID.search(reply)]
