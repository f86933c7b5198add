"""The player's requests on the bus: state, offer, command, history (thin; rules live in domain).

Replies follow ``bedside_runtime.bus.serve_requests`` exactly (the contract in, a reply or a
``Failure`` out, a dead-letter copy of what does not fit), but on a plain nats-py
subscription: FastStream resolves its ``NatsMessage`` argument in a worker thread, and on
the report path, which runs a thousand times a second, that hop cost more than the append
itself (bench/player_reports.py). Each request runs as its own task, so one listener's
wait for a JetStream ack does not hold up another's; order within a listener and book is
kept by the player's lock.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from bedside_contracts import subjects
from bedside_contracts.player import (
    CommandRequest,
    CommandResult,
    History,
    HistoryRequest,
    ListenerState,
    OfferOutcome,
    OfferPositions,
    StateRequest,
)
from bedside_runtime.bus import MAX_REQUEST_BYTES, dead_letter, failure_for
from bedside_runtime.errors import InvalidRequest
from faststream.nats import NatsBroker
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from pydantic import BaseModel

from bedside_player.service import Service

log = structlog.get_logger("bedside.player.bus")

Req = TypeVar("Req", bound=BaseModel)


async def answer(
    broker: NatsBroker,
    subject: str,
    model: type[Req],
    handler: Callable[[Req], Awaitable[BaseModel]],
    msg: Msg,
) -> None:
    try:
        if len(msg.data) > MAX_REQUEST_BYTES:
            raise InvalidRequest(f"a request of {len(msg.data)} bytes is too large")
        reply = (await handler(model.model_validate_json(msg.data))).model_dump_json().encode()
    except Exception as error:  # every failure becomes a reply; the service stays up
        failure = failure_for(error)
        if failure.code == "internal":
            log.exception("handler failed", subject=subject)
        if failure.code == "invalid":
            await dead_letter(broker, "player", subject, msg.data, failure.error)
        reply = failure.model_dump_json().encode()
    if msg.reply:
        await msg.respond(reply)


class BusApi:
    def __init__(self, broker: NatsBroker, service: Service) -> None:
        self.broker = broker
        self.service = service
        self.subs: list[Subscription] = []
        self.tasks: set[asyncio.Task[None]] = set()

    async def state(self, request: StateRequest) -> ListenerState:
        return (await self.service.player.catch_up(request.listener, request.book)).public()

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        return await self.service.player.offer(request)

    async def command(self, request: CommandRequest) -> CommandResult:
        """A command the rules refuse (nothing to undo, no list) is an answer, not a bad message."""
        book = await self.service.books.get(request.book)
        player = self.service.player
        try:
            return await player.command(request.listener, request.book, request.command, book.duration_ms)
        except InvalidRequest as refused:
            state = player.state(request.listener, request.book)
            return CommandResult(accepted=False, seq=state.seq, state=state.public(), reason=refused.message)

    async def history(self, request: HistoryRequest) -> History:
        return await self.service.player.history(request)

    async def _serve(
        self, subject: str, model: type[Req], handler: Callable[[Req], Awaitable[BaseModel]]
    ) -> None:
        async def on_message(msg: Msg) -> None:
            task = asyncio.create_task(answer(self.broker, subject, model, handler, msg))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

        nc = self.broker.connection
        self.subs.append(await nc.subscribe(subject, queue=subjects.queue_for("player"), cb=on_message))

    async def start(self) -> None:
        await self._serve(subjects.PLAYER_STATE, StateRequest, self.state)
        await self._serve(subjects.PLAYER_OFFER, OfferPositions, self.offer)
        await self._serve(subjects.PLAYER_COMMAND, CommandRequest, self.command)
        await self._serve(subjects.PLAYER_HISTORY, HistoryRequest, self.history)

    async def stop(self) -> None:
        for sub in self.subs:
            await sub.unsubscribe()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=5)
