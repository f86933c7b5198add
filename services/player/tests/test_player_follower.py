"""The follower: a copy alone follows the whole stream with one feed, and once it gives
partitions away it follows each partition it keeps on its own, from where that feed was."""

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import nats
import pytest
from bedside_contracts.partitions import partition_of
from bedside_contracts.player import PositionReported
from bedside_player.follower import KEEP_FOLLOWING_S, Follower
from bedside_player.projections import Projections
from bedside_player.replay import read_range
from bedside_player.store import EventStore
from bedside_player.stream_range import RangeReader
from bedside_runtime.nats_server import free_port
from bedside_testing import start_test_nats, until
from nats.aio.client import Client

PARTITIONS = 4
BOOK = "b1"


def one_listener_per_partition() -> dict[int, str]:
    found: dict[int, str] = {}
    n = 0
    while len(found) < PARTITIONS:
        found.setdefault(partition_of(f"l{n}", PARTITIONS), f"l{n}")
        n += 1
    return found


Served = list[tuple[frozenset[int], frozenset[int]]]


@dataclass
class Rig:
    client: Client
    store: EventStore
    served: Served = field(default_factory=list)
    """(gained, released), each time a follower changed what it serves."""
    followers: list[Follower] = field(default_factory=list)

    async def serve(self, gained: frozenset[int], released: frozenset[int]) -> None:
        self.served.append((gained, released))

    def follower(self, projections: Projections, keep_following_s: float = KEEP_FOLLOWING_S) -> Follower:
        """A started follower, stopped when the test ends."""
        reader = RangeReader(self.client)
        follower = Follower(
            self.store, reader, projections, serve=self.serve, keep_following_s=keep_following_s
        )
        follower.start()
        self.followers.append(follower)
        return follower


@pytest.fixture
async def rig() -> AsyncIterator[Rig]:
    server = start_test_nats(f"follower-{free_port()}")
    client = await nats.connect(server.url)
    running = Rig(client, EventStore(client.jetstream(), PARTITIONS))
    try:
        await running.store.declare()
        yield running
    finally:
        for follower in running.followers:
            await follower.stop()
        await client.close()
        server.stop()


async def report(store: EventStore, listener: str, position_ms: int, expected_seq: int) -> int:
    """Appended by another writer: nothing here applies it but the follower's feeds."""
    event = PositionReported(device="d", position_ms=position_ms, playing=True, basis_seq=expected_seq)
    return await store.append(listener, BOOK, event, expected_seq)


async def test_a_copy_that_gives_partitions_away_still_follows_the_ones_it_keeps(rig: Rig) -> None:
    store = rig.store
    listeners = one_listener_per_partition()
    seqs = {p: await report(store, name, 1000, 0) for p, name in listeners.items()}
    projections = Projections(PARTITIONS)
    follower = rig.follower(projections, keep_following_s=0)
    follower.hold(frozenset(range(PARTITIONS)))  # alone: every partition at once
    await until(lambda: follower.settled)
    for p, name in listeners.items():  # replayed, then live
        assert projections.get(name, BOOK).seq == seqs[p]
        seqs[p] = await report(store, name, 2000, seqs[p])
    await until(lambda: all(projections.get(n, BOOK).position_ms == 2000 for n in listeners.values()))

    kept = frozenset({0, 1})
    follower.hold(kept)  # another copy joined and took 2 and 3
    await until(lambda: follower.settled)
    assert {partition_of(listener, PARTITIONS) for listener, _ in projections.states} == kept
    for p, name in listeners.items():
        seqs[p] = await report(store, name, 3000, seqs[p])
    await until(lambda: all(projections.get(listeners[p], BOOK).position_ms == 3000 for p in kept))
    # no feed left for a released partition, and none following the whole stream, so
    # nothing of 2 or 3 can come back
    assert set(follower._feeds) == kept
    assert follower._whole is None
    assert {partition_of(listener, PARTITIONS) for listener, _ in projections.states} == kept


async def test_following_ends_with_the_error_of_what_it_hands_on(rig: Rig) -> None:
    """nats-py logs a callback's error and goes on; a feed must stop instead, so that the
    copy says it is not ready rather than serve projections that skipped an event."""
    store = rig.store
    first = await report(store, "l0", 1000, 0)
    await report(store, "l0", 2000, first)
    seen: list[int] = []

    def on_stored(subject: str, seq: int, data: bytes, pending: int) -> None:
        seen.append(seq)
        if len(seen) == 2:
            raise ValueError("cannot apply")

    with pytest.raises(ValueError, match="cannot apply"):
        await asyncio.wait_for(store.follow(0, None, on_stored), 10)
    assert seen == [first, first + 1]


async def test_a_partition_let_go_is_not_served_while_a_gain_is_still_replayed(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keeper lets a partition go when its trust in the lease runs out; the copy must stop
    answering for it then, not once a replay it is in the middle of ends (leases.py)."""
    served = rig.served
    follower = rig.follower(Projections(PARTITIONS), keep_following_s=0)
    follower.hold(frozenset({0}))
    await until(lambda: follower.settled)

    replaying, go_on = asyncio.Event(), asyncio.Event()

    async def slow_read(*args: Any, **kwargs: Any) -> tuple[int, int]:
        replaying.set()
        await go_on.wait()
        return await read_range(*args, **kwargs)

    monkeypatch.setattr("bedside_player.follower.read_range", slow_read)
    follower.hold(frozenset({0, 1, 2}))  # gaining 1 and 2: their replay waits
    await replaying.wait()
    follower.hold(frozenset({2}))  # the trust in 0 and in 1 ran out meanwhile
    assert follower.serving == frozenset()
    await until(lambda: (frozenset(), frozenset({0})) in served)  # its subjects go at once too

    go_on.set()
    await until(lambda: follower.settled)
    assert follower.serving == frozenset({2})
    assert all(1 not in gained for gained, _ in served)  # never served once let go
    assert set(follower._feeds) == {2}


async def test_partitions_held_again_soon_are_served_again_without_a_replay(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keeper lets every lease go when its renewals are acknowledged late (a loaded machine),
    and holds them again a round later. Replaying them all then would cost seconds the machine
    does not have; they stayed followed, so they are served again at once, and current."""
    store, served = rig.store, rig.served
    listeners = one_listener_per_partition()
    seqs = {p: await report(store, name, 1000, 0) for p, name in listeners.items()}
    every = frozenset(range(PARTITIONS))
    projections = Projections(PARTITIONS)
    follower = rig.follower(projections)
    follower.hold(every)
    await until(lambda: follower.settled)
    replayed: list[object] = []

    async def counted_read(*args: Any, **kwargs: Any) -> tuple[int, int]:
        replayed.append(args)
        return await read_range(*args, **kwargs)

    monkeypatch.setattr("bedside_player.follower.read_range", counted_read)
    follower.hold(frozenset())  # the trust in every lease ran out
    assert follower.serving == frozenset()
    await until(lambda: (frozenset(), every) in served)
    for p, name in listeners.items():  # another copy may write meanwhile
        seqs[p] = await report(store, name, 2000, seqs[p])

    follower.hold(every)  # the late renewals were taken after all
    await until(lambda: follower.settled)
    assert served[-1] == (every, frozenset())
    await until(lambda: all(projections.get(n, BOOK).position_ms == 2000 for n in listeners.values()))
    assert replayed == []
