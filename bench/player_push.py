"""Move -> push latency with three devices listening over SSE, beside the bus floors.

A fourth device seeks (a move) every 50 ms; each of three devices holds
GET .../events open. Latency is from sending the seek until a device has read the state
with that sequence. ``.venv/bin/python -m bench.player_push``
"""

import asyncio
import time

import httpx
from bedside_player_testing import pushed_states

from bench.player_common import Bench, floors, ratio, summary
from bench.report import Figure, latency_figures, report, run

MOVES = 300
LISTENING = 3


async def listen(
    client: httpx.AsyncClient, path: str, arrived: dict[int, float], ready: asyncio.Event
) -> None:
    async with client.stream("GET", path) as response:
        async for state in pushed_states(response.aiter_lines()):
            arrived.setdefault(state["seq"], time.perf_counter())
            ready.set()


async def main() -> None:
    bench = await Bench().start()
    figures: list[Figure] = []
    try:
        rr, ack = await floors(bench.nc)
        ((name, token),) = await bench.listeners(1, "push")
        headers = {"Authorization": f"Bearer {token}"}
        path = f"/api/listeners/{name}/books/b1"
        mover = httpx.AsyncClient(base_url=bench.url, headers=headers, timeout=30)
        basis = (
            await mover.post(
                path + "/reports", json={"device": "m", "position_ms": 1, "playing": True, "basis_seq": 0}
            )
        ).json()["seq"]
        arrivals: list[dict[int, float]] = [{} for _ in range(LISTENING)]
        readies = [asyncio.Event() for _ in range(LISTENING)]
        listeners = [
            httpx.AsyncClient(base_url=bench.url, headers=headers, timeout=None) for _ in range(LISTENING)
        ]
        tasks = [
            asyncio.create_task(listen(c, path + "/events", arrived, ready))
            for c, arrived, ready in zip(listeners, arrivals, readies, strict=True)
        ]
        await asyncio.gather(*(r.wait() for r in readies))
        sent: dict[int, float] = {}
        for n in range(MOVES):
            started = time.perf_counter()
            body = {"device": "m", "position_ms": 1_000_000 + n * 1_000, "basis_seq": basis}
            response = await mover.post(path + "/seek", json=body)
            basis = response.json()["seq"]
            sent[basis] = started
            await asyncio.sleep(0.05)
        await asyncio.sleep(1)
        latencies = [
            (arrived[seq] - at) * 1000 for seq, at in sent.items() for arrived in arrivals if seq in arrived
        ]
        missing = len(sent) * LISTENING - len(latencies)
        print(
            f"move->push, {LISTENING} SSE devices, {MOVES} moves: {summary(latencies)}, {missing} not seen; "
            f"vs request-reply floor p50 {ratio(latencies, rr, 50)}, p95 {ratio(latencies, rr, 95)}; "
            f"vs publish-ack floor p95 {ratio(latencies, ack, 95)}"
        )
        figures = latency_figures(
            "player move->push", latencies, rr, detail=f", {LISTENING} SSE devices, {MOVES} moves"
        )
        figures.append(Figure("player moves a device never saw", missing, "pushes"))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in [mover, *listeners]:
            await client.aclose()
    finally:
        await bench.stop()
    report(figures)


if __name__ == "__main__":
    run(main())
