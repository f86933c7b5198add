"""Fan-out of state changes to the devices listening on this instance (SSE)."""

import asyncio
from collections import defaultdict

from bedside_contracts.player import ListenerState

from bedside_player.domain.state import PlayerState

QUEUE_SIZE = 64


class Hub:
    def __init__(self) -> None:
        self.queues: dict[tuple[str, str], set[asyncio.Queue[ListenerState]]] = defaultdict(set)

    def subscribe(self, listener: str, book: str) -> asyncio.Queue[ListenerState]:
        queue: asyncio.Queue[ListenerState] = asyncio.Queue(QUEUE_SIZE)
        self.queues[(listener, book)].add(queue)
        return queue

    def unsubscribe(self, listener: str, book: str, queue: asyncio.Queue[ListenerState]) -> None:
        self.queues[(listener, book)].discard(queue)
        if not self.queues[(listener, book)]:
            del self.queues[(listener, book)]

    def __call__(self, state: PlayerState) -> None:
        queues = self.queues.get((state.listener, state.book))
        if not queues:
            return
        public = state.public()
        for queue in queues:
            if queue.full():  # a device that stopped reading: keep only the newest state
                queue.get_nowait()
            queue.put_nowait(public)
