"""What looking at the leases' trust costs a player: its idle CPU, and a report over the bus.

``.venv/bin/python -m bench.player_trust_check [BASE_REV] [ROUNDS]``

Two players, one at a time on one bus (each owns all 64 partitions while it runs): A is the
player of ``BASE_REV`` (``main`` unless given; ``git archive`` of its ``services/player/src``
put first on ``PYTHONPATH``), B is this tree's. They alternate A B, B A, A B ..., ROUNDS pairs
(3 unless given), so that neither always runs first. In each turn the player settles, then
sits idle for ``IDLE_S`` (its CPU: renewals, the watcher, and whatever looks at the trust),
then answers ``REPORTS`` reports over the bus one after another (each report's round trip, and
the player's CPU a report). CPU is the scheduler's nanosecond count of every thread. Medians
of the turns, and B / A.
"""

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bedside_contracts import subjects
from bedside_contracts.player import CommandRequest, Report

from bench.player_common import Bench, spawn_player
from bench.report import Figure, percentile, report, run

BASE_REV = sys.argv[1] if len(sys.argv) > 1 else "main"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
SETTLE_S = 5.0
IDLE_S = 30.0
REPORTS = 2000
LISTENERS = 20
REPO = Path(__file__).resolve().parents[1]


def cpu_s(pid: int) -> float:
    """CPU seconds of every thread of a process, from the scheduler's nanosecond count
    (``/proc/PID/task/*/schedstat``): the tick count of ``/proc/PID/stat`` is 10 ms, as coarse as
    the difference measured here."""
    return (
        sum(int(task.read_text().split()[0]) for task in Path(f"/proc/{pid}/task").glob("*/schedstat")) / 1e9
    )


class Devices:
    """One device per listener reporting over the bus (PLAYER_COMMAND), each on its last ack."""

    def __init__(self, bench: Bench, people: list[tuple[str, str]]) -> None:
        self.bench = bench
        self.names = [name for name, _ in people]
        self.basis = [0] * len(people)
        self.position = [0] * len(people)

    async def bus_report(self, i: int) -> float:
        """Device ``i``'s next report, a second further on; its round trip in ms."""
        self.position[i] += 1000
        command = Report(device="d", position_ms=self.position[i], playing=True, basis_seq=self.basis[i])
        data = CommandRequest(listener=self.names[i], book="b1", command=command).model_dump_json().encode()
        started = time.perf_counter()
        reply = await self.bench.nc.request(subjects.PLAYER_COMMAND, data, timeout=30)
        elapsed = (time.perf_counter() - started) * 1000
        result = json.loads(reply.data)
        if not result.get("accepted"):
            raise RuntimeError(reply.data)
        self.basis[i] = max(self.basis[i], result["seq"])
        return elapsed


def base_player_source(rev: str) -> Path:
    """The player package of ``rev``, unpacked in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="bedside-bench-base-player-"))
    archive = subprocess.run(
        ["git", "archive", rev, "services/player/src"], cwd=REPO, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "services" / "player" / "src"


Turn = tuple[float, float, float]


async def turn(bench: Bench, devices: Devices, label: str, pythonpath: str | None) -> Turn:
    """(idle CPU ms a second, report round trip p50 ms, player CPU ms a report) of one player."""
    env = {
        **os.environ,
        "NATS_URL": bench.server.url,
        "BEDSIDE_DATA_DIR": str(bench.data_dir),
        "BEDSIDE_HTTP_PORT": str(bench.port),
        "BEDSIDE_LOG_FORMAT": "json",
        "BEDSIDE_LOG_LEVEL": "warning",
    }
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    bench.player = spawn_player(env, bench.data_dir / f"player-{label}.log")
    try:
        await bench.wait_http()
        for i in range(LISTENERS):  # every projection loaded, the path warm
            await devices.bus_report(i)
        await asyncio.sleep(SETTLE_S)
        cpu, wall = cpu_s(bench.player.pid), time.monotonic()
        await asyncio.sleep(IDLE_S)
        idle_ms_s = (cpu_s(bench.player.pid) - cpu) * 1000 / (time.monotonic() - wall)
        cpu = cpu_s(bench.player.pid)
        trips = [await devices.bus_report(i % LISTENERS) for i in range(REPORTS)]
        report_cpu_ms = (cpu_s(bench.player.pid) - cpu) * 1000 / REPORTS
    finally:
        bench.player.terminate()
        bench.player.wait(20)
        bench.player = None
    p50 = percentile(trips, 50)
    load = os.getloadavg()[0]
    print(
        f"{label}  idle {idle_ms_s:6.2f} ms CPU a second  report p50 {p50:.2f} ms  "
        f"CPU {report_cpu_ms:.3f} ms a report  load {load:.1f}",
        flush=True,
    )
    return idle_ms_s, p50, report_cpu_ms


async def main() -> None:
    base = base_player_source(BASE_REV)
    print(
        f"A: the player of {BASE_REV} ({base}); B: this tree's. {time.strftime('%H:%M UTC', time.gmtime())}"
    )
    bench = await Bench().start(player=False)
    measured: dict[str, list[Turn]] = {"A": [], "B": []}
    try:
        people = await bench.listeners(LISTENERS)
        devices = Devices(bench, people)
        for round_ in range(ROUNDS):
            order = ("A", "B") if round_ % 2 == 0 else ("B", "A")  # A B B A ...: neither always goes first
            for label in order:
                measured[label].append(await turn(bench, devices, label, str(base) if label == "A" else None))
    finally:
        await bench.stop()
    medians = {
        label: [statistics.median(turn[k] for turn in turns) for k in range(3)]
        for label, turns in measured.items()
    }
    (a_idle, a_p50, a_cpu), (b_idle, b_p50, b_cpu) = medians["A"], medians["B"]
    print(
        f"medians: idle A {a_idle:.2f} B {b_idle:.2f} ms/s (B/A {b_idle / a_idle:.2f}); "
        f"report p50 A {a_p50:.2f} B {b_p50:.2f} ms (B/A {b_p50 / a_p50:.2f}); "
        f"CPU a report A {a_cpu:.3f} B {b_cpu:.3f} ms (B/A {b_cpu / a_cpu:.2f})"
    )
    report(
        [
            Figure("player idle CPU, trust on a timer (B)", b_idle, "ms/s", floor=a_idle, floor_unit="ms/s"),
            Figure("player report p50 over the bus (B)", b_p50, "ms", floor=a_p50, floor_unit="ms"),
            Figure("player CPU a report (B)", b_cpu, "ms", floor=a_cpu, floor_unit="ms"),
        ]
    )


if __name__ == "__main__":
    run(main())
