"""The pure rules of search: term encoding, fusion, recall's heard-words rule, resolving places."""

import pytest
from bedside_contracts.search import MissingChapter, Target
from bedside_guard import stem
from bedside_search.domain.behind import (
    Heard,
    account_for_holding,
    has_come_up,
    heard_ranking,
    recalled_order,
)
from bedside_search.domain.book import ServedBook
from bedside_search.domain.fusion import FUSION, Fused, FusionRule, Scored, agreed_best, chapter_nudged, fuse
from bedside_search.domain.places import NOTHING_BEFORE_THE_START, resolve, resolve_one
from bedside_search.domain.terms import average_length, encode_document, encode_query, term_index, terms
from bedside_search_testing import PASSAGE_MS, chapters_of, small_info, small_passages


def test_stemming_makes_forms_of_a_word_meet() -> None:
    assert stem("dies") == stem("died") == "die"
    assert stem("horses") == stem("horse")
    assert stem("stopped") == stem("stop")
    assert stem("frightened") == stem("frighten")


def test_queries_drop_function_and_navigation_words_but_passages_keep_navigation_words() -> None:
    assert terms("take me back to the bit where the horse dies", query=True) == ["hors", "die"]
    assert "back" in terms("he came back to the stable")


def test_document_weights_saturate_and_favour_short_passages() -> None:
    once = encode_document("lantern", average_terms=10)
    thrice = encode_document("lantern lantern lantern", average_terms=10)
    long_once = encode_document("lantern " + "harbour " * 30, average_terms=10)
    idx = once.indices.index(term_index("lantern"))
    assert thrice.values[0] > once.values[idx]
    assert thrice.values[0] < 3 * once.values[idx]  # saturation
    assert long_once.values[long_once.indices.index(term_index("lantern"))] < once.values[idx]


def test_query_terms_are_unit_weights_in_index_order() -> None:
    encoded = encode_query("lantern lantern harbour")
    assert encoded.values == [1.0, 1.0]
    assert encoded.indices == sorted(encoded.indices)
    assert encode_query("the and of").indices == []
    assert average_length([]) == 1.0


def test_rrf_rewards_agreement_and_breaks_ties_on_id() -> None:
    dense = [Scored(1, 0.9), Scored(2, 0.8), Scored(3, 0.7)]
    sparse = [Scored(2, 12.0), Scored(9, 5.0), Scored(3, 1.0)]
    fused = fuse(dense, sparse, 3, FusionRule(k=60))
    assert [f.passage_id for f in fused] == [2, 3, 1]
    assert fused[0].dense == 0.8
    tie = fuse([Scored(5, 0.5)], [Scored(4, 1.0)], 2, FusionRule(k=60))
    assert [f.passage_id for f in tie] == [4, 5]
    assert tie[0].dense is None


def test_weights_tilt_fusion() -> None:
    dense = [Scored(1, 0.9), Scored(2, 0.1)]
    sparse = [Scored(2, 9.0), Scored(1, 0.1)]
    assert fuse(dense, sparse, 1, FusionRule(k=10, dense_weight=2))[0].passage_id == 1
    assert fuse(dense, sparse, 1, FusionRule(k=10, sparse_weight=2))[0].passage_id == 2


def test_the_chapter_nudge_lifts_passages_whose_chapter_also_matched() -> None:
    dense = [Scored(1, 0.9), Scored(10, 0.8), Scored(11, 0.7)]
    sparse = [Scored(1, 9.0), Scored(11, 8.0), Scored(10, 7.0)]
    chapters = {1: 1, 10: 2, 11: 2}
    plain = fuse(dense, sparse, 3, FusionRule(k=60))
    nudged = fuse(dense, sparse, 3, FusionRule(k=60, chapter_weight=0.5), chapters)
    assert plain[0].passage_id == 1
    assert [f.passage_id for f in nudged] == [10, 11, 1]
    assert nudged[0].dense == 0.8
    assert fuse(dense, sparse, 3, FusionRule(k=60, chapter_weight=0.5)) == plain  # no chapters: no nudge


def test_when_few_passages_are_searched_the_nudge_adds_up_only_the_best_of_them() -> None:
    # What was heard of a short book, all inside the pool: the moment (passage 1, chapter 1)
    # ranks first on both sides, one passage each of chapters 3-8 next, and then the six
    # passages of the longest chapter heard, chapter 2, each matching a little.
    ranked = [1, *range(30, 36), *range(20, 26)]
    dense = [Scored(pid, 1.0 - rank / 100) for rank, pid in enumerate(ranked)]
    sparse = [Scored(pid, 10.0 - rank / 10) for rank, pid in enumerate(ranked)]
    chapters = {1: 1} | {pid: pid - 27 for pid in range(30, 36)} | dict.fromkeys(range(20, 26), 2)
    rule = FusionRule(k=60, chapter_weight=0.2, pool=40, nudge_share=0.1, nudge_least=3)
    whole_pool = fuse(dense, sparse, 3, rule, chapters)  # searched unknown: the whole pool counts
    assert chapters[whole_pool[0].passage_id] == 2
    best_only = fuse(dense, sparse, len(ranked), rule, chapters, searched=len(ranked))
    assert [f.passage_id for f in best_only] == ranked


def test_a_pooled_passage_outside_the_counted_best_gains_from_its_counted_chapter_mates() -> None:
    scores = {1: 0.05, 2: 0.04, 3: 0.03, 4: 0.02}
    chapters = {1: 1, 2: 2, 3: 1, 4: 2}
    nudged = chapter_nudged(scores, 0.5, pool=4, chapter_of=chapters, counted=2)
    assert nudged == pytest.approx({1: 0.05, 2: 0.04, 3: 0.03 + 0.5 * 0.05, 4: 0.02 + 0.5 * 0.04})


def test_the_nudge_counts_a_share_of_what_was_searched_within_its_bounds() -> None:
    rule = FusionRule(pool=40, nudge_share=0.1, nudge_least=8)
    assert [rule.nudge_counts(n) for n in (30, 80, 150, 400, 2_000)] == [8, 8, 15, 40, 40]
    assert rule.nudge_counts(None) == 40
    assert FusionRule(pool=40).nudge_counts(30) == 40  # no share: the whole pool, as before


def test_the_holding_passage_is_judged_on_its_heard_words_only() -> None:
    ranked = [Fused(7, 0.03, 0.9), Fused(3, 0.02, 0.5), Fused(2, 0.01, 0.4)]
    assert [f.passage_id for f in account_for_holding(ranked, Heard(7, 0.45))] == [3, 7, 2]
    assert account_for_holding(ranked, Heard(7, 0.45))[1].dense == 0.45
    assert [f.passage_id for f in account_for_holding(ranked, Heard(7, None))] == [3, 2]
    assert account_for_holding(ranked, Heard(99, 0.1)) == ranked
    assert account_for_holding(ranked, None) == ranked


def test_a_ranking_counts_the_holding_passage_by_its_heard_words_only() -> None:
    ranking = [Scored(7, 9.0), Scored(3, 5.0), Scored(2, 4.0)]
    assert heard_ranking(ranking, 7, 4.5, 10) == [Scored(3, 5.0), Scored(7, 4.5), Scored(2, 4.0)]
    assert heard_ranking(ranking, 7, None, 10) == [Scored(3, 5.0), Scored(2, 4.0)]
    # Heard words can score it where its whole passage did not reach: it comes in, the last goes.
    assert heard_ranking(ranking[1:], 7, 6.0, 2) == [Scored(7, 6.0), Scored(3, 5.0)]
    tied = [Scored(7, 9.0), Scored(2, 4.0), Scored(3, 4.0)]
    assert heard_ranking(ranking, 3, 4.0, 10) == tied  # ties in id order
    assert heard_ranking(ranking, None, None, 2) == ranking[:2]


def test_a_heard_title_does_not_bring_back_the_holding_passages_unheard_score() -> None:
    # Passage 7 holds the line: its fused score came partly from words not yet heard.
    ranked = [Fused(7, 0.05, 0.9), Fused(1, 0.04, 0.6), Fused(3, 0.035, 0.5)]
    chapter_of = {7: 3, 1: 1, 3: 2}
    holding = Heard(7, 0.1)

    def served(titles: dict[int, float]) -> list[int]:
        order = recalled_order(ranked, holding, 2, FUSION, chapter_of, titles=titles)
        return [f.passage_id for f in order or []]

    assert served({}) == [1, 3]
    assert served({2: 1.0}) == [3, 1]  # the titled chapter's passage rises; 7 stays out
    assert 7 not in served({1: 1.0, 2: 0.5})


def test_both_rankings_pointing_into_one_chapter_agree_on_its_better_passage() -> None:
    chapter_of = {1: 1, 2: 1, 3: 2, 4: 2}
    dense = [Scored(3, 0.6), Scored(1, 0.5), Scored(4, 0.4)]
    assert agreed_best(dense, [Scored(3, 4.0), Scored(1, 3.0)], FUSION, chapter_of) == 3
    # The best by words is another passage of the same chapter, ranked higher on both sides.
    assert agreed_best(dense, [Scored(4, 4.0), Scored(3, 3.5)], FUSION, chapter_of) == 3
    assert agreed_best(dense, [Scored(4, 4.0)], FUSION, chapter_of) == 4
    # A mirrored tie goes to the best by meaning.
    assert (
        agreed_best([Scored(3, 0.6), Scored(4, 0.5)], [Scored(4, 4.0), Scored(3, 3.0)], FUSION, chapter_of)
        == 3
    )
    assert agreed_best(dense, [Scored(1, 4.0)], FUSION, chapter_of) is None  # two chapters
    assert agreed_best(dense, [], FUSION, chapter_of) is None
    # The passage holding the line is judged by neither ranking.
    assert agreed_best(dense, [Scored(3, 4.0), Scored(1, 3.0)], FUSION, chapter_of, leaving_out=3) == 1


def test_the_agreed_passage_comes_first_over_a_longer_chapter_sharing_the_topic() -> None:
    # Chapter 1 has three passages on the topic: their nudge puts passage 1 above passage 5,
    # which both rankings put first.
    chapter_of = {1: 1, 2: 1, 3: 1, 5: 2}
    ranked = [Fused(1, 0.058, 0.41), Fused(2, 0.057, 0.42), Fused(5, 0.040, 0.57), Fused(3, 0.039, 0.40)]
    order = recalled_order(ranked, None, 4, FUSION, chapter_of, agreed=5)
    assert order is not None
    assert [f.passage_id for f in order] == [5, 1, 2, 3]
    plain = recalled_order(ranked, None, 4, FUSION, chapter_of, agreed=None)
    assert [f.passage_id for f in plain or []] == [1, 5, 2, 3]
    # A heard title matching the question may still raise its chapter above the agreed passage.
    titled = recalled_order(ranked, None, 4, FUSION, chapter_of, titles={1: 1.0}, agreed=5)
    assert titled is not None
    assert titled[0].passage_id == 1


def test_come_up_needs_a_close_enough_heard_passage() -> None:
    assert has_come_up([Fused(1, 0.1, 0.5)], threshold=0.4)
    assert not has_come_up([Fused(1, 0.1, 0.3), Fused(2, 0.1, None)], threshold=0.4)
    assert not has_come_up([], threshold=0.4)


@pytest.fixture
def book() -> ServedBook:
    return ServedBook.of(small_info(), small_passages(), "c")


def test_a_passage_id_resolves_to_that_passage(book: ServedBook) -> None:
    found = resolve_one(book, 0, Target(passage_id=4))
    assert found.passage is not None
    assert (found.passage.id, found.at_ms, found.named) == (4, 4 * PASSAGE_MS, "passage")
    missing = resolve_one(book, 0, Target(passage_id=400))
    assert missing.passage is None
    assert "400" in missing.reason


def test_a_chapter_resolves_to_its_first_passage_and_an_unknown_one_says_which_exist(
    book: ServedBook,
) -> None:
    found = resolve_one(book, 0, Target(chapter=3))
    assert found.passage is not None
    assert (found.passage.id, found.named) == (6, "chapter")
    missing = resolve_one(book, 0, Target(chapter=9))
    assert missing.passage is None
    assert missing.reason == "the book has no chapter 9 (chapters 1 to 4)"
    assert missing.missing_chapter == MissingChapter(named=9, count=4, first=1, last=4)
    assert "Ferry" not in missing.reason


def test_the_end_of_a_chapter_resolves_to_its_closing_passage_as_a_chapter_named(book: ServedBook) -> None:
    found = resolve_one(book, 0, Target(chapter_end=3))
    assert found.passage is not None
    # The listener named chapter 3, so a covered row for its end ahead keeps the number: the
    # chapter list is public ("end of chapter 3, further on", not a bare "further on").
    assert (found.passage.id, found.at_ms, found.named) == (8, 8 * PASSAGE_MS, "chapter")
    missing = resolve_one(book, 0, Target(chapter_end=9))
    assert missing.passage is None
    assert missing.missing_chapter == MissingChapter(named=9, count=4, first=1, last=4)


def test_a_time_resolves_to_the_passage_holding_it(book: ServedBook) -> None:
    found = resolve_one(book, 0, Target(position_ms=95_000))
    assert found.passage is not None
    assert (found.passage.id, found.at_ms, found.named) == (3, 95_000, "time")
    past = resolve_one(book, 0, Target(position_ms=book.info.duration_ms + 1))
    assert past.passage is None
    assert "past the end" in past.reason


def test_offsets_are_relative_to_the_line_and_clamped_to_the_book(book: ServedBook) -> None:
    back = resolve_one(book, 200_000, Target(offset_ms=-60_000))
    assert back.passage is not None
    assert (back.passage.id, back.at_ms) == (4, 140_000)
    before_start = resolve_one(book, 10_000, Target(offset_ms=-3_600_000))
    assert before_start.passage is not None
    assert (before_start.passage.id, before_start.at_ms) == (0, 0)
    past_end = resolve_one(book, 10_000, Target(offset_ms=3_600_000))
    assert past_end.passage is not None
    assert (past_end.passage.id, past_end.at_ms) == (11, book.info.duration_ms)


def test_a_jump_back_from_the_very_start_is_no_place_not_the_start_listed_as_further_on() -> None:
    """Clamped to the book's start, a jump back from at or before it would land on the line or ahead."""
    passages = [p.model_copy(update={"start_ms": max(p.start_ms, 1_000)}) for p in small_passages()]
    late = ServedBook.of(small_info(), passages, collection="")
    for here in (0, 500, 1_000):
        back = resolve_one(late, here, Target(offset_ms=-300_000))
        assert back.passage is None
        assert back.reason == NOTHING_BEFORE_THE_START
    just_in = resolve_one(late, 1_500, Target(offset_ms=-300_000))
    assert just_in.passage is not None
    assert (just_in.passage.id, just_in.at_ms) == (0, 1_000)
    ahead = resolve_one(late, 0, Target(offset_ms=60_000))  # forward from the start still goes on
    assert ahead.passage is not None


def test_targets_resolve_in_order_each_reported(book: ServedBook) -> None:
    targets = [Target(passage_id=6), Target(chapter=3), Target(passage_id=99), Target(position_ms=180_000)]
    resolved = resolve(book, 0, targets)
    assert [r.passage.id if r.passage else None for r in resolved] == [6, 6, None, 6]
    assert [r.target for r in resolved] == targets


def test_a_time_in_a_gap_moves_forward_to_where_narration_resumes() -> None:
    passages = small_passages()
    shifted = [
        p if p.chapter < 2 else p.model_copy(update={"start_ms": p.start_ms + 5_000}) for p in passages
    ]
    gappy = ServedBook.of(small_info(), shifted, "c")
    found = resolve_one(gappy, 0, Target(position_ms=91_000))
    assert found.passage is not None
    assert (found.passage.id, found.at_ms) == (3, 95_000)


def test_a_jump_back_into_a_gap_stays_behind_the_line() -> None:
    """ "Go back 1 second" in the pause before a chapter offered the chapter's start, further on (a red
    team of the line): the quiet moved forward to where narration resumes, past where the jump began."""
    passages = small_passages()
    shifted = [
        p if p.chapter < 2 else p.model_copy(update={"start_ms": p.start_ms + 5_000}) for p in passages
    ]
    gappy = ServedBook.of(small_info(), shifted, "c")
    back = resolve_one(gappy, 93_000, Target(offset_ms=-1_000))
    assert back.passage is not None
    assert (back.passage.id, back.at_ms) == (2, 90_000)
    on = resolve_one(gappy, 90_500, Target(offset_ms=1_000))  # forward still goes on to the narration
    assert on.passage is not None
    assert (on.passage.id, on.at_ms) == (3, 95_000)


def test_the_holding_passage_is_the_one_the_line_is_inside(book: ServedBook) -> None:
    assert book.holding(0) is None
    assert book.holding(30_000) is None  # on a boundary: nothing is partly heard
    holding = book.holding(45_000)
    assert holding is not None
    assert holding.id == 1


def test_a_missing_chapter_counts_the_chapters_without_the_opening() -> None:
    """The turn says "it has 4 chapters, 1 to 4" of the same book: the opening is no chapter."""
    passages = [p.model_copy(update={"chapter": 0}) if p.id == 0 else p for p in small_passages()]
    info = small_info().model_copy(update={"chapters": chapters_of(passages)})
    missing = resolve_one(ServedBook.of(info, passages, "c"), 0, Target(chapter=9))
    assert missing.reason == "the book has no chapter 9 (chapters 1 to 4)"
    assert missing.missing_chapter == MissingChapter(named=9, count=4, first=1, last=4)
