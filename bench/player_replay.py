"""Replay time for 1,000,000 events, generated straight into the PLAYER stream.

Events are reports spread over 1,000 listener-books, published on a server without
fsync-per-write so that generating them does not dominate the run. The floor is the fastest
of several raw reads of the same messages that do nothing with them: an ordered consumer
with a callback, pull requests answered into a callback that only counts, and the pull
reader replay itself uses (``RangeReader``) at two batch sizes.
Each round runs every fast read and then the replay; the rounds alternate them, and each
read and the replay are compared by their medians over the rounds (wall clock, and CPU of
this process a message). ``.venv/bin/python -m bench.player_replay [EVENTS] [--rounds N]
[--headers] [--slow]``: with ``--headers`` each message carries the two headers a player's
append has; with ``--slow`` the reads that are far from the floor (the ordered consumer's
iterator, nats-py's pull ``fetch``, the direct batch get, replay through the iterator) are
measured once first, as they were before the pull reader.
"""

import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable

from bedside_contracts import subjects
from bedside_player.projections import Projections, apply_stored
from bedside_player.replay import rebuild, snapshots, write_snapshot
from bedside_player.store import EventStore, subject_of
from bedside_player.stream_range import INACTIVE_THRESHOLD_S, REQUEST_EXPIRES_S, RangeReader
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from bench.player_common import Bench
from bench.report import Figure, percentile, report, run

BOOKS = 1000
Read = Callable[[Client, int], Awaitable[None]]


def append_headers(n: int) -> dict[str, str]:
    """Two headers shaped like a player's append's, which every read parses: a message id of the
    same form, and the expected sequence under a name the server does not check."""
    return {"Nats-Msg-Id": f"player.l{n % BOOKS}.b1:{n}:{n:032x}", "Bedside-Expected-Seq": str(n)}


async def generate(bench: Bench, events: int, headers: bool = False) -> tuple[int, float]:
    store = EventStore(bench.nc.jetstream())
    await store.declare()
    started = time.perf_counter()
    subjects_ = [subject_of(f"l{key}", "b1") for key in range(BOOKS)]
    for n in range(events):
        # the bytes a PositionReported serialises to, written out to keep the generator cheap
        payload = (
            f'{{"kind":"reported","device":"d","position_ms":{n // BOOKS * 1000},'
            f'"playing":true,"basis_seq":0}}'
        ).encode()
        await bench.nc.publish(subjects_[n % BOOKS], payload, headers=append_headers(n) if headers else None)
        if n % 5000 == 4999:
            await bench.nc.flush()
            if n % 100_000 == 99_999:
                print(f"  generated {n + 1:,}", flush=True)
    await bench.nc.flush()
    # plain publishes into a stream are not acknowledged and a loaded server drops a few:
    # wait until the stream stops growing and replay what it holds
    stored, still = 0, 0
    while still < 10:
        await asyncio.sleep(0.3)
        now = await store.last_seq()
        still = still + 1 if now == stored else 0
        stored = now
    return stored, time.perf_counter() - started


async def ordered_iterated(nc: Client, events: int) -> None:
    """What replay read with before: an ordered consumer's ``messages`` iterator."""
    sub = await nc.jetstream().subscribe(
        subjects.PLAYER_SUBJECTS,
        ordered_consumer=True,
        stream=subjects.PLAYER_STREAM,
        deliver_policy=DeliverPolicy.ALL,
        pending_msgs_limit=1_000_000,
    )
    async for msg in sub.messages:
        if msg.metadata.sequence.stream >= events:
            break
    await sub.unsubscribe()


async def ordered_callback(nc: Client, events: int) -> None:
    done = asyncio.Event()
    seen = 0

    async def count(_: Msg) -> None:
        nonlocal seen
        seen += 1
        if seen >= events:
            done.set()

    sub = await nc.jetstream().subscribe(
        subjects.PLAYER_SUBJECTS,
        ordered_consumer=True,
        stream=subjects.PLAYER_STREAM,
        deliver_policy=DeliverPolicy.ALL,
        pending_msgs_limit=0,
        pending_bytes_limit=0,
        cb=count,
    )
    await done.wait()
    await sub.unsubscribe()


async def pull_fetch(nc: Client, events: int) -> None:
    """nats-py's own pull subscription, ``fetch(1000)`` at a time."""
    config = ConsumerConfig(
        ack_policy=AckPolicy.NONE, deliver_policy=DeliverPolicy.ALL, inactive_threshold=30
    )
    sub = await nc.jetstream().pull_subscribe(
        subjects.PLAYER_SUBJECTS, durable=None, stream=subjects.PLAYER_STREAM, config=config
    )
    seen = 0
    while seen < events:
        seen += len(await sub.fetch(1000, timeout=10))
    await sub.unsubscribe()


async def count_replies(
    nc: Client, inbox: str, events: int, batch: int, ask: Callable[[], Awaitable[None]], *, in_flight: int
) -> None:
    """Count the messages arriving on ``inbox`` (not the status replies that end a request),
    asking again after every ``batch``, until ``events`` have come."""
    done = asyncio.Event()
    seen = 0

    async def count(msg: Msg) -> None:
        nonlocal seen
        if msg.headers and "Status" in msg.headers:
            return
        seen += 1
        if seen % batch == 0:
            await ask()
        if seen >= events:
            done.set()

    sub = await nc.subscribe(inbox, cb=count, pending_msgs_limit=0, pending_bytes_limit=0)
    for _ in range(in_flight):
        await ask()
    await done.wait()
    await sub.unsubscribe()


def range_reader(batch: int, in_flight: int) -> Read:
    async def read(nc: Client, events: int) -> None:
        async for _ in RangeReader(nc, batch, in_flight).chunks(0, events):
            pass

    return read


def pull_counting(batch: int, in_flight: int) -> Read:
    """The pull reader's way of asking (an ephemeral consumer without acks, ``in_flight`` pull
    requests of ``batch``), with a callback that only counts: none of the reader's work a
    message (the reply subject's numbers, the hole check, the chunk)."""

    async def read(nc: Client, events: int) -> None:
        js = nc.jetstream()
        config = ConsumerConfig(
            deliver_policy=DeliverPolicy.ALL,
            ack_policy=AckPolicy.NONE,
            inactive_threshold=INACTIVE_THRESHOLD_S,
            mem_storage=True,
            num_replicas=1,
        )
        consumer = await js.add_consumer(subjects.PLAYER_STREAM, config)
        next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{subjects.PLAYER_STREAM}.{consumer.name}"
        request = json.dumps({"batch": batch, "expires": int(REQUEST_EXPIRES_S * 1e9)}).encode()
        inbox = nc.new_inbox()
        asked = 0

        async def ask() -> None:
            nonlocal asked
            if asked < events:
                asked += batch
                await nc.publish(next_subject, request, reply=inbox)

        await count_replies(nc, inbox, events, batch, ask, in_flight=in_flight)
        assert consumer.name is not None
        await js.delete_consumer(subjects.PLAYER_STREAM, consumer.name)

    return read


async def direct_batch_get(nc: Client, events: int, batch: int = 1000) -> None:
    """The stream's direct get with ``batch``, two requests in flight, each ended by a status."""
    next_seq = 1
    inbox = nc.new_inbox()

    async def ask() -> None:
        nonlocal next_seq
        request = json.dumps({"seq": next_seq, "batch": batch}).encode()
        await nc.publish(f"$JS.API.DIRECT.GET.{subjects.PLAYER_STREAM}", request, reply=inbox)
        next_seq += batch

    await count_replies(nc, inbox, events, batch, ask, in_flight=2)


async def replay_message_by_message(nc: Client, events: int) -> None:
    """Replay as it read before the pull reader (and as its fallback reads): the ordered
    consumer's iterator, each message decoded and applied in turn."""
    projections = Projections()
    async for subject, seq, data, _ in EventStore(nc.jetstream()).feed(0):
        apply_stored(projections, [(subject, seq, data)])
        if seq >= events:
            break


SLOW_READS: dict[str, Read] = {
    "ordered consumer, iterated (the old floor)": ordered_iterated,
    "pull fetch(1000)": pull_fetch,
    "direct batch get 1000 x 2": direct_batch_get,
    "replay message by message (the old read)": replay_message_by_message,
}
FAST_READS: dict[str, Read] = {
    "ordered consumer, callback": ordered_callback,
    "pull 1000 x 4, a callback that only counts": pull_counting(1000, 4),
    "pull reader 1000 x 4 (replay's)": range_reader(1000, 4),
    "pull reader 2000 x 2": range_reader(2000, 2),
}
REPLAY = "replay"


async def timed(read: Read, nc: Client, events: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process)."""
    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.wait_for(read(nc, events), 900)
    return time.perf_counter() - started, time.process_time() - cpu


def line(name: str, events: int, wall: float, cpu: float) -> str:
    rate, per_event = events / wall, cpu / events * 1e6
    return f"  {name:44} {wall:7.2f} s  {rate:9,.0f} events/s  CPU {per_event:5.2f} us/event"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


async def main(events: int, rounds: int, headers: bool, slow: bool) -> None:
    bench = await Bench(sync_always=False).start(player=False)
    figures: list[Figure] = []
    try:
        events, made = await generate(bench, events, headers)
        kind = "with a player's two headers" if headers else "without headers"
        print(f"generated {events:,} events {kind} over {BOOKS} listener-books in {made:.1f} s; {load()}")
        for name, read in SLOW_READS.items() if slow else ():
            wall, cpu = await timed(read, bench.nc, events)
            print(line(name, events, wall, cpu))
        walls: dict[str, list[float]] = {}
        cpus: dict[str, list[float]] = {}
        for round_ in range(1, rounds + 1):
            print(f"round {round_}; {load()}")
            for name, read in FAST_READS.items():
                wall, cpu = await timed(read, bench.nc, events)
                walls.setdefault(name, []).append(wall)
                cpus.setdefault(name, []).append(cpu)
                print(line(name, events, wall, cpu))
            cpu = time.process_time()
            projections, replayed = await rebuild(bench.nc)
            cpu = time.process_time() - cpu
            walls.setdefault(REPLAY, []).append(replayed.seconds)
            cpus.setdefault(REPLAY, []).append(cpu)
            print(line(REPLAY, events, replayed.seconds, cpu))
            print(f"    {replayed.line()}; {load()}")
        median_wall = {name: percentile(values, 50) for name, values in walls.items()}
        cpu_us = {name: percentile(values, 50) / events * 1e6 for name, values in cpus.items()}
        floor_name = min(FAST_READS, key=lambda name: median_wall[name])
        cpu_floor_name = min(FAST_READS, key=lambda name: cpu_us[name])
        floor, replay_s = median_wall[floor_name], median_wall[REPLAY]
        print(f"medians of {rounds} rounds:")
        for name in walls:
            print(f"  {name:44} {median_wall[name]:7.2f} s  CPU {cpu_us[name]:5.2f} us/event")
        print(
            f"replay {replay_s:.2f} s ({events / replay_s:,.0f} events/s) against the fastest read, "
            f"{floor_name}, {floor:.2f} s ({events / floor:,.0f}/s): {replay_s / floor:.2f}x; CPU a message "
            f"{cpu_us[REPLAY]:.2f} against {cpu_us[cpu_floor_name]:.2f} us of the cheapest, "
            f"{cpu_floor_name}: {cpu_us[REPLAY] / cpu_us[cpu_floor_name]:.2f}x; {load()}"
        )
        js = bench.nc.jetstream()
        written = await write_snapshot(await snapshots(js), projections)
        _, again = await rebuild(bench.nc, use_snapshot=True)
        print(f"replay from a snapshot of {written} projections: {again.line()}")
        figures = [
            Figure(f"player replay of {events:,} events (median of {rounds})", replay_s, "s", floor=floor),
            Figure(
                f"player replay CPU a message ({events:,} events)",
                cpu_us[REPLAY],
                "us",
                floor=cpu_us[cpu_floor_name],
            ),
            Figure(f"player replay from a snapshot of {written:,} projections", again.seconds, "s"),
        ]
    finally:
        await bench.stop()
    report(figures)


def option(name: str, default: int) -> int:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


if __name__ == "__main__":
    numbers = [arg for n, arg in enumerate(sys.argv[1:]) if arg.isdigit() and sys.argv[n] != "--rounds"]
    run(
        main(
            int(numbers[0]) if numbers else 1_000_000,
            max(3, option("--rounds", 3)),
            "--headers" in sys.argv,
            "--slow" in sys.argv,
        )
    )
