"""recall with the line as an engine-side bound (start_ms < here in every query), on Black
Beauty at random positions, beside find_passage (no bound) on the same queries in process.

    .venv/bin/python -m bench.search_recall_latency
"""

import asyncio
import random
import time

from bedside_contracts.search import FindPassage, Recall

from bench.report import Figure, latency_figures, report
from bench.search_common import black_beauty_bench

QUERIES = 200


async def main() -> None:
    async with black_beauty_bench(QUERIES) as bench:
        engine = bench.engine
        rng = random.Random(7)
        places = [rng.randrange(1, bench.duration_ms) for _ in bench.queries]
        for query in bench.queries[:10]:
            await engine.recall(Recall(book="black_beauty", here_ms=bench.duration_ms // 2, question=query))
        recall: list[float] = []
        find: list[float] = []
        came_up = 0
        for query, here in zip(bench.queries, places, strict=True):
            started = time.perf_counter()
            reply = await engine.recall(Recall(book="black_beauty", here_ms=here, question=query))
            recall.append((time.perf_counter() - started) * 1000)
            came_up += reply.come_up
            started = time.perf_counter()
            await engine.find(FindPassage(book="black_beauty", here_ms=here, query=query))
            find.append((time.perf_counter() - started) * 1000)
    report(
        [
            *latency_figures("search recall bounded, in process", recall, find, detail=f" ({QUERIES} q, BB)"),
            Figure("search recall answers that came up", 100 * came_up / len(recall), "%"),
        ]
    )


if __name__ == "__main__":
    asyncio.run(main())
