"""Reports with and without a push stream per device, and move -> push latency, with the
server side on one core and the load generator on the other (the peer comparison's placement).

The player and its nats-server run on core 0 (every thread pinned), this process, which
is the load generator, on core 1. For each number of devices (10, 50, 200 by default, or
those given as arguments):

- reports/s at saturation, every device reporting back to back on its own listener over a
  plain keep-alive socket, first with no push streams, then with every device also holding
  ``GET .../events`` of its own listener-book open (so each report is also one push);
  the second beside the first as a ratio, and the server's CPU a report (player and
  nats-server, from /proc) with push streams beside it without them, which the other
  sessions' load on the shared cores disturbs less than the rate. The two alternate, twice;
- move -> push: 3 devices (as in bench.player_push), then each number of devices up to the 32
  streams one listener may keep on a book (``WATCHER_COUNTS``), watching one listener-book over
  SSE, a seek every 40 ms; the latency from sending the seek until a device has read a state at
  that sequence, per device and until every device has, beside
  the JetStream publish-ack floor of the same run; and the player's CPU for one more
  watching device (the CPU a move with N watching less that with 3, over N - 3) beside the
  CPU of one ``send`` of a frame's size on a loopback socket, measured here.

The SSE readers are bare sockets (``bedside_player_testing.PlainEventStream``), so that on one
core they cost less than the player's side of a push. ``.venv/bin/python -m bench.player_fanout``
(``--quick``: 50 devices only, shorter phases; ``BEDSIDE_SPY_OUT=DIR PY_SPY=.../py-spy``:
a py-spy profile of the player in each saturation phase).
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from bedside_player.hub import STREAMS_PER_BOOK

from bench.player_common import (
    Bench,
    PlainDevices,
    floors,
    moves_to_watchers,
    saturate,
    summary,
    unwatch,
    watch,
)
from bench.processes import process_cpu_s
from bench.report import Figure, percentile, report, run

SERVER_CORE = 0
LOAD_CORE = 1
QUICK = "--quick" in sys.argv
DEVICE_COUNTS = [int(a) for a in sys.argv[1:] if a.isdigit()] or ([50] if QUICK else [10, 50, 200])
SATURATION_S = 3 if QUICK else 5
MOVES = 60 if QUICK else 120
ROUNDS = 1 if QUICK else 2
FRAME_CPU_FROM = 30
SPY_OUT = os.environ.get("BEDSIDE_SPY_OUT", "")
"""A folder: each saturation phase is also profiled there with py-spy (``PY_SPY``, the binary)."""
PY_SPY = os.environ.get("PY_SPY", "py-spy")
MOVE_EVERY_S = 0.04
ISSUE_WATCHERS = 3
"""As in bench.player_push, the issue's move -> push figure."""
WATCHER_COUNTS = sorted({ISSUE_WATCHERS, *(min(count, STREAMS_PER_BOOK) for count in DEVICE_COUNTS)})
"""Devices watching one book in the push phases: one listener keeps at most ``STREAMS_PER_BOOK``
streams open on a book (the newest past it closes the oldest), so more are never watching at once."""


def profile(pid: int, label: str, seconds: float = SATURATION_S) -> "subprocess.Popen[bytes]":
    """py-spy sampling the player for one phase, from the load generator's core."""
    out = Path(SPY_OUT) / f"fanout-{label}.txt"
    command = [PY_SPY, "record", "--pid", str(pid), "--duration", str(round(seconds)), "--nonblocking"]
    command += ["--rate", "500"]
    return subprocess.Popen(
        ["taskset", "-c", str(LOAD_CORE), *command, "--format", "raw", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pin(pid: int, core: int) -> None:
    """Every thread of ``pid`` onto ``core`` (threads made later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {core})


def placement(pid: int) -> str:
    cores = sorted(
        {c for task in Path(f"/proc/{pid}/task").iterdir() for c in os.sched_getaffinity(int(task.name))}
    )
    return ",".join(map(str, cores))


async def push_latency(
    bench: Bench, player_pid: int, watched: tuple[str, str], count: int, ack: list[float]
) -> tuple[list[Figure], float]:
    """Moves on one book that ``count`` devices watch: latencies beside the publish-ack floor,
    and the player's CPU a move (the whole phase's CPU over the moves)."""
    readers, tasks = await watch(bench, [watched] * count)
    spy = profile(player_pid, f"moves-{count}", MOVES * MOVE_EVERY_S) if SPY_OUT else None
    cpu_before = process_cpu_s(player_pid)
    each, every, missed, _ = await moves_to_watchers(bench, watched, readers, MOVES, MOVE_EVERY_S)
    cpu_us = (process_cpu_s(player_pid) - cpu_before) * 1e6 / MOVES
    if spy is not None:
        spy.wait()
    await unwatch(readers, tasks)
    ack_p95 = percentile(ack, 95)
    print(
        f"move->push, {count} devices watching one book, {MOVES} moves: each device {summary(each)}; "
        f"every device p95 {percentile(every, 95):.2f} ms; {missed} not seen; "
        f"publish-ack p95 {ack_p95:.2f} ms; player CPU {cpu_us:,.0f} us a move; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    return [
        Figure(f"player move->push p50, {count} watching", percentile(each, 50), "ms", percentile(ack, 50)),
        Figure(f"player move->push p95, {count} watching", percentile(each, 95), "ms", ack_p95),
        Figure(f"player move->push to all p95, {count} watching", percentile(every, 95), "ms", ack_p95),
    ], cpu_us


async def reports_with_and_without_pushes(
    bench: Bench, player_pid: int, nats_pid: int, people: list[tuple[str, str]]
) -> list[Figure]:
    """Saturation by one device per listener, without and with a push stream each, alternated."""
    count = len(people)
    devices = PlainDevices(bench.port, people)
    for i in range(count):  # every projection, token and connection exists before timing
        await devices.plain_http_report(i)
    reports: dict[bool, int] = {False: 0, True: 0}
    seconds: dict[bool, float] = {False: 0.0, True: 0.0}
    server_cpu_s: dict[bool, float] = {False: 0.0, True: 0.0}
    for streams in [False, True] * ROUNDS:  # alternated, so drifting load weighs on both
        readers, tasks = await watch(bench, people) if streams else ([], [])
        spy = profile(player_pid, f"{count}-{'push' if streams else 'plain'}") if SPY_OUT else None
        cpu_before = process_cpu_s(player_pid), process_cpu_s(nats_pid)
        started = time.perf_counter()
        rate, done = await saturate(devices.plain_http_report, count, SATURATION_S, count)
        # read before waiting for py-spy, whose attach and exit are not the phase's
        seconds[streams] += time.perf_counter() - started
        player_s = process_cpu_s(player_pid) - cpu_before[0]
        nats_s = process_cpu_s(nats_pid) - cpu_before[1]
        if spy is not None:
            spy.wait()
        player_ms, nats_ms = player_s * 1000 / done, nats_s * 1000 / done
        reports[streams] += done
        server_cpu_s[streams] += player_s + nats_s
        pushed = sum(len(r.arrivals) - 1 for r in readers)
        await unwatch(readers, tasks)
        print(
            f"{count} devices, {'a push stream each' if streams else 'no push streams'}: "
            f"{rate:,.0f} reports/s ({done} reports, {pushed} pushes read), "
            f"CPU a report: player {player_ms:.3f} ms, nats-server {nats_ms:.3f} ms; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
    await devices.close()
    rates = {streams: reports[streams] / seconds[streams] for streams in (False, True)}
    cpu_ms = {streams: server_cpu_s[streams] * 1000 / reports[streams] for streams in (False, True)}
    return [
        Figure(f"player reports/s, {count} devices, no push streams", rates[False], "reports/s"),
        Figure(
            f"player reports/s, {count} devices, a push stream each",
            rates[True],
            "reports/s",
            floor=rates[False],
        ),
        Figure(
            f"server CPU a report (player + nats-server), {count} devices, a push stream each",
            cpu_ms[True],
            "ms",
            floor=cpu_ms[False],
        ),
    ]


def socket_write_floor_us(connections: int, rounds: int = 200) -> float:
    """CPU of one ``send`` of a state frame's size on each of ``connections`` loopback TCP
    sockets (this process, core 1): the least a push to one more device can cost."""
    frame = b"event: state\nid: 123456\ndata: " + b"x" * 300 + b"\n\n"
    server = socket.create_server(("127.0.0.1", 0))
    pairs = []
    for _ in range(connections):
        ours = socket.create_connection(server.getsockname())
        pairs.append((ours, server.accept()[0]))
    server.close()
    try:
        spent = 0.0
        for _ in range(rounds):
            started = time.thread_time()
            for ours, _theirs in pairs:
                ours.send(frame)
            spent += time.thread_time() - started
            for _ours, theirs in pairs:
                theirs.recv(65536)
        return spent * 1e6 / (rounds * connections)
    finally:
        for a, b in pairs:
            a.close()
            b.close()


async def main() -> None:
    pin(os.getpid(), LOAD_CORE)
    bench = await Bench().start()
    figures: list[Figure] = []
    try:
        assert bench.player is not None
        assert bench.server.process is not None
        player_pid, nats_pid = bench.player.pid, bench.server.process.pid
        pin(player_pid, SERVER_CORE)
        pin(nats_pid, SERVER_CORE)
        print(
            f"placement: player pid {player_pid} on core {placement(player_pid)}, "
            f"nats-server pid {nats_pid} on core {placement(nats_pid)}, "
            f"load generator pid {os.getpid()} on core {placement(os.getpid())}; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        _, ack = await floors(bench.nc)
        people = await bench.listeners(max(DEVICE_COUNTS), "fan")
        watched = await bench.listeners(1, "watched")
        for count in DEVICE_COUNTS:
            figures += await reports_with_and_without_pushes(bench, player_pid, nats_pid, people[:count])
        move_cpu_us: dict[int, float] = {}
        for count in WATCHER_COUNTS:
            latencies, move_cpu_us[count] = await push_latency(bench, player_pid, watched[0], count, ack)
            figures += latencies
        write_us = socket_write_floor_us(max(WATCHER_COUNTS))
        for count in WATCHER_COUNTS:
            if count >= FRAME_CPU_FROM:  # over a few devices more, the difference is noise
                frame_us = (move_cpu_us[count] - move_cpu_us[ISSUE_WATCHERS]) / (count - ISSUE_WATCHERS)
                name = f"player CPU a pushed frame (one more watcher), {count} watching"
                figures.append(Figure(name, frame_us, "us", floor=write_us))
        print(f"floor  one plain socket send of a frame, {write_us:.1f} us")
    finally:
        await bench.stop()
    report(figures)


if __name__ == "__main__":
    run(main())
