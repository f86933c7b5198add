"""A place from the listener's own history, as offer_positions names it: plain code, no I/O.

"The last time I was in chapter 5" is where the most recent stay in chapter 5 ended;
"before I skipped ahead" is where the newest forward move started; "the last time on the
speaker" is the newest place the speaker put the book; "where I fell asleep" is the
estimate the newest sleep-timer pause recorded, and "where the timer stopped" where that pause put the
book; "where I was furthest" is the place furthest
into the book the history holds; "where I was last night" is where the book was before the newest
hour or more it sat still (the player's ``left_off``, on the stream's own times), and "where I
started tonight" where the listening after that break began (its ``began``). ``times_back``
pages to older matches ("the time before that"): it is the match's own index in the player's lookup.
"""

from bedside_contracts.player import HistoryEntry, LocateRequest
from bedside_contracts.turn import OfferPositionsArgs


def lookup_for(args: OfferPositionsArgs, listener: str, book: str) -> LocateRequest | None:
    """The player lookup an offer's earlier place asks for (None when it names none)."""
    if not args.names_earlier():
        return None
    return LocateRequest(
        listener=listener,
        book=book,
        kind="fell_asleep" if args.fell_asleep or args.timer_paused else None,
        chapter=args.earlier_chapter,
        device=args.earlier_device,
        direction="forward" if args.before_skip_ahead else None,
        visit_ends=args.earlier_chapter is not None,
        furthest=args.furthest,
        left_off=args.left_off,
        began=args.sitting_began,
        offset=args.times_back,
        limit=1,
    )


def place_of(entry: HistoryEntry, args: OfferPositionsArgs) -> int:
    """Where the listener was at a match: before the skip, or where the entry left the book."""
    if args.fell_asleep and entry.asleep_at_ms is not None:
        return entry.asleep_at_ms
    if args.before_skip_ahead and entry.from_ms is not None:
        return entry.from_ms
    return entry.position_ms


SAME_PLACE_MS = 1_000
"""A place from the history this close to the book's is where the listener is: the page shows seconds."""


def where_they_are(at_ms: int, here_ms: int) -> bool:
    """Whether a place from the history is where the book is now: offered, a place at the line would be
    a covered row "further on" for the very place they are at."""
    return abs(at_ms - here_ms) < SAME_PLACE_MS


def nothing_earlier(args: OfferPositionsArgs) -> str:
    """The model-visible refusal when the history holds no such time (no time is printed)."""
    if args.fell_asleep and not args.times_back:
        return (
            "Refused: no sleep timer has paused the book lately, so when they fell asleep is not known. "
            "Tell them so; nothing was moved. You may show where this time's listening began "
            "(sitting_began, show_only), saying that is all the history tells."
        )
    which = "before that" if args.times_back else "like that"
    return f"Refused: their listening history holds no earlier time {which}. Tell them so; nothing was moved."
