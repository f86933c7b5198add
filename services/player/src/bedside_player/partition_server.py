"""The partition subjects: what this copy answers for the listeners of the partitions it serves.

``bedside.player.partition.<n>.<copy>.<operation>`` is subscribed only while this copy serves
partition ``n``. Another copy that was asked for one of its listeners (over HTTP or the bus)
sends the request to the copy that partition's lease names. A rule's refusal travels back as
a ``Failure`` the asking copy raises again, so a device sees the same answer from any copy;
only a request that does not fit its contract is dead-lettered.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import structlog
from bedside_contracts.partitions import partition_requests
from bedside_contracts.player import (
    CommandRequest,
    HistoryRequest,
    ListeningRequest,
    LocateRequest,
    OfferPositions,
    RemoveListener,
    StateRequest,
)
from bedside_runtime.bus import MAX_REQUEST_BYTES, Broker, dead_letter, failure_for
from bedside_runtime.errors import InvalidRequest
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from bedside_player.service import Service

log = structlog.get_logger("bedside.player.partitions")

Handler = Callable[[Any], Awaitable[BaseModel]]


class PartitionServer:
    def __init__(self, broker: Broker, service: "Service") -> None:
        self.broker = broker
        self.service = service
        self.subs: dict[int, Subscription] = {}
        self.running: set[asyncio.Task[None]] = set()
        self.operations: dict[str, tuple[type[BaseModel], Handler]] = {
            "state": (StateRequest, self._state),
            "command": (CommandRequest, self._command),
            "offer": (OfferPositions, service.player.offer),
            "history": (HistoryRequest, service.player.history),
            "locate": (LocateRequest, service.player.locate),
            "listening": (ListeningRequest, service.player.listening),
            "retire": (RemoveListener, service.retire_here),
        }

    async def _state(self, request: StateRequest) -> BaseModel:
        return await self.service.player.told_now(request.listener, request.book)

    async def _command(self, request: CommandRequest) -> BaseModel:
        book = await self.service.books.get(request.book)
        return await self.service.player.command(
            request.listener, request.book, request.command, book.duration_ms, book.chapters
        )

    async def serve(self, gained: frozenset[int], released: frozenset[int]) -> None:
        connection = self.broker.connection
        for partition in released:
            if (sub := self.subs.pop(partition, None)) is not None:
                try:
                    await sub.unsubscribe()
                except NatsError:
                    log.warning("could not unsubscribe a released partition", partition=partition)
        for partition in gained:
            if partition not in self.subs:
                sub = await connection.subscribe(
                    partition_requests(partition, self.service.copy_id), cb=self._on_message
                )
                if partition in self.service.follower.serving:
                    self.subs[partition] = sub
                else:  # withdrawn while subscribing: its withdrawal found nothing to take away
                    await sub.unsubscribe()
        if gained:
            await connection.flush()

    async def stop(self) -> None:
        await self.serve(frozenset(), frozenset(self.subs))

    async def _on_message(self, msg: Msg) -> None:
        task = asyncio.create_task(self._respond(msg))
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    async def _respond(self, msg: Msg) -> None:
        operation = msg.subject.rsplit(".", 1)[-1]
        try:
            if len(msg.data) > MAX_REQUEST_BYTES:
                raise InvalidRequest(f"a request of {len(msg.data)} bytes is too large")
            if operation not in self.operations:
                raise InvalidRequest(f"no partition operation {operation!r}")
            model, handler = self.operations[operation]
            reply = (await handler(model.model_validate_json(msg.data))).model_dump_json().encode()
        except Exception as error:  # every failure becomes a reply; the copy stays up
            failure = failure_for(error)
            if failure.code == "internal":
                log.exception("partition request failed", subject=msg.subject)
            if isinstance(error, ValidationError):
                await dead_letter(self.broker, "player", msg.subject, msg.data, failure.error)
            reply = failure.model_dump_json().encode()
        if msg.reply:
            await msg.respond(reply)
