"""The service's parts, wired once the broker is connected: store, projections, player, listeners,
and the partitions this copy owns (ADR 36).

Every request for a listener goes through ``Service``: answered here when this copy serves
the listener's partition, otherwise sent by request-reply to the copy that does.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from bedside_contracts import subjects
from bedside_contracts.common import Contract
from bedside_contracts.ingest import BookIngested, BookReady
from bedside_contracts.partitions import partition_request
from bedside_contracts.player import (
    OFFER_WAITS,
    CommandRequest,
    CommandResult,
    History,
    HistoryRequest,
    ListenerList,
    ListenerRemoved,
    ListenerState,
    Listening,
    ListeningRequest,
    Located,
    LocateRequest,
    OfferOutcome,
    OfferPositions,
    PlayerCommand,
    RemoveListener,
    StateRequest,
)
from bedside_contracts.search import BookInfo, Catalog, CatalogRequest, Resolve, Resolved
from bedside_runtime.bus import Broker, call
from bedside_runtime.errors import Conflict, NoService, NotFound
from bedside_runtime.settings import Settings
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js import JetStreamContext
from nats.js.errors import BucketNotFoundError
from pydantic import BaseModel, ValidationError

from bedside_player.catalog import Books
from bedside_player.follower import Follower
from bedside_player.hub import Hub
from bedside_player.leases import LeaseKeeper, new_copy_id
from bedside_player.listeners import Listeners, NoSuchListener
from bedside_player.media import MediaCopies
from bedside_player.partition_server import PartitionServer
from bedside_player.player import Player
from bedside_player.projections import Projections
from bedside_player.replay import load_snapshot
from bedside_player.store import EventStore
from bedside_player.stream_range import RangeReader

log = structlog.get_logger("bedside.player")

Rep = TypeVar("Rep", bound=BaseModel)
NO_OWNER_RETRY_S = (0.02, 0.05, 0.1, 0.2)
"""While a partition changes hands nobody answers its subject for a moment: ask again after
these pauses, then every 0.2 s."""


class Service:
    """Everything the handlers use. ``start`` needs a connected broker; handlers run after it."""

    def __init__(self, broker: Broker, settings: Settings) -> None:
        self.broker = broker
        self.settings = settings
        self.copy_id = new_copy_id()
        self.books = Books(self._catalog)
        self.hub = Hub(
            is_served=lambda listener: self._follower is not None and self.serves(listener),
            book_end=self.books.end_of,
        )
        self.projections = Projections(settings.player_partitions)
        self.projections.watchers.append(self.hub)
        self.ready = asyncio.Event()
        self.media = MediaCopies(broker, settings.data_dir / "media", round(settings.media_copies_gb * 1e9))
        self._player: Player | None = None
        self._listeners: Listeners | None = None
        self._follower: Follower | None = None
        self._keeper: LeaseKeeper | None = None
        self._partition_server: PartitionServer | None = None
        self._withdrawals: Subscription | None = None
        self._versions_ready: Subscription | None = None

    @property
    def player(self) -> Player:
        assert self._player is not None, "the player service has not started"
        return self._player

    @property
    def listeners(self) -> Listeners:
        assert self._listeners is not None, "the player service has not started"
        return self._listeners

    @property
    def follower(self) -> Follower:
        assert self._follower is not None, "the player service has not started"
        return self._follower

    @property
    def keeper(self) -> LeaseKeeper:
        assert self._keeper is not None, "the player service has not started"
        return self._keeper

    def is_ready(self) -> bool:
        """Started, following the stream, and every partition owned by a live copy."""
        return (
            self.ready.is_set()
            and self.follower.healthy
            and self.keeper.healthy
            and self.keeper.settled
            and self.follower.settled
        )

    def detail(self) -> str:
        serving = len(self._follower.serving) if self._follower else 0
        return (
            f"copy {self.copy_id}: {serving} of {self.settings.player_partitions} partitions, "
            f"{len(self.projections.states)} projections through seq {self.projections.through_seq}"
        )

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

    # -- a listener's requests, wherever its partition is owned ------------------------

    def serves(self, listener: str) -> bool:
        return self.projections.partition_of(listener) in self.follower.serving

    async def _on_owner(
        self,
        listener: str,
        operation: str,
        here: Callable[[], Awaitable[Rep]],
        request: Callable[[], Contract],
        reply_type: type[Rep],
        *,
        waits: float = 1,
    ) -> Rep:
        """``here()`` when this copy serves ``listener``; else the owner's answer to ``request()``,
        waited for ``waits`` request timeouts (as long as the owner may itself wait on search)."""
        partition = self.projections.partition_of(listener)
        if partition in self.follower.serving:  # a lone copy's every request: nothing else to build
            return await here()
        return await self._forward(partition, operation, here, request(), reply_type, waits=waits)

    async def _forward(
        self,
        partition: int,
        operation: str,
        here: Callable[[], Awaitable[Rep]],
        request: Contract,
        reply_type: type[Rep],
        *,
        waits: float,
    ) -> Rep:
        """The answer of the copy that the partition's lease names (none yet, or one that does
        not serve it yet: ask again), or ``here()`` once the partition has come to this copy.

        The owner of an offer waits one timeout on search: given up on after only one, it was
        this copy that answered "the player failed" a moment before the owner's answer naming
        search came, and the listener heard "Something went wrong" (``OFFER_WAITS``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + waits * self.settings.request_timeout_s
        tries = 0
        while True:
            owner = self.keeper.owner_of(partition)
            try:
                if owner is None or owner == self.copy_id:  # a handover, or this copy still replaying
                    raise NoService(f"partition {partition} has no serving owner")
                return await call(
                    self.broker.connection,
                    partition_request(partition, owner, operation),
                    request,
                    reply_type,
                    timeout_s=max(0.1, deadline - loop.time()),
                )
            except NoService:
                if loop.time() >= deadline:
                    raise NoService(f"no player copy owns partition {partition} yet; try again") from None
                await asyncio.sleep(NO_OWNER_RETRY_S[min(tries, len(NO_OWNER_RETRY_S) - 1)])
                tries += 1
            if partition in self.follower.serving:  # it changed hands to this copy meanwhile
                return await here()

    async def state(self, listener: str, book: str) -> ListenerState:
        async def here() -> ListenerState:
            return await self.player.told_now(listener, book)

        return await self._on_owner(
            listener, "state", here, lambda: StateRequest(listener=listener, book=book), ListenerState
        )

    async def listening(self, listener: str) -> Listening:
        """The book of the listener's current position, of the books the catalog holds."""
        request = ListeningRequest(listener=listener, books=[book.id for book in await self.books.all()])
        return await self._on_owner(
            listener, "listening", lambda: self.player.listening(request), lambda: request, Listening
        )

    async def command(self, listener: str, book: BookInfo, command: PlayerCommand) -> CommandResult:
        """Decide and append (``InvalidRequest`` when the rules refuse the command)."""

        async def here() -> CommandResult:
            return await self.player.command(listener, book.id, command, book.duration_ms, book.chapters)

        def request() -> CommandRequest:
            return CommandRequest(listener=listener, book=book.id, command=command)

        return await self._on_owner(listener, "command", here, request, CommandResult)

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        return await self._on_owner(
            request.listener,
            "offer",
            lambda: self.player.offer(request),
            lambda: request,
            OfferOutcome,
            waits=OFFER_WAITS,
        )

    async def history(self, request: HistoryRequest) -> History:
        return await self._on_owner(
            request.listener, "history", lambda: self.player.history(request), lambda: request, History
        )

    async def locate(self, request: LocateRequest) -> Located:
        return await self._on_owner(
            request.listener, "locate", lambda: self.player.locate(request), lambda: request, Located
        )

    # -- the listeners themselves -----------------------------------------------------

    async def listener_names(self) -> ListenerList:
        return ListenerList(listeners=await self.listeners.names())

    async def retire_here(self, request: RemoveListener) -> ListenerRemoved:
        """On the copy that serves the listener: their books' streams end with the retirement."""
        return ListenerRemoved(
            listener=request.listener, books=await self.player.retire(request.listener), devices=0
        )

    async def remove_listener(self, request: RemoveListener) -> ListenerRemoved:
        """Retire a listener (NOTES.md, "Removing a listener"): each of their books' streams ends
        with ``ListenerRetired`` first, which their devices are pushed; then their record is kept
        as removed and their token, devices and pairing codes are revoked. The events come first so
        that a removal stopped before the record is finished by asking again; after it, whatever the
        sweep left is refused by the record. The last listener stays."""
        listener = request.listener
        names = await self.listeners.names()
        if listener not in names:
            known = ", ".join(names) or "none"
            raise NotFound(f"there is no listener {listener!r} (listeners: {known})")
        if names == [listener]:
            raise Conflict(
                f"{listener!r} is the only listener, and the page needs one; "
                "add another first (bedside listener add NAME)"
            )
        removed = await self._on_owner(
            listener, "retire", lambda: self.retire_here(request), lambda: request, ListenerRemoved
        )
        try:
            devices = await self.listeners.retire(listener)
        except NoSuchListener as gone:  # another removal of the same listener came first
            raise NotFound(str(gone)) from None
        log.info("listener removed", listener=listener, books=removed.books, devices=devices)
        return removed.model_copy(update={"devices": devices})

    # -- start and stop ---------------------------------------------------------------

    async def start(self) -> None:
        connection = self.broker.connection
        js = connection.jetstream()
        replicas = self.settings.stream_replicas
        store = EventStore(js, self.settings.player_partitions, connection)
        await store.declare(replicas)
        self._listeners = await Listeners.open(js, replicas)
        await self._listeners.follow_revocations()
        self._player = Player(store, self.projections, self.books, self._resolve, self._publish)
        self.hub.connection = connection
        self._withdrawals = await connection.subscribe(
            subjects.BOOK_INGESTED.format(book="*"), cb=self._book_announced
        )
        self._versions_ready = await connection.subscribe(
            subjects.BOOK_READY.format(book="*"), cb=self._book_ready
        )
        self._partition_server = PartitionServer(self.broker, self)
        start = await self._load_snapshot(js)
        reader = RangeReader(connection)
        self._follower = Follower(store, reader, self.projections, start, self._partition_server.serve)
        self._keeper = LeaseKeeper(
            connection, self.copy_id, self.settings.player_partitions, self._follower.hold, replicas
        )
        self._follower.start()
        await self._keeper.open()
        while not (self._keeper.settled and self._follower.settled):
            if not (self._follower.healthy and self._keeper.healthy):
                why = self._follower.failed or self._keeper.failed
                raise RuntimeError(f"the player could not take its partitions: {why!r}")
            await asyncio.sleep(0.05)
        self.ready.set()
        log.info("serving", copy=self.copy_id, partitions=len(self._follower.serving))

    async def _book_announced(self, message: Msg) -> None:
        """A book withdrawn (``bedside remove``) is refused at once, and every page of it is told,
        rather than each at its next report."""
        try:
            event = BookIngested.model_validate_json(message.data)
        except ValidationError:
            return  # search dead-letters it
        if event.withdrawn:
            self.books.forget(event.book)
            self.hub.end_book(event.book)

    async def _book_ready(self, message: Msg) -> None:
        """A new version served: its length holds its listeners from the next read (ADR 81), not
        from the catalog's next refresh, which a book nobody reads for a while waits for."""
        try:
            ready = BookReady.model_validate_json(message.data)
        except ValidationError:
            return
        self.books.served_anew(ready.book)

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
        """Leases given back, so the other copies take the partitions over without waiting for
        them to age out; requests already taken are finished by the broker's drain."""
        await self.hub.stop()
        if self._withdrawals is not None:
            await self._withdrawals.unsubscribe()
        if self._versions_ready is not None:
            await self._versions_ready.unsubscribe()
        if self._partition_server is not None:
            await self._partition_server.stop()
        if self._keeper is not None:
            await self._keeper.stop()
        if self._follower is not None:
            await self._follower.stop()
        await self.books.stop()
        if self._listeners is not None:
            await self._listeners.stop()
