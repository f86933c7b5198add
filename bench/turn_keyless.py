"""Keyless turns over the bus on Black Beauty, beside the floor: the same tool calls alone.

Real processes (search, ingest, player, turn) on a fresh bus; Black Beauty from
the shared corpus is ingested first. Each utterance is asked twice, each time as one
``TURN_ASK`` request from this client: as ``bedside ask`` sends it (the turn asks the
player where the listener is) and as the player sends a device's turn (with the position,
``Ask.here_ms``). After each turn its ``TurnCompleted`` event is read and the very same
requests are sent again directly (the listener's state when the turn asked for it, then
every tool call with the same arguments, plus the reads the router makes for "the end" and
the tool for "the start of this chapter" and "the end of the chapter"): that is the floor,
measured in the same run. The listener is put back in place (untimed) after each, so every
turn starts at the same spot.

Run: ``.venv/bin/python -m bench.turn_keyless [rounds]``.
"""

import asyncio
import sys
import time
from typing import Any

from bedside_contracts import subjects
from bedside_contracts.player import CommandRequest, ListenerState, OfferPositions, Seek, StateRequest
from bedside_contracts.search import (
    BookInfo,
    Catalog,
    CatalogRequest,
    FindPassage,
    Recall,
    Recap,
    Resolve,
    Resolved,
    Target,
)
from bedside_contracts.turn import Ask, OfferPositionsArgs, RecapArgs, TurnCompleted, TurnReply
from bedside_evaluation import query_sets
from bedside_turn.domain import chapters, intents
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.tool_results import targets_of

from bench.report import latency_figures, report
from bench.turn_common import CORPUS, System, summary

LISTENER = "bench"
NAMED = (
    "chapter 8",
    "back 30 seconds",
    "forward five minutes",
    "the start of this chapter",
    "take me to the end of the chapter",
    "take me to the end of chapter 8",
    "take me to the end",
    "go to chapter 40",
)
QUESTIONS = (
    "who is Ginger?",
    "what happened to Merrylegs?",
    "remind me who John Manly is",
    "who is the squire?",
    "what did I miss?",
    "sing me a song",
)


async def place(system: System, book: str, here_ms: int) -> None:
    state = ListenerState.model_validate(
        await system.request(subjects.PLAYER_STATE, StateRequest(listener=LISTENER, book=book).model_dump())
    )
    seek = Seek(device="bench", position_ms=here_ms, basis_seq=state.seq)
    command = CommandRequest(listener=LISTENER, book=book, command=seek)
    await system.request(subjects.PLAYER_COMMAND, command.model_dump(mode="json"))


async def replay(
    system: System, book: str, here_ms: int, duration_ms: int, event: TurnCompleted, *, asked_state: bool
) -> float:
    """The same requests the turn made, sent directly; their total time in ms."""
    started = time.perf_counter()
    if asked_state:
        await call(system, subjects.PLAYER_STATE, StateRequest(listener=LISTENER, book=book))
    intent = intents.read(event.utterance)
    if isinstance(intent, intents.BookEnd):
        await call(system, subjects.SEARCH_CATALOG, CatalogRequest(book=book))
        end = Target(position_ms=duration_ms - 1)
        await call(system, subjects.SEARCH_RESOLVE, Resolve(book=book, here_ms=here_ms, targets=[end]))
    for record in event.calls:
        args: dict[str, Any] = record.arguments
        if record.name == "find_passage":
            await call(
                system, subjects.SEARCH_FIND, FindPassage(book=book, here_ms=here_ms, query=args["query"])
            )
        elif record.name == "recap":
            await replay_recap(system, book, here_ms, RecapArgs.model_validate(args))
        elif record.name == "recall":
            await call(
                system, subjects.SEARCH_RECALL, Recall(book=book, here_ms=here_ms, question=args["question"])
            )
        elif record.name == "offer_positions":
            offered = OfferPositionsArgs.model_validate(args)
            targets = targets_of(offered)
            ended = offered.chapter  # with chapter_end, whose end; None: the chapter playing
            if offered.chapter_step is not None:
                start_asked = not (offered.chapter_end and ended is None)
                counted = await replay_chapter_step(
                    system, book, here_ms, offered.chapter_step, start_asked=start_asked
                )
                if not start_asked:
                    ended = counted
                elif counted is not None:
                    targets.append(Target(chapter=counted))
            if offered.chapter_end:
                end_offered = await replay_chapter_end(system, book, here_ms, ended)
                if end_offered is not None:
                    targets.append(Target(chapter_end=end_offered))
            if not targets:
                continue  # the tool refused before any offer (already at the chapter's end or start)
            offer = OfferPositions(
                listener=LISTENER, book=book, turn_id=f"floor-{event.turn_id}", targets=targets
            )
            await call(system, subjects.PLAYER_OFFER, offer)
    return (time.perf_counter() - started) * 1000


async def replay_chapter_step(
    system: System, book: str, here_ms: int, step: int, *, start_asked: bool
) -> int | None:
    """The reads the tool makes for a chapter counted from the one playing (the catalog, and when the
    start of the one playing is asked for, its first passage, to see whether any of it is heard), and
    the chapter; None when the tool offers no chapter (that start asked for before any of it is heard)."""
    catalog = Catalog.model_validate(await call(system, subjects.SEARCH_CATALOG, CatalogRequest(book=book)))
    counted = chapters.counted_from_the_clock([c for b in catalog.books for c in b.chapters], here_ms, step)
    assert isinstance(counted, int)
    if step == 0 and start_asked:
        resolved = await call(
            system,
            subjects.SEARCH_RESOLVE,
            Resolve(book=book, here_ms=here_ms, targets=[Target(chapter=counted)]),
        )
        first = Resolved.model_validate(resolved).resolutions[0].passage
        if first is not None and chapters.still_at_its_start(first, here_ms):
            return None
    return counted


async def replay_chapter_end(system: System, book: str, here_ms: int, chapter: int | None) -> int | None:
    """The reads the tool makes for the end of a chapter (``chapter``, else the one playing), and the
    chapter whose end it offers; None when the listener is at the end of the one playing already (the
    tool refuses)."""
    catalog = Catalog.model_validate(await call(system, subjects.SEARCH_CATALOG, CatalogRequest(book=book)))
    playing = chapters.counted_from_the_clock([c for b in catalog.books for c in b.chapters], here_ms, 0)
    ended = chapter if chapter is not None else playing
    assert isinstance(ended, int)
    if ended == playing:
        end = Target(chapter_end=ended)
        resolved = await call(
            system, subjects.SEARCH_RESOLVE, Resolve(book=book, here_ms=here_ms, targets=[end])
        )
        closing = Resolved.model_validate(resolved).resolutions[0].passage
        if closing is not None and chapters.already_at_its_end(closing, here_ms):
            return None
    return ended


async def replay_recap(system: System, book: str, here_ms: int, args: RecapArgs) -> None:
    """The reads a recap makes (the state or the catalog its span needs, then search's recap)."""
    chapters = []
    if args.span in ("last_chapter", "chapter_before_last", "chapters_ago", "this_chapter"):
        catalog = Catalog.model_validate(
            await call(system, subjects.SEARCH_CATALOG, CatalogRequest(book=book))
        )
        chapters = [c for b in catalog.books for c in b.chapters]
    asleep = None
    if args.span == "since_asleep":
        state = await call(system, subjects.PLAYER_STATE, StateRequest(listener=LISTENER, book=book))
        asleep = ListenerState.model_validate(state).asleep
    chosen = recaps.choose_span(args, here_ms, chapters, asleep)
    span = Recap(
        book=book, here_ms=here_ms, from_ms=chosen.from_ms, to_ms=chosen.to_ms, max_words=recaps.SPOKEN_WORDS
    )
    await call(system, subjects.SEARCH_RECAP, span)


PER_SUBJECT: dict[str, list[float]] = {}


async def call(system: System, subject: str, body: Any) -> Any:
    started = time.perf_counter()
    reply = await system.request(subject, body.model_dump(mode="json"))
    PER_SUBJECT.setdefault(subject, []).append((time.perf_counter() - started) * 1000)
    return reply


async def timed_turn(
    system: System, info: BookInfo, here: int, utterance: str, position_sent: bool
) -> tuple[float, float, TurnCompleted]:
    """One turn asked from ``here`` and its floor, in ms, with the turn's record."""
    await place(system, info.id, here)
    ask = Ask(listener=LISTENER, book=info.id, utterance=utterance, here_ms=here if position_sent else None)
    started = time.perf_counter()
    reply = TurnReply.model_validate(await system.request(subjects.TURN_ASK, ask.model_dump()))
    took = (time.perf_counter() - started) * 1000
    subject = subjects.TURN_COMPLETED.format(listener=LISTENER, book=info.id)
    message = await system.nc.jetstream().get_last_msg(subjects.TURNS_STREAM, subject)
    event = TurnCompleted.model_validate_json(message.data or b"")
    assert event.turn_id == reply.turn_id
    await place(system, info.id, here)
    floor = await replay(system, info.id, here, info.duration_ms, event, asked_state=not position_sent)
    return took, floor, event


async def main(rounds: int) -> None:
    system = await System().start()
    try:
        info = await system.book("black_beauty", CORPUS / "black_beauty.json")
        here = info.chapters[24].start_ms + 60_000
        navigation = [q.text for qs in query_sets() if qs.book == "black_beauty" for q in qs.queries][::3]
        utterances = [*navigation, *NAMED, *QUESTIONS]
        turns: list[float] = []
        floors: list[float] = []
        sent_turns: list[float] = []
        sent_floors: list[float] = []
        by_kind: dict[str, list[float]] = {}
        steps: dict[str, list[float]] = {}
        for round_no in range(rounds + 1):
            for utterance in utterances:
                for position_sent in (False, True):
                    took, floor, event = await timed_turn(system, info, here, utterance, position_sent)
                    if round_no == 0:
                        PER_SUBJECT.clear()
                        continue  # warm-up: caches, connections, first embeddings
                    if position_sent:
                        sent_turns.append(took)
                        sent_floors.append(floor)
                        continue
                    for step in event.steps:
                        steps.setdefault(step.name, []).append(step.ms)
                    turns.append(took)
                    floors.append(floor)
                    by_kind.setdefault(type(intents.read(utterance)).__name__, []).append(took - floor)
        print(f"book black_beauty: {info.passages} passages; {len(utterances)} utterances x {rounds} rounds")
        print(f"keyless turn over the bus   {summary(turns)}")
        print(f"floor (same calls, direct)  {summary(floors)}")
        print(f"turn minus floor            {summary([t - f for t, f in zip(turns, floors, strict=True)])}")
        print(f"position sent with the Ask  {summary(sent_turns)}")
        print(f"its floor (no state request) {summary(sent_floors)}")
        for kind, extra in sorted(by_kind.items()):
            print(f"  overhead for {kind:<16} {summary(extra)}")
        print("floor by request:")
        for name, values in sorted(PER_SUBJECT.items()):
            print(f"  {name:<24} {summary(values)}")
        print("inside the turn (TurnCompleted.steps):")
        for name, values in sorted(steps.items()):
            print(f"  {name:<24} {summary(values)}")
        print()
        detail = f" ({len(turns)} turns, BB)"
        figures = latency_figures("turn keyless over NATS", turns, floors, detail=detail)
        figures += latency_figures("turn keyless, position sent", sent_turns, sent_floors, detail=detail)
        report(figures)
    finally:
        await system.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
