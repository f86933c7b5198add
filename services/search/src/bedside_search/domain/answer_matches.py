"""What the answer check reads from search for one sentence: pure, no I/O.

The whole book's dense and sparse rankings of the sentence (each passage with its chapter),
shaped into the guard's ``SentenceMatches``. The passage holding the line has been heard only
in part, so it is sent as its heard part (ending at the line), and on both sides it is scored
on its heard words alone (``behind.heard_ranking``): its unheard words lend a sentence no
support.
"""

from collections.abc import Sequence

from bedside_guard import Match, SentenceMatches

from bedside_search.domain.behind import heard_ranking
from bedside_search.domain.book import ServedBook
from bedside_search.domain.fusion import Scored

CHECK_DEPTH = 160
"""How many passages of each ranking the check reads: a stretch is scored on its three best
matches, so the rankings must reach well past the first few chapters that match (adr/0025)."""


def sentence_matches(
    book: ServedBook,
    dense: Sequence[Scored],
    sparse: Sequence[Scored],
    *,
    terms: int,
    here_ms: int,
    holding_cosine: float | None,
    holding_sparse: float | None,
) -> SentenceMatches:
    """The guard's view of one sentence's rankings, the holding passage on its heard words only.

    ``terms`` counts the distinct terms of the sentence's sparse query; ``holding_cosine`` is
    its cosine to the heard words of the passage holding the line and ``holding_sparse`` their
    BM25 score (``ServedBook.heard_sparse_score``); each None when nothing of it is heard (the
    sparse one also when no term of the sentence is), or no passage holds the line.
    """
    holding = book.holding(here_ms)
    holding_id = holding.id if holding is not None else None
    dense = heard_ranking(dense, holding_id, holding_cosine, CHECK_DEPTH)
    sparse = heard_ranking(sparse, holding_id, holding_sparse, CHECK_DEPTH)

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

    return SentenceMatches(
        terms=terms,
        dense=tuple(match(s.passage_id, s.score) for s in dense),
        sparse=tuple(match(s.passage_id, s.score) for s in sparse),
    )
