"""With a scripted model: what one tool round costs the turn, beside the tool call itself.

A real nats-server, the turn service in this process with search and player doubles on
the bus, and a scripted stand-in for Claude that answers at once. Three kinds of turn:
no tool (the model just speaks), one find_passage round, and two rounds (find_passage
then offer_positions as a list). "One tool round" is the difference between the first
two; "the tool call itself" is the same FindPassage request sent directly over the bus
in the same run. What is left is the loop's own work: building the request (prompt,
schemas, history), validating arguments, formatting and recording the result.

Run: ``.venv/bin/python -m bench.turn_scripted [turns]``.
"""

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bedside_contracts import subjects
from bedside_contracts.search import FindPassage, FoundPassages
from bedside_runtime.bus import call
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from bedside_turn_testing.book import BOOK_ID
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.scripted import Say, Use

from bench.report import Figure, percentile, report
from bench.turn_common import summary

HERE = 135_000
QUERY = "the tunnel lined with bottles"


async def timed_turn(rig: Rig, listener: str, script: list[object]) -> float:
    assert rig.slot is not None
    rig.slot.load(list(script))
    rig.player.place(listener, BOOK_ID, HERE)
    started = time.perf_counter()
    reply = await rig.ask(listener, "the tunnel with bottles")
    took = (time.perf_counter() - started) * 1000
    assert reply.mode == "claude-haiku-4-5"
    return took


async def main(turns: int) -> None:
    store = Path(tempfile.mkdtemp(prefix="bedside-bench-nats-"))
    server = NatsServer(NatsServerConfig(store_dir=store, port=free_port(), monitor_port=free_port())).start()
    rig = await start_rig(server.url, with_model=True)
    try:
        listener = rig.listener_at(HERE)
        scripts: dict[str, list[object]] = {
            "no tool": [[Say("Hello.")]],
            "one round": [[Use("find_passage", {"query": QUERY})], [Say("Found it.")]],
            "two rounds": [
                [Use("find_passage", {"query": QUERY})],
                [Use("offer_positions", {"ids": [106, 107]})],
                [Say("Two places are on the screen.")],
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in scripts}
        direct: list[float] = []
        request = FindPassage(book=BOOK_ID, here_ms=HERE, query=QUERY)
        for n in range(turns + 20):
            for name, script in scripts.items():
                took = await timed_turn(rig, listener, script)
                if n >= 20:
                    times[name].append(took)
            started = time.perf_counter()
            await call(rig.broker.connection, subjects.SEARCH_FIND, request, FoundPassages)
            if n >= 20:
                direct.append((time.perf_counter() - started) * 1000)
        for name, values in times.items():
            print(f"turn, {name:<11} {summary(values)}")
        round_cost = [a - b for a, b in zip(times["one round"], times["no tool"], strict=True)]
        print(f"one tool round (one round - no tool)   {summary(round_cost)}")
        print(f"the tool call itself (FindPassage)     {summary(direct)}")
        loop = [r - d for r, d in zip(round_cost, direct, strict=True)]
        print(f"the loop's own share of a round        {summary(loop)}")
        print()
        report(
            [
                Figure(
                    f"turn scripted: one tool round p50 ({turns} turns)",
                    percentile(round_cost, 50),
                    "ms",
                    floor=percentile(direct, 50),
                )
            ]
        )
    finally:
        await rig.broker.stop()
        server.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
