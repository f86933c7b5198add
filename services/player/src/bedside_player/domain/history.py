"""History and lookups over a listener's stream in one book.

Newest first; a limit is the most recent N (order, then slice); superseded positions
stay. A lookup gives the newest match, how many matched and the index of the earliest;
an index is the match's own place in the newest-first list, so paging from it is right
at any page size. The stream sequence is unique, so it is the stable tie-break.
"""

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise, zip_longest
from typing import NamedTuple

from bedside_contracts.player import (
    MOVE_KINDS,
    EventKind,
    FellAsleep,
    HistoryEntry,
    Located,
    LocateRequest,
    PlayerEvent,
    device_meant,
)
from bedside_contracts.search import ChapterInfo, chapter_at

from bedside_player.domain.state import PlayerState, evolve

Match = EventKind | Callable[[HistoryEntry], bool]

LISTENING_BREAK_MS = 3_600_000
"""A stretch of listening is over once the book has sat still this long: "where I was last night",
"where I left off last time" ask for the place before such a break. A pause for a cup of tea is
not one; a night's sleep, a working day or a long dinner is."""


class StoredEvent(NamedTuple):
    """An event as the stream holds it: its sequence, and when the stream stored it (epoch ms)."""

    seq: int
    event: PlayerEvent
    stored_at_ms: int | None = None


def entries(
    listener: str, book: str, stored: Iterable[StoredEvent], chapters: Sequence[ChapterInfo] = ()
) -> list[HistoryEntry]:
    """One entry per stored event, oldest first, with where the book was after it.

    Whether the event placed the book and what made a move are the state's own word
    (``placed_seq``, ``last_move_cause``), so history and every device tell them alike: a
    report, a move, a pause, and the last player leaving place it; a device leaving while
    another plays, a list or a timer do not."""
    state = PlayerState(listener=listener, book=book)
    out: list[HistoryEntry] = []
    for seq, event, stored_at_ms in stored:
        state = evolve(state, event, seq)
        if state.seq != seq:
            continue
        device = getattr(event, "device", None)
        moved = state.last_move_seq == seq
        out.append(
            HistoryEntry(
                seq=seq,
                kind=event.kind,
                position_ms=state.position_ms,
                from_ms=state.before_move_ms if event.kind in MOVE_KINDS else None,
                chapter=(chapter.n if (chapter := chapter_at(chapters, state.position_ms)) else None),
                device=device,
                cause=state.last_move_cause if moved else None,
                asleep_at_ms=event.asleep_at_ms if isinstance(event, FellAsleep) else None,
                placed=state.placed_seq() == seq,
                stored_at_ms=stored_at_ms,
            )
        )
    return out


def newest_first(items: Iterable[HistoryEntry]) -> list[HistoryEntry]:
    return sorted(items, key=lambda e: e.seq, reverse=True)


def history(
    items: Iterable[HistoryEntry],
    limit: int,
    before_seq: int | None = None,
    kind: EventKind | None = None,
) -> list[HistoryEntry]:
    """The most recent ``limit`` entries older than ``before_seq``, newest first."""
    kept = [
        e for e in items if (before_seq is None or e.seq < before_seq) and (kind is None or e.kind == kind)
    ]
    return newest_first(kept)[:limit]


def locate(
    items: Iterable[HistoryEntry],
    match: Match,
    offset: int = 0,
    limit: int = 20,
    *,
    furthest: bool = False,
    now_ms: int,
) -> Located:
    """Find entries by kind or predicate; ``offset`` is a match's index (0 = the newest, or with
    ``furthest`` the one furthest into the book, the newer of two at one place). ``now_ms`` is the
    clock the lookup was made at, said with the answer."""
    test = match if callable(match) else (lambda e: e.kind == match)
    matches = newest_first(e for e in items if test(e))
    if furthest:
        matches.sort(key=lambda e: e.position_ms, reverse=True)  # stable: the newer first at one place
    return Located(
        newest=matches[0] if matches else None,
        count=len(matches),
        earliest_index=len(matches) - 1 if matches else None,
        offset=offset,
        page=matches[offset : offset + limit],
        looked_at_ms=now_ms,
    )


def visit_ends(items: Iterable[HistoryEntry]) -> set[int]:
    """The sequences of the last placing entry of each stay in a chapter the book then left.

    The stay the book is in now has not ended, so none of its entries is here.
    """
    return _last_before(items, lambda here, after: after is not None and here.chapter != after.chapter)


def left_off(items: Iterable[HistoryEntry], now_ms: int) -> set[int]:
    """The sequences of the last placing entry before each break in listening (``LISTENING_BREAK_MS``
    on the stream's own times). The newest counts once the book has sat still that long since: the
    stretch going on now has not ended. An entry without a time cannot be judged, so it is none."""

    def broke_off(here: HistoryEntry, after: HistoryEntry | None) -> bool:
        return _broke_off(here, now_ms if after is None else after.stored_at_ms)

    return _last_before(items, broke_off)


def began(items: Iterable[HistoryEntry]) -> set[int]:
    """The sequences of the first placing entry after each break in listening, and of the very first:
    where each sitting began ("how long have I been listening?")."""
    placing = _placing_oldest_first(items)
    after_breaks = {after.seq for here, after in pairwise(placing) if _broke_off(here, after.stored_at_ms)}
    return after_breaks | {placing[0].seq} if placing else set()


def _placing_oldest_first(items: Iterable[HistoryEntry]) -> list[HistoryEntry]:
    return newest_first(e for e in items if e.placed)[::-1]


def _broke_off(here: HistoryEntry, next_at_ms: int | None) -> bool:
    """Whether the book sat still for a break in listening after ``here``, until ``next_at_ms``; an
    entry without a time cannot be judged, so it is none. The sleep timer's pause is a break at
    once: whoever it paused was asleep, so no one listened on past it, however soon they woke."""
    return here.kind == "fell_asleep" or (
        here.stored_at_ms is not None
        and next_at_ms is not None
        and next_at_ms - here.stored_at_ms >= LISTENING_BREAK_MS
    )


def _last_before(
    items: Iterable[HistoryEntry], apart: Callable[[HistoryEntry, HistoryEntry | None], bool]
) -> set[int]:
    """The sequences of the placing entries, oldest first, that ``apart`` parts from the next placing
    one (None after the newest)."""
    placing = _placing_oldest_first(items)
    return {here.seq for here, after in zip_longest(placing, placing[1:]) if apart(here, after)}


def went(entry: HistoryEntry) -> str | None:
    """Which way a move went: "forward", "back", or None (not a move, or no distance)."""
    if entry.from_ms is None or entry.from_ms == entry.position_ms:
        return None
    return "forward" if entry.position_ms > entry.from_ms else "back"


def lookup(items: Iterable[HistoryEntry], request: LocateRequest, now_ms: int) -> Located:
    """``locate`` with the request's filters, every one given must hold; ``now_ms`` is the player's
    clock, which ends the stretch going on now (``left_off``)."""
    listed = list(items)
    ends = visit_ends(listed) if request.visit_ends else None
    breaks = left_off(listed, now_ms) if request.left_off else None
    starts = began(listed) if request.began else None

    def matches(entry: HistoryEntry) -> bool:
        kind_fits = entry.placed if request.kind is None else entry.kind == request.kind
        return (
            kind_fits
            and (request.chapter is None or entry.chapter == request.chapter)
            and (
                request.device is None
                or (entry.device is not None and device_meant(request.device, entry.device))
            )
            and (request.direction is None or went(entry) == request.direction)
            and (ends is None or entry.seq in ends)
            and (breaks is None or entry.seq in breaks)
            and (starts is None or entry.seq in starts)
            and (not request.moves or entry.kind in MOVE_KINDS)
        )

    return locate(listed, matches, request.offset, request.limit, furthest=request.furthest, now_ms=now_ms)
