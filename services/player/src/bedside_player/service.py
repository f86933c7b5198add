"""The service's parts, wired once the broker is connected: store, projections, player, listeners."""

import asyncio
import contextlib

import structlog
from bedside_contracts import subjects
from bedside_contracts.search import Catalog, CatalogRequest, Resolve, Resolved
from bedside_runtime.bus import Broker, call
from bedside_runtime.settings import Settings
from nats.js import JetStreamContext
from nats.js.errors import BucketNotFoundError
from pydantic import ValidationError

from bedside_player.catalog import Books
from bedside_player.hub import Hub
from bedside_player.listeners import Listeners
from bedside_player.player import Player
from bedside_player.projections import Projections, follow
from bedside_player.replay import load_snapshot
from bedside_player.store import EventStore
from bedside_player.stream_range import RangeReader

log = structlog.get_logger("bedside.player")


class Service:
    """Everything the handlers use. ``start`` needs a connected broker; handlers run after it."""

    def __init__(self, broker: Broker, settings: Settings) -> None:
        self.broker = broker
        self.settings = settings
        self.hub = Hub()
        self.projections = Projections()
        self.projections.watchers.append(self.hub)
        self.ready = asyncio.Event()
        self.books = Books(self._catalog)
        self._player: Player | None = None
        self._listeners: Listeners | None = None
        self._follower: asyncio.Task[None] | None = None

    @property
    def player(self) -> Player:
        assert self._player is not None, "the player service has not started"
        return self._player

    @property
    def listeners(self) -> Listeners:
        assert self._listeners is not None, "the player service has not started"
        return self._listeners

    async def listener_for(self, token: str) -> str | None:
        return await self.listeners.listener_for(token)

    async def listener_for_device(self, credential: str) -> str | None:
        return await self.listeners.listener_for_device(credential)

    async def _catalog(self, request: CatalogRequest) -> Catalog:
        timeout = self.settings.request_timeout_s
        return await call(
            self.broker.connection, subjects.SEARCH_CATALOG, request, Catalog, timeout_s=timeout
        )

    async def _resolve(self, request: Resolve) -> Resolved:
        timeout = self.settings.request_timeout_s
        return await call(
            self.broker.connection, subjects.SEARCH_RESOLVE, request, Resolved, timeout_s=timeout
        )

    async def _publish(self, subject: str, data: bytes) -> None:
        await self.broker.connection.publish(subject, data)

    async def start(self) -> None:
        js = self.broker.connection.jetstream()
        store = EventStore(js)
        await store.declare(self.settings.stream_replicas)
        self._listeners = await Listeners.open(js, self.settings.stream_replicas)
        self._player = Player(store, self.projections, self.books, self._resolve, self._publish)
        start = await self._load_snapshot(js)
        reader = RangeReader(self.broker.connection)
        self._follower = asyncio.create_task(follow(store, reader, self.projections, self.ready, start))
        waiter = asyncio.create_task(self.ready.wait())
        await asyncio.wait([waiter, self._follower], return_when=asyncio.FIRST_COMPLETED)
        if not self.ready.is_set():
            waiter.cancel()
            await self._follower  # raises why the replay failed
        self._follower.add_done_callback(self._follower_ended)

    def _follower_ended(self, task: "asyncio.Task[None]") -> None:
        """Without the feed this copy no longer sees other copies' events: say so in health."""
        if task.cancelled():
            return
        self.ready.clear()
        log.error("the stream feed stopped; this copy is not ready", error=repr(task.exception()))

    async def _load_snapshot(self, js: JetStreamContext) -> int:
        """Start from the KV snapshot (``bedside replay --save-snapshot``) when there is one."""
        try:
            kv = await js.key_value(subjects.PLAYER_SNAPSHOTS_BUCKET)
        except BucketNotFoundError:
            return 0
        try:
            return await load_snapshot(js, kv, self.projections)
        except (ValidationError, ValueError):
            log.warning("the snapshot does not fit this version; replaying the whole stream")
            self.projections.states.clear()
            return 0

    async def stop(self) -> None:
        if self._follower is not None:
            self._follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._follower
