"""The going-back sets are well-formed, and a listener's place is timed as its share of the text."""

import pytest
from bedside_evaluation.heard_back import (
    HEARD_BACK,
    HEARD_BACK_EARLY,
    HEARD_BACK_FINAL,
    Distance,
    HeardRequest,
    ListenerPlace,
    distance_of,
    load_heard_requests,
    place_ms,
)
from bedside_guard import Passage
from bedside_testing import corpus_book
from pydantic import ValidationError

SETS = {name: load_heard_requests(name) for name in (HEARD_BACK, HEARD_BACK_FINAL, HEARD_BACK_EARLY)}
SAMPLE_CHAPTERS = 6


def _passage(pid: int, chapter: int, start_s: int, end_s: int, chars: int) -> Passage:
    return Passage(
        id=pid,
        start_ms=start_s * 1000,
        end_ms=end_s * 1000,
        chapter=chapter,
        chapter_title="",
        text="x" * chars,
    )


PASSAGES = (_passage(0, 1, 0, 10, 50), _passage(1, 2, 10, 20, 100), _passage(2, 2, 20, 40, 100))


@pytest.mark.parametrize(
    ("share", "expected_ms"), [(0.0, 10_000), (0.25, 15_000), (0.5, 20_000), (0.75, 30_000), (1.0, 40_000)]
)
def test_a_place_is_timed_within_the_passage_holding_its_share_of_the_chapter(
    share: float, expected_ms: int
) -> None:
    assert place_ms(PASSAGES, ListenerPlace(chapter=2, share=share)) == expected_ms


def test_a_place_in_a_chapter_the_book_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="no chapter 3"):
        place_ms(PASSAGES, ListenerPlace(chapter=3, share=0.5))


def test_a_listener_before_the_moment_is_not_going_back() -> None:
    here = ListenerPlace(chapter=4, share=0.9)
    with pytest.raises(ValidationError, match="before the moment"):
        HeardRequest(book="sample", text="the storm", chapters=(5,), here=here)
    asked = HeardRequest(book="sample", text="the storm", chapters=(4,), here=here)
    assert distance_of(asked) is Distance.SAME_CHAPTER


def test_no_set_repeats_a_request_and_each_asks_from_every_distance() -> None:
    asked = [{(r.book, r.text) for r in requests} for requests in SETS.values()]
    assert [a & b for i, a in enumerate(asked) for b in asked[i + 1 :]] == [set(), set(), set()]
    for requests in SETS.values():
        assert len({r.text for r in requests}) == len(requests)
        assert {distance_of(r) for r in requests} == set(Distance)


@pytest.mark.parametrize("name", SETS)
def test_every_place_is_in_its_book(name: str) -> None:
    chapters = {"sample": SAMPLE_CHAPTERS}
    for book in {r.book for r in SETS[name]} - {"sample"}:
        chapters[book] = len(corpus_book(book)["chapters"])
    assert [r.text for r in SETS[name] if r.here.chapter > chapters[r.book]] == []
