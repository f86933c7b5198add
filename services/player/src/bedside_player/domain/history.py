"""History and lookups over a listener's stream in one book.

Newest first; a limit is the most recent N (order, then slice); superseded positions
stay. A lookup gives the newest match, how many matched and the index of the earliest;
an index is the match's own place in the newest-first list, so paging from it is right
at any page size. The stream sequence is unique, so it is the stable tie-break.
"""

from collections.abc import Callable, Iterable, Sequence

from bedside_contracts.player import EventKind, HistoryEntry, Located, PlayerEvent
from bedside_contracts.search import ChapterInfo

from bedside_player.domain.state import PlayerState, evolve

Match = EventKind | Callable[[HistoryEntry], bool]


def chapter_at(chapters: Sequence[ChapterInfo], position_ms: int) -> int | None:
    """The chapter that holds ``position_ms`` (the last one starting at or before it)."""
    found: int | None = None
    for chapter in sorted(chapters, key=lambda c: c.start_ms):
        if chapter.start_ms <= position_ms:
            found = chapter.n
    return found


def entries(
    listener: str, book: str, stored: Iterable[tuple[int, PlayerEvent]], chapters: Sequence[ChapterInfo] = ()
) -> list[HistoryEntry]:
    """One entry per stored event, oldest first, with where the book was after it."""
    state = PlayerState(listener=listener, book=book)
    out: list[HistoryEntry] = []
    for seq, event in stored:
        state = evolve(state, event, seq)
        if state.seq != seq:
            continue
        device = getattr(event, "device", None)
        cause = getattr(event, "cause", None) or (event.kind if event.kind in ("seeked", "pressed") else None)
        out.append(
            HistoryEntry(
                seq=seq,
                kind=event.kind,
                position_ms=state.position_ms,
                chapter=chapter_at(chapters, state.position_ms),
                device=device,
                cause=cause,
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


def locate(items: Iterable[HistoryEntry], match: Match, offset: int = 0, limit: int = 20) -> Located:
    """Find entries by kind or predicate; ``offset`` is a match's index (0 = the newest)."""
    test = match if callable(match) else (lambda e: e.kind == match)
    matches = newest_first(e for e in items if test(e))
    return Located(
        newest=matches[0] if matches else None,
        count=len(matches),
        earliest_index=len(matches) - 1 if matches else None,
        offset=offset,
        page=matches[offset : offset + limit],
    )
