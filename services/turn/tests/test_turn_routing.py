"""Which found places the keyless router offers (``routing.plausible_ids``): plain code, no bus."""

import pytest
from bedside_contracts.search import Hit
from bedside_turn.domain.intents import Direction
from bedside_turn.domain.routing import MIN_SCORE, plausible_ids

HERE = 600_000
STRONG = MIN_SCORE * 1.5


def hit(passage_id: int, start_ms: int, score: float = STRONG) -> Hit:
    return Hit(passage_id=passage_id, start_ms=start_ms, chapter=1, score=score)


BOTH_SIDES = [hit(1, 900_000), hit(2, 100_000), hit(3, 1_200_000), hit(4, 300_000)]


@pytest.mark.parametrize(
    ("direction", "offered"), [(None, [1, 2, 3, 4]), ("back", [2, 4]), ("forward", [1, 3])]
)
def test_a_direction_said_keeps_the_places_on_its_side_of_the_line_best_first(
    direction: Direction | None, offered: list[int]
) -> None:
    assert plausible_ids(BOTH_SIDES, HERE, direction) == offered


def test_a_direction_with_no_place_on_its_side_keeps_the_others() -> None:
    """ "Go back to ..." for a moment only ahead (misremembered, or heard on another copy): the covered
    rows are still the honest answer, better than nothing found."""
    ahead_only = [hit(1, 900_000), hit(3, 1_200_000)]
    assert plausible_ids(ahead_only, HERE, "back") == [1, 3]


def test_the_place_holding_the_line_counts_as_ahead() -> None:
    assert plausible_ids([hit(1, HERE), hit(2, HERE - 1)], HERE, "back") == [2]


def test_weak_places_are_not_offered_whatever_the_direction() -> None:
    weak = [hit(1, 100_000, MIN_SCORE / 2), hit(2, 900_000)]
    assert plausible_ids(weak, HERE, "back") == [2]
