"""Every book's query set, in a fixed order."""

from bedside_search.evaluation import (
    queries_black_beauty,
    queries_black_beauty_heldout,
    queries_black_beauty_test,
    queries_sherlock_holmes,
)
from bedside_search.evaluation.queryset import QuerySet


def query_sets() -> tuple[QuerySet, ...]:
    return tuple(
        QuerySet(book=module.BOOK, queries=module.QUERIES)
        for module in (queries_black_beauty, queries_sherlock_holmes)
    )


def held_out_sets() -> dict[str, QuerySet]:
    """Query sets no rule was tuned on, by the column they are shown in, measured beside the others.

    The first was consulted once to choose between methods that tied (a validation set now);
    the second (test) had not been run when the served rule was fixed.
    """
    return {
        "held-out": QuerySet(
            book=queries_black_beauty_heldout.BOOK, queries=queries_black_beauty_heldout.QUERIES
        ),
        "test": QuerySet(book=queries_black_beauty_test.BOOK, queries=queries_black_beauty_test.QUERIES),
    }
