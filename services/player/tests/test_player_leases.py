"""The partition leases on a real nats-server: copies starting together never both hold a
partition, a copy that stops gives its leases back, one whose renewals stop stops serving its
partitions before they age out and pass to another, a copy whose view of the bucket is behind
neither takes a partition another copy holds nor keeps serving one it has lost, and a renewal
that fails costs only its own partition."""

import asyncio
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

import nats
import pytest
from bedside_contracts import subjects
from bedside_player import leases
from bedside_player.domain.ownership import Plan, plan, preference
from bedside_player.leases import COPY_PREFIX, LEASE_TTL_S, PARTITION_PREFIX, RENEWALS_TASK, LeaseKeeper
from bedside_runtime.nats_server import NatsServer
from bedside_runtime.tasks import cancel_and_wait
from bedside_testing import until
from nats.aio.client import Client
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.api import PubAck
from nats.js.errors import KeyWrongLastSequenceError
from nats.js.kv import KeyValue

PARTITIONS = 16


class Copy:
    """A lease keeper on its own connection, what it last told its follower, and (in a group)
    every moment it was told a partition another copy of the group was told too."""

    def __init__(self, client: Client, name: str, group: "Group | None" = None) -> None:
        self.client = client
        self.held: frozenset[int] = frozenset()
        self.told: list[frozenset[int]] = []
        self.group = group
        self.keeper = LeaseKeeper(client, name, PARTITIONS, self.hold)
        if group is not None:
            group.copies.append(self)

    def hold(self, partitions: frozenset[int]) -> None:
        self.held = partitions
        self.told.append(partitions)
        if self.group is not None:
            self.group.check()


class Group:
    """The copies of one test; each time any is told what it holds, whether two hold one partition."""

    def __init__(self) -> None:
        self.copies: list[Copy] = []
        self.overlaps: list[frozenset[int]] = []

    def check(self) -> None:
        helds = [copy.held for copy in self.copies]
        for i, a in enumerate(helds):
            for b in helds[i + 1 :]:
                if a & b:
                    self.overlaps.append(a & b)


class Behind:
    """Holds back what a copy's watcher delivers of some keys, as a watcher fallen behind does
    (its loop starved, its connection slow); ``catch_up`` hands it over in order."""

    def __init__(self, copy: Copy, keys: Callable[[str], bool], monkeypatch: pytest.MonkeyPatch) -> None:
        self.deliver = copy.keeper._see_entry
        self.keys = keys
        self.held_back: list[KeyValue.Entry] = []
        self.lagging = True
        monkeypatch.setattr(copy.keeper, "_see_entry", self.see_entry)

    def see_entry(self, entry: KeyValue.Entry) -> None:
        if self.lagging and self.keys(entry.key):
            self.held_back.append(entry)
        else:
            self.deliver(entry)

    def catch_up(self) -> None:
        self.lagging = False
        for entry in self.held_back:
            self.deliver(entry)
        self.held_back.clear()


async def start(server: NatsServer, name: str, group: Group | None = None) -> Copy:
    copy = Copy(await nats.connect(server.url), name, group)
    await copy.keeper.open()
    return copy


async def stop(*copies: Copy) -> None:
    for copy in copies:
        await copy.keeper.stop()
        await copy.client.close()


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


async def test_a_lease_the_view_keeps_for_a_copy_gone_is_read_again_and_taken(
    own_nats: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a CI run showed (three copies, one stopped by SIGSTOP): a claim refused as the server
    aged the stopped copy's lease out read it back still live, the view kept that, and the marker
    that would have mended it had come already; six partitions were never claimed again. Here the
    copy gone never had a heartbeat, and the marker of its lease never reaches the watcher."""
    first = await start(own_nats, "first")
    await until(lambda: len(first.held) == PARTITIONS)
    await stop(first)  # the bucket stays, every lease given back
    writer = await nats.connect(own_nats.url)
    bucket = await writer.jetstream().key_value(subjects.PLAYER_LEASES_BUCKET)
    await bucket.put(PARTITION_PREFIX + "0", b"gone")  # ages out after the TTL, leaving a marker
    second = Copy(await nats.connect(own_nats.url), "second")
    Behind(second, lambda key: key == PARTITION_PREFIX + "0", monkeypatch)  # never delivers it
    await second.keeper.open()
    await until(lambda: len(second.held) == PARTITIONS - 1)
    assert second.keeper.owner_of(0) == "gone"  # its claim was refused and the key read back
    await until(lambda: len(second.held) == PARTITIONS, timeout_s=LEASE_TTL_S * 5)
    await stop(second)
    await writer.close()


async def test_a_claim_never_takes_a_partition_whose_claim_by_another_copy_is_seen_after_the_plan(
    own_nats: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the CI run showed: a copy planned a claim of a partition its view had free, its watcher
    then delivered another copy's claim of it, and the claim named that claim's revision and won."""
    group = Group()
    first = await start(own_nats, "first", group)
    await until(lambda: len(first.held) == PARTITIONS)
    contested = min(range(PARTITIONS), key=lambda p: preference("first", p))  # first keeps it
    late = Copy(await nats.connect(own_nats.url), "late", group)
    behind = Behind(late, lambda key: key == f"{PARTITION_PREFIX}{contested}", monkeypatch)

    def plan_then_catch_up(
        me: str, partitions: int, copies: Collection[str], owners: Mapping[int, str], mine: Collection[int]
    ) -> Plan:
        decision = plan(me, partitions, copies, owners, mine)
        if me == "late" and contested in decision.claim:
            behind.catch_up()  # first's lease of it reaches late's view between its plan and its claim
        return decision

    monkeypatch.setattr(leases, "plan", plan_then_catch_up)
    await late.keeper.open()
    try:
        await until(lambda: owned_once_by([first, late]) and len(first.held) == len(late.held))
        assert behind.held_back == []  # late did plan to claim it
        assert group.overlaps == []
        assert contested in first.held
    finally:
        await stop(first, late)


async def test_a_copy_whose_renewal_is_refused_stops_serving_though_its_view_still_names_it(
    own_nats: NatsServer, own_nats_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    only = await start(own_nats, "only")
    await until(lambda: len(only.held) == PARTITIONS)
    lost = 3
    key = f"{PARTITION_PREFIX}{lost}"
    Behind(only, lambda k: k == key, monkeypatch)  # its view keeps naming it the owner
    kv = await own_nats_client.jetstream().key_value(subjects.PLAYER_LEASES_BUCKET)
    while True:  # another copy holds it now, as after its lease aged out and was claimed
        try:
            entry = await kv.get(key)
            await kv.update(key, b"another", last=entry.revision)
            break
        except KeyWrongLastSequenceError:
            continue
    try:
        await until(lambda: lost not in only.held)  # its next renewal was refused
        dropped = len(only.told)
        heartbeat = only.keeper.view[COPY_PREFIX + "only"].revision
        # two more rounds of renewals and plans, and many checks of trust, with the view still behind
        await until(lambda: only.keeper.view[COPY_PREFIX + "only"].revision > heartbeat + 1)
        assert [held for held in only.told[dropped:] if lost in held] == []
    finally:
        await stop(only)


async def test_a_copy_that_sees_no_other_copy_still_stops_serving_leases_it_cannot_renew(
    own_nats: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = Group()
    alone = await start(own_nats, "alone", group)
    await until(lambda: len(alone.held) == PARTITIONS)
    # its bus is stuck: renewals stop, and its watcher delivers nothing (no other copy is seen)
    Behind(alone, lambda key: True, monkeypatch)
    await cancel_and_wait(*(t for t in alone.keeper._tasks if t.get_name() == RENEWALS_TASK))
    other = await start(own_nats, "other", group)
    try:
        await until(lambda: len(other.held) == PARTITIONS, timeout_s=LEASE_TTL_S * 5)
        assert alone.held == frozenset()
        assert group.overlaps == []
    finally:
        await cancel_and_wait(*alone.keeper._tasks)
        await alone.client.close()
        await stop(other)


async def test_a_renewal_that_fails_costs_the_trust_of_its_own_partition_only(
    own_nats: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    only = await start(own_nats, "only")
    await until(lambda: len(only.held) == PARTITIONS)
    failing = 5
    publish = only.keeper.js.publish

    async def publish_but_one(subject: str, payload: bytes = b"", **options: Any) -> PubAck:
        if subject.endswith(f".{PARTITION_PREFIX}{failing}"):
            raise NatsTimeoutError  # this lease's writes are never acknowledged
        return await publish(subject, payload, **options)

    monkeypatch.setattr(only.keeper.js, "publish", publish_but_one)
    since = len(only.told)
    try:
        await until(lambda: failing not in only.held)  # its trust ran out
        others = frozenset(range(PARTITIONS)) - {failing}
        assert [held for held in only.told[since:] if not held >= others] == []
    finally:
        await stop(only)


async def test_a_renewal_taken_though_its_ack_was_lost_keeps_the_lease_while_the_view_is_behind(
    own_nats: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load a round timed out after its writes were taken; the watcher, behind, had not shown
    them, so the next renewal named the revision before and was refused, and every lease of the copy
    looked lost: its partitions answered 503 until claimed again (seen in CI)."""
    only = await start(own_nats, "only")
    await until(lambda: len(only.held) == PARTITIONS)
    unseen = 7
    key = f"{PARTITION_PREFIX}{unseen}"
    Behind(only, lambda k: k == key, monkeypatch)
    publish = only.keeper.js.publish
    lost_acks = 1

    async def taken_but_unacknowledged(subject: str, payload: bytes = b"", **options: Any) -> PubAck:
        nonlocal lost_acks
        ack = await publish(subject, payload, **options)
        if subject.endswith(f".{key}") and lost_acks:
            lost_acks -= 1
            raise NatsTimeoutError  # the server took it; the ack never came back
        return ack

    monkeypatch.setattr(only.keeper.js, "publish", taken_but_unacknowledged)
    since, revision = len(only.told), only.keeper.mine[unseen]
    try:
        await until(lambda: only.keeper.mine.get(unseen, 0) > revision + 1)  # renewed past the lost one
        heartbeat = only.keeper.view[COPY_PREFIX + "only"].revision
        await until(lambda: only.keeper.view[COPY_PREFIX + "only"].revision > heartbeat + 1)
        assert [held for held in only.told[since:] if unseen not in held] == []
    finally:
        await stop(only)


async def initial_view(server: NatsServer) -> dict[str, leases.Seen]:
    """The keys as a watcher gives them, up to the end of the keys as they are."""
    client = await nats.connect(server.url)
    try:
        watcher = await (await client.jetstream().key_value(subjects.PLAYER_LEASES_BUCKET)).watchall()
        view: dict[str, leases.Seen] = {}
        while (entry := await watcher.updates(timeout=10)) is not None:  # type: ignore[no-untyped-call]
            live = entry.operation is None
            value = (entry.value or b"").decode() if live else ""
            view[entry.key] = leases.Seen(value, int(entry.revision or 0), live)
        await watcher.stop()  # type: ignore[no-untyped-call]
        return view
    finally:
        await client.close()


async def test_a_watcher_that_never_ends_its_initial_keys_gives_the_view_from_the_stream(
    own_nats: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI run saw a player fail to start: its lease watcher never delivered the end of the keys
    as they were (nats-py counts a key that ages out before it is delivered), and open() timed out.
    Now the keys are read from the stream then: the same view a watcher gives, ended keys too."""
    first, second = await start(own_nats, "first"), await start(own_nats, "second")
    await until(lambda: owned_once_by([first, second]))
    await first.keeper.stop()  # its heartbeat and leases deleted: ended keys with revisions
    await until(lambda: len(second.held) == PARTITIONS)
    await first.client.close()
    await cancel_and_wait(*(t for t in second.keeper._tasks if t.get_name() == RENEWALS_TASK))
    await asyncio.sleep(LEASE_TTL_S + 1)  # and its keys age out: the server's markers end them
    watched = await initial_view(own_nats)

    async def no_end(self: KeyValue.KeyWatcher, timeout: float = 5.0) -> KeyValue.Entry | None:  # noqa: ASYNC109
        raise NatsTimeoutError

    with monkeypatch.context() as patch:
        patch.setattr(KeyValue.KeyWatcher, "updates", no_end)
        copy = Copy(await nats.connect(own_nats.url), "reading")
        opening = asyncio.create_task(copy.keeper.open())
        await asyncio.wait_for(opening, timeout=30)
    try:
        mine = {key: seen for key, seen in copy.keeper.view.items() if "reading" not in key}
        assert mine == watched
        assert any(not seen.live for seen in mine.values())  # the ended keys are there, with revisions
        await until(lambda: len(copy.held) == PARTITIONS)  # and it claims over them
    finally:
        await cancel_and_wait(*second.keeper._tasks)
        await second.client.close()
        await stop(copy)
