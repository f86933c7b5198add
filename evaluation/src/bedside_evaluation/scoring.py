"""Recall@k over chapter rankings: pure functions, no I/O.

A retriever returns passages; the caller maps each hit to its chapter number, best first.
Several passages of one chapter count once: a query is a hit at k when any target chapter
is among the first k *distinct* chapters of its ranking.
"""

from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from bedside_evaluation.queryset import NavigationQuery


class Miss(BaseModel):
    """A query whose target was not in the first four distinct chapters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    query: str
    targets: tuple[int, ...]
    got: tuple[int, ...] = Field(description="the first four distinct chapters returned")


class RecallResult(BaseModel):
    """Recall@1 and recall@4 of one method on one book, with the queries it missed at 4."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: int = Field(gt=0)
    hits_at_1: int = Field(ge=0)
    hits_at_4: int = Field(ge=0)
    misses: tuple[Miss, ...]

    @property
    def recall_at_1(self) -> float:
        return self.hits_at_1 / self.total

    @property
    def recall_at_4(self) -> float:
        return self.hits_at_4 / self.total


def distinct_chapters(ranking: Iterable[int]) -> tuple[int, ...]:
    """The chapters in order of first appearance (a chapter's repeats add nothing)."""
    return tuple(dict.fromkeys(ranking))


def hit_at(ranking: Sequence[int], targets: Iterable[int], k: int) -> bool:
    """True when any target chapter is among the first k distinct chapters of the ranking."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    return not set(distinct_chapters(ranking)[:k]).isdisjoint(targets)


def recall_at(rankings: Sequence[Sequence[int]], targets: Sequence[Iterable[int]], k: int) -> float:
    """The fraction of queries that are a hit at k; rankings[i] answers targets[i]."""
    if len(rankings) != len(targets):
        raise ValueError(f"{len(rankings)} rankings for {len(targets)} queries")
    if not rankings:
        raise ValueError("recall of no queries is undefined")
    hits = sum(hit_at(ranking, target, k) for ranking, target in zip(rankings, targets, strict=True))
    return hits / len(rankings)


def evaluate(queries: Sequence[NavigationQuery], rankings: Sequence[Sequence[int]]) -> RecallResult:
    """Score one method on one query set; rankings[i] is the chapter ranking for queries[i]."""
    if len(rankings) != len(queries):
        raise ValueError(f"{len(rankings)} rankings for {len(queries)} queries")
    if not queries:
        raise ValueError("recall of no queries is undefined")
    hits_at_1 = 0
    hits_at_4 = 0
    misses: list[Miss] = []
    for navigation, ranking in zip(queries, rankings, strict=True):
        hits_at_1 += hit_at(ranking, navigation.chapters, 1)
        if hit_at(ranking, navigation.chapters, 4):
            hits_at_4 += 1
        else:
            got = distinct_chapters(ranking)[:4]
            misses.append(Miss(query=navigation.text, targets=navigation.chapters, got=got))
    return RecallResult(total=len(queries), hits_at_1=hits_at_1, hits_at_4=hits_at_4, misses=tuple(misses))


def _cell(result: RecallResult | None) -> tuple[str, str]:
    if result is None:
        return ("-", "-")
    return (
        f"{result.recall_at_1:.2f} ({result.hits_at_1}/{result.total})",
        f"{result.recall_at_4:.2f} ({result.hits_at_4}/{result.total})",
    )


def format_table(results: Mapping[str, Mapping[str, RecallResult]]) -> str:
    """A Markdown table: one row per method (in the mapping's order), R@1 and R@4 per book.

    ``results[method][book]``; a book a method was not run on shows "-".
    """
    books = list(dict.fromkeys(book for by_book in results.values() for book in by_book))
    header = ["method", *(f"{book} {at}" for book in books for at in ("R@1", "R@4"))]
    rows = [
        [method, *(cell for book in books for cell in _cell(by_book.get(book)))]
        for method, by_book in results.items()
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
    return "\n".join([line(header), rule, *(line(row) for row in rows)])


def pooled(results: Sequence[RecallResult]) -> RecallResult:
    """Several results as one: their queries counted together."""
    if not results:
        raise ValueError("pooling no results is undefined")
    return RecallResult(
        total=sum(r.total for r in results),
        hits_at_1=sum(r.hits_at_1 for r in results),
        hits_at_4=sum(r.hits_at_4 for r in results),
        misses=tuple(m for r in results for m in r.misses),
    )
