"""Every book's query set, in a fixed order."""

from bedside_search.evaluation import queries_black_beauty, queries_sherlock_holmes
from bedside_search.evaluation.queryset import QuerySet


def query_sets() -> tuple[QuerySet, ...]:
    return tuple(
        QuerySet(book=module.BOOK, queries=module.QUERIES)
        for module in (queries_black_beauty, queries_sherlock_holmes)
    )
