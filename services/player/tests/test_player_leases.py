"""The partition leases on a real nats-server: copies starting together never both hold a
partition, a copy that stops gives its leases back, one whose renewals stop stops serving its
partitions before they age out and pass to another."""

import asyncio
import time

import nats
from bedside_player.leases import LEASE_TTL_S, RENEWALS_TASK, LeaseKeeper
from bedside_runtime.nats_server import NatsServer
from bedside_runtime.tasks import cancel_and_wait
from bedside_testing import until
from nats.aio.client import Client

PARTITIONS = 16


class Copy:
    """A lease keeper on its own connection, and what it last told its follower."""

    def __init__(self, client: Client, name: str) -> None:
        self.client = client
        self.held: frozenset[int] = frozenset()
        self.keeper = LeaseKeeper(client, name, PARTITIONS, self.hold)

    def hold(self, partitions: frozenset[int]) -> None:
        self.held = partitions


async def start(server: NatsServer, name: str) -> Copy:
    copy = Copy(await nats.connect(server.url), name)
    await copy.keeper.open()
    return copy


def owned_once_by(copies: list[Copy]) -> bool:
    helds = [copy.held for copy in copies]
    return sum(len(h) for h in helds) == PARTITIONS and frozenset().union(*helds) == set(range(PARTITIONS))


async def test_copies_starting_together_share_every_partition_never_one_twice(own_nats: NatsServer) -> None:
    copies = await asyncio.gather(*(start(own_nats, f"c{n}") for n in range(3)))
    try:
        overlaps = 0

        def settled() -> bool:
            nonlocal overlaps
            helds = [copy.held for copy in copies]
            overlaps += sum(len(a & b) for i, a in enumerate(helds) for b in helds[i + 1 :])
            return owned_once_by(copies) and sorted(len(h) for h in helds) == [5, 5, 6]

        await until(settled)
        assert overlaps == 0
    finally:
        for copy in copies:
            await copy.keeper.stop()
            await copy.client.close()


async def test_a_stopped_copy_gives_its_leases_back_a_vanished_one_loses_them(own_nats: NatsServer) -> None:
    first, second = await start(own_nats, "first"), await start(own_nats, "second")
    await until(lambda: owned_once_by([first, second]) and len(first.held) == len(second.held))
    await first.keeper.stop()  # gives back at once: the other takes all before any TTL could pass
    stopped = time.monotonic()
    await until(lambda: len(second.held) == PARTITIONS)
    print(f"\n[leases] a stopped copy's partitions taken over in {time.monotonic() - stopped:.2f} s")
    await first.client.close()

    third = await start(own_nats, "third")
    await until(lambda: owned_once_by([second, third]) and len(third.held) == PARTITIONS // 2)
    # its renewals stop (a bus that takes no writes, a loop stuck in one): no goodbye either
    await cancel_and_wait(*(t for t in third.keeper._tasks if t.get_name() == RENEWALS_TASK))
    vanished = time.monotonic()
    both = 0

    def taken_over() -> bool:
        nonlocal both
        both += len(second.held & third.held)
        return len(second.held) == PARTITIONS

    await until(taken_over, timeout_s=LEASE_TTL_S * 5)
    waited = time.monotonic() - vanished
    print(f"[leases] a vanished copy's partitions taken over in {waited:.2f} s (TTL {LEASE_TTL_S} s)")
    assert third.held == frozenset()  # its trust in its own leases ran out before they could move
    assert both == 0
    await cancel_and_wait(*third.keeper._tasks)
    await second.keeper.stop()
    await second.client.close()
    await third.client.close()
