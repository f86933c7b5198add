"""Every book's query set, in a fixed order."""

from bedside_search.evaluation import (
    queries_black_beauty,
    queries_black_beauty_heldout,
    queries_black_beauty_position,
    queries_black_beauty_test,
    queries_sherlock_holmes,
    queries_sherlock_holmes_position,
)
from bedside_search.evaluation.queryset import QuerySet


def query_sets() -> tuple[QuerySet, ...]:
    return tuple(
        QuerySet(book=module.BOOK, queries=module.QUERIES)
        for module in (queries_black_beauty, queries_sherlock_holmes)
    )


def held_out_sets() -> dict[str, QuerySet]:
    """Query sets no rule was tuned on, by the column they are shown in, measured beside the others.

    - "held-out" was consulted once to choose between fusion methods that tied (a validation
      set now); "test" had not been run when the fusion rule was fixed.
    - The "position" sets place their moment in the book ("near the end, ..."), with controls
      whose "start" or "end" is of something else. They were written before ``book_part``
      existed and run once without it; its phrases were then written by someone who had read
      them, its part share and weight were fixed before its first run and not changed after.
    """
    sets = {
        "held-out": queries_black_beauty_heldout,
        "test": queries_black_beauty_test,
        "position": queries_black_beauty_position,
    }
    held = {
        f"{module.BOOK} {label}": QuerySet(book=module.BOOK, queries=module.QUERIES)
        for label, module in sets.items()
    }
    held[f"{queries_sherlock_holmes_position.BOOK} position"] = QuerySet(
        book=queries_sherlock_holmes_position.BOOK, queries=queries_sherlock_holmes_position.QUERIES
    )
    return held
