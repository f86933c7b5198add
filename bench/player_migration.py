"""How fast ``bedside migrate player-stream`` copies a stream written before partitions.

A PLAYER stream of the old shape (``player.<listener>.<book>``, no metadata) is generated
with reports over 200 listener-books, then migrated. The floor, in the same run on the same
server: the fastest copy of the same messages that does nothing with them, the pull reader
the migration reads with and atomic batches of the same size, of the bytes as they are, into
a stream of their own, once before the migration and once after (the faster counts).
``.venv/bin/python -m bench.player_migration [EVENTS]`` (100,000 unless
told); the server fsyncs every write, as Bedside's does.
"""

import sys
import time

from bedside_player.group_commit import committed_seqs, send_atomic_batch
from bedside_player.migration import BATCH, UNPARTITIONED, migrate
from bedside_player.stream_range import RangeReader
from bedside_player_before_partitions import OLD_STREAM, many_reports
from nats.aio.client import Client
from nats.js.api import StorageType, StreamConfig

from bench.player_common import Bench
from bench.report import Figure, report, run

KEYS = 200
FLOOR_STREAM = "MIGRATION_FLOOR"


async def generate(nc: Client, events: int) -> int:
    js = nc.jetstream()
    await js.add_stream(OLD_STREAM)
    return await many_reports(js, events, KEYS)


async def copy_floor(nc: Client, events: int, round_: int) -> float:
    """Seconds to read the originals and store them again as atomic batches, untouched."""
    js = nc.jetstream()
    prefix = f"floor{round_}"
    config = StreamConfig(
        name=f"{FLOOR_STREAM}_{round_}", subjects=[f"{prefix}.>"], storage=StorageType.FILE, allow_atomic=True
    )
    await js.add_stream(config)
    started = time.perf_counter()
    pending: list[tuple[str, bytes]] = []

    async def commit() -> None:
        ack = await send_atomic_batch(nc, [(subject, data, {}) for subject, data in pending], 10)
        assert committed_seqs(ack, len(pending)) is not None, ack
        pending.clear()

    async for chunk in RangeReader(nc).chunks(0, events, [UNPARTITIONED]):
        for subject, _, data in chunk:
            pending.append((prefix + subject.removeprefix("player"), data))
            if len(pending) >= BATCH:
                await commit()
    if pending:
        await commit()
    return time.perf_counter() - started


async def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    bench = await Bench(sync_always=True).start(player=False)
    try:
        stored = await generate(bench.nc, events)
        print(f"  generated {stored:,} events of the old shape over {KEYS} listener-books")
        before_s = await copy_floor(bench.nc, stored, 1)
        started = time.perf_counter()
        migrated = await migrate(bench.nc, 64)
        seconds = time.perf_counter() - started
        after_s = await copy_floor(bench.nc, stored, 2)
        floor_s = min(before_s, after_s)
        print(f"  the bare copy took {before_s:.2f} s before the migration and {after_s:.2f} s after it")
        print(f"  migrated {migrated.copied_now:,} in {seconds:.2f} s")
        report(
            [
                Figure(
                    f"player stream migration, {stored:,} events",
                    migrated.copied_now / seconds,
                    "events/s",
                    floor=stored / floor_s,
                ),
                Figure(f"player stream migration, {stored:,} events, wall", seconds, "s", floor=floor_s),
            ]
        )
    finally:
        await bench.stop()


if __name__ == "__main__":
    run(main())
