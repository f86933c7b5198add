"""What length does to find: every query set on its own book and on the long development book.

    python -m bedside_evaluation.eval_long          # development sets
    python -m bedside_evaluation.eval_long final    # and the long book's held-out third, once
    python -m bedside_evaluation.eval_long sweep    # the part prior's weight and reach
    python -m bedside_evaluation.eval_long sweep-ordinal   # the ordinal rule's share and reach

Each row is one query set; each column one rule of find, on the set's own book and on the
joined long book (``long_book``), as recall@4 (recall@1), judged on the 8 passages a find
returns. Alice in Wonderland and Moby-Dick are not read.
"""

import asyncio
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from bedside_embedding import Embedder, load_minilm
from bedside_search.domain.book import ServedBook
from bedside_search.domain.book_part import Part, part_named
from bedside_search.domain.find import find_order
from bedside_search.domain.fusion import FUSION, Fused, FusionRule, one_per_chapter_first, rank, single
from bedside_search.domain.ordinal import ORDINAL, OrdinalRule
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store

from bedside_evaluation.books import held_out_sets, long_book_sets, query_sets
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import corpus_artifact
from bedside_evaluation.eval_search import RANK_DEPTH, QueryRankings, chapters_of, rankings_for
from bedside_evaluation.long_book import LONG_BOOK, joined_book, long_book_artifact
from bedside_evaluation.queryset import QuerySet
from bedside_evaluation.scoring import RecallResult, evaluate

LongMethod = Callable[[QueryRankings, ServedBook], list[Fused]]
WITHOUT_PART = replace(FUSION, part_weight=0.0)


def _spread(ranked: Sequence[Fused], book: ServedBook) -> list[Fused]:
    return one_per_chapter_first(ranked, book.chapter_of)[:RANK_DEPTH]


FLAT_SHARE = 0.2
FLAT_RULE = replace(FUSION, part_weight=1.0)
"""The prior before issue 14: every passage in the first or last fifth doubled, no middle."""


def _flat_fifth(r: QueryRankings, b: ServedBook) -> list[Fused]:
    part = part_named(r.navigation.text)
    distances = b.distances_from(part) if part is not Part.MIDDLE else None
    edge = FLAT_SHARE * b.info.duration_ms
    placed = {pid: 0 if d < edge else 10**12 for pid, d in distances.items()} if distances else None
    return rank(r.dense, r.sparse, RANK_DEPTH, FLAT_RULE, b.chapter_of, placed=placed)


def _with(rule: FusionRule, ordinal: OrdinalRule = ORDINAL) -> LongMethod:
    return lambda r, b: find_order(
        b, r.navigation.text, (r.dense, r.sparse), RANK_DEPTH, rule, ordinal_rule=ordinal
    )


METHODS: dict[str, LongMethod] = {
    "dense": lambda r, b: _spread(single(r.dense, len(r.dense), dense=True), b),
    "sparse": lambda r, b: _spread(single(r.sparse, len(r.sparse), dense=False), b),
    "fused, no part prior": lambda r, b: rank(r.dense, r.sparse, RANK_DEPTH, WITHOUT_PART, b.chapter_of),
    "before: flat fifth": _flat_fifth,
    "smooth prior, no ordinals": lambda r, b: find_order(
        b, r.navigation.text, (r.dense, r.sparse), RANK_DEPTH, ordinal_rule=None
    ),
    "served": lambda r, b: find_order(b, r.navigation.text, (r.dense, r.sparse), RANK_DEPTH),
}
if "sweep" in sys.argv[1:]:
    for weight in (1.0, 2.0):
        for minutes in (20, 40, 60, 90, 120):
            rule = replace(FUSION, part_weight=weight, part_reach_ms=minutes * 60_000)
            METHODS[f"w{weight:g} r{minutes}m"] = _with(rule)
if "sweep-ordinal" in sys.argv[1:]:
    for share in (0.4, 0.5, 0.6, 0.7, 0.8):
        for among in (3, 4, 6, 8):
            METHODS[f"o{share:g} a{among}"] = _with(FUSION, OrdinalRule(share, among))


def all_sets(*, final: bool = False) -> dict[str, QuerySet]:
    """Every set measured, by label: the development sets, the held-out ones, the long-book ones."""
    return {
        **{query_set.book: query_set for query_set in query_sets()},
        **held_out_sets(),
        **long_book_sets(final=final),
    }


async def measure(
    engine: SearchEngine, book: ServedBook, sets: Mapping[str, QuerySet]
) -> dict[str, dict[str, RecallResult]]:
    """results[set label][method] on ``book``."""
    results: dict[str, dict[str, RecallResult]] = {}
    for label, measured in sets.items():
        ranked = await rankings_for(engine, book, measured.queries)
        for name, method in METHODS.items():
            chapters = [chapters_of(book, method(r, book)) for r in ranked]
            results.setdefault(label, {})[name] = evaluate(measured.queries, chapters)
    return results


def cell(result: RecallResult | None) -> str:
    if result is None:
        return "-"
    return f"{result.recall_at_4:.2f} ({result.recall_at_1:.2f}) {result.hits_at_4}/{result.total}"


Results = Mapping[str, Mapping[str, RecallResult]]


def table(own: Results, joined: Results) -> str:
    header = ["set", *(f"{m} {where}" for m in METHODS for where in ("own", "joined"))]
    rows = [
        [label, *(cell(by.get(label, {}).get(m)) for m in METHODS for by in (own, joined))]
        for label in dict.fromkeys([*own, *joined])
    ]
    totals = ["all sets"]
    for m in METHODS:
        for by in (own, joined):
            found = [r[m] for r in by.values()]
            hits = sum(r.hits_at_4 for r in found)
            total = sum(r.total for r in found)
            totals.append(f"{hits / total:.2f} {hits}/{total}" if total else "-")
    rows.append(totals)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


async def run(embedder: Embedder, corpus: Path, *, final: bool = False) -> str:
    sets = all_sets(final=final)
    joined = joined_book(corpus)
    own: dict[str, dict[str, RecallResult]] = {}
    on_long: dict[str, dict[str, RecallResult]] = {}
    with tempfile.TemporaryDirectory(prefix="bedside-eval-long-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for part in ("black_beauty", "adventures_of_sherlock_holmes"):
                artifact = await asyncio.to_thread(corpus_artifact, corpus / f"{part}.json", embedder)
                await engine.index(artifact)
                mine = {label: s for label, s in sets.items() if s.book == part}
                own.update(await measure(engine, engine.book(part), mine))
            artifact = await asyncio.to_thread(long_book_artifact, corpus, embedder)
            await engine.index(artifact)
            renumbered = {
                label: s if s.book == LONG_BOOK else joined.query_set(s)
                for label, s in sets.items()
                if s.book == LONG_BOOK or s.book in joined.renumbered
            }
            on_long.update(await measure(engine, engine.book(LONG_BOOK), renumbered))
            notes = [
                f"long book: {len(joined.book.chapters)} chapters, {len(artifact.passages)} passages,"
                f" {artifact.duration_ms / 3_600_000:.1f} h of narration; cells: R@4 (R@1) hits/total"
            ]
        finally:
            await store.close()
    misses = [
        f"  {label}: {m.query!r} -> {list(m.targets)}, got {list(m.got)}"
        for label, by_method in on_long.items()
        if label in long_book_sets(final=final)
        for m in by_method["served"].misses
    ]
    return "\n".join([table(own, on_long), "", *notes, "served misses on the long book's own sets:", *misses])


def main() -> int:
    corpus = corpus_dir()
    if not corpus.is_dir():
        print(f"{corpus} is absent: the evaluation needs the shared corpus", file=sys.stderr)
        return 2
    print(asyncio.run(run(load_minilm(), corpus, final="final" in sys.argv[1:])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
