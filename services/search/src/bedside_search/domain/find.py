"""What find serves of a query's two rankings: the fusion rule with the part of the book the
query names, the chapters in the order blended with each ranking's own (``chapter_order``),
then, for "the first time" or "the last time", the plausible chapters in story order."""

from collections.abc import Sequence

from bedside_search.domain.book import ServedBook
from bedside_search.domain.book_part import part_named
from bedside_search.domain.chapter_order import CHAPTER_ORDER, ChapterOrderRule, chapters_blended
from bedside_search.domain.fusion import FUSION, Fused, FusionRule, Scored, fuse, served_order
from bedside_search.domain.ordinal import ORDINAL, OrdinalRule, in_story_order, ordinal_named


def find_order(
    book: ServedBook,
    query: str,
    rankings: tuple[Sequence[Scored], Sequence[Scored]],
    limit: int,
    rule: FusionRule = FUSION,
    *,
    ordinal_rule: OrdinalRule | None = ORDINAL,
    chapter_rule: ChapterOrderRule | None = CHAPTER_ORDER,
    below_ms: int | None = None,
) -> list[Fused]:
    """What find serves from the engine's dense and sparse rankings of ``query``, best first;
    ``below_ms``: the rankings were of the passages starting before it (what was heard).

    ``ordinal_rule`` or ``chapter_rule`` None serves without that rule (the evaluation
    compares them).
    """
    dense, sparse = rankings
    placed = book.distances_from(part_named(query))
    searched = book.passages_starting_before(below_ms)
    pooled = served_order(
        fuse(dense, sparse, max(limit, rule.pool), rule, book.chapter_of, placed=placed, searched=searched),
        rule,
        book.chapter_of,
    )
    if chapter_rule is not None:
        pooled = chapters_blended(pooled, rankings, book.chapter_of, chapter_rule)
    ordinal = ordinal_named(query)
    if ordinal is not None and ordinal_rule is not None:
        pooled = in_story_order(pooled, book.chapter_of, ordinal, ordinal_rule)
    return pooled[:limit]
