"""Keeping the projections of the partitions this copy owns current, and dropping the others (ADR 36).

The lease keeper says which partitions the copy holds (``hold``). A partition it gains is
replayed from the stream (only its subjects) before the copy serves it, and then followed live
by an ordered consumer of its own. Partitions are independent (a listener's events are all in
one), so each is read and followed on its own, a few replays at a time.

A partition let go is not served from that moment, but stays followed, its projections kept,
for ``keep_following_s`` before they are dropped: the keeper lets go whenever its trust in a
lease runs out, on a loaded machine mostly because a renewal was acknowledged late, and the
lease comes back a round later. Held again by then, it is served at once instead of replayed,
a replay that would cost time a loaded machine does not have.

One consumer per partition rather than one with many filter subjects: nats-server delivers
to a consumer with several filter subjects far more slowly (figures in the player's NOTES).
A copy that gains every partition at once (a copy alone) follows the whole stream with one
consumer instead, until it first releases a partition: each of 64 ordered consumers keeps
a flow-control task of its own that wakes four times a second.
"""

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Coroutine

import structlog
from bedside_runtime.tasks import cancel_and_wait

from bedside_player.projections import Projections
from bedside_player.replay import read_range
from bedside_player.store import EventStore, decode, key_of
from bedside_player.stream_range import RangeReader

log = structlog.get_logger("bedside.player.follower")

Serve = Callable[[frozenset[int], frozenset[int]], Awaitable[None]]
"""Told (gained, released) once the served set changes: the partition request subjects follow it."""


async def _nothing(gained: frozenset[int], released: frozenset[int]) -> None:
    return None


REPLAYS_AT_ONCE = 4
KEEP_FOLLOWING_S = 30.0


class Follower:
    def __init__(
        self,
        store: EventStore,
        reader: RangeReader,
        projections: Projections,
        snapshot_seq: int = 0,
        serve: Serve = _nothing,
        *,
        keep_following_s: float = KEEP_FOLLOWING_S,
    ) -> None:
        self.store = store
        self.reader = reader
        self.projections = projections
        self.serve = serve
        self.keep_following_s = keep_following_s
        self.serving: frozenset[int] = frozenset()
        """Partitions replayed and followed live: the copy answers for their listeners."""
        self.target: frozenset[int] = frozenset()
        self.changed = asyncio.Event()
        self.failed: BaseException | None = None
        self._snapshot_seq: int | None = snapshot_seq
        """The sequence a snapshot loaded at start covers; it serves the first hold only."""
        self._feeds: dict[int, asyncio.Task[None]] = {}
        self._whole: asyncio.Task[None] | None = None
        """The one feed of every partition, while this copy has held all of them since gaining them."""
        self._loop: asyncio.Task[None] | None = None
        self._kept: dict[int, float] = {}
        """Partitions let go, still followed: when (loop time) each is to be dropped."""
        self._unserving: set[asyncio.Task[None]] = set()
        self.last_gain_s = 0.0

    def hold(self, partitions: frozenset[int]) -> None:
        """From now on, follow exactly ``partitions`` (returns at once; the rest is the loop's).

        A partition let go is not served from this moment, and its request subjects go at once:
        the lease keeper lets go when its trust in a lease runs out, and the loop may be busy
        replaying a gain for seconds (leases.py: a copy serves only while it trusts the lease).
        """
        self.target = partitions
        withdrawn = self.serving - partitions
        if withdrawn:
            self.serving = self.serving - withdrawn
            self._keep(withdrawn)
            task = asyncio.create_task(self._unserve(withdrawn))
            self._unserving.add(task)
            task.add_done_callback(self._unserving.discard)
        self.changed.set()

    def _keep(self, partitions: frozenset[int]) -> None:
        drop_at = asyncio.get_running_loop().time() + self.keep_following_s
        for partition in partitions:
            self._kept[partition] = drop_at

    def _due(self) -> frozenset[int]:
        now = asyncio.get_running_loop().time()
        return frozenset(p for p, drop_at in self._kept.items() if drop_at <= now)

    def _until_next_drop(self) -> float | None:
        if not self._kept:
            return None
        return max(0.0, min(self._kept.values()) - asyncio.get_running_loop().time())

    async def _unserve(self, partitions: frozenset[int]) -> None:
        await self.serve(frozenset(), partitions)

    def start(self) -> None:
        self._loop = asyncio.create_task(self._reconcile_forever())

    @property
    def healthy(self) -> bool:
        return self.failed is None and self._loop is not None and not self._loop.done()

    @property
    def settled(self) -> bool:
        return self.serving == self.target and not self._due()

    async def stop(self) -> None:
        # the loop first: a gain it was in the middle of may still start feeds before it ends
        await cancel_and_wait(self._loop)
        await cancel_and_wait(self._whole, *self._feeds.values(), *self._unserving)

    async def _reconcile_forever(self) -> None:
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), self._until_next_drop())
                self.changed.clear()
                await self._reconcile()
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            self.failed = error
            log.exception("the follower stopped; this copy serves nothing new")
            raise

    async def _reconcile(self) -> None:
        back = frozenset(self._kept) & self.target
        if back:  # still followed: current, served again without a replay
            for partition in back:
                del self._kept[partition]
            self.serving = self.serving | back
            await self.serve(back, frozenset())
            log.info("partitions held again, served without a replay", partitions=sorted(back))
        released = self._due()
        if released:
            for partition in released:
                del self._kept[partition]
            await self._split_whole()
            for partition in released:
                await self._stop_feed(partition)
            dropped = self.projections.drop(released)
            log.info("released partitions", partitions=sorted(released), projections_dropped=dropped)
        gained = self.target - self.serving - frozenset(self._kept)  # one held again meanwhile: next pass
        if gained:
            await self._gain(gained)

    async def _gain(self, gained: frozenset[int]) -> None:
        started = time.perf_counter()
        after = 0
        if self._snapshot_seq is not None:
            # a snapshot loaded at start covers the partitions of the first hold; any later one
            # is replayed from the beginning, its snapshot states dropped with the others not held
            after, self._snapshot_seq = self._snapshot_seq, None
            self.projections.drop(set(range(self.projections.partitions)) - gained)
        limit = asyncio.Semaphore(REPLAYS_AT_ONCE)
        applied = 0
        whole: int | None = None
        if len(gained) == self.projections.partitions:
            # every partition (a copy alone): one read of the whole stream is about twice as
            # fast as one read per partition
            applied, whole = await read_range(self.store, self.reader, self.projections, after)

        async def one(partition: int) -> None:
            nonlocal applied
            async with limit:
                count, through = await read_range(
                    self.store, self.reader, self.projections, after, [partition]
                )
            applied += count
            self._feeds[partition] = self._start(self._follow(partition, through))

        if whole is not None:
            self._whole = self._start(self._follow(None, whole))
        else:
            await asyncio.gather(*(one(partition) for partition in sorted(gained)))
        # one let go while it was replayed is not served at all, only kept followed
        kept = gained & self.target
        self._keep(gained - kept)
        self.serving = self.serving | kept
        await self.serve(kept, frozenset())
        self.last_gain_s = time.perf_counter() - started
        log.info(
            "gained partitions",
            partitions=sorted(gained),
            from_snapshot_seq=after,
            events=applied,
            seconds=round(self.last_gain_s, 3),
            projections=len(self.projections.states),
        )

    def _start(self, feed: Coroutine[None, None, None]) -> "asyncio.Task[None]":
        task = asyncio.create_task(feed)
        task.add_done_callback(self._feed_ended)
        return task

    async def _split_whole(self) -> None:
        """Stop the whole-stream feed; each partition still served or kept is followed on its own from
        the newest sequence that feed applied."""
        if self._whole is None:
            return
        await cancel_and_wait(self._whole)
        self._whole = None
        through = self.projections.through_seq
        for partition in sorted(self.serving | frozenset(self._kept)):
            self._feeds[partition] = self._start(self._follow(partition, through))

    async def _stop_feed(self, partition: int) -> None:
        await cancel_and_wait(self._feeds.pop(partition, None))

    def _feed_ended(self, task: "asyncio.Task[None]") -> None:
        if not task.cancelled() and task.exception() is not None:
            self.failed = task.exception()
            log.error("a partition's stream feed stopped; this copy is not ready", error=repr(self.failed))

    async def _follow(self, partition: int | None, after_seq: int) -> None:
        """One partition's events (``None``: every partition's) after ``after_seq``, live
        (``evolve`` skips what is applied)."""
        projections = self.projections

        def stored(subject: str, seq: int, data: bytes, pending: int) -> None:
            key = key_of(subject)
            # an event this copy appended was applied from the ack: no need to parse it again
            if key is not None and seq > projections.get(*key).seq:
                if (decoded := decode(subject, data)) is not None:
                    projections.apply(*decoded, seq)
                else:
                    projections.pass_over(subject, seq)
            elif key is None:
                decode(subject, data)  # logs what does not fit
            projections.through_seq = max(projections.through_seq, seq)

        await self.store.follow(after_seq, None if partition is None else [partition], stored)
