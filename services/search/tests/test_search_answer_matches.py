"""What search hands the answer check for one sentence: the holding passage as its heard part, and
its unheard part as a place ahead starting at the line."""

from bedside_search.domain.answer_matches import HoldingScores, sentence_matches
from bedside_search.domain.book import ServedBook
from bedside_search.domain.fusion import Scored
from bedside_search_testing import PASSAGE_MS, small_info, small_passages

BOOK = ServedBook.of(small_info(), small_passages(), "c")
HOLDING = 4
HERE_MS = HOLDING * PASSAGE_MS + 12_000
DENSE = [Scored(HOLDING, 0.9), Scored(7, 0.5), Scored(1, 0.4)]
SPARSE = [Scored(HOLDING, 9.0), Scored(1, 3.0)]


def test_the_holding_passage_is_scored_on_its_heard_words_and_ends_at_the_line() -> None:
    matches = sentence_matches(
        BOOK, DENSE, SPARSE, terms=5, here_ms=HERE_MS, holding_scores=HoldingScores(0.45, 2.0, None, None)
    )
    assert [(m.passage_id, m.score) for m in matches.dense] == [(7, 0.5), (HOLDING, 0.45), (1, 0.4)]
    assert [(m.passage_id, m.score) for m in matches.sparse] == [(1, 3.0), (HOLDING, 2.0)]
    held = next(m for m in matches.sparse if m.passage_id == HOLDING)
    assert (held.end_ms, held.heard(HERE_MS)) == (HERE_MS, True)
    assert [m.heard(HERE_MS) for m in matches.dense] == [False, True, True]
    chapters = {p.id: p.chapter for p in BOOK.passages}
    assert all(m.chapter == chapters[m.passage_id] for m in (*matches.dense, *matches.sparse))


def test_a_holding_passage_none_of_whose_heard_words_the_sentence_uses_has_no_sparse_match() -> None:
    # Its unheard words may share the sentence's terms: they lend it no support.
    matches = sentence_matches(
        BOOK, DENSE, SPARSE, terms=5, here_ms=HERE_MS, holding_scores=HoldingScores(0.45, None, None, None)
    )
    assert [m.passage_id for m in matches.sparse] == [1]
    assert HOLDING in {m.passage_id for m in matches.dense}


def test_a_holding_passage_nothing_of_which_is_heard_is_in_no_ranking() -> None:
    matches = sentence_matches(
        BOOK, DENSE, SPARSE, terms=5, here_ms=HERE_MS, holding_scores=HoldingScores(None, None, None, None)
    )
    assert HOLDING not in {m.passage_id for m in (*matches.dense, *matches.sparse)}


def test_without_a_holding_passage_the_rankings_pass_through() -> None:
    here_ms = HOLDING * PASSAGE_MS  # a passage boundary: nothing holds the line
    matches = sentence_matches(
        BOOK, DENSE, SPARSE, terms=5, here_ms=here_ms, holding_scores=HoldingScores(None, None, None, None)
    )
    assert [m.passage_id for m in matches.dense] == [HOLDING, 7, 1]
    ends = {p.id: p.end_ms for p in BOOK.passages}
    assert all(m.end_ms == ends[m.passage_id] for m in matches.sparse)


def test_the_unheard_part_of_the_holding_passage_is_a_place_ahead_starting_at_the_line() -> None:
    matches = sentence_matches(
        BOOK, DENSE, SPARSE, terms=5, here_ms=HERE_MS, holding_scores=HoldingScores(0.45, 2.0, 0.8, 6.0)
    )
    assert [(m.passage_id, m.score) for m in matches.dense] == [
        (HOLDING, 0.8),
        (7, 0.5),
        (HOLDING, 0.45),
        (1, 0.4),
    ]
    ahead = matches.dense[0]
    assert (ahead.start_ms, ahead.end_ms, ahead.heard(HERE_MS)) == (
        HERE_MS,
        BOOK.passages[HOLDING].end_ms,
        False,
    )
    assert [(m.passage_id, m.score, m.heard(HERE_MS)) for m in matches.sparse] == [
        (HOLDING, 6.0, False),
        (1, 3.0, True),
        (HOLDING, 2.0, True),
    ]
