"""What find serves of a query's two rankings: the fusion rule with the part the query names."""

from collections.abc import Sequence

from bedside_search.domain.book import ServedBook
from bedside_search.domain.book_part import part_named
from bedside_search.domain.fusion import FUSION, Fused, FusionRule, Scored, rank


def find_order(
    book: ServedBook,
    query: str,
    rankings: tuple[Sequence[Scored], Sequence[Scored]],
    limit: int,
    rule: FusionRule = FUSION,
) -> list[Fused]:
    """What find serves from the engine's dense and sparse rankings of ``query``, best first."""
    dense, sparse = rankings
    placed = book.distances_from(part_named(query))
    return rank(dense, sparse, limit, rule, book.chapter_of, placed=placed)
