"""The player's CPU for one report over HTTP, beside the same report over the bus (the floor).

``.venv/bin/python -m bench.player_http_cpu [ROUNDS]``

One player, 50 devices on bare keep-alive sockets (``PlainHttp``: the cheapest load
generator, so the player is what is measured), in closed-loop saturations of 5 s that
alternate with the bus: plain, bus, plain, bus, ... plain (ROUNDS bus phases, 2 unless
given). Each line is the player's CPU (from /proc) over the reports acknowledged in that
phase; the figures are the medians. No httpx phase runs, so nothing but these reports has
touched the player since its warm-up.
"""

import os
import statistics
import sys

from bench.player_common import Bench
from bench.player_reports import LISTENERS, WORKERS, Devices, Send, saturate
from bench.report import Figure, report, run

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
SATURATION_S = 5


async def phase(bench: Bench, label: str, send: Send) -> tuple[float, float]:
    """(reports per second, player CPU ms per report) of one saturation."""
    cpu_before = bench.player_cpu_s()
    rate, reports = await saturate(send, WORKERS, SATURATION_S, LISTENERS)
    cpu_ms = (bench.player_cpu_s() - cpu_before) * 1000 / reports
    load = os.getloadavg()[0]
    print(f"{label:5} {rate:7,.0f} reports/s  player CPU {cpu_ms:.3f} ms a report  load {load:.1f}")
    return rate, cpu_ms


async def main() -> None:
    bench = await Bench().start()
    plain: list[tuple[float, float]] = []
    bus: list[tuple[float, float]] = []
    try:
        devices = Devices(bench, await bench.listeners(LISTENERS))
        for i in range(LISTENERS):  # every projection, token cache and connection exists
            await devices.plain_http_report(i)
        for _ in range(ROUNDS):
            plain.append(await phase(bench, "plain", devices.plain_http_report))
            bus.append(await phase(bench, "bus", devices.bus_report))
        plain.append(await phase(bench, "plain", devices.plain_http_report))
        await devices.close()
    finally:
        await bench.stop()

    def median(values: list[tuple[float, float]], i: int) -> float:
        return statistics.median(v[i] for v in values)

    report(
        [
            Figure(
                f"player CPU per report over HTTP, plain sockets, median of {len(plain)}",
                median(plain, 1),
                "ms",
                floor=median(bus, 1),
            ),
            Figure(
                f"player saturation over HTTP, {WORKERS} devices on plain sockets",
                median(plain, 0),
                "reports/s",
                floor=median(bus, 0),
            ),
            Figure(f"player CPU per report over the bus, median of {len(bus)}", median(bus, 1), "ms"),
        ]
    )


if __name__ == "__main__":
    run(main())
