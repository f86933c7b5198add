"""find_passage over NATS (request to reply, the handler in this process) beside the
in-process floor (one query embedding + the vector search, same run), on Black Beauty.

    .venv/bin/python -m bench.search_find_latency
"""

import asyncio
import time

from bedside_contracts import subjects
from bedside_contracts.search import FindPassage, FoundPassages
from bedside_runtime.bus import Broker, call
from bedside_search.domain.terms import encode_query
from bedside_search.handlers import serve_search

from bench.report import Figure, latency_figures, percentile, report
from bench.search_common import black_beauty_bench

QUERIES = 500


async def main() -> None:
    async with black_beauty_bench(QUERIES) as bench:
        engine = bench.engine
        book = engine.book("black_beauty")
        for query in bench.queries[:20]:  # warm the model and the store
            await engine.find(FindPassage(book=book.id, here_ms=0, query=query))

        floor: list[float] = []
        for query in bench.queries:
            started = time.perf_counter()
            vector = engine.embedder.embed_query(query)
            await engine.store.search(book.collection, vector, encode_query(query), engine.depth)
            floor.append((time.perf_counter() - started) * 1000)

        server = Broker([bench.nats_url])
        await server.connect()
        await serve_search(server, engine)
        client = Broker([bench.nats_url])
        await client.connect()
        over_nats: list[float] = []
        here = bench.duration_ms // 2
        try:
            for query in bench.queries:
                started = time.perf_counter()
                request = FindPassage(book=book.id, here_ms=here, query=query)
                await call(client.connection, subjects.SEARCH_FIND, request, FoundPassages)
                over_nats.append((time.perf_counter() - started) * 1000)
        finally:
            await client.stop()
            await server.stop()

    report(
        [
            *latency_figures(
                "search find_passage over NATS", over_nats, floor, detail=f" ({QUERIES} queries, BB)"
            ),
            Figure("search floor in process (embed + search) p50", percentile(floor, 50), "ms"),
        ]
    )


if __name__ == "__main__":
    asyncio.run(main())
