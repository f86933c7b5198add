"""'The first time ...' and 'the last time ...': the plausible chapters in story order."""

import pytest
from bedside_search.domain.fusion import Fused
from bedside_search.domain.ordinal import ORDINAL, Ordinal, OrdinalRule, in_story_order, ordinal_named


@pytest.mark.parametrize(
    ("query", "ordinal"),
    [
        ("the first time there's a fire", Ordinal.FIRST),
        ("the very first time Holmes goes out in disguise", Ordinal.FIRST),
        ("when he gets shoes for the first time", Ordinal.FIRST),
        ("his first time in the tight rein", Ordinal.FIRST),
        ("the last time Beauty sees Ginger", Ordinal.LAST),
        ("the final time the horse is sold", Ordinal.LAST),
        ("when they ride out for the last time", Ordinal.LAST),
    ],
)
def test_an_ordinal_is_read(query: str, ordinal: Ordinal) -> None:
    assert ordinal_named(query) is ordinal


@pytest.mark.parametrize(
    "query",
    [
        "the first chapter, the meadow",  # a place in the book: the part prior's business
        "the last story in the book",
        "where the horse dies",
        "first thing in the morning, the knock at the door",
        "from the first time to the last time he is sold",  # both: neither
    ],
)
def test_no_ordinal_is_read(query: str) -> None:
    assert ordinal_named(query) is None


# passages 1.. in chapters: 1 -> 30, 2 -> 10, 3 -> 20, 4 -> 40, 5 -> 30, 6 -> 50
CHAPTER_OF = {1: 30, 2: 10, 3: 20, 4: 40, 5: 30, 6: 50}
RANKED = [
    Fused(1, 1.0, None),
    Fused(2, 0.9, None),
    Fused(3, 0.8, None),
    Fused(4, 0.3, None),
    Fused(5, 0.2, None),
]


def ids(ranked: list[Fused]) -> list[int]:
    return [hit.passage_id for hit in ranked]


def test_the_plausible_chapters_come_earliest_first_or_latest_first() -> None:
    rule = OrdinalRule(share=0.7, among=4)
    assert ids(in_story_order(RANKED, CHAPTER_OF, Ordinal.FIRST, rule)) == [2, 3, 1, 4, 5]
    assert ids(in_story_order(RANKED, CHAPTER_OF, Ordinal.LAST, rule)) == [1, 3, 2, 4, 5]


def test_a_chapter_far_below_the_best_stays_where_it_was_ranked() -> None:
    # chapter 40 (passage 4) scores 0.3 of the best: implausible, so it does not jump ahead
    assert ids(in_story_order(RANKED, CHAPTER_OF, Ordinal.LAST, OrdinalRule(share=0.7, among=4)))[3] == 4
    assert ids(in_story_order(RANKED, CHAPTER_OF, Ordinal.LAST, OrdinalRule(share=0.2, among=4)))[0] == 4


def test_only_the_first_chapters_ranked_can_move() -> None:
    assert ids(in_story_order(RANKED, CHAPTER_OF, Ordinal.FIRST, OrdinalRule(share=0.5, among=1))) == ids(
        RANKED
    )
    assert ORDINAL.among == 4  # the four places offered are the same with or without the rule


def test_the_same_passages_come_back() -> None:
    for ordinal in Ordinal:
        assert sorted(ids(in_story_order(RANKED, CHAPTER_OF, ordinal))) == sorted(ids(RANKED))
    assert in_story_order([], CHAPTER_OF, Ordinal.FIRST) == []


def test_plausible_is_judged_against_the_best_leader_not_the_first() -> None:
    # the chapter order may put a chapter whose best passage scores lower first
    reordered = [Fused(4, 0.3, None), Fused(1, 1.0, None), Fused(2, 0.9, None), Fused(3, 0.8, None)]
    # chapter 40 (0.3) is not within 0.7 of the best leader (1.0): it is not the latest plausible
    last = ids(in_story_order(reordered, CHAPTER_OF, Ordinal.LAST, OrdinalRule(share=0.7, among=4)))
    assert last == [1, 3, 2, 4]
