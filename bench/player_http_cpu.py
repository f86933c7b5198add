"""The player's CPU for one report over HTTP, beside the same report over the bus (the floor).

``.venv/bin/python -m bench.player_http_cpu [ROUNDS]``

One player, 50 devices on bare keep-alive sockets (``PlainHttp``: the cheapest load
generator, so the player is what is measured), in closed-loop saturations of 5 s that
alternate with the bus: plain, bus, plain, bus, ... plain (ROUNDS bus phases, 2 unless
given). Each line is the player's CPU (from /proc) over the reports acknowledged in that
phase; the figures are the medians. No httpx phase runs, so nothing but these reports has
touched the player since its warm-up.

Then the floor of what HTTP adds over the bus: the same requests, from the same kind of
client, to uvicorn as the player runs it answering fixed bytes (``bench.bare_http``), in as
many phases as the plain ones; its CPU per request from /proc.
"""

import asyncio
import os
import statistics
import sys

from bedside_runtime.nats_server import free_port

from bench import bare_http
from bench.player_common import Bench, PlainDevices, Send, saturate
from bench.player_reports import LISTENERS, WORKERS, Devices
from bench.processes import process_cpu_s
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


async def bare_phases(people: list[tuple[str, str]], phases: int) -> list[tuple[float, float]]:
    """(requests per second, server CPU ms per request) of each saturation of a bare uvicorn."""
    port = free_port()
    server = bare_http.spawn(port)
    devices = PlainDevices(port, people)  # the bare server acknowledges every report alike
    measured = []
    try:
        for _ in range(100):
            try:
                await devices.plain_http_report(0)
                break
            except OSError:
                await asyncio.sleep(0.1)
        for i in range(LISTENERS):
            await devices.plain_http_report(i)
        for _ in range(phases):
            cpu_before = process_cpu_s(server.pid)
            rate, requests = await saturate(devices.plain_http_report, WORKERS, SATURATION_S, LISTENERS)
            cpu_ms = (process_cpu_s(server.pid) - cpu_before) * 1000 / requests
            print(f"bare  {rate:7,.0f} requests/s  server CPU {cpu_ms:.3f} ms a request")
            measured.append((rate, cpu_ms))
    finally:
        await devices.close()
        server.terminate()
        server.wait(10)
    return measured


async def main() -> None:
    bench = await Bench().start()
    plain: list[tuple[float, float]] = []
    bus: list[tuple[float, float]] = []
    try:
        people = await bench.listeners(LISTENERS)
        devices = Devices(bench, people)
        for i in range(LISTENERS):  # every projection, token cache and connection exists
            await devices.plain_http_report(i)
        for _ in range(ROUNDS):
            plain.append(await phase(bench, "plain", devices.plain_http_report))
            bus.append(await phase(bench, "bus", devices.bus_report))
        plain.append(await phase(bench, "plain", devices.plain_http_report))
        await devices.close()
    finally:
        await bench.stop()
    bare = await bare_phases(people, len(plain))

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
            Figure(
                "player CPU that HTTP adds to a report (medians: plain sockets less the bus)",
                median(plain, 1) - median(bus, 1),
                "ms",
                floor=median(bare, 1),
            ),
            Figure(f"bare uvicorn CPU per request, median of {len(bare)} (the floor)", median(bare, 1), "ms"),
        ]
    )


if __name__ == "__main__":
    run(main())
