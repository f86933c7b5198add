"""The part of the book a request names, and how find favours it."""

import itertools
from dataclasses import replace

import pytest
from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_guard import Passage
from bedside_search.domain.book import ServedBook
from bedside_search.domain.book_part import Part, distance_from, nearness, part_named
from bedside_search.domain.fusion import FUSION, FusionRule, Scored, fuse, rank


@pytest.mark.parametrize(
    ("query", "part"),
    [
        ("take me right back to the very start, when he was a foal", Part.EARLY),
        ("near the beginning, the bit with the hunt", Part.EARLY),
        ("somewhere early on, the railway", Part.EARLY),
        ("one of the opening chapters where the mare tells her story", Part.EARLY),
        ("in the first story, the king in the mask", Part.EARLY),
        ("the start of the book, the meadow", Part.EARLY),
        ("the happy ending where the groom knows him", Part.LATE),
        ("towards the end of the book, the beer cart", Part.LATE),
        ("the last chapter, where they promise never to sell him", Part.LATE),
        ("late in the collection, the governess and her hair", Part.LATE),
        ("in the closing story, the locked wing", Part.LATE),
        ("near the end, when he\u2019s sold at the fair", Part.LATE),
        ("somewhere in the first few chapters, the pond", Part.EARLY),
        ("the second story, the one with the club", Part.EARLY),
        ("when the book\u2019s barely started, the colt and the gate", Part.EARLY),
        ("the tale that kicks the collection off", Part.EARLY),
        ("the last couple of stories, the beryls", Part.LATE),
        ("at the tail end, the grandson and the apples", Part.LATE),
        ("in the final stretch, the cottage in the country", Part.LATE),
        ("the chapter that closes the book", Part.LATE),
        ("right near the finish, the butcher\u2019s boy", Part.LATE),
        ("the penultimate chapter, the sale", Part.LATE),
        ("somewhere in the middle, the typist and her stepfather", Part.MIDDLE),
        ("around the middle of the book, the pool in the valley", Part.MIDDLE),
        ("halfway through, the letters with the pips", Part.MIDDLE),
        ("one of the middle chapters, the cab on Sunday", Part.MIDDLE),
    ],
)
def test_a_part_of_the_whole_book_is_named(query: str, part: Part) -> None:
    assert part_named(query) is part


@pytest.mark.parametrize(
    "query",
    [
        "where the horse dies",
        "the first time he wears a bridle",  # a first, not a place in the book
        "the beginning of the fire at the inn",  # the start of something else
        "at the start of the gallop for the doctor",
        "the end of the Speckled Band story",
        "the final bit of the beggar mystery",
        "his last drive for the mistress",
        "how it ends for the chestnut mare",
        "from the start of the book to the very end",  # both: names no one part
        "the finish of the race across the common",
        "first thing in the morning, the knock at the door",
        "the second last straw for the groom",
        "in the middle of the night, the fire at the inn",  # the middle of something else
        "from the start through the middle to the end",  # all of it: names no one part
    ],
)
def test_no_part_when_the_words_place_something_else_or_both_ends(query: str) -> None:
    assert part_named(query) is None


def test_distance_is_measured_on_the_clock_from_the_named_place() -> None:
    duration = 100_000
    assert distance_from(Part.EARLY, 0, 1_000, duration) == 0
    assert distance_from(Part.EARLY, 25_000, 26_000, duration) == 25_000
    assert distance_from(Part.LATE, 99_000, 100_000, duration) == 0
    assert distance_from(Part.LATE, 60_000, 70_000, duration) == 30_000
    assert distance_from(Part.MIDDLE, 45_000, 55_000, duration) == 0  # holds the halfway point
    assert distance_from(Part.MIDDLE, 10_000, 20_000, duration) == 30_000
    assert distance_from(Part.MIDDLE, 80_000, 90_000, duration) == 30_000


def test_nearness_halves_at_each_reach_and_never_steps() -> None:
    assert nearness(0, 60_000) == 1.0
    assert nearness(60_000, 60_000) == pytest.approx(0.5)
    assert nearness(120_000, 60_000) == pytest.approx(0.25)
    steps = [nearness(ms, 60_000) for ms in range(0, 600_000, 1_000)]
    assert all(a > b for a, b in itertools.pairwise(steps))
    assert max(a - b for a, b in itertools.pairwise(steps)) < 0.02


DENSE = [Scored(1, 0.9), Scored(2, 0.8), Scored(3, 0.7)]
SPARSE = [Scored(1, 9.0), Scored(2, 8.0), Scored(3, 7.0)]


def test_passages_near_the_part_rise_the_more_the_nearer() -> None:
    rule = FusionRule(k=60, part_weight=1.0, part_reach_ms=50)
    plain = fuse(DENSE, SPARSE, 3, rule)
    placed = fuse(DENSE, SPARSE, 3, rule, placed={1: 500, 2: 50, 3: 0})
    assert [f.passage_id for f in plain] == [1, 2, 3]
    assert [f.passage_id for f in placed] == [3, 2, 1]
    by_id = {f.passage_id: f.score for f in plain}
    assert {f.passage_id: f.score for f in placed} == pytest.approx(
        {3: 2 * by_id[3], 2: 1.5 * by_id[2], 1: (1 + 0.5**10) * by_id[1]}
    )
    assert fuse(DENSE, SPARSE, 3, FusionRule(k=60), placed={3: 0}) == plain  # no weight, no prior
    assert FUSION.part_weight > 0  # the served rule favours the part named


def test_a_served_book_knows_how_far_each_passage_is_from_each_part() -> None:
    passages = [
        Passage(
            id=i,
            start_ms=i * 10_000,
            end_ms=(i + 1) * 10_000,
            chapter=1 + i // 5,
            chapter_title="t",
            text="x",
        )
        for i in range(10)
    ]
    chapters = [ChapterInfo(n=n, title="t", start_ms=(n - 1) * 50_000, end_ms=n * 50_000) for n in (1, 2)]
    info = BookInfo(
        id="b", version="v", title="B", duration_ms=100_000, estimated=True, passages=10, chapters=chapters
    )
    book = ServedBook.of(info, passages, "c")
    early = book.distances_from(Part.EARLY)
    late = book.distances_from(Part.LATE)
    assert early is not None
    assert late is not None
    assert early[0] == 0
    assert early[9] == 90_000
    assert late[9] == 0
    assert late[0] == 90_000
    assert book.distances_from(None) is None
    near = replace(FUSION, part_reach_ms=10_000)  # this book lasts 100 s
    served = rank([Scored(i, 1.0 - i / 100) for i in range(10)], [], 3, near, book.chapter_of, placed=late)
    assert served[0].passage_id == 9
