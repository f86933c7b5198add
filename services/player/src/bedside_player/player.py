"""The player application: commands in, events appended, projections and devices updated.

Thin around the domain: read the projection, ``decide``, append with the expected
sequence, apply; on a conflict catch up from the stream and decide again (bounded).
"""

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import structlog
from bedside_contracts import subjects
from bedside_contracts.player import (
    CommandResult,
    History,
    HistoryEntry,
    HistoryRequest,
    JoinDevice,
    ListenerState,
    Listening,
    ListeningRequest,
    Located,
    LocateRequest,
    OfferOutcome,
    OfferPositions,
    PlayerCommand,
    PlayerEvent,
)
from bedside_contracts.search import ChapterInfo, Resolve, Resolved, Target
from bedside_runtime.clock import Clock, wall_clock_ms
from bedside_runtime.errors import Conflict, InvalidRequest, NotFound

from bedside_player.catalog import Books
from bedside_player.domain import history as history_rules
from bedside_player.domain.decide import (
    Invalid,
    Missing,
    Retired,
    Stale,
    decide,
    refuse_if_retired,
    retire,
    told_joining,
)
from bedside_player.domain.heard_twice import command_heard_twice, heard_twice, told_again, told_done
from bedside_player.domain.offer import decide_offer, unique_targets
from bedside_player.domain.state import PlayerState, listening_to
from bedside_player.domain.within_book import held_within
from bedside_player.projections import Projections
from bedside_player.store import EventStore, WrongLastSequence

log = structlog.get_logger("bedside.player")

MAX_ATTEMPTS = 8
Resolver = Callable[[Resolve], Awaitable[Resolved]]
Publish = Callable[[str, bytes], Awaitable[None]]
R = TypeVar("R")


@dataclass(frozen=True)
class Decided(Generic[R]):
    """What one attempt decided: the event to append (None: nothing to write) and the reply,
    made from the state after the append (or the state decided on), as devices see it."""

    event: PlayerEvent | None
    reply: Callable[[ListenerState], R]


Step = Callable[[PlayerState], Awaitable["Decided[R] | None"]]
"""One attempt at deciding on a projection; None when it had to catch up and must decide again."""


def accepted(state: ListenerState) -> CommandResult:
    return CommandResult(accepted=True, seq=state.seq, state=state)


class Player:
    def __init__(
        self,
        store: EventStore,
        projections: Projections,
        books: Books,
        resolve: Resolver,
        publish: Publish,
        *,
        clock: Clock = wall_clock_ms,
    ) -> None:
        self.store = store
        self.projections = projections
        self.books = books
        self.resolve = resolve
        self.publish = publish
        self.locks: defaultdict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)
        self.clock = clock

    def told(self, state: PlayerState) -> ListenerState:
        """The state as devices are told it now (a book whose players went quiet is paused, ADR 48),
        within the book as it is now (ADR 81)."""
        return held_within(state, self.books.end_of(state.book)).public(self.clock())

    async def told_now(self, listener: str, book: str) -> ListenerState:
        """The listener's state caught up on and told, within the book as search serves it now."""
        state = await self.catch_up(listener, book)
        return held_within(state, await self.books.length_of(book)).public(self.clock())

    def state(self, listener: str, book: str) -> PlayerState:
        return self.projections.get(listener, book)

    async def catch_up(self, listener: str, book: str) -> PlayerState:
        """Apply what the stream holds for this listener and book beyond the projection."""
        state = self.projections.get(listener, book)
        for seq, event in await self.store.read_after(listener, book, state.seq):
            state = self.projections.apply(listener, book, event, seq)
        return state

    async def _behind(self, state: PlayerState) -> bool:
        """Whether the stream holds more than ``state``, caught up on now. A request heard twice appends
        nothing, so no expected sequence checks the view it was decided on: a copy behind (a lease
        changing hands) would tell a move since undone (ADR 77). Read only then, as for a refusal."""
        return (await self.catch_up(state.listener, state.book)).seq != state.seq

    async def listening(self, request: ListeningRequest) -> Listening:
        """Which of the books the listener's current position is in (caught up on each first, all
        at once: a page opening waits on one read of the stream, not one for each book)."""
        states = await asyncio.gather(*(self.catch_up(request.listener, book) for book in request.books))
        return Listening(book=listening_to(states))

    async def _append(self, state: PlayerState, event: PlayerEvent) -> ListenerState:
        """Append on ``state``'s basis, apply, and push the new state; the new state as devices see it."""
        seq = await self.store.append(state.listener, state.book, event, state.seq)
        after = self.told(self.projections.apply(state.listener, state.book, event, seq))
        await self.publish(
            subjects.PLAYER_PUSH.format(listener=state.listener, book=state.book),
            after.model_dump_json().encode(),
        )
        return after

    async def _decide_and_append(self, listener: str, book: str, step: "Step[R]", changing: str) -> R:
        """The one write loop: decide on the projection, append at its sequence, and on a
        conflict catch up from the stream and decide again (bounded)."""
        async with self.locks[(listener, book)]:
            for _ in range(MAX_ATTEMPTS):
                state = self.projections.get(listener, book)
                decided = await step(state)
                if decided is None:
                    continue
                if decided.event is None:
                    return decided.reply(self.told(state))
                try:
                    after = await self._append(state, decided.event)
                except WrongLastSequence:
                    await self.catch_up(listener, book)
                    continue
                return decided.reply(after)
        raise Conflict(f"{listener}/{book} {changing}; try again")

    async def command(
        self,
        listener: str,
        book: str,
        command: PlayerCommand,
        book_end_ms: int | None,
        chapters: Sequence[ChapterInfo] = (),
    ) -> CommandResult:
        """Decide and append; a stale device gets ``accepted=False`` with the current state."""

        async def step(state: PlayerState) -> "Decided[CommandResult] | None":
            now_ms = self.clock()
            try:
                refuse_if_retired(state)  # before a request heard again, as decide does before the rest
                if (first := command_heard_twice(state, command, now_ms)) is not None:
                    if await self._behind(state):
                        return None
                    return Decided(None, lambda now: told_done(first, now))
                within = held_within(state, book_end_ms)
                event = decide(within, command, now_ms=now_ms, book_end_ms=book_end_ms, chapters=chapters)
            except Stale as stale:
                current = await self.catch_up(listener, book)  # the refusal carries the newest state
                refusal = CommandResult(
                    accepted=False, seq=current.seq, state=self.told(current), reason=stale.reason
                )
                return Decided(None, lambda _: refusal)
            except Invalid as invalid:
                # another instance's newer events may make it valid (a basis it handed out)
                if (await self.catch_up(listener, book)).seq != state.seq:
                    return None
                if isinstance(invalid, Missing):
                    raise NotFound(invalid.reason) from None
                raise InvalidRequest(invalid.reason) from None
            if isinstance(command, JoinDevice):  # a join moves nothing: where the book was, it still is
                return Decided(
                    event,
                    lambda told: accepted(told_joining(told, state, command.device, now_ms, book_end_ms)),
                )
            return Decided(event, accepted)

        return await self._decide_and_append(
            listener, book, step, f"changed {MAX_ATTEMPTS} times while deciding"
        )

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        """Resolve the targets with search where the listener is, then move, list, or refuse.

        With ``preview_at_ms`` the same decision is made from there and nothing is appended.
        """
        book = await self.books.get(request.book)
        targets = unique_targets(request.targets)
        if request.preview_at_ms is not None:
            here_ms = request.preview_at_ms
            resolved = await self.resolve(Resolve(book=book.id, here_ms=here_ms, targets=targets))
            return decide_offer(request, resolved.resolutions, here_ms).outcome

        async def step(state: PlayerState) -> "Decided[OfferOutcome] | None":
            try:
                refuse_if_retired(state)
            except Retired as retired:
                raise InvalidRequest(retired.reason) from None
            now_ms = self.clock()
            if (first := heard_twice(state, request, now_ms)) is not None:
                if await self._behind(state):
                    return None
                where = Resolve(
                    book=book.id, here_ms=first.from_ms, targets=[Target(position_ms=first.to_ms)]
                )
                told = told_again(first, (await self.resolve(where)).resolutions)
                return Decided(None, lambda _: told.outcome)
            within = held_within(state, book.duration_ms)
            resolved = await self.resolve(Resolve(book=book.id, here_ms=within.position_ms, targets=targets))
            decision = decide_offer(
                request,
                resolved.resolutions,
                within.position_ms,
                timer=within.sleep_timer,
                chapters=book.chapters,
                book_end_ms=book.duration_ms,
                now_ms=now_ms,
            )
            return Decided(decision.event, lambda _: decision.outcome)

        outcome = await self._decide_and_append(
            request.listener, request.book, step, "kept changing during the offer"
        )
        log.info("offer", listener=request.listener, book=request.book, outcome=outcome.outcome)
        return outcome

    async def retire(self, listener: str) -> list[str]:
        """End each of the listener's book streams with ``ListenerRetired`` (their devices are
        pushed the retired state, as after any event); the books, by id. The projections hold
        every book the listener has a stream in: this copy serves the listener's partition."""
        books = sorted(book for (who, book) in list(self.projections.states) if who == listener)
        for book in books:

            async def step(state: PlayerState) -> "Decided[ListenerState]":
                return Decided(retire(state), lambda after: after)

            await self._decide_and_append(listener, book, step, "kept changing while being retired")
        log.info("listener retired", listener=listener, books=books)
        return books

    async def _entries(self, listener: str, book_id: str) -> list[HistoryEntry]:
        book = await self.books.get(book_id)
        stored = await self.store.read_subject(listener, book_id)
        return history_rules.entries(listener, book_id, stored, book.chapters)

    async def history(self, request: HistoryRequest) -> History:
        items = await self._entries(request.listener, request.book)
        return History(entries=history_rules.history(items, request.limit, request.before_seq, request.kind))

    async def locate(self, request: LocateRequest) -> Located:
        return history_rules.lookup(
            await self._entries(request.listener, request.book), request, self.clock()
        )
