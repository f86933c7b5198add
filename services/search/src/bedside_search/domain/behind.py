"""Recall's rules: what counts as heard, and when something behind has "come up": pure.

The engine only ever returns passages that start before the line (a Range filter inside
every query). The one passage that holds the line may have been heard only in part, so
its words past the line must not decide anything: it is re-scored on its heard words
alone, or dropped when none of them are heard: in both rankings before fusion
(``heard_ranking``), and by meaning again after it (``account_for_holding``).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bedside_search.domain.fusion import Fused, FusionRule, Scored, lifted_first, served_order
from bedside_search.domain.subject import (
    TITLE_WEIGHT,
    Naming,
    introduced_order,
    mentioned_first,
    title_nudged,
    told_first,
)

COME_UP_THRESHOLD = 0.34
"""The least cosine between a question and a heard passage for recall to say it has come up.

It errs towards answering: saying "not yet" about something heard is the worse mistake,
and a weak answer only ever shows heard words (measured: the search README).
"""


@dataclass(frozen=True)
class Heard:
    """The passage holding the line, as far as it has been heard."""

    passage_id: int
    cosine: float | None
    """The question's cosine to the heard words; None when nothing of it has been heard."""


def heard_ranking(
    ranking: Sequence[Scored], holding_id: int | None, heard_score: float | None, depth: int
) -> list[Scored]:
    """``ranking`` with the passage holding the line scored on its heard words only.

    The store scored it on all its words, those past the line too: it leaves that place and is
    put back by ``heard_score`` (ties in id order, as the stores put them), or left out when
    that is None (nothing of it heard, or, on the sparse side, no term of the query among its
    heard words, as the store lists only passages sharing a term). Cut to ``depth``.
    """
    if holding_id is None:
        return list(ranking)[:depth]
    rest = [s for s in ranking if s.passage_id != holding_id]
    if heard_score is None:
        return rest[:depth]
    at = next(
        (i for i, s in enumerate(rest) if (-s.score, s.passage_id) > (-heard_score, holding_id)), len(rest)
    )
    return [*rest[:at], Scored(holding_id, heard_score), *rest[at:]][:depth]


def account_for_holding(ranked: list[Fused], holding: Heard | None) -> list[Fused]:
    """The ranking with the holding passage judged on its heard words only.

    It leaves its fused place (which its unheard words helped earn) and is put back
    among the others by its heard-words cosine, or left out when nothing was heard.
    """
    if holding is None or all(f.passage_id != holding.passage_id for f in ranked):
        return ranked
    rest = [f for f in ranked if f.passage_id != holding.passage_id]
    if holding.cosine is None:
        return rest
    rescored = replace(next(f for f in ranked if f.passage_id == holding.passage_id), dense=holding.cosine)
    position = next((i for i, f in enumerate(rest) if f.dense is None or f.dense < holding.cosine), len(rest))
    return [*rest[:position], rescored, *rest[position:]]


def has_come_up(ranked: list[Fused], threshold: float = COME_UP_THRESHOLD) -> bool:
    """True when some heard passage is close enough in meaning to the question."""
    return any(f.dense is not None and f.dense >= threshold for f in ranked)


def recalled_order(
    ranked: list[Fused],
    holding: Heard | None,
    limit: int,
    rule: FusionRule,
    chapter_of: Mapping[int, int],
    *,
    naming: Mapping[str, Sequence[Naming]] | None = None,
    whereabouts: bool = False,
    opening_chapter: int | None = None,
    titles: Mapping[int, float] | None = None,
    agreed: int | None = None,
    mentions: Sequence[int] = (),
    tellings: Sequence[int] = (),
) -> list[Fused] | None:
    """What recall serves of its bounded ranking, best first; None when nothing heard has come up.

    ``naming``: for a "who is X?" question, the heard passages that write each word of X as a
    name; when every word has some, X has come up and those passages answer (``subject.py``), the
    latest first when the question asks where X is (``whereabouts``), the book's opening chapter
    first when it names X (``opening_chapter``).
    Otherwise coming up is judged on every candidate, before the cut to ``limit``, and heard
    chapter titles matching the question (``titles``, each chapter's share) raise its passages,
    and the passage both rankings point at (``agreed``, ``fusion.agreed_best``) takes the best
    fused score first, so only a heard title matching the question can still raise another chapter.
    ``mentions``: for "remind me about X" with X a thing, the heard passages that hold every word
    of X (story order); when there are some, X has come up and they answer first, in this order.
    ``tellings``: for "what's the pony called?", the heard passages that tell its name (story order);
    when there are some, they answer first in that order, the book's introduction of the name first.
    """
    heard = account_for_holding(ranked, holding)
    if naming:
        introduced = introduced_order(naming, heard, latest=whereabouts, opening_chapter=opening_chapter)
        if introduced is not None:
            return served_order(introduced, rule, chapter_of)[:limit]
    if tellings:
        return served_order(told_first(tellings, heard), rule, chapter_of)[:limit]
    if not mentions and not has_come_up(heard):
        return None
    # The nudge re-sorts by fused score, which the holding passage's unheard words helped earn:
    # nudge first, then put the holding passage back by its heard words.
    lifted = lifted_first(ranked, agreed)
    nudged = account_for_holding(title_nudged(lifted, titles or {}, chapter_of, TITLE_WEIGHT), holding)
    return served_order(mentioned_first(mentions, nudged), rule, chapter_of)[:limit]
