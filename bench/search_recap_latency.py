"""recap on Black Beauty in process: a chapter's span (what "the last chapter" asks for) and the
story so far from random places, each beside its floor, embedding the same candidate sentences
alone (what the recap cannot do without), measured in the same run.

    .venv/bin/python -m bench.search_recap_latency
"""

import asyncio
import random
import time

from bedside_contracts.search import Recap
from bedside_search.domain import recap as recaps

from bench.report import Figure, latency_figures, report
from bench.search_common import black_beauty_bench

CHAPTER_SPANS = 40
SO_FAR_SPANS = 20
MAX_WORDS = 70


async def main() -> None:
    async with black_beauty_bench(1) as bench:
        engine = bench.engine
        book = engine.book("black_beauty")
        rng = random.Random(13)
        chapters = book.info.chapters
        spans = [(c.start_ms, c.end_ms, c.end_ms) for c in rng.sample(chapters, CHAPTER_SPANS)]
        so_far = [
            (0, here, here) for here in (rng.randrange(1, bench.duration_ms) for _ in range(SO_FAR_SPANS))
        ]
        engine.recap(Recap(book=book.id, here_ms=bench.duration_ms, from_ms=0, to_ms=600_000))  # warm up
        figures: list[Figure] = []
        for name, chosen in (("chapter", spans), ("story so far", so_far)):
            took: list[float] = []
            floor: list[float] = []
            sentences: list[int] = []
            for from_ms, to_ms, here in chosen:
                request = Recap(book=book.id, here_ms=here, from_ms=from_ms, to_ms=to_ms, max_words=MAX_WORDS)
                started = time.perf_counter()
                engine.recap(request)
                took.append((time.perf_counter() - started) * 1000)
                span = recaps.clamp_span(from_ms, to_ms, here)
                candidates = recaps.recap_candidates(recaps.span_sentences(book.passages, span, here))
                sentences.append(len(candidates))
                started = time.perf_counter()
                engine.embedder.embed_passages([s.text for s in candidates])
                floor.append((time.perf_counter() - started) * 1000)
            detail = f" ({len(chosen)} spans, BB; floor: embedding its sentences alone)"
            figures += latency_figures(f"search recap, {name}, in process", took, floor, detail=detail)
            figures.append(
                Figure(
                    f"search recap, {name}: sentences embedded, mean",
                    sum(sentences) / len(sentences),
                    "sentences",
                )
            )
    report(figures)


if __name__ == "__main__":
    asyncio.run(main())
