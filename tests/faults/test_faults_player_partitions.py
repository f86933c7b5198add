"""Three player copies share the listeners by partition; one is SIGKILLed in the middle of a load.

A 3-node loopback JetStream cluster, three player copies (``bedside serve player``) on it,
thousands of simulated listeners reporting over the bus (any copy takes a request and sends
it to the owner of the listener's partition). Each copy holds the projections of its own
partitions only (printed). One copy is killed with SIGKILL while the reports go on. Then:

- its partitions are owned again, by the two copies left (the time it took is printed);
- every acknowledged report is in the PLAYER stream exactly once, and no attempt twice;
- every partition has exactly one live owner in the lease bucket, none of them the dead copy;
- every listener's state, asked of any copy, is its newest stored report;
- devices that were watching the dead copy (SSE) reconnect to another copy, see their
  listener's position, and see a report made through the third copy pushed to them.

A second test stalls a copy (SIGSTOP) until the others own its partitions and then lets it
run again: it must lose nothing and double nothing either. Nothing about time is asserted;
the takeover times are printed.
"""

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import httpx
import nats
import pytest
from bedside_cluster import NatsCluster, start_cluster
from bedside_contracts import subjects
from bedside_contracts.partitions import DEFAULT_PARTITIONS, partition_of
from bedside_contracts.player import ListenerState
from bedside_player.listeners import Listeners
from bedside_player_copies import (
    BOOK,
    PlayerCopies,
    Reporters,
    healths,
    leases,
    owner_of_pid,
    partitions_of,
    served_again,
    settled,
    state_of,
    stored_reports,
)
from bedside_player_testing import FakeSearch, SyntheticBook, pushed_states
from nats.aio.client import Client

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in.*StreamWriter.__del__:pytest.PytestUnraisableExceptionWarning"
    ),
]

LISTENERS = 3_000
"""bench/player_partitions.py runs the same with 10,000."""
ROUNDS = 3
KILL_AFTER_ACKS = LISTENERS + 1_500
DEVICES = 3
COPIES = ("a", "b", "c")
VICTIM = "b"


@pytest.fixture(scope="module")
def cluster() -> Iterator[NatsCluster]:
    running = start_cluster(3, name="bedside-partitions")
    try:
        yield running
    finally:
        running.stop()


@contextlib.asynccontextmanager
async def connected(cluster: NatsCluster) -> AsyncIterator[Client]:
    client = await nats.connect(cluster.urls, reconnect_time_wait=0.1, max_reconnect_attempts=-1)
    try:
        yield client
    finally:
        await client.close()


async def sse_states(
    http: httpx.AsyncClient, path: str, wanted: int, first: asyncio.Event | None = None
) -> list[ListenerState]:
    """The first ``wanted`` states an SSE connection sends; ``first`` is set when one has come."""
    found: list[ListenerState] = []
    async with http.stream("GET", path + "/events") as response:
        async for pushed in pushed_states(response.aiter_lines()):
            found.append(ListenerState.model_validate(pushed))
            if first is not None:
                first.set()
            if len(found) >= wanted:
                return found
    return found


@dataclass
class Run:
    client: Client
    copies: PlayerCopies
    pids: dict[str, int]
    listeners: list[str]
    reporters: Reporters
    victim_partitions: set[int]
    tokens: dict[str, str]

    def http(self, copy: str, listener: str) -> httpx.AsyncClient:
        url = self.copies.copies[copy].http_url
        headers = {"Authorization": f"Bearer {self.tokens[listener]}"}
        return httpx.AsyncClient(base_url=url, headers=headers, timeout=30)


async def shares(run: Run, owners: dict[int, str]) -> None:
    """Print what each copy holds: its health's detail beside the listeners its partitions have."""
    by_partition = partitions_of(run.listeners)
    for health in sorted(await healths(run.client), key=lambda h: h.pid):
        name = next(n for n, pid in run.pids.items() if pid == health.pid)
        held = sum(len(by_partition[p]) for p in owner_of_pid(owners, health.pid))
        print(f"\n[partitions] copy {name}: {health.detail}; listeners in its partitions: {held}")


async def devices_on_the_victim(run: Run) -> list[str]:
    """Listeners of the victim's partitions, each with a report made and watched through it."""
    names = (f"dev-{n}" for n in range(100_000))
    chosen = [n for n in names if partition_of(n) in run.victim_partitions][:DEVICES]
    registry = await Listeners.open(run.client.jetstream(), 3)
    for name in chosen:
        run.tokens[name] = await registry.create(name)
        async with run.http(VICTIM, name) as http:
            body = {"device": "phone", "position_ms": 42_000, "playing": True, "basis_seq": 0}
            reply = await http.post(path_of(name) + "/reports", json=body)
            assert reply.status_code == 200, reply.text
            assert (await sse_states(http, path_of(name), 1))[0].position_ms == 42_000
    return chosen


async def kill_mid_load(run: Run) -> float:
    acked_enough = asyncio.Event()
    load = asyncio.create_task(run.reporters.run(rounds=ROUNDS, progress=(KILL_AFTER_ACKS, acked_enough)))
    await asyncio.wait([load, asyncio.create_task(acked_enough.wait())], return_when=asyncio.FIRST_COMPLETED)
    run.copies.kill(VICTIM)
    survivors = [pid for name, pid in run.pids.items() if name != VICTIM]
    by_partition = partitions_of(run.listeners)
    one_each = [by_partition[p][0] for p in sorted(run.victim_partitions) if by_partition[p]]
    takeover_s = await served_again(run.client, one_each, survivors)
    await load
    return takeover_s


async def nothing_lost_or_doubled(run: Run) -> dict[str, list[tuple[int, int]]]:
    stored = await stored_reports(run.client)
    lost = doubled = 0
    for listener in run.listeners:
        in_stream = stored.get(listener, [])
        positions = [position for _, position in in_stream]
        doubled += len(positions) - len(set(positions))
        lost += len(set(run.reporters.acked[listener]) - set(in_stream))
    print(f"[partitions] acknowledged reports lost: {lost}; reports stored twice: {doubled}")
    assert lost == 0
    assert doubled == 0
    return stored


async def every_partition_owned_once_by_a_survivor(run: Run) -> None:
    owners, live = await leases(run.client)
    survivors = {f"p{pid}" for name, pid in run.pids.items() if name != VICTIM}
    assert len(owners) == DEFAULT_PARTITIONS
    assert not owner_of_pid(owners, run.pids[VICTIM])
    assert set(owners.values()) <= live
    assert {copy.split("-")[0] for copy in live} == survivors


async def devices_come_back_elsewhere(run: Run, devices: list[str]) -> None:
    """Each device watches through one survivor while another device seeks through the other."""
    watching, reporting = (n for n in COPIES if n != VICTIM)
    for name in devices:
        async with run.http(watching, name) as watcher, run.http(reporting, name) as other:
            watching_now = asyncio.Event()
            seen = asyncio.create_task(sse_states(watcher, path_of(name), 2, watching_now))
            before = json.loads((await other.get(path_of(name) + "/state")).text)
            assert before["position_ms"] == 42_000
            # The seek waits for the watcher's first state: sent after it, that state would already
            # be the seek's, and the second one the test waits for would never come.
            await asyncio.wait_for(watching_now.wait(), 30)
            body = {"device": "speaker", "position_ms": 90_000, "basis_seq": before["seq"]}
            moved = await other.post(path_of(name) + "/seek", json=body)
            assert moved.status_code == 200, moved.text
            states = await asyncio.wait_for(seen, 30)
            assert [s.position_ms for s in states] == [42_000, 90_000]


async def states_are_the_newest_stored(run: Run, stored: dict[str, list[tuple[int, int]]]) -> None:
    wrong = []
    for listener in run.listeners:
        state = await state_of(run.client, listener)
        if (state.seq, state.position_ms) != stored[listener][-1]:
            wrong.append((listener, state.seq, state.position_ms, stored[listener][-3:]))
    print(f"[partitions] states that are not the newest stored report: {len(wrong)}; {wrong[:5]}")
    assert wrong == []


async def quiet(client: Client, still_s: float = 2.0, timeout_s: float = 120.0) -> None:
    """Until the PLAYER stream has not grown for ``still_s``."""
    js = client.jetstream()
    deadline = time.monotonic() + timeout_s
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        now = (await js.stream_info(subjects.PLAYER_STREAM)).state.last_seq
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still_s:
            return
        await asyncio.sleep(0.25)
    raise AssertionError("the PLAYER stream never stopped growing")


async def three_copies(
    cluster: NatsCluster, copies: PlayerCopies, client: Client
) -> tuple[dict[str, int], dict[int, str]]:
    for name in COPIES:
        copies.start(name)
        await copies.wait_serving(name)
    pids = {name: copies.copies[name].process.pid for name in COPIES}
    return pids, await settled(client, list(pids.values()))


@contextlib.asynccontextmanager
async def three_copies_reporting(
    cluster: NatsCluster, prefix: str
) -> AsyncIterator[tuple[Run, dict[int, str]]]:
    """Three copies settled on the cluster, each listener's first report in, and who owns what."""
    copies = PlayerCopies(cluster.nats_url, replicas=3)
    async with connected(cluster) as client:
        search = await FakeSearch(client, [SyntheticBook(BOOK)]).start()
        try:
            pids, owners = await three_copies(cluster, copies, client)
            listeners = [f"{prefix}-{n}" for n in range(LISTENERS)]
            run = Run(client, copies, pids, listeners, Reporters(client, listeners), set(), {})
            run.victim_partitions = owner_of_pid(owners, pids[VICTIM])
            await run.reporters.run(rounds=1)
            yield run, owners
        finally:
            await search.stop()
            copies.stop()


async def test_three_copies_share_the_listeners_and_a_killed_one_is_taken_over(cluster: NatsCluster) -> None:
    async with three_copies_reporting(cluster, "pl") as (run, owners):
        await shares(run, owners)
        devices = await devices_on_the_victim(run)

        takeover_s = await kill_mid_load(run)
        print(
            f"[partitions] copy {VICTIM} (SIGKILL) owned {len(run.victim_partitions)} partitions; they "
            f"were owned and answering again {takeover_s:.2f} s after the kill (lease TTL 3 s); "
            f"{run.reporters.total_acked} reports acknowledged, {run.reporters.unknown} with an "
            f"unknown outcome, {run.reporters.refused} refused"
        )
        stored = await nothing_lost_or_doubled(run)
        await every_partition_owned_once_by_a_survivor(run)
        await states_are_the_newest_stored(run, stored)
        await devices_come_back_elsewhere(run, devices)


async def test_a_copy_stalled_past_its_leases_wakes_without_losing_or_doubling_a_report(
    cluster: NatsCluster,
) -> None:
    """SIGSTOP a copy until the others own its partitions, then SIGCONT: it still holds
    requests taken before the stall and its old projections, and must notice it lost the
    leases; whatever it appends late is checked against the stream by its expected sequence."""
    async with three_copies_reporting(cluster, "ps") as (run, _owners):
        victim = run.copies.copies[VICTIM].process
        try:
            acked_enough = asyncio.Event()
            progress = (KILL_AFTER_ACKS, acked_enough)
            load = asyncio.create_task(run.reporters.run(rounds=ROUNDS, progress=progress))
            await asyncio.wait(
                [load, asyncio.create_task(acked_enough.wait())], return_when=asyncio.FIRST_COMPLETED
            )
            victim.send_signal(signal.SIGSTOP)
            survivors = [pid for name, pid in run.pids.items() if name != VICTIM]
            by_partition = partitions_of(run.listeners)
            one_each = [by_partition[p][0] for p in sorted(run.victim_partitions) if by_partition[p]]
            takeover_s = await served_again(run.client, one_each, survivors)
            victim.send_signal(signal.SIGCONT)
            await load
            await settled(run.client, list(run.pids.values()))  # it noticed, rejoined and took a share again
            await quiet(run.client)  # what it took before the stall it may still be answering
            print(
                f"\n[partitions] copy {VICTIM} stalled (SIGSTOP) with {len(run.victim_partitions)} "
                f"partitions; they were answering elsewhere {takeover_s:.2f} s later; after SIGCONT the "
                f"three copies shared the partitions again; {run.reporters.total_acked} acknowledged, "
                f"{run.reporters.unknown} unknown outcomes"
            )
            stored = await nothing_lost_or_doubled(run)
            await states_are_the_newest_stored(run, stored)
        finally:
            with contextlib.suppress(ProcessLookupError):
                victim.send_signal(signal.SIGCONT)


def path_of(listener: str) -> str:
    return f"/api/listeners/{listener}/books/{BOOK}"
