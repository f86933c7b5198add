"""Keeping the projections of the partitions this copy owns, and only those, current (ADR 35).

The lease keeper says which partitions the copy holds (``hold``). The follower drops the
projections of a partition it no longer holds at once; a partition it gains is replayed
from the stream (only its subjects) before the copy serves it. One live feed, an ordered
consumer filtered on the served partitions' subjects, is started again whenever that set
changes, from the oldest sequence any served partition has been read through.
"""

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

import structlog

from bedside_player.projections import Projections, read_range
from bedside_player.store import EventStore, decode, key_of
from bedside_player.stream_range import RangeReader

log = structlog.get_logger("bedside.player.follower")

Serve = Callable[[frozenset[int], frozenset[int]], Awaitable[None]]
"""Told (gained, released) once the served set changes: the partition request subjects follow it."""


async def _nothing(gained: frozenset[int], released: frozenset[int]) -> None:
    return None


class Follower:
    def __init__(
        self,
        store: EventStore,
        reader: RangeReader,
        projections: Projections,
        snapshot_seq: int = 0,
        serve: Serve = _nothing,
    ) -> None:
        self.store = store
        self.reader = reader
        self.projections = projections
        self.serve = serve
        self.serving: frozenset[int] = frozenset()
        """Partitions replayed and followed live: the copy answers for their listeners."""
        self.target: frozenset[int] = frozenset()
        self.feed_seq = 0
        """The newest sequence the live feed has delivered (or a replay read the served set through)."""
        self.changed = asyncio.Event()
        self.failed: BaseException | None = None
        self._snapshot_seq = snapshot_seq
        self._feed: asyncio.Task[None] | None = None
        self._loop: asyncio.Task[None] | None = None
        self.last_gain_s = 0.0

    def hold(self, partitions: frozenset[int]) -> None:
        """From now on, follow exactly ``partitions`` (returns at once; the work is the loop's)."""
        self.target = partitions
        self.changed.set()

    def start(self) -> None:
        self._loop = asyncio.create_task(self._reconcile_forever())

    @property
    def healthy(self) -> bool:
        return self.failed is None and self._loop is not None and not self._loop.done()

    @property
    def settled(self) -> bool:
        return self.serving == self.target

    async def stop(self) -> None:
        for task in (self._loop, self._feed):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _reconcile_forever(self) -> None:
        try:
            while True:
                await self.changed.wait()
                self.changed.clear()
                await self._reconcile(self.target)
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            self.failed = error
            log.exception("the follower stopped; this copy serves nothing new")
            raise

    async def _reconcile(self, target: frozenset[int]) -> None:
        released = self.serving - target
        if released:
            self.serving = self.serving - released
            await self.serve(frozenset(), released)
            dropped = self.projections.drop(released)
            log.info("released partitions", partitions=sorted(released), projections_dropped=dropped)
        gained = target - self.serving
        through = await self._gain(gained) if gained else None
        if released or gained:
            await self._stop_feed()
            if through is not None:
                # the partitions served before go on from where their feed stopped, the gained
                # ones from where their replay ended; ``evolve`` skips what a state already holds
                self.feed_seq = min(self.feed_seq, through) if self.serving - gained else through
                self.serving = self.serving | gained
                await self.serve(gained, frozenset())
            if self.serving:
                self._feed = asyncio.create_task(self._follow(self.serving, self.feed_seq))
                self._feed.add_done_callback(self._feed_ended)

    async def _gain(self, gained: frozenset[int]) -> int:
        """Replay ``gained`` from the stream; the sequence it read them through."""
        started = time.perf_counter()
        first = not self.serving and self._snapshot_seq >= 0
        # a snapshot loaded at start covers the partitions of the first hold; any later one is
        # replayed from the beginning, its snapshot states dropped with the others not held
        after = self._snapshot_seq if first else 0
        if first:
            self._snapshot_seq = -1
            self.projections.drop(set(range(self.projections.partitions)) - gained)
        applied, through = await read_range(self.store, self.reader, self.projections, max(after, 0), gained)
        self.last_gain_s = time.perf_counter() - started
        log.info(
            "gained partitions",
            partitions=sorted(gained),
            from_snapshot_seq=max(after, 0),
            events=applied,
            seconds=round(self.last_gain_s, 3),
            projections=len(self.projections.states),
        )
        return through

    async def _stop_feed(self) -> None:
        if self._feed is not None:
            self._feed.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._feed
            self._feed = None

    def _feed_ended(self, task: "asyncio.Task[None]") -> None:
        if not task.cancelled() and task.exception() is not None:
            self.failed = task.exception()
            log.error("the stream feed stopped; this copy is not ready", error=repr(self.failed))

    async def _follow(self, partitions: frozenset[int], after_seq: int) -> None:
        projections = self.projections
        async for subject, seq, data, _ in self.store.feed(after_seq, partitions):
            key = key_of(subject)
            # an event this copy appended was applied from the ack: no need to parse it again
            if key is not None and seq > projections.get(*key).seq:
                decoded = decode(subject, data)
                if decoded is not None:
                    listener, book, event = decoded
                    projections.apply(listener, book, event, seq)
            elif key is None:
                decode(subject, data)  # logs what does not fit
            self.feed_seq = seq
            projections.through_seq = max(projections.through_seq, seq)
