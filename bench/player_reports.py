"""Report -> ack latency at 100 and 1,000 reports/s (or the rates given as arguments);
saturation of one player instance.

Both over HTTP (what a device does) and over the bus (PLAYER_COMMAND). The floor of a bus
figure is a bare nats-py request-reply in the same run; the floor of an HTTP figure is the
same report over the bus in the same run. ``.venv/bin/python -m bench.player_reports``

Each simulated device has its own HTTP client and connection, as real devices do. Until
2026-11-30 all fifty shared one ``httpx.AsyncClient``; with fifty requests in flight its
connection pool (httpcore's ``_assign_requests_to_connections`` counts the idle
connections once per connection, on every request and every response) cost this process
about 9 ms of CPU per report, against about 2 ms with one client per device, on the same
two cores as the player. That load generator, not the player, was the "69 reports/s". The
saturation line with one shared client is still printed, so every run shows the difference.
Even a client per device costs about as much CPU as the player's own work for a report, so
the saturation is also measured on bare keep-alive sockets (about 0.2 ms a report): that
line is the player's HTTP capacity, the httpx lines are what those clients can drive.
"""

import asyncio
import json
import os
import sys
import time

import httpx
from bedside_contracts import subjects
from bedside_contracts.player import CommandRequest, Report

from bench.player_common import Bench, PlainDevices, Send, floors, ratio, saturate, summary
from bench.report import Figure, latency_figures, percentile, report, run

RATES = [int(r) for r in sys.argv[1:]] or [100, 1000]
WORKERS = 50
SECONDS = 3
LISTENERS = 50
SATURATION_S = 5
KEEPALIVE_S = 2.0
"""Below uvicorn's 5 s keep-alive, so a client never reuses a connection the server is closing."""


class Devices(PlainDevices):
    """The plain-socket devices, which also report over httpx and over the bus (one basis for all)."""

    def __init__(self, bench: Bench, people: list[tuple[str, str]]) -> None:
        super().__init__(bench.port, people)
        self.bench = bench
        self.clients = [
            httpx.AsyncClient(
                base_url=bench.url,
                limits=httpx.Limits(max_connections=1, keepalive_expiry=KEEPALIVE_S),
                timeout=60,
            )
            for _ in people
        ]
        self.shared = httpx.AsyncClient(
            base_url=bench.url,
            limits=httpx.Limits(
                max_connections=200, max_keepalive_connections=200, keepalive_expiry=KEEPALIVE_S
            ),
            timeout=60,
        )

    async def _post(self, client: httpx.AsyncClient, i: int) -> float:
        name, token = self.people[i]
        body = self.next_report(i)
        started = time.perf_counter()
        response = await client.post(
            f"/api/listeners/{name}/books/b1/reports", json=body, headers={"Authorization": f"Bearer {token}"}
        )
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise RuntimeError(response.text)
        self.acknowledged(i, response.json()["seq"])
        return elapsed

    async def http_report(self, i: int) -> float:
        """A report from device ``i`` on its own client."""
        return await self._post(self.clients[i], i)

    async def shared_http_report(self, i: int) -> float:
        """The same report through one client that every device shares (the old generator)."""
        return await self._post(self.shared, i)

    async def bus_report(self, i: int) -> float:
        name, _ = self.people[i]
        command = Report.model_validate(self.next_report(i))
        data = CommandRequest(listener=name, book="b1", command=command).model_dump_json().encode()
        started = time.perf_counter()
        reply = await self.bench.nc.request(subjects.PLAYER_COMMAND, data, timeout=30)
        elapsed = (time.perf_counter() - started) * 1000
        result = json.loads(reply.data)
        if not result.get("accepted"):
            raise RuntimeError(reply.data)
        self.acknowledged(i, result["seq"])
        return elapsed

    async def close(self) -> None:
        for client in [*self.clients, self.shared]:
            await client.aclose()
        await super().close()


async def paced(send: Send, rate: int, seconds: int, people: int) -> tuple[list[float], float, int]:
    """Open loop: a report every 1/rate s whatever the answers; latency from send to ack.

    Returns the latencies of acknowledged reports, the rate actually offered, and failures.
    """
    interval = 1 / rate
    start = time.perf_counter()
    tasks = []
    for n in range(rate * seconds):
        delay = start + n * interval - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(send(n % people)))
    offered = rate * seconds / (time.perf_counter() - start)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    samples = [r for r in results if isinstance(r, float)]
    return samples, offered, len(results) - len(samples)


async def main() -> None:
    bench = await Bench().start()
    figures: list[Figure] = []
    try:
        rr, ack = await floors(bench.nc)
        devices = Devices(bench, await bench.listeners(LISTENERS))
        for i in range(LISTENERS):  # warm up: every projection, token cache and connection exists
            await devices.http_report(i)
            await devices.shared_http_report(i)
        rates: dict[str, float] = {}
        cpu_ms: dict[str, float] = {}
        cores: dict[str, float] = {}
        for label, send in (
            ("bus", devices.bus_report),
            ("http", devices.http_report),
            ("http, one shared httpx client", devices.shared_http_report),
            ("http, plain sockets", devices.plain_http_report),
        ):
            cpu_before = bench.player_cpu_s()
            split_before = (bench.nats_cpu_s(), time.process_time(), time.perf_counter())
            rates[label], reports = await saturate(send, WORKERS, SATURATION_S, LISTENERS)
            player_s = bench.player_cpu_s() - cpu_before
            cpu_ms[label] = player_s * 1000 / reports
            nats_s, generator_s, wall_s = (
                now - before
                for now, before in zip(
                    (bench.nats_cpu_s(), time.process_time(), time.perf_counter()), split_before, strict=True
                )
            )
            cores[label] = (player_s + nats_s + generator_s) / wall_s
            print(
                f"{label} saturation, one player, {WORKERS} concurrent devices: "
                f"{rates[label]:,.0f} reports/s, player CPU {cpu_ms[label]:.3f} ms a report; cores busy: "
                f"player {player_s / wall_s:.2f}, nats-server {nats_s / wall_s:.2f}, "
                f"load generator {generator_s / wall_s:.2f}"
            )
        bus_rate = rates["bus"]
        figures += [
            Figure(f"player saturation over the bus, {WORKERS} devices", bus_rate, "reports/s"),
            Figure("player CPU per report at saturation over the bus", cpu_ms["bus"], "ms"),
            # below the machine's cores, the rate is held by a wait (the stream's writes), not by CPU
            Figure(
                "cores busy at bus saturation (player, nats-server, load generator)",
                cores["bus"],
                "cores",
                floor=os.cpu_count() or 1,
                floor_unit="cores",
            ),
            Figure(
                "player CPU per report at saturation over HTTP, plain sockets",
                cpu_ms["http, plain sockets"],
                "ms",
                floor=cpu_ms["bus"],
            ),
            Figure(
                f"player saturation over HTTP, {WORKERS} devices (a client each)",
                rates["http"],
                "reports/s",
                floor=bus_rate,
            ),
            Figure(
                f"player saturation over HTTP, {WORKERS} devices sharing one httpx client",
                rates["http, one shared httpx client"],
                "reports/s",
                floor=bus_rate,
            ),
            Figure(
                f"player saturation over HTTP, {WORKERS} devices on plain keep-alive sockets",
                rates["http, plain sockets"],
                "reports/s",
                floor=bus_rate,
            ),
        ]
        for rate in RATES:
            measured: dict[str, list[float]] = {}
            for label, send in (
                ("bus ", devices.bus_report),
                ("http", devices.http_report),
                ("http, plain sockets", devices.plain_http_report),
            ):
                samples, offered, failed = await paced(send, rate, SECONDS, LISTENERS)
                measured[label.strip()] = samples
                print(
                    f"{label} report->ack at {rate}/s (offered {offered:.0f}/s, {failed} failed)  "
                    f"{summary(samples)}  "
                    f"vs request-reply floor p50 {ratio(samples, rr, 50)}, p95 {ratio(samples, rr, 95)}; "
                    f"vs publish-ack floor p50 {ratio(samples, ack, 50)}"
                )
            bus, http, plain = measured["bus"], measured["http"], measured["http, plain sockets"]
            every = (50, 95, 99)
            figures += latency_figures(
                f"player report->ack over the bus at {rate}/s", bus, rr, percentiles=every
            )
            figures += latency_figures(
                f"player report->ack over HTTP at {rate}/s", http, bus, detail=" (floor: the bus)"
            )
            # the client costs the load generator far less CPU than httpx, so at 1,000/s on two
            # shared cores this line, not the httpx one, is the player's
            figures += latency_figures(
                f"player report->ack over HTTP, plain sockets, at {rate}/s",
                plain,
                bus,
                detail=" (floor: the bus)",
                percentiles=every,
            )
        print(
            f"(floors p50: request-reply {percentile(rr, 50):.2f} ms, "
            f"publish ack {percentile(ack, 50):.2f} ms)"
        )
        figures.append(Figure("nats-py request-reply p50 (floor)", percentile(rr, 50), "ms"))
        await devices.close()
    finally:
        await bench.stop()
    report(figures)


if __name__ == "__main__":
    run(main())
