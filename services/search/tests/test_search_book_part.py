"""The part of the book a request names, and how find favours it."""

import pytest
from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_guard import Passage
from bedside_search.domain.book import ServedBook
from bedside_search.domain.book_part import PART_SHARE, Part, in_part, part_named
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
    ],
)
def test_no_part_when_the_words_place_something_else_or_both_ends(query: str) -> None:
    assert part_named(query) is None


def test_in_part_splits_the_narration_time() -> None:
    duration = 100_000
    edge = int(duration * PART_SHARE)
    assert in_part(0, duration, Part.EARLY)
    assert in_part(edge - 1, duration, Part.EARLY)
    assert not in_part(edge, duration, Part.EARLY)
    assert not in_part(duration - edge - 1, duration, Part.LATE)
    assert in_part(duration - edge, duration, Part.LATE)
    assert not in_part(0, 0, Part.LATE)  # an empty book has no end to favour


DENSE = [Scored(1, 0.9), Scored(2, 0.8), Scored(3, 0.7)]
SPARSE = [Scored(1, 9.0), Scored(2, 8.0), Scored(3, 7.0)]


def test_favoured_passages_rise_and_nothing_else_changes() -> None:
    rule = FusionRule(k=60, part_weight=1.0)
    plain = fuse(DENSE, SPARSE, 3, rule)
    favoured = fuse(DENSE, SPARSE, 3, rule, favoured={3})
    assert [f.passage_id for f in plain] == [1, 2, 3]
    assert [f.passage_id for f in favoured] == [3, 1, 2]
    assert favoured[0].score == pytest.approx(2 * plain[2].score)
    assert favoured[1:] == plain[:2]
    assert fuse(DENSE, SPARSE, 3, FusionRule(k=60), favoured={3}) == plain  # no weight, no prior
    assert FUSION.part_weight > 0  # the served rule favours the part named


def test_a_served_book_knows_which_passages_lie_in_each_part() -> None:
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
    assert book.passages_in(Part.EARLY) == {0, 1}
    assert book.passages_in(Part.LATE) == {8, 9}
    assert book.passages_in(None) == frozenset()
    served = rank([Scored(i, 1.0 - i / 100) for i in range(10)], [], 3, FUSION, book.chapter_of, favoured={9})
    assert served[0].passage_id == 9
