"""Partitioned player copies on a 3-node loopback JetStream cluster: 1, 2 and 3 copies, 10,000
listeners, and one copy SIGKILLed.

``.venv/bin/python -m bench.player_partitions [listeners]`` (10,000 by default; a few minutes).

Printed, each beside its floor from the same run:
- throughput (reports/s, 64 in flight over the bus, any copy takes a request) with 1, 2 and 3
  copies, beside raw R3 JetStream publishes at the same concurrency;
- player CPU per report (all copies together, and per copy), beside a bare nats-py responder
  that only appends each request to an R3 stream and answers: what any copy must do;
- the nats-server CPU per report (three nodes together) beside the same under the bare responder;
- the listeners in each copy's partitions with three copies, beside a third of them (each
  copy's own count of projections is printed from its health above the table);
- memory per copy (RSS) with three copies, beside a copy that holds no listener yet;
- the takeover time after a SIGKILL, beside the lease TTL.

Everything (three NATS nodes, the copies, this load generator) shares this machine's cores,
so the throughput of 2 and 3 copies cannot exceed what one machine gives; the scale-out shows
in the CPU and memory per copy, not in reports/s.
"""

import asyncio
import subprocess
import sys
import time

import nats
from bedside_cluster import NatsCluster, start_cluster
from bedside_player.leases import LEASE_TTL_S
from bedside_player_copies import (
    PlayerCopies,
    PlayerCopy,
    Reporters,
    healths,
    owner_of_pid,
    partitions_of,
    served_again,
    settled,
)
from bedside_player_testing import FakeSearch, SyntheticBook
from nats.aio.client import Client
from nats.errors import NoRespondersError
from nats.js.api import StorageType, StreamConfig

from bench.processes import process_cpu_s
from bench.report import Figure, report

PHASE_S = 8.0
IN_FLIGHT = 64
BARE_RESPONDER = """
import asyncio, sys, nats
async def serve():
    nc = await nats.connect(sys.argv[1].split(","))
    js = nc.jetstream()
    async def answer(msg):
        ack = await js.publish("bare." + msg.subject.rsplit(".", 1)[-1], msg.data, stream="BARE")
        await msg.respond(str(ack.seq).encode())
    async def on(msg):
        asyncio.create_task(answer(msg))
    await nc.subscribe("bench.bare.*", queue="bare", cb=on)
    await nc.flush()
    print("ready", flush=True)
    await asyncio.Event().wait()
asyncio.run(serve())
"""
"""What any copy must do for a report: take a request, append it to an R3 stream, answer."""


def node_pids(cluster: NatsCluster) -> list[int]:
    return [node.process.pid for node in cluster.nodes if node.process is not None]


async def raw_publish_rate(client: Client, seconds: float) -> float:
    """R3 JetStream publishes with acks, ``IN_FLIGHT`` at a time: the floor under reports/s."""
    js = client.jetstream()
    config = StreamConfig(name="RAW", subjects=["raw.>"], storage=StorageType.FILE, num_replicas=3)
    await js.add_stream(config)
    done = 0
    deadline = time.monotonic() + seconds

    async def worker(n: int) -> None:
        nonlocal done
        while time.monotonic() < deadline:
            await js.publish(f"raw.{n}", b'{"kind":"reported","position_ms":1000}', stream="RAW")
            done += 1

    started = time.monotonic()
    await asyncio.gather(*(worker(n) for n in range(IN_FLIGHT)))
    return done / (time.monotonic() - started)


def start_bare_responder(nats_url: str) -> "subprocess.Popen[str]":
    command = [sys.executable, "-c", BARE_RESPONDER, nats_url]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


async def bare_responder_cost(client: Client, cluster: NatsCluster, seconds: float) -> tuple[float, float]:
    """(responder CPU ms per request, nats-server CPU ms per request) of the bare responder."""
    js = client.jetstream()
    config = StreamConfig(name="BARE", subjects=["bare.>"], storage=StorageType.FILE, num_replicas=3)
    await js.add_stream(config)
    process = start_bare_responder(cluster.nats_url)
    try:
        assert process.stdout is not None
        await asyncio.to_thread(process.stdout.readline)
        for _ in range(100):  # until the subscription has reached this client's node
            try:
                await client.request("bench.bare.probe", b"{}", timeout=5)
                break
            except NoRespondersError:
                await asyncio.sleep(0.05)
        done = 0
        deadline = time.monotonic() + seconds
        before, nodes_before = process_cpu_s(process.pid), sum(process_cpu_s(p) for p in node_pids(cluster))

        async def worker(n: int) -> None:
            nonlocal done
            while time.monotonic() < deadline:
                await client.request(f"bench.bare.l{n}", b'{"kind":"reported","position_ms":1000}', timeout=5)
                done += 1

        await asyncio.gather(*(worker(n) for n in range(IN_FLIGHT)))
        used = process_cpu_s(process.pid) - before
        nodes = sum(process_cpu_s(p) for p in node_pids(cluster)) - nodes_before
        return used / done * 1000, nodes / done * 1000
    finally:
        process.terminate()
        process.wait()


async def saturate(
    reporters: Reporters, copies: list[PlayerCopy], cluster: NatsCluster
) -> tuple[float, float, list[float], float]:
    """(reports/s, player CPU ms a report, each copy's CPU ms a report, nats CPU ms a report)."""
    before = [copy.cpu_s() for copy in copies]
    nodes_before = sum(process_cpu_s(p) for p in node_pids(cluster))
    acked_before = reporters.total_acked
    started = time.monotonic()
    await reporters.run(rounds=1_000, in_flight=IN_FLIGHT, until=started + PHASE_S)
    elapsed = time.monotonic() - started
    done = reporters.total_acked - acked_before
    per_copy = [(copy.cpu_s() - b) / done * 1000 for copy, b in zip(copies, before, strict=True)]
    nodes = (sum(process_cpu_s(p) for p in node_pids(cluster)) - nodes_before) / done * 1000
    return done / elapsed, sum(per_copy), per_copy, nodes


async def scale_out(
    reporters: Reporters, copies: PlayerCopies, cluster: NatsCluster, floors: tuple[float, float, float]
) -> list[Figure]:
    """Saturation with 1, 2 and 3 copies (the second and third started in between)."""
    raw_rate, bare_cpu_ms, bare_nats_ms = floors
    figures: list[Figure] = []
    for count, name in ((1, None), (2, "b"), (3, "c")):
        if name is not None:
            copies.start(name)
            await copies.wait_serving(name)
        running = list(copies.copies.values())
        await settled(reporters.client, [copy.process.pid for copy in running])
        rate, cpu_ms, per_copy, nats_ms = await saturate(reporters, running, cluster)
        shares = ", ".join(f"{c.name} {ms:.3f}" for c, ms in zip(running, per_copy, strict=True))
        print(f"{count} copies: {rate:,.0f} reports/s; player CPU ms a report by copy: {shares}")
        figures += [
            Figure(f"reports/s over the bus, {count} copies", rate, "reports/s", floor=raw_rate),
            Figure(f"player CPU a report, {count} copies together", cpu_ms, "ms", floor=bare_cpu_ms),
            Figure(f"nats-server CPU a report, {count} copies", nats_ms, "ms", floor=bare_nats_ms),
        ]
    return figures


async def what_each_copy_holds(
    reporters: Reporters, copies: PlayerCopies, empty_rss: float
) -> tuple[list[Figure], dict[int, str]]:
    owners = await settled(reporters.client, [copy.process.pid for copy in copies.copies.values()])
    by_partition = partitions_of(reporters.listeners)
    details = {h.pid: h.detail for h in await healths(reporters.client)}
    figures: list[Figure] = []
    third = len(reporters.listeners) / 3
    for copy in copies.copies.values():
        pid = copy.process.pid
        held = sum(len(by_partition[p]) for p in owner_of_pid(owners, pid))
        print(f"copy {copy.name}: {details.get(pid)}")  # its own count of projections
        figures += [
            Figure(f"listeners in the partitions of copy {copy.name} of 3", held, "listeners", floor=third),
            Figure(f"RSS of copy {copy.name} of 3", copy.rss_mb(), "MB", floor=empty_rss),
        ]
    return figures, owners


async def takeover(reporters: Reporters, copies: PlayerCopies, owners: dict[int, str]) -> float:
    """SIGKILL copy b under load; seconds until its partitions are owned and answering again."""
    victim = copies.copies["b"]
    victim_partitions = owner_of_pid(owners, victim.process.pid)
    by_partition = partitions_of(reporters.listeners)
    until = time.monotonic() + 12
    load = asyncio.create_task(reporters.run(rounds=1_000, in_flight=IN_FLIGHT, until=until))
    await asyncio.sleep(3)
    copies.kill("b")
    survivors = [c.process.pid for n, c in copies.copies.items() if n != "b"]
    one_each = [by_partition[p][0] for p in sorted(victim_partitions) if by_partition[p]]
    seconds = await served_again(reporters.client, one_each, survivors)
    await load
    return seconds


async def main(listener_count: int) -> None:
    cluster = start_cluster(3, name="bedside-bench-partitions")
    copies = PlayerCopies(cluster.nats_url, replicas=3)
    client = await nats.connect(cluster.urls)
    search = await FakeSearch(client, [SyntheticBook("b1")]).start()
    figures: list[Figure] = []
    try:
        raw_rate = await raw_publish_rate(client, PHASE_S)
        bare_cpu_ms, bare_nats_ms = await bare_responder_cost(client, cluster, PHASE_S)
        first = copies.start("a")
        await copies.wait_serving("a")
        await asyncio.sleep(2)
        empty_rss = first.rss_mb()
        reporters = Reporters(client, [f"bl-{n}" for n in range(listener_count)])
        started = time.monotonic()
        await reporters.run(rounds=1, in_flight=IN_FLIGHT)
        print(f"{listener_count} listeners made their first report in {time.monotonic() - started:.1f} s")
        one_copy_rss = first.rss_mb()
        per_listener_kb = (one_copy_rss - empty_rss) * 1024 / listener_count
        figures += [
            Figure(f"RSS of one copy, all {listener_count} listeners", one_copy_rss, "MB", floor=empty_rss),
            Figure("memory a listener (one copy, RSS growth)", per_listener_kb, "KB"),
        ]
        figures += await scale_out(reporters, copies, cluster, (raw_rate, bare_cpu_ms, bare_nats_ms))
        held, owners = await what_each_copy_holds(reporters, copies, empty_rss)
        figures += held
        seconds = await takeover(reporters, copies, owners)
        figures.append(Figure("takeover after SIGKILL of a copy", seconds, "s", floor=LEASE_TTL_S))
        print(f"unknown outcomes during the whole run: {reporters.unknown}, refused: {reporters.refused}")
    finally:
        await search.stop()
        copies.stop()
        await client.close()
        cluster.stop()
    report(figures)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
