"""The keyless router: with no model, plain code drives the same tools under the same rules."""

from bedside_contracts.search import CatalogRequest, Resolve, Target
from bedside_contracts.turn import Exchange
from bedside_guard import MAX_ROWS

from bedside_turn import intents, speech
from bedside_turn import recap as recaps
from bedside_turn.intents import Intent
from bedside_turn.tools import ToolBox

MIN_SCORE = 0.0325
"""A hit scoring below this is not offered: 1/61 + 1/62, so a passage both rankings put in
their top two is always offered, whatever the book's size (measured: the turn README)."""


async def run_keyless(
    tools: ToolBox, utterance: str, intent: Intent | None = None, earlier: list[Exchange] | None = None
) -> str:
    """Route ``utterance`` to the tools and say what came of it."""
    intent = intent or intents.read(utterance)
    match intent:
        case intents.OtherOne():
            others = other_places(earlier or [])
            if not others:
                return speech.NO_OTHER
            await tools.run("offer_positions", {"ids": others})
            return speech.for_offer(tools.last_offer, tools.preview)
        case intents.FindPlace(query=query):
            return await _find_and_offer(tools, query)
        case intents.Question(question=question):
            await tools.run("recall", {"question": question})
            if not tools.recalled:
                return speech.not_yet(tools.unheard_names, tools.asks_later)
            return speech.quoting(tools.recalled[0], question)
        case recaps.RecapAsked(args=args):
            await tools.run("recap", args.model_dump(exclude_none=True))
            if tools.recapped is None:  # the call was refused or failed: nothing was read
                return speech.TROUBLE
            return recaps.spoken_recap(*tools.recapped)
        case intents.Undo():
            record = await tools.undo()
            if record.refused:
                return "There's no earlier move to undo." if not tools.turn.recalled else speech.CANNOT_HELP
            return "Done: you're back where you were before."
        case intents.Earlier():
            return await _earlier(tools, earlier_args(intent), again=False)
        case intents.EarlierAgain():
            previous = last_lookup(earlier or [])
            if previous is None:
                return speech.NO_LOOKUP_BEFORE
            back = previous.get("times_back", 0)
            times_back = (back if isinstance(back, int) else 0) + 1
            return await _earlier(tools, {**previous, "times_back": times_back}, again=True)
        case intents.Other():
            return speech.CANNOT_HELP
    return await _named_place(tools, intent)


EARLIER_KEYS = (
    "earlier_chapter",
    "earlier_device",
    "before_skip_ahead",
    "fell_asleep",
    "times_back",
    "show_only",
)


def earlier_args(intent: intents.Earlier) -> dict[str, object]:
    args: dict[str, object] = {"show_only": intent.show_only}
    if intent.chapter is not None:
        args["earlier_chapter"] = intent.chapter
    if intent.device is not None:
        args["earlier_device"] = intent.device
    if intent.before_skip_ahead:
        args["before_skip_ahead"] = True
    if intent.fell_asleep:
        args["fell_asleep"] = True
    return args


def last_lookup(earlier: list[Exchange]) -> dict[str, object] | None:
    """The earlier-place arguments of the newest turn that asked for one ("the time before that")."""
    for exchange in reversed(earlier):
        for call in reversed(exchange.calls):
            if call.name == "offer_positions" and any(k in call.arguments for k in EARLIER_KEYS[:4]):
                return {k: v for k, v in call.arguments.items() if k in EARLIER_KEYS}
    return None


async def _earlier(tools: ToolBox, args: dict[str, object], again: bool) -> str:
    record = await tools.run("offer_positions", args)
    if record.refused and tools.last_offer is None:
        return speech.NO_EARLIER_BEFORE if again else speech.NO_EARLIER
    return speech.for_offer(tools.last_offer, tools.preview)


def other_places(earlier: list[Exchange]) -> list[int]:
    """The places the newest search found that its turn did not offer, best first (at most four)."""
    for exchange in reversed(earlier):
        found = [
            ref.place.passage_id
            for call in exchange.calls
            if call.name == "find_passage"
            for ref in call.places
            if ref.place.passage_id is not None
        ]
        if not found:
            continue
        offered = {
            int(i)
            for call in exchange.calls
            if call.name == "offer_positions" and not call.refused
            for i in call.arguments.get("ids", [])
            if isinstance(i, int)
        }
        return [i for i in dict.fromkeys(found) if i not in offered][:MAX_ROWS]
    return []


async def _find_and_offer(tools: ToolBox, query: str) -> str:
    await tools.run("find_passage", {"query": query})
    plausible = [hit.passage_id for hit in tools.hits if hit.score >= MIN_SCORE][:MAX_ROWS]
    if not plausible:
        return speech.NOT_FOUND
    await tools.run("offer_positions", {"ids": plausible})
    return speech.for_offer(tools.last_offer, tools.preview)


async def _named_place(tools: ToolBox, intent: Intent) -> str:
    """A chapter, a time, a jump or an end of the book: one candidate for the same offer."""
    args: dict[str, object]
    match intent:
        case intents.Chapter(n=n):
            args = {"chapter": n}
        case intents.Jump(offset_ms=offset):
            args = {"offset_ms": offset}
        case intents.ClockTime(position_ms=at):
            args = {"position_ms": at}
        case intents.BookStart():
            args = {"position_ms": 0}
        case intents.ThisChapterStart():
            here = await tools.backends.resolve(
                Resolve(book=tools.book, here_ms=tools.here_ms, targets=[Target(offset_ms=0)])
            )
            passage = here.resolutions[0].passage if here.resolutions else None
            if passage is None:
                return speech.NOT_FOUND
            args = {"chapter": passage.chapter}
        case intents.BookEnd():
            last = await _last_passage(tools)
            if last is None:
                return speech.NOT_FOUND
            args = {"ids": [last]}
        case _:
            return speech.CANNOT_HELP
    await tools.run("offer_positions", args)
    return speech.for_offer(tools.last_offer, tools.preview)


async def _last_passage(tools: ToolBox) -> int | None:
    """The id of the book's final passage: "the end" starts there, not on its last millisecond."""
    catalog = await tools.backends.catalog(CatalogRequest(book=tools.book))
    books = [b for b in catalog.books if b.id == tools.book]
    if not books or books[0].duration_ms <= 0:
        return None
    end = Target(position_ms=max(0, books[0].duration_ms - 1))
    resolved = await tools.backends.resolve(Resolve(book=tools.book, here_ms=tools.here_ms, targets=[end]))
    passage = resolved.resolutions[0].passage if resolved.resolutions else None
    return passage.id if passage is not None else None
