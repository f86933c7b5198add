"""Fan-out of state changes to the devices listening on this copy (SSE).

A device may be behind any copy while its listener's partition is owned by another, so the
hub subscribes, for each listener and book a device here watches, to the pushes on core
NATS (``bedside.push.<listener>.<book>``) that the writing copy publishes. This copy's own
applies reach it directly, which is sooner; while this copy serves a listener's partition
every event of it is applied here, so the pushes on NATS for it are dropped unread.

A state is encoded into its SSE frame once, however many devices watch it. Each device
holds only the newest frame it has not yet written: a device that is behind skips to the
newest state, and never gets an older one after a newer.
"""

import asyncio
import contextlib
import functools
from collections import defaultdict
from collections.abc import Callable

import structlog
from bedside_contracts import subjects
from bedside_contracts.player import ListenerState
from bedside_runtime.clock import Clock, wall_clock_ms
from bedside_runtime.tasks import cancel_and_wait
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from pydantic import ValidationError
from sse_starlette import EventSourceResponse

from bedside_player.domain.state import PlayerState
from bedside_player.domain.within_book import held_within

PING_S = 15.0
"""A ping this often keeps idle streams open through proxies; a page that hears none for longer
knows its stream is dead though open (a hung server, a connection lost while a laptop slept)."""
PING_FRAME = b'event: ping\ndata: {"every_ms": %d}\n\n' % round(PING_S * 1000)
"""An event, not a comment line, so that the page sees it; it says how often the next will come."""
Key = tuple[str, str]
log = structlog.get_logger("bedside.player.hub")


def state_frame(seq: int, state_json: bytes) -> bytes:
    """One ``state`` event of the stream, as the page's EventSource reads it."""
    return b"event: state\nid: %d\ndata: %s\n\n" % (seq, state_json)


class Watcher:
    """One device's stream: the newest frame it has not written yet, and a wake-up for its writer."""

    __slots__ = ("book", "closed", "listener", "newest_seq", "pending", "wake")

    def __init__(self, listener: str, book: str) -> None:
        self.listener = listener
        self.book = book
        self.pending: bytes | None = None
        self.newest_seq = -1
        """The sequence of the newest state handed to this device (written or pending)."""
        self.closed = False
        self.wake = asyncio.Event()

    def offer(self, seq: int, frame: bytes) -> None:
        if seq > self.newest_seq:
            self.newest_seq = seq
            self.pending = frame
            self.wake.set()

    def ping(self) -> None:
        if self.pending is None:
            self.pending = PING_FRAME
            self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    async def next_frame(self) -> bytes | None:
        """The frame to write next, once there is one; None once the stream is to end."""
        while self.pending is None and not self.closed:
            self.wake.clear()
            await self.wake.wait()
        if self.closed:
            return None
        frame, self.pending = self.pending, None
        return frame


STREAMS_PER_BOOK = 32
"""The streams one listener keeps open on one book. A house's devices on a book are a handful;
past this, the newest stream closes the oldest (a page reloading in a loop, connections a network
dropped unseen), so a page gone wrong holds a bounded number of the copy's sockets per book."""


class Hub:
    def __init__(
        self,
        is_served: Callable[[str], bool] = lambda listener: False,
        clock: Clock = wall_clock_ms,
        book_end: Callable[[str], int | None] = lambda book: None,
    ) -> None:
        self.watchers: dict[Key, dict[Watcher, None]] = defaultdict(dict)
        """Each listener's streams on each book, oldest first."""
        self.newest: dict[Key, int] = {}
        self.connection: Client | None = None
        self.is_served = is_served
        """Whether this copy serves a listener's partition (then its own applies carry everything)."""
        self._subs: dict[Key, Subscription] = {}
        self._closing: set[asyncio.Task[None]] = set()
        self._timers: list[asyncio.Task[None]] = []
        self.clock = clock
        self.book_end = book_end
        """A book's length as the catalog has it: places past it are told at its end (ADR 81)."""

    async def watch(self, listener: str, book: str) -> Watcher:
        """A new device stream; subscribed before the caller reads the current state."""
        key = (listener, book)
        watcher = Watcher(listener, book)
        streams = self.watchers[key]
        if len(streams) >= STREAMS_PER_BOOK:
            oldest = next(iter(streams))
            del streams[oldest]
            oldest.close()
            log.info(
                "a listener's oldest stream on a book closed for a new one", listener=listener, book=book
            )
        streams[watcher] = None
        if not self._timers:
            self._timers = [
                asyncio.create_task(self._ping_forever()),
                asyncio.create_task(self._end_at_exit()),
            ]
        if key not in self._subs and self.connection is not None:
            subject = subjects.PLAYER_PUSH.format(listener=listener, book=book)
            try:
                sub = await self.connection.subscribe(subject, cb=functools.partial(self._pushed, key))
                if key in self._subs or key not in self.watchers:  # another stream was quicker, or all left
                    self._close_later(sub)
                else:
                    self._subs[key] = sub
                await self.connection.flush()
            except BaseException:
                self.unwatch(watcher)
                raise
        return watcher

    def show(self, watcher: Watcher, state: ListenerState) -> None:
        """Hand ``state`` (read after ``watch``) to this one device, unless it has a newer one."""
        watcher.offer(state.seq, state_frame(state.seq, state.model_dump_json().encode()))

    def unwatch(self, watcher: Watcher) -> None:
        key = (watcher.listener, watcher.book)
        watcher.close()
        watchers = self.watchers.get(key)
        if watchers is None:
            return
        watchers.pop(watcher, None)
        if watchers:
            return
        del self.watchers[key]
        self.newest.pop(key, None)
        if (sub := self._subs.pop(key, None)) is not None:
            self._close_later(sub)

    def _close_later(self, sub: Subscription) -> None:
        task = asyncio.create_task(self._close(sub))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def end_book(self, book: str) -> None:
        """End every stream of a book withdrawn: the page, opening it again, is told the book is gone."""
        for (_listener, watched), watchers in list(self.watchers.items()):
            if watched == book:
                for watcher in list(watchers):
                    self.unwatch(watcher)

    def end_all(self) -> None:
        for watchers in list(self.watchers.values()):
            for watcher in list(watchers):
                self.unwatch(watcher)

    async def stop(self) -> None:
        self.end_all()
        await cancel_and_wait(*self._timers)
        self._timers = []

    async def _ping_forever(self) -> None:
        """One timer for every stream of the copy, rather than one per connection."""
        while True:
            await asyncio.sleep(PING_S)
            for watchers in self.watchers.values():
                for watcher in watchers:
                    watcher.ping()

    async def _end_at_exit(self) -> None:
        """Streams never end by themselves: once the server is told to exit (sse-starlette's
        one watcher of uvicorn's exit, shared by the whole process), end them, so that
        shutting down does not wait out uvicorn's grace period."""
        await EventSourceResponse._listen_for_exit_signal()
        self.end_all()

    @staticmethod
    async def _close(sub: Subscription) -> None:
        with contextlib.suppress(NatsError):
            await sub.unsubscribe()

    async def _pushed(self, key: Key, msg: Msg) -> None:
        """A push on the subscription made for ``key`` (so its subject need not be parsed), taken
        only for that listener and book, whatever its body says."""
        if self.is_served(key[0]):
            return
        try:
            state = ListenerState.model_validate_json(msg.data)
        except ValidationError:
            log.warning("a push that does not fit the contract", subject=msg.subject)
            return
        if (state.listener, state.book) != key:
            log.warning("a push for another listener or book than its subject", subject=msg.subject)
            return
        self._deliver(key, state.seq, lambda: msg.data)

    def __call__(self, state: PlayerState) -> None:
        self._deliver(
            (state.listener, state.book),
            state.seq,
            lambda: (
                held_within(state, self.book_end(state.book)).public(self.clock()).model_dump_json().encode()
            ),
        )

    def _deliver(self, key: Key, seq: int, state_json: Callable[[], bytes]) -> None:
        watchers = self.watchers.get(key)
        if not watchers or seq <= self.newest.get(key, 0):
            return
        self.newest[key] = seq
        frame = state_frame(seq, state_json())
        for watcher in watchers:
            watcher.offer(seq, frame)
