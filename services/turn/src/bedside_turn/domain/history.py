"""Earlier exchanges as the model may read them now.

Everything stored was guarded against the position of its own turn. When the listener
is now earlier in the book than that (they went back), a line about a passage they are
now before would show words that are ahead again; so such exchanges are guarded once
more against the current position, with the guard's own functions, before the model
reads them. Their free text (the spoken reply, and what the model wrote into a search or
a recall) cannot be guarded and is left out.

What is stored is decided where the exchange is made (``remembered_speech``): an answer that told
the listener where they are in the book is remembered without the position (ADR 75).
"""

import json
from collections.abc import Sequence
from enum import Enum
from typing import Any

from bedside_contracts.search import Resolution
from bedside_contracts.turn import Exchange, PlaceRef, ToolCallRecord
from bedside_guard import Candidate, Passage, ahead_of

KEEP_EXCHANGES = 6
REPLY_LEFT_OUT = "(my reply then is left out: it was given from further on in the book)"
WORDS_LEFT_OUT = "(left out: written from further on in the book)"
WRITTEN_ARGUMENTS = ("query", "question")
"""The arguments a model writes in its own words (find_passage's query, recall's question): the
rest are ids, numbers and choices, which later turns read back ("the other one")."""


class Told(Enum):
    """An answer plain code gave from what it knows without reading a passage (the position, the
    book's catalog, what Bedside can do), as the model may read it later: what kind of answer it
    was, never its words, so the position told (how far into the book and the chapter, how much is
    left) never reaches the model. Set on the ``Turn`` where the answer is made, so it is known by
    its type, not by matching the words said."""

    WHERE = "I told them where they are in the book."
    TIME_LEFT = "I told them how much is left of the chapter and the book."
    ABOUT_THE_BOOK = "I told them what the cover or the chapter list says."
    WHAT_I_CAN_DO = "I told them what they can ask me."
    COURTESY = "I answered their thanks, never mind or goodnight."
    TIMER = "I told them about the sleep timer."
    HEARD_BEFORE = "I told them whether they had been further on than here before."
    NAMES_HEARD = "I told them the names they have heard most so far."
    LISTENING = "I told them when they last listened, or how long they have been listening."
    LAST_MOVE = "I told them what last moved the book, and that undo puts it back."
    UNDONE = "I put the book back where it was before the last move, and told them where."
    NOTHING_MORE_TO_UNDO = "I told them there was nothing more to undo, and changed nothing."
    MOVED = "I moved the book where they asked, and told them where it came to."
    BOOKMARKED = "I bookmarked where the book had got to, and told them where."
    BOOKMARKS = "I told them about their bookmarks and where they are."


def told_of(exchange: Exchange) -> Told | None:
    """What ``exchange`` told, when it is remembered only by that (``remembered_speech``)."""
    return next((told for told in Told if told.value == exchange.speech), None)


def remembered_speech(said: str, told: Told | None) -> str:
    """What the model reads later of what a turn said: the answer, unless it told the listener where
    they are, then only that it did."""
    return said if told is None else told.value


def told_by_moving(*, moved: bool, undone: bool, preview: bool) -> Told | None:
    """What plain code's account of a turn's move tells (where the book came to: the listener's
    position), as the model may read it; None when it moved nothing."""
    if preview or not moved:
        return None
    return Told.UNDONE if undone else Told.MOVED


def needs_guarding(exchange: Exchange, here_ms: int) -> bool:
    """True when ``exchange`` was guarded from a later position than ``here_ms``."""
    return exchange.guarded_at_ms > here_ms


def passages_read(resolutions: Sequence[Resolution]) -> dict[int, Passage]:
    """The passages ``passages_to_read`` asked for, by the id asked: a chapter's wordless place,
    transcribed since, resolves to its first passage, whose id is another."""
    return {
        r.target.passage_id: r.passage
        for r in resolutions
        if r.target.passage_id is not None and r.passage is not None
    }


def passages_to_read(exchanges: list[Exchange], here_ms: int) -> list[int]:
    """Ids whose words may be shown again from ``here_ms``: those now behind, in stale exchanges."""
    ids: dict[int, None] = {}
    for exchange in exchanges:
        if needs_guarding(exchange, here_ms):
            for call in exchange.calls:
                for ref in call.places:
                    place = ref.place
                    if place.passage_id is not None and not ahead_of(place.start_ms, here_ms):
                        ids[place.passage_id] = None
    return list(ids)


def guard_again(exchange: Exchange, here_ms: int, passages: dict[int, Passage]) -> Exchange:
    """``exchange`` as a listener at ``here_ms`` may see it: place lines redrawn, notes dropped, and the
    reply too unless it is remembered only by what it told ("I moved the book ..."), which holds no words."""
    if not needs_guarding(exchange, here_ms):
        return exchange
    calls = [_guard_call(call, here_ms, passages) for call in exchange.calls]
    speech = exchange.speech if told_of(exchange) is not None else REPLY_LEFT_OUT  # a kind holds no words
    return exchange.model_copy(update={"calls": calls, "speech": speech, "guarded_at_ms": here_ms})


def _guard_call(call: ToolCallRecord, here_ms: int, passages: dict[int, Passage]) -> ToolCallRecord:
    places: list[PlaceRef] = []
    for ref in call.places:
        place = _redraw(ref, here_ms, passages)
        if place is not None:
            places.append(PlaceRef(line=len(places), place=place, kind=ref.kind))
    lines = [ref.text() for ref in places]
    arguments = {
        name: WORDS_LEFT_OUT if name in WRITTEN_ARGUMENTS else value for name, value in call.arguments.items()
    }
    return call.model_copy(
        update={
            "arguments": arguments,
            "lines": lines or ["(nothing from this result can be shown now)"],
            "places": places,
        }
    )


def _redraw(ref: PlaceRef, here_ms: int, passages: dict[int, Passage]) -> Candidate | None:
    """The place as it may be seen from ``here_ms``, or None when it cannot be read again."""
    place = ref.place
    if ahead_of(place.start_ms, here_ms):
        return place.seen_from(here_ms)  # a place now ahead is covered: its time and id only
    passage = passages.get(place.passage_id) if place.passage_id is not None else None
    if passage is None:
        return None
    if ref.kind == "line":  # drawn as the first turn drew it: whole, or from where X is named
        return Candidate.hit(passage, here_ms, naming=ref.naming, whole=ref.whole)
    at_ms = min(max(place.start_ms, passage.start_ms), max(passage.start_ms, passage.end_ms))
    return Candidate.covering(passage, here_ms, at_ms=at_ms)


def as_messages(exchanges: list[Exchange]) -> list[dict[str, Any]]:
    """Earlier exchanges as plain user/assistant turns (tool results summarised as text)."""
    messages: list[dict[str, Any]] = []
    for exchange in exchanges:
        notes = [
            f"[{call.name} {json.dumps(call.arguments, ensure_ascii=False)}]\n{call.result}"
            for call in exchange.calls
        ]
        said = "\n".join([*notes, f"I said: {exchange.speech}"])
        messages.append({"role": "user", "content": exchange.utterance})
        messages.append({"role": "assistant", "content": f"(an earlier turn)\n{said}"})
    return messages


def given_again(exchanges: list[Exchange], turn_id: str, at_ms: int) -> list[Exchange] | None:
    """The exchanges with the answer of ``turn_id``, said again ("say that again"), stamped as given at
    ``at_ms``: a second "sorry, what?" still means it, and nothing else changes, so "tell me more" and
    "that one" mean what they meant. None when another turn has come since (nothing to mark)."""
    if not exchanges or exchanges[-1].turn_id != turn_id:
        return None
    return [*exchanges[:-1], exchanges[-1].model_copy(update={"answered_at_ms": at_ms})]


def kept(exchanges: list[Exchange], new: Exchange) -> list[Exchange]:
    return [*exchanges, new][-KEEP_EXCHANGES:]
