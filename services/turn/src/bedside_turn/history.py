"""Earlier exchanges as the model may read them now.

Everything stored was guarded against the position of its own turn. When the listener
is now earlier in the book than that (they went back), a line about a passage they are
now before would show words that are ahead again; so such exchanges are guarded once
more against the current position, with the guard's own functions, before the model
reads them. Their free text (the spoken reply) cannot be guarded and is left out.
"""

import json
from typing import Any

from bedside_contracts.turn import Exchange, PlaceRef, ToolCallRecord
from bedside_guard import Candidate, Passage, ahead_of, hit_line

KEEP_EXCHANGES = 6
REPLY_LEFT_OUT = "(my reply then is left out: it was given from further on in the book)"


def needs_guarding(exchange: Exchange, here_ms: int) -> bool:
    """True when ``exchange`` was guarded from a later position than ``here_ms``."""
    return exchange.guarded_at_ms > here_ms


def passages_to_read(exchanges: list[Exchange], here_ms: int) -> list[int]:
    """Ids whose words may be shown again from ``here_ms``: those now behind, in stale exchanges."""
    ids: dict[int, None] = {}
    for exchange in exchanges:
        if needs_guarding(exchange, here_ms):
            for call in exchange.calls:
                for place in call.places:
                    if not ahead_of(place.start_ms, here_ms):
                        ids[place.passage_id] = None
    return list(ids)


def guard_again(exchange: Exchange, here_ms: int, passages: dict[int, Passage]) -> Exchange:
    """``exchange`` as a listener at ``here_ms`` may see it: place lines redrawn, notes and reply dropped."""
    if not needs_guarding(exchange, here_ms):
        return exchange
    calls = [_guard_call(call, here_ms, passages) for call in exchange.calls]
    return exchange.model_copy(update={"calls": calls, "speech": REPLY_LEFT_OUT, "guarded_at_ms": here_ms})


def _guard_call(call: ToolCallRecord, here_ms: int, passages: dict[int, Passage]) -> ToolCallRecord:
    lines: list[str] = []
    places: list[PlaceRef] = []
    for place in call.places:
        line = _redraw(place, here_ms, passages)
        if line is None:
            continue
        places.append(place.model_copy(update={"line": len(lines)}))
        lines.append(line)
    return call.model_copy(
        update={"lines": lines or ["(nothing from this result can be shown now)"], "places": places}
    )


def _redraw(place: PlaceRef, here_ms: int, passages: dict[int, Passage]) -> str | None:
    passage = passages.get(place.passage_id)
    if passage is None:
        if not ahead_of(place.start_ms, here_ms):
            return None  # it could not be read again, so nothing of it is shown
        # A place now ahead shows no words at all: the guard needs only its id and time.
        passage = Passage(
            id=place.passage_id,
            start_ms=place.start_ms,
            end_ms=place.start_ms,
            chapter=0,
            chapter_title="",
            text="",
        )
    if place.kind == "line":
        return hit_line(passage, here_ms)
    at_ms = min(max(place.start_ms, passage.start_ms), max(passage.start_ms, passage.end_ms))
    row = Candidate.covering(passage, here_ms, at_ms=at_ms)
    return f"id={passage.id}: {row.label()}"


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


def kept(exchanges: list[Exchange], new: Exchange) -> list[Exchange]:
    return [*exchanges, new][-KEEP_EXCHANGES:]
