"""Measure the keyless router's score threshold on real search over real books.

For every navigation query of the search evaluation sets (a sleepy listener's "take me
to ..." with the chapter that answers it) and for a set of requests for moments that are
in none of these books, ask the real search service (one bus, real embeddings) and see
which hits the router would offer at each threshold: a hit is offered when its score is
at least the threshold, best first, at most four.

A good threshold offers a right chapter for most navigation queries and offers nothing
for most absent moments. Run: ``.venv/bin/python -m bench.turn_threshold``.
"""

import asyncio
from dataclasses import dataclass

from bedside_contracts import subjects
from bedside_contracts.search import FindPassage, FoundPassages
from bedside_evaluation import query_sets

from bench.turn_common import CORPUS, System

ABSENT = (
    "take me to where the dragon burns down the castle",
    "the part where they board the spaceship",
    "go back to when the detective gets a text message on his phone",
    "where the wizard casts the spell on the prince",
    "the bit where the submarine dives under the ice",
    "when the robot learns to love",
    "take me to the wedding on the beach in Hawaii",
    "the scene at the airport with the lost passport",
    "where the pirates bury the treasure chest",
    "the zombie attack at the shopping mall",
    "when they play football at the world cup final",
    "the part where the vampire bites the teacher",
    "go to where the astronaut walks on the moon",
    "the bit with the cat who can talk and grants wishes",
    "where the twins win the lottery",
    "take me to the video game tournament",
)
MAX_ROWS = 4


@dataclass
class Ranked:
    chapters: list[int]
    scores: list[float]
    wanted: tuple[int, ...]


def offered(ranked: Ranked, threshold: float) -> list[int]:
    return [c for c, s in zip(ranked.chapters, ranked.scores, strict=True) if s >= threshold][:MAX_ROWS]


async def rank(system: System, book: str, here_ms: int, text: str, wanted: tuple[int, ...]) -> Ranked:
    request = FindPassage(book=book, here_ms=here_ms, query=text)
    found = FoundPassages.model_validate(await system.request(subjects.SEARCH_FIND, request.model_dump()))
    return Ranked([h.chapter for h in found.hits], [h.score for h in found.hits], wanted)


async def main() -> None:
    system = await System(services=("search", "ingest")).start()
    try:
        navigation: list[Ranked] = []
        absent: list[Ranked] = []
        for query_set in query_sets():
            path = CORPUS / f"{query_set.book}.json"
            if not path.exists():
                print(f"skip {query_set.book}: {path} is absent")
                continue
            info = await system.book(query_set.book, path)
            here = info.duration_ms
            navigation += [await rank(system, info.id, here, q.text, q.chapters) for q in query_set.queries]
            absent += [await rank(system, info.id, here, text, ()) for text in ABSENT]
            print(f"{query_set.book}: {info.passages} passages, {len(query_set.queries)} queries")
        right_top = [r.scores[0] for r in navigation if r.chapters and r.chapters[0] in r.wanted]
        wrong_top = [r.scores[0] for r in navigation if r.chapters and r.chapters[0] not in r.wanted]
        absent_top = [r.scores[0] for r in absent if r.scores]
        for name, values in (
            ("top hit right", right_top),
            ("top hit wrong", wrong_top),
            ("absent", absent_top),
        ):
            ordered = sorted(values)
            if ordered:
                middle = ordered[len(ordered) // 2]
                low, high = ordered[0], ordered[-1]
                print(f"{name:<14} n={len(ordered):3d} min {low:.4f} median {middle:.4f} max {high:.4f}")
        every_score = sorted({s for r in navigation + absent for s in r.scores})
        grid = sorted({round(s, 4) for s in every_score[:: max(1, len(every_score) // 40)]})
        print("\nthreshold  nav:right-offered  nav:nothing  offered-precision  absent:nothing")
        for t in grid:
            rows = [offered(r, t) for r in navigation]
            right = sum(any(c in r.wanted for c in o) for r, o in zip(navigation, rows, strict=True))
            nothing = sum(not o for o in rows)
            shown = [(c, r.wanted) for r, o in zip(navigation, rows, strict=True) for c in o]
            precision = sum(c in w for c, w in shown) / len(shown) if shown else 0.0
            silent = sum(not offered(r, t) for r in absent)
            print(
                f"{t:9.4f}  {right / len(navigation):17.2f}  {nothing / len(navigation):11.2f}  "
                f"{precision:17.2f}  {silent / len(absent):14.2f}"
            )
    finally:
        await system.stop()


if __name__ == "__main__":
    asyncio.run(main())
