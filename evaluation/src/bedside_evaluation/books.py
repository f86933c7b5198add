"""Every book's query set, in a fixed order."""

from bedside_evaluation.queryset import QuerySet, load_query_set


def query_sets() -> tuple[QuerySet, ...]:
    return tuple(load_query_set(name) for name in ("black_beauty", "sherlock_holmes"))


def held_out_sets() -> dict[str, QuerySet]:
    """Query sets no rule was tuned on, by the column they are shown in, measured beside the others.

    - "held-out" was consulted once to choose between fusion methods that tied (a validation
      set now); "test" had not been run when the fusion rule was fixed.
    - The "position" sets place their moment in the book ("near the end, ..."), with controls
      whose "start" or "end" is of something else. They were written before ``book_part``
      existed and run once without it; its phrases were then written by someone who had read
      them, its part share and weight were fixed before its first run and not changed after.
      The "position test" sets were written after that by someone who had not read the rule;
      the phrase list was then widened on them, so they became development data too. The
      "position final" sets were written without reading the rule or the other sets and
      first run after the widened list was committed.
    """
    by_label = {
        "held-out": ("black_beauty_heldout",),
        "test": ("black_beauty_test",),
        "position": ("black_beauty_position", "sherlock_holmes_position"),
        "position test": ("black_beauty_position_test", "sherlock_holmes_position_test"),
        "position final": ("black_beauty_position_final", "sherlock_holmes_position_final"),
    }
    sets = [(label, load_query_set(name)) for label, names in by_label.items() for name in names]
    return {f"{query_set.book} {label}": query_set for label, query_set in sets}


LONG_BOOK_SETS: tuple[str, ...] = ("long_book",)
"""Sets written for the long development book itself (``long_book``), targets in its numbering."""


LONG_BOOK_FINAL = "long_book_final"
"""The long book's held-out third: run once, after the rules it judges are committed."""


LONG_BOOK_HELDOUT = "long_book_heldout"
"""A second held-out set for the long book, written for issue 14's vocabulary and chapter rules
before any of them was measured: run once, at the end of that work."""


LONG_BOOK_LAST = "long_book_last"
"""A third held-out set for the long book, written for issue 14's third round from the books
alone while the chapter order was being measured: run once, after it was served."""


def long_book_sets(*, final: bool = False, heldout: bool = False, last: bool = False) -> dict[str, QuerySet]:
    names = (
        *LONG_BOOK_SETS,
        *((LONG_BOOK_FINAL,) if final else ()),
        *((LONG_BOOK_HELDOUT,) if heldout else ()),
        *((LONG_BOOK_LAST,) if last else ()),
    )
    return {name: load_query_set(name) for name in names}
