"""Move -> push latency with three devices listening over SSE, beside the bus floors.

A fourth device seeks (a move), pausing 50 ms after each reply; each of three devices holds
GET .../events open. Latency is from sending the seek until a device has read the state
with that sequence (or a later one). The seek and the three streams are bare asyncio sockets
(``PlainHttp``, ``PlainEventStream``), so that the figure is the player's, not an HTTP
client's (ADR 79). ``.venv/bin/python -m bench.player_push``

Issue 16's figure is the push p95 over the JetStream publish-ack p95 asked back to back. Beside
it, the same publish-ack paced as the moves are (a pause of 50 ms after each ack, as many as
there are moves): a machine idle between moves wakes every process on the path for each one,
and the back-to-back floor never idles.
"""

from bench.player_common import (
    Bench,
    floor_publish_ack,
    floors,
    moves_to_watchers,
    summary,
    unwatch,
    watch,
)
from bench.report import Figure, latency_figures, percentile, report, run

MOVES = 300
LISTENING = 3
MOVE_EVERY_S = 0.05


async def main() -> None:
    bench = await Bench().start()
    figures: list[Figure] = []
    try:
        rr, ack = await floors(bench.nc)
        paced = await floor_publish_ack(bench.nc, MOVES, every_s=MOVE_EVERY_S)
        print(f"floor  JetStream publish ack, one per {MOVE_EVERY_S * 1000:.0f} ms  {summary(paced)}")
        watched = await bench.listeners(1, "push")
        readers, tasks = await watch(bench, watched * LISTENING)
        latencies, _, missing, covered = await moves_to_watchers(
            bench, watched[0], readers, MOVES, MOVE_EVERY_S
        )
        await unwatch(readers, tasks)
        push_p95 = percentile(latencies, 95)
        print(
            f"move->push, {LISTENING} SSE devices, {MOVES} moves: {summary(latencies)}, {missing} not seen, "
            f"{covered} seen only in a later move's state; "
            f"p95 over publish-ack p95: back to back {push_p95 / percentile(ack, 95):.2f}x (issue 16's), "
            f"paced {push_p95 / percentile(paced, 95):.2f}x; over request-reply p95 "
            f"{push_p95 / percentile(rr, 95):.1f}x"
        )
        detail = f", {LISTENING} SSE devices, {MOVES} moves"
        paced_ms = f"{MOVE_EVERY_S * 1000:.0f}"
        figures = latency_figures("player move->push", latencies, ack, detail=detail)
        figures.append(
            Figure(
                f"player move->push p95 (floor: publish-ack paced one per {paced_ms} ms){detail}",
                push_p95,
                "ms",
                floor=percentile(paced, 95),
            )
        )
        figures.append(Figure("player moves a device never saw", missing, "pushes"))
        figures.append(Figure("player moves a device saw only in a later move's state", covered, "pushes"))
    finally:
        await bench.stop()
    report(figures)


if __name__ == "__main__":
    run(main())
