"""Going back, measured as the keyless turn goes back: what was heard is searched first.

    python -m bedside_evaluation.eval_heard_back                   # the development set
    python -m bedside_evaluation.eval_heard_back heard_back_final  # the held-out set, once
    python -m bedside_evaluation.eval_heard_back heard_back_early  # asked early, with little heard

Each request is read as the keyless turn reads it (``intents.read``: the moment described, and
whether they said to go back) and asked from its listener's place (``heard_back``) of the engine's
real find, once bounded to what was heard (``heard_only``) and once over the whole book; "offered"
is what the turn then offers (``keyless._find_place``: a chapter begun named by its title alone is its
start; else going back, the heard passages first,
the whole book when none is plausible; otherwise the whole book): recall@4 and recall@1 over
chapters, by how far the listener has gone on and by book.
``bench.turn_going_back`` asks the navigation sets the same way from places derived from their
targets; these sets place the listener by hand, inside the moment's own chapter too. Alice in
Wonderland and Moby-Dick are not read.
"""

import asyncio
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bedside_contracts.search import CatalogRequest, ChapterInfo, FindPassage, Hit
from bedside_contracts.turn import Direction
from bedside_embedding import Embedder
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_turn.domain import intents
from bedside_turn.domain.routing import chapter_asked_by_title, plausible_ids, searches_for

from bedside_evaluation.command import run_named
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import corpus_artifact, sample_artifact
from bedside_evaluation.heard_back import HEARD_BACK, distance_of, load_heard_requests, place_ms
from bedside_evaluation.scoring import hit_at

BOOKS = ("black_beauty", "adventures_of_sherlock_holmes", "sample")


@dataclass(frozen=True)
class Asked:
    """One request from one place, read as the keyless turn reads it."""

    rows: tuple[str, ...]
    """The table's rows it counts in: by how far the listener has gone on, and by book."""
    book: str
    text: str
    chapters: tuple[int, ...]
    here_ms: int

    @property
    def place(self) -> intents.FindPlace | None:
        """The moment described, with the way said ("go back to ..."); None when the turn reads
        the words as something else, and offers no place found in the book."""
        read = intents.read(self.text)
        return read if isinstance(read, intents.FindPlace) else None


@dataclass
class Tally:
    """Hits at 4 and at 1 per column, over the requests of one row."""

    asked: int = 0
    read_back: int = 0
    """Read by the turn as a moment to go back to, so searched among the heard passages first."""
    at_4: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    at_1: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def count(self, column: str, chapters: Sequence[int], targets: Sequence[int]) -> None:
        self.at_4[column] += hit_at(chapters, targets, 4)
        self.at_1[column] += hit_at(chapters, targets, 1)

    def cell(self, column: str) -> str:
        return f"{self.at_4[column] / self.asked:.2f} ({self.at_1[column] / self.asked:.2f})"


COLUMNS = ("heard only", "whole book", "offered, titles not read", "offered")


async def found(engine: SearchEngine, asked: Asked, query: str, *, heard_only: bool) -> list[Hit]:
    request = FindPassage(book=asked.book, query=query, here_ms=asked.here_ms, heard_only=heard_only)
    return (await engine.find(request)).hits


def offered(
    asked: Asked, place: intents.FindPlace, chapters: list[ChapterInfo], heard: list[Hit], whole: list[Hit]
) -> list[int]:
    """The chapters the keyless turn offers, in order: a chapter begun named by its title alone the way
    said (``keyless._find_place``), else from the finds it makes (``searches_for``)."""
    titled = chapter_asked_by_title(chapters, place.query, asked.here_ms, place.direction)
    if titled is not None:
        return [titled.n]
    return found_offered(asked, place.direction, heard, whole)


def found_offered(asked: Asked, way: Direction | None, heard: list[Hit], whole: list[Hit]) -> list[int]:
    """The chapters offered from the finds alone, no title said (``keyless._find_and_offer``)."""
    for hits in (heard if heard_only else whole for heard_only in searches_for(way)):
        ids = plausible_ids(hits, asked.here_ms, way)
        if ids:
            by_id = {hit.passage_id: hit.chapter for hit in hits}
            return [by_id[i] for i in ids]
    return []


def requests_asked(name: str, book: str, engine: SearchEngine) -> list[Asked]:
    served = engine.book(book)
    return [
        Asked(
            (f"{name}: {distance_of(r).value}", f"{name}: {book}"),
            book,
            r.text,
            r.chapters,
            place_ms(served.passages, r.here),
        )
        for r in load_heard_requests(name)
        if r.book == book
    ]


async def run(embedder: Embedder, names: list[str]) -> str:
    tallies: dict[str, Tally] = defaultdict(Tally)
    corpus = corpus_dir()
    with tempfile.TemporaryDirectory(prefix="bedside-eval-heard-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for book in BOOKS:
                artifact = (
                    sample_artifact(embedder)
                    if book == "sample"
                    else await asyncio.to_thread(corpus_artifact, corpus / f"{book}.json", embedder)
                )
                await engine.index(artifact)
                listed = engine.catalog(CatalogRequest(book=book)).books[0].chapters
                asked = [a for name in names for a in requests_asked(name, book, engine)]
                for one in asked:
                    place = one.place
                    query = place.query if place else one.text
                    heard = await found(engine, one, query, heard_only=True)
                    whole = await found(engine, one, query, heard_only=False)
                    chapters = offered(one, place, listed, heard, whole) if place else []
                    for tally in (tallies[row] for row in one.rows):
                        tally.asked += 1
                        tally.read_back += place is not None and place.direction == "back"
                        tally.count("heard only", [h.chapter for h in heard], one.chapters)
                        tally.count("whole book", [h.chapter for h in whole], one.chapters)
                        tally.count("offered", chapters, one.chapters)
                        untitled = found_offered(one, place.direction, heard, whole) if place else []
                        tally.count("offered, titles not read", untitled, one.chapters)
        finally:
            await store.close()
    lines = [
        "recall@4 (recall@1) over chapters; 'offered' is what the keyless turn offers going back",
        "",
        "| requests | asked | read as going back | " + " | ".join(COLUMNS) + " |",
        "| --- | --- | --- |" + " --- |" * len(COLUMNS),
    ]
    for row, tally in sorted(tallies.items()):
        cells = " | ".join(tally.cell(c) for c in COLUMNS)
        lines.append(f"| {row} | {tally.asked} | {tally.read_back} | {cells} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_named(run, argv, HEARD_BACK)


if __name__ == "__main__":
    raise SystemExit(main())
