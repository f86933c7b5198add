"""Replay time for 1,000,000 events, generated straight into the PLAYER stream.

Events are reports spread over 1,000 listener-books, published on a server without
fsync-per-write so that generating them does not dominate the run. The floor is reading the same
messages with an ordered consumer and doing nothing with them.
``.venv/bin/python -m bench.player_replay [EVENTS]``
"""

import asyncio
import sys
import time

from bedside_contracts import subjects
from bedside_player.replay import rebuild, snapshots, write_snapshot
from bedside_player.store import EventStore, subject_of
from nats.js.api import DeliverPolicy

from bench.player_common import Bench
from bench.report import Figure, report

BOOKS = 1000


async def generate(bench: Bench, events: int) -> tuple[int, float]:
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
        await bench.nc.publish(subjects_[n % BOOKS], payload)
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


async def read_floor(bench: Bench, events: int) -> float:
    js = bench.nc.jetstream()
    started = time.perf_counter()
    sub = await js.subscribe(
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
    return time.perf_counter() - started


async def main(events: int) -> None:
    bench = await Bench(sync_always=False).start(player=False)
    figures: list[Figure] = []
    try:
        events, made = await generate(bench, events)
        print(f"generated {events:,} events (stored) over {BOOKS} listener-books in {made:.1f} s")
        floor = await read_floor(bench, events)
        print(f"floor  ordered consumer read of {events:,} messages: {floor:.1f} s ({events / floor:,.0f}/s)")
        js = bench.nc.jetstream()
        projections, report_ = await rebuild(js)
        print(f"replay {report_.line()}  -> {report_.seconds / floor:.1f}x the read floor")
        written = await write_snapshot(await snapshots(js), projections)
        _, again = await rebuild(js, use_snapshot=True)
        print(f"replay from a snapshot of {written} projections: {again.line()}")
        figures = [
            Figure(f"player replay of {events:,} events", report_.seconds, "s", floor=floor),
            Figure(f"player replay from a snapshot of {written:,} projections", again.seconds, "s"),
        ]
    finally:
        await bench.stop()
    report(figures)


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000))
