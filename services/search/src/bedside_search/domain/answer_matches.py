"""What the answer check reads from search for one sentence: pure, no I/O.

The whole book's dense and sparse rankings of the sentence (each passage with its chapter),
shaped into the guard's ``SentenceMatches``. The passage holding the line has been heard only
in part, so it is sent as two: its heard part (ending at the line), scored on its heard words
alone (``behind.heard_ranking``), and its unheard part, a place ahead starting at the line.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from bedside_guard import Match, SentenceMatches

from bedside_search.domain.behind import heard_ranking
from bedside_search.domain.book import ServedBook
from bedside_search.domain.fusion import Scored

CHECK_DEPTH = 160
"""How many passages of each ranking the check reads: a stretch is scored on its three best
matches, so the rankings must reach well past the first few chapters that match (adr/0025)."""


@dataclass(frozen=True)
class HoldingScores:
    """One sentence scored on the two parts of the passage holding the line: its heard words and
    its words not heard yet (cosine, BM25); None where that part has no words, or no term of the
    sentence is among them (BM25)."""

    heard_cosine: float | None
    heard_sparse: float | None
    unheard_cosine: float | None
    unheard_sparse: float | None


def sentence_matches(
    book: ServedBook,
    dense: Sequence[Scored],
    sparse: Sequence[Scored],
    *,
    terms: int,
    here_ms: int,
    holding_scores: HoldingScores,
) -> SentenceMatches:
    """The guard's view of one sentence's rankings, the holding passage split at the line.

    ``terms`` counts the distinct terms of the sentence's sparse query. The holding passage is
    ranked on its heard words as a place heard, and on its unheard words as a place ahead
    starting at the line: a sentence telling the rest of the passage playing is judged as one
    telling a later passage would be.
    """
    holding = book.holding(here_ms)
    holding_id = holding.id if holding is not None else None
    dense = heard_ranking(dense, holding_id, holding_scores.heard_cosine, CHECK_DEPTH)
    sparse = heard_ranking(sparse, holding_id, holding_scores.heard_sparse, CHECK_DEPTH)

    def match(passage_id: int, score: float) -> Match:
        passage = book.passage(passage_id)
        if passage is None:  # the store and the catalog disagree: a bug
            raise RuntimeError(f"book {book.id} has no passage {passage_id} in memory")
        end_ms = here_ms if holding is not None and passage_id == holding.id else passage.end_ms
        return Match(
            passage_id=passage_id,
            chapter=passage.chapter,
            start_ms=passage.start_ms,
            end_ms=end_ms,
            score=score,
        )

    def with_unheard(matches: list[Match], score: float | None) -> tuple[Match, ...]:
        if holding is None or score is None:
            return tuple(matches)
        rest = Match(
            passage_id=holding.id,
            chapter=holding.chapter,
            start_ms=here_ms,
            end_ms=holding.end_ms,
            score=score,
        )
        return tuple(sorted([*matches, rest], key=lambda m: -m.score))

    return SentenceMatches(
        terms=terms,
        dense=with_unheard([match(s.passage_id, s.score) for s in dense], holding_scores.unheard_cosine),
        sparse=with_unheard([match(s.passage_id, s.score) for s in sparse], holding_scores.unheard_sparse),
    )
