"""One Ask becomes one turn: the line, the history, the model or the router, the record."""

import asyncio
import time
import uuid
from dataclasses import dataclass, field

import structlog
from bedside_contracts import subjects
from bedside_contracts.player import CommandRequest, NoteQuestion, StateRequest
from bedside_contracts.search import CatalogRequest, CheckAnswer, Resolve, Target
from bedside_contracts.turn import Ask, Conversation, Exchange, TurnCompleted, TurnReply
from bedside_guard import Passage, clock
from bedside_runtime.bus import Broker
from bedside_runtime.cli_args import no_such_listener
from bedside_runtime.clock import wall_clock_ms
from bedside_runtime.errors import CallFailed, InvalidRequest, NotFound, RemoteFailure

from bedside_turn.backends import Backends, TurnBackends
from bedside_turn.claude import DEFAULT_RETRY, ModelClient, ModelUnreachable, Retry, run_with_model
from bedside_turn.conversation import ConversationStore
from bedside_turn.domain import history, intents, speech
from bedside_turn.domain.own_words import OwnWords
from bedside_turn.domain.routing import (
    may_answer_the_turn_before,
    meant_after,
    model_may_answer,
    reads_history,
    request_key,
    way_said,
)
from bedside_turn.domain.rules import Turn
from bedside_turn.keyless import run_keyless
from bedside_turn.tools import ToolBox

log = structlog.get_logger("bedside.turn")

KEYLESS = "keyless"
NOTE_WAIT_S = 1.0
"""The longest a turn's answer waits for the player to note its question (a player stalled)."""


@dataclass
class TurnService:
    backends: TurnBackends
    conversations: ConversationStore
    broker: Broker
    client: ModelClient | None
    model: str
    retry: Retry = DEFAULT_RETRY
    _notes: set["asyncio.Task[None]"] = field(default_factory=set, init=False, repr=False)

    async def ask(self, ask: Ask) -> TurnReply:
        started = time.perf_counter()
        turn = Turn(turn_id=uuid.uuid4().hex[:20], answer_by_ms=ask.answer_by_ms)
        backends = self.backends.for_one_turn()
        intent = intents.read(ask.utterance)
        stored = (  # fetched while the position is
            asyncio.create_task(self.conversations.load(ask.listener, ask.book))
            if may_answer_the_turn_before(ask.utterance)
            or reads_history(intent, with_model=self.client is not None)
            else None
        )
        try:
            with turn.step("position"):
                here_ms = await self._here(ask, backends)
        except CallFailed as error:
            if stored is not None:
                stored.cancel()
            if isinstance(error, RemoteFailure) and error.code == "not_found":  # the player's refusal
                raise NotFound(no_such_listener(ask.listener)) from None
            log.warning("no position for the turn", error=str(error), listener=ask.listener, book=ask.book)
            unavailable = speech.unavailable(backends.let_down_by, backends.out_of_reach)
            return TurnReply(turn_id=turn.turn_id, speech=unavailable, outcome="failed", mode=self.mode)
        noted = self._noting(ask, turn.turn_id) if ask.at_ms is None else None
        tools = ToolBox(
            turn,
            backends,
            ask.listener,
            ask.book,
            here_ms,
            preview=ask.at_ms is not None,
            device=ask.device,
            request_key=request_key(
                intent, ask.utterance
            ),  # the words alone, before an earlier turn reads them
            basis_seq=ask.basis_seq,
            asked_at_ms=ask.asked_at_ms,
        )
        earlier: list[Exchange] = []
        if stored is not None:
            with turn.step("history"):
                earlier = await self._history(ask, here_ms, stored, backends)
        intent, repeated = meant_after(ask.utterance, intent, earlier, wall_clock_ms())
        said, mode, broke = await self._run(tools, ask.utterance, intent, earlier)
        let_down = broke or bool(backends.let_down_by)
        # Plain code's words in a turn a service let down may stand for the failure ("I couldn't
        # find that moment"): the listener hears what was done, or what failed, instead.
        unsaid = broke or (let_down and mode == KEYLESS)
        if unsaid:
            said = self._after_failure(tools, backends)
        cut = 0
        with turn.step("check"):
            if not speech.holds_no_book_words(said):
                # an answer said again is checked against the words that asked it, not "say that again":
                # the names the listener said there are theirs to hear again. It is the whole earlier
                # sentence, both halves when two were asked: harmless while a repeat is keyless, as the
                # answer first given was checked against that same sentence
                asked = repeated.utterance if repeated is not None else ask.utterance
                checked = await self._checked(
                    ask, asked, here_ms, turn.turn_id, said, from_model=mode != KEYLESS, backends=backends
                )
                if checked is None:  # not spoken unchecked: what was done is said in the turn's own words
                    said, unsaid = self._after_failure(tools, backends), True
                else:
                    said, cut = checked
        reply = TurnReply(
            turn_id=turn.turn_id,
            speech=said,
            outcome=turn.outcome(failed=let_down, unsaid=unsaid),
            mode=mode,
            rows=turn.rows,
            preview=tools.preview,
        )
        with turn.step("record"):
            await self._record(
                ask, turn, reply, here_ms, started, cut=cut, unsaid=unsaid, intent=intent, repeated=repeated
            )
            if noted is not None:  # sent at the turn's start: by now it has almost always landed
                await asyncio.wait([noted], timeout=NOTE_WAIT_S)
        return reply

    def _noting(self, ask: Ask, turn_id: str) -> "asyncio.Task[None]":
        """The note of the question, sent now and held until it ends (a task nobody holds may be
        collected half way)."""
        task = asyncio.create_task(self._note_question(ask, turn_id))
        self._notes.add(task)
        task.add_done_callback(self._notes.discard)
        return task

    async def _note_question(self, ask: Ask, turn_id: str) -> None:
        """Tell the player the listener asked something, a sign of being awake (ADR 24), beside the
        turn: its answer waits for the note a moment at most and never fails with it."""
        request = CommandRequest(listener=ask.listener, book=ask.book, command=NoteQuestion(turn_id=turn_id))
        try:
            await self.backends.for_one_turn().command(request)
        except Exception as error:  # a sign missed costs an estimate; it must never cost the answer
            log.warning(
                "the question was not noted as a sign of being awake", error=str(error), turn_id=turn_id
            )

    async def _checked(
        self,
        ask: Ask,
        asked: str,
        here_ms: int,
        turn_id: str,
        said: str,
        *,
        from_model: bool,
        backends: TurnBackends,
    ) -> tuple[str, int] | None:
        """The answer as it may be spoken and the sentences cut, or None when it could not be checked;
        ``asked``: the words it answers, whose names the listener has said.

        Every answer that holds or may hold the book's words passes the guard's answer check, model
        and keyless alike (a keyless one, built from the guard's places, by its names rule only); the
        turn's own words alone never get here (``speech.holds_no_book_words``). If it cannot be
        checked it is not spoken: an unchecked answer could carry what the model remembers. A search
        that already let the turn down is not asked (``BusBackends``): the check fails at once.
        """
        request = CheckAnswer(
            book=ask.book, here_ms=here_ms, question=asked, answer=said, from_model=from_model
        )
        try:
            checked = await backends.check(request)
        except CallFailed as error:
            if (no_book := _no_such_book(error)) is not None:
                raise no_book from None
            log.warning("the answer could not be checked", error=str(error), turn_id=turn_id)
            return None
        if checked.cut:
            log.info("answer cut before speaking", turn_id=turn_id, sentences=checked.cut)  # never the words
        return checked.speech, checked.cut

    @staticmethod
    def _after_failure(tools: ToolBox, backends: TurnBackends) -> OwnWords:
        return speech.after_failure(tools.say_what_was_done(), backends.let_down_by, backends.out_of_reach)

    @property
    def mode(self) -> str:
        return self.model if self.client is not None else KEYLESS

    async def _here(self, ask: Ask, backends: Backends) -> int:
        """Where the turn stands: the position the asking edge sent, else the --at place or the
        player's. An edge sends it for a listener its token proved; without it (the terminal) the
        player is asked, and refuses (not_found) a listener nobody made, even with --at."""
        if ask.at_ms is not None:
            await self._within_the_book(ask.book, ask.at_ms, backends)
        if ask.here_ms is not None:
            return ask.at_ms if ask.at_ms is not None else ask.here_ms
        request = StateRequest(listener=ask.listener, book=ask.book, listener_must_exist=True)
        state = await backends.state(request)
        return ask.at_ms if ask.at_ms is not None else state.position_ms

    @staticmethod
    async def _within_the_book(book: str, at_ms: int, backends: Backends) -> None:
        """An --at past the book's end is refused: answered from the end, it said nothing of the slip.
        A book search does not have is refused as search refuses it; search not answering is told by
        the turn as it is without --at."""
        try:
            catalog = await backends.catalog(CatalogRequest(book=book))
        except CallFailed as error:
            if (no_book := _no_such_book(error)) is not None:
                raise no_book from None
            return
        served = next((entry for entry in catalog.books if entry.id == book), None)
        if served is not None and at_ms > served.duration_ms:
            length = clock(served.duration_ms)
            raise InvalidRequest(f"{clock(at_ms)} is past the end of the book, which is {length} long")

    async def _run(
        self, tools: ToolBox, utterance: str, intent: intents.Intent, earlier: list[Exchange]
    ) -> tuple[str, str, bool]:
        """What to say, which mode said it, and whether the turn broke on a failed call on the way."""

        def done() -> str:  # what the model's calls did, for when it says nothing of it
            return tools.say_what_was_done() or speech.for_offer(tools.last_offer, tools.preview)

        try:
            if self.client is None or not model_may_answer(intent, earlier):
                return await run_keyless(tools, utterance, intent, earlier), KEYLESS, False
            try:
                said = await run_with_model(
                    client=self.client,
                    model=self.model,
                    tools=tools,
                    history=history.as_messages(earlier),
                    utterance=utterance,
                    retry=self.retry,
                )
            except ModelUnreachable as error:
                log.warning("model unreachable; answering keyless", error=str(error))
                if tools.turn.calls:  # what it did is said; plain code does not start the turn again
                    return speech.NO_MODEL + done(), KEYLESS, False
                return speech.NO_MODEL + await run_keyless(tools, utterance, intent, earlier), KEYLESS, False
            return said or done(), self.model, False
        except CallFailed as error:
            if (no_book := _no_such_book(error)) is not None:  # asking again will not help (the terminal)
                raise no_book from None
            log.warning("a service failed during the turn", error=str(error))
            return speech.TROUBLE, self.mode, True

    async def _history(
        self,
        ask: Ask,
        here_ms: int,
        stored: "asyncio.Task[tuple[Conversation, int | None]]",
        backends: Backends,
    ) -> list[Exchange]:
        """The stored exchanges as the model may read them from ``here_ms``; none when they cannot be
        read: the listener is answered without what came before, as a turn not recorded is only logged."""
        try:
            exchanges = (await stored)[0].exchanges
        except Exception:
            log.exception("earlier exchanges not read", listener=ask.listener, book=ask.book)
            return []
        ids = history.passages_to_read(exchanges, here_ms)
        passages: dict[int, Passage] = {}
        if ids:
            try:
                resolved = await backends.resolve(
                    Resolve(book=ask.book, here_ms=here_ms, targets=[Target(passage_id=i) for i in ids[:16]])
                )
                passages = history.passages_read(resolved.resolutions)
            except CallFailed:
                passages = {}
        return [history.guard_again(e, here_ms, passages) for e in exchanges]

    async def _record(
        self,
        ask: Ask,
        turn: Turn,
        reply: TurnReply,
        here_ms: int,
        started: float,
        *,
        cut: int,
        unsaid: bool,
        intent: intents.Intent,
        repeated: Exchange | None,
    ) -> None:
        exchange = Exchange(  # what a later model turn reads: never the listener's position (ADR 75)
            turn_id=turn.turn_id,
            utterance=ask.utterance,
            speech=history.remembered_speech(reply.speech, turn.told),
            outcome=reply.outcome,
            calls=turn.calls,
            guarded_at_ms=here_ms,
            direction=way_said(intent),
            asked=turn.asked,
            answered_at_ms=wall_clock_ms(),
            timer_replaced=turn.timer_replaced,
            timer_set_seq=turn.timer_set_seq,
            speed_changed=turn.speed_changed,
        )
        event = TurnCompleted(
            turn_id=turn.turn_id,
            listener=ask.listener,
            book=ask.book,
            utterance=ask.utterance,
            speech=reply.speech,
            outcome=reply.outcome,
            rows=reply.rows,
            calls=turn.calls,
            steps=turn.steps,
            mode=reply.mode,
            preview=reply.preview,
            cut_sentences=cut,
            total_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        # a preview answers as if the listener were elsewhere: no later turn may read it as said; an
        # answer said again is no new one, only given again now
        if reply.preview or (repeated is not None and unsaid):
            kept = []
        elif repeated is not None:
            kept = [self.conversations.said_again(ask.listener, ask.book, repeated.turn_id, wall_clock_ms())]
        else:
            kept = [self.conversations.append(ask.listener, ask.book, exchange)]
        try:
            await asyncio.gather(
                *kept,
                self.broker.publish(
                    event.model_dump_json().encode(),
                    subjects.TURN_COMPLETED.format(listener=ask.listener, book=ask.book),
                    stream=subjects.TURNS_STREAM,
                    headers={"Nats-Msg-Id": turn.turn_id},
                    timeout_s=5.0,
                ),
            )
        except Exception:  # the listener has their answer; a lost record is logged, not spoken
            log.exception("turn not recorded", turn_id=turn.turn_id)


def _no_such_book(error: CallFailed) -> NotFound | None:
    """Search's refusal of a book it does not have, as the turn's own: asking again will not help."""
    if isinstance(error, RemoteFailure) and error.code == "not_found":
        return NotFound(error.failure.error)
    return None
