"""Measure how the keyless turn finds a moment the listener asks to go back to.

For every navigation query of the evaluation sets, the listener is placed past the chapters
that answer it (five chapters on, and halfway from there to the end), and the turn's way of
going back is asked of the real search service, two ways in the same run:

- whole book: one find over the whole book, then the hits that pass ``MIN_SCORE``, those
  behind the line when any are (``routing.plausible_ids``), as the turn did before;
- heard first: a find over the passages behind the line alone, ranked among themselves; the
  whole book only when none of those passes (``keyless._find_and_offer`` now).

Requests for moments in neither book are asked at a quarter, half and three quarters of each
book: both ways should offer nothing. Printed: how often a right chapter is offered, nothing is
offered, or a covered row ahead is, per query set. Run: ``.venv/bin/python -m bench.turn_going_back``.
"""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from bedside_contracts import subjects
from bedside_contracts.search import BookInfo, FindPassage, FoundPassages, Hit
from bedside_evaluation import query_sets
from bedside_evaluation.books import held_out_sets
from bedside_guard import ahead_of
from bedside_turn.domain.routing import plausible_ids

from bench.turn_common import CORPUS, System
from bench.turn_threshold import ABSENT

WAYS = ("whole book", "heard first")


@dataclass
class Asked:
    """One request going back, and the hits each way offered for it."""

    wanted: tuple[int, ...]
    offered: dict[str, list[Hit]]
    here_ms: int

    def right(self, way: str) -> bool:
        return any(hit.chapter in self.wanted for hit in self.offered[way])

    def nothing(self, way: str) -> bool:
        return not self.offered[way]

    def covered(self, way: str) -> bool:
        return any(ahead_of(hit.start_ms, self.here_ms) for hit in self.offered[way])


async def find(system: System, book: str, here_ms: int, text: str, heard_only: bool) -> list[Hit]:
    request = FindPassage(book=book, here_ms=here_ms, query=text, heard_only=heard_only)
    return FoundPassages.model_validate(await system.request(subjects.SEARCH_FIND, request.model_dump())).hits


def chosen(hits: list[Hit], here_ms: int) -> list[Hit]:
    ids = plausible_ids(hits, here_ms, "back")
    return [hit for i in ids for hit in hits if hit.passage_id == i]


async def go_back(system: System, book: str, here_ms: int, text: str, wanted: tuple[int, ...]) -> Asked:
    whole = chosen(await find(system, book, here_ms, text, heard_only=False), here_ms)
    heard = chosen(await find(system, book, here_ms, text, heard_only=True), here_ms)
    return Asked(wanted, {"whole book": whole, "heard first": heard or whole}, here_ms)


def places_past(info: BookInfo, wanted: Sequence[int]) -> list[int]:
    """Five chapters after the last one that answers, and halfway from there to the end."""
    later = max(wanted) + 5
    if later > len(info.chapters):
        return []
    at = info.chapters[later - 1].start_ms
    return [at, (at + info.duration_ms) // 2]


def report(label: str, asked: list[Asked]) -> None:
    if not asked:
        return
    for way in WAYS:
        share = [
            sum(f(a, way) for a in asked) / len(asked) for f in (Asked.right, Asked.nothing, Asked.covered)
        ]
        print(
            f"{label:<44} {way:<12} n={len(asked):4d}  "
            f"right {share[0]:.2f}  nothing {share[1]:.2f}  covered {share[2]:.2f}"
        )


async def main() -> None:
    system = await System(services=("search", "ingest")).start()
    try:
        books: dict[str, BookInfo] = {}
        sets = [("development", s) for s in query_sets()] + [
            (label, s) for label, s in held_out_sets().items()
        ]
        by_label: dict[str, list[Asked]] = {}
        absent: list[Asked] = []
        for label, query_set in sets:
            path = CORPUS / f"{query_set.book}.json"
            if not path.exists():
                print(f"skip {query_set.book}: {path} is absent")
                continue
            if query_set.book not in books:
                info = books[query_set.book] = await system.book(query_set.book, path)
                for share in (0.25, 0.5, 0.75):
                    here = int(info.duration_ms * share)
                    absent += [await go_back(system, info.id, here, text, ()) for text in ABSENT]
            info = books[query_set.book]
            for query in query_set.queries:
                for here in places_past(info, query.chapters):
                    one = await go_back(system, info.id, here, query.text, query.chapters)
                    by_label.setdefault(query_set.book if label == "development" else label, []).append(one)
        for label, asked in by_label.items():
            report(label, asked)
        report("absent moments", absent)
    finally:
        await system.stop()


if __name__ == "__main__":
    asyncio.run(main())
