"""The answer check (names and meaning) on Black Beauty, in process, beside its floor: the
query embedding of each sentence alone. Answers are three scripted replies of the
evaluation joined (3-4 sentences), the line at the first reply's chapter start.

    .venv/bin/python -m bench.search_check_latency
"""

import asyncio
import time

from bedside_contracts.search import CheckAnswer
from bedside_evaluation.check_replies import DEVELOPMENT, load_replies
from bedside_guard import sentences_of

from bench.report import Figure, latency_figures, percentile, report
from bench.search_common import BOOK, black_beauty_bench

ANSWERS = 100


async def main() -> None:
    replies = [r for b in load_replies(DEVELOPMENT).books if b.book == BOOK for r in b.replies]
    async with black_beauty_bench(1) as bench:
        engine = bench.engine
        book = engine.book(BOOK)
        answers = []
        for i in range(ANSWERS):
            picked = [replies[(3 * i + k) % len(replies)] for k in range(3)]
            start = book.first_of_chapter(picked[0].at)
            assert start is not None
            answers.append((start.start_ms, " ".join(r.text for r in picked)))
        for here_ms, answer in answers[:5]:
            await engine.check(CheckAnswer(book=BOOK, here_ms=here_ms, question="tell me", answer=answer))
        whole: list[float] = []
        names_only: list[float] = []
        floor: list[float] = []
        for here_ms, answer in answers:
            started = time.perf_counter()
            await engine.check(CheckAnswer(book=BOOK, here_ms=here_ms, question="tell me", answer=answer))
            whole.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            request = CheckAnswer(
                book=BOOK, here_ms=here_ms, question="tell me", answer=answer, from_model=False
            )
            await engine.check(request)
            names_only.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            for sentence in sentences_of(answer):
                engine.embedder.embed_query(sentence)
            floor.append((time.perf_counter() - started) * 1000)
    detail = f" ({ANSWERS} answers, BB)"
    report(
        [
            *latency_figures("search check, names and meaning, in process", whole, floor, detail=detail),
            Figure(f"search check, names only (keyless) p50{detail}", percentile(names_only, 50), "ms"),
        ]
    )


if __name__ == "__main__":
    asyncio.run(main())
