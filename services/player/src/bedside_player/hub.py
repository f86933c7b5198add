"""Fan-out of state changes to the devices listening on this copy (SSE).

A device may be behind any copy while its listener's partition is owned by another, so the
hub subscribes, for each listener and book a device here watches, to the pushes on core
NATS (``bedside.push.<listener>.<book>``) that the writing copy publishes. It is also told
of this copy's own applies directly, which is sooner; a state at or below the newest one
already handed out for that listener and book is dropped, so nothing arrives twice.
"""

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Callable

import structlog
from bedside_contracts import subjects
from bedside_contracts.player import ListenerState
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from pydantic import ValidationError

from bedside_player.domain.state import PlayerState

QUEUE_SIZE = 64
Key = tuple[str, str]
log = structlog.get_logger("bedside.player.hub")


class Hub:
    def __init__(self) -> None:
        self.queues: dict[Key, set[asyncio.Queue[ListenerState]]] = defaultdict(set)
        self.newest: dict[Key, int] = {}
        self.connection: Client | None = None
        self._subs: dict[Key, Subscription] = {}
        self._closing: set[asyncio.Task[None]] = set()

    async def subscribe(self, listener: str, book: str) -> asyncio.Queue[ListenerState]:
        key = (listener, book)
        queue: asyncio.Queue[ListenerState] = asyncio.Queue(QUEUE_SIZE)
        self.queues[key].add(queue)
        if key not in self._subs and self.connection is not None:
            subject = subjects.PLAYER_PUSH.format(listener=listener, book=book)
            self._subs[key] = await self.connection.subscribe(subject, cb=self._pushed)
            await self.connection.flush()  # subscribed before the caller reads the current state
        return queue

    def unsubscribe(self, listener: str, book: str, queue: asyncio.Queue[ListenerState]) -> None:
        key = (listener, book)
        self.queues[key].discard(queue)
        if self.queues[key]:
            return
        del self.queues[key]
        self.newest.pop(key, None)
        if (sub := self._subs.pop(key, None)) is not None:
            task = asyncio.create_task(self._close(sub))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(sub: Subscription) -> None:
        with contextlib.suppress(NatsError):
            await sub.unsubscribe()

    async def _pushed(self, msg: Msg) -> None:
        try:
            state = ListenerState.model_validate_json(msg.data)
        except ValidationError:
            log.warning("a push that does not fit the contract", subject=msg.subject)
            return
        self._deliver((state.listener, state.book), state.seq, lambda: state)

    def __call__(self, state: PlayerState) -> None:
        self._deliver((state.listener, state.book), state.seq, state.public)

    def _deliver(self, key: Key, seq: int, public: Callable[[], ListenerState]) -> None:
        queues = self.queues.get(key)
        if not queues or seq <= self.newest.get(key, 0):
            return
        self.newest[key] = seq
        shown = public()
        for queue in queues:
            if queue.full():  # a device that stopped reading: keep only the newest state
                queue.get_nowait()
            queue.put_nowait(shown)
