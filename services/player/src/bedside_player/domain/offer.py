"""The offer arithmetic: how the places a turn names become a move, a list, or a refusal.

This is the one way a goto ends. Targets are deduplicated, those that resolve to nothing
are dropped, several that land on one place count once; then

- no place left: refused, with a reason the model can act on;
- more than one place: a list (at most four rows, in the order given);
- one place ahead of the listener: a list of one covered row (the press is the consent);
- one place behind: a move, unless the turn may no longer move (then one row to press).

Whether a place is ahead is ``bedside_guard.ahead_of``; rows are guard ``Candidate``s.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from bedside_contracts.player import ListOffered, Moved, OfferOutcome, OfferPositions, PlayerEvent, SleepTimer
from bedside_contracts.search import ChapterInfo, Resolution, Target
from bedside_guard import MAX_ROWS, Candidate, ahead_of, chapter_name, distinct_rows

from bedside_player.domain import sleep


@dataclass(frozen=True)
class OfferDecision:
    outcome: OfferOutcome
    event: PlayerEvent | None = None
    """What is appended: the list drawn or the move made; nothing for a refusal."""


def unique_targets(targets: list[Target]) -> list[Target]:
    """The targets without repeats, in the order given (the same id twice is one target)."""
    seen: set[Target] = set()
    unique: list[Target] = []
    for target in targets:
        if target not in seen:
            seen.add(target)
            unique.append(target)
    return unique


def describe(target: Target) -> str:
    if target.passage_id is not None:
        return f"id={target.passage_id}"
    if target.chapter is not None:
        return chapter_name(target.chapter)
    if target.chapter_end is not None:
        return f"the end of {chapter_name(target.chapter_end)}"
    if target.position_ms is not None:
        return f"position_ms={target.position_ms}"
    return f"offset_ms={target.offset_ms}"


def places(resolutions: list[Resolution], here_ms: int) -> tuple[list[Candidate], list[str]]:
    """One covered row per distinct place, in the order given, and what did not resolve."""
    rows: list[Candidate] = []
    unresolved: list[str] = []
    for resolution in resolutions:
        if resolution.passage is None:
            why = f": {resolution.reason}" if resolution.reason else ""
            unresolved.append(f"{describe(resolution.target)}{why}")
            continue
        at_ms = resolution.passage.start_ms if resolution.at_ms is None else resolution.at_ms
        try:
            row = Candidate.covering(
                resolution.passage,
                here_ms,
                at_ms=at_ms,
                chapter_named=resolution.named == "chapter",
                chapter_end=resolution.target.chapter_end is not None,
            )
        except ValueError:
            unresolved.append(f"{describe(resolution.target)}: resolved outside its passage")
            continue
        rows.append(row)
    return distinct_rows(rows), unresolved


SEARCH_AGAIN = (
    "Search again with find_passage and offer ids taken from its lines, or say you could not find it."
)
NAME_ANOTHER = "Name a chapter or a time the book has instead, or tell them it has none."
TELL_THEM = "Tell them so plainly: searching again will not find it."


def refusal_reason(resolutions: list[Resolution], unresolved: list[str]) -> str:
    """Why an offer came to no place, and the one piece of advice that fits it: search again only
    when an id named is not in the book (a search gives ids); another chapter or time when one named
    is not in it; else (a jump back from the book's very start) only that there is nowhere to go."""
    named = "; ".join(unresolved) if unresolved else "nothing"
    failed = [r.target for r in resolutions if r.passage is None] or [r.target for r in resolutions]
    if not failed or any(t.passage_id is not None for t in failed):
        advice = SEARCH_AGAIN
    elif any(t.offset_ms is None for t in failed):
        advice = NAME_ANOTHER
    else:
        advice = TELL_THEM
    return f"none of the places named is a place in this book ({named}). {advice}"


def decide_offer(
    request: OfferPositions,
    resolutions: list[Resolution],
    here_ms: int,
    *,
    timer: SleepTimer | None = None,
    chapters: Sequence[ChapterInfo] = (),
    book_end_ms: int | None = None,
    now_ms: int | None = None,
) -> OfferDecision:
    """What an offer does for a listener at ``here_ms``, given search's resolutions of its targets.

    A move carries where a running chapter-end ``timer`` stops once it is made (``chapters`` and
    ``book_end_ms`` are the book's), and what was asked and when (``now_ms``, the player's clock),
    for another device that heard the same request (``heard_twice``)."""
    rows, unresolved = places(resolutions, here_ms)
    if not rows:
        missing = next((r.missing_chapter for r in resolutions if r.missing_chapter is not None), None)
        return OfferDecision(
            OfferOutcome(
                outcome="refused",
                reason=refusal_reason(resolutions, unresolved),
                unresolved=unresolved,
                missing_chapter=missing,
            )
        )
    if len(rows) > 1 or ahead_of(rows[0].start_ms, here_ms) or not request.may_move:
        shown = rows[:MAX_ROWS]
        return OfferDecision(
            OfferOutcome(outcome="listed", rows=shown, unresolved=unresolved),
            ListOffered(rows=shown, turn_id=request.turn_id),
        )
    place = rows[0]
    return OfferDecision(
        OfferOutcome(
            outcome="moved", rows=[place], moved_from_ms=here_ms, moved_to=place, unresolved=unresolved
        ),
        Moved(
            cause="goto",
            from_ms=here_ms,
            to_ms=place.start_ms,
            turn_id=request.turn_id,
            device=request.device,
            chapter_end_ms=sleep.chapter_end_after_move(timer, place.start_ms, chapters, book_end_ms),
            book_end_ms=book_end_ms,
            request_key=request.heard.request_key if request.heard else None,
            made_at_ms=now_ms,
        ),
    )
