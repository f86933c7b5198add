"""When the listener listened, told from their history on the stream's own times, without I/O.

A sitting is the listening between two breaks of an hour or more (the player's ``left_off`` and
``began`` lookups); "ago" is measured against the player's clock at the lookup, which the stored
times share, never the device's.
"""

from bedside_contracts.player import HistoryEntry
from bedside_guard import chapter_name, clock

from bedside_turn.domain.lengths import said_ago, said_length
from bedside_turn.domain.own_words import OwnWords
from bedside_turn.domain.recap import NO_BREAK_YET

NOT_LISTENED_YET = OwnWords("You haven't listened to this book yet.")
NO_TIMES = OwnWords("I can't tell: your listening here was kept before Bedside noted the times.")


def _where(entry: HistoryEntry) -> str:
    """The place by its chapter number and the clock: the chapter's title could lie ahead of the line."""
    at = clock(entry.position_ms)
    return f"in {chapter_name(entry.chapter)} at {at}" if entry.chapter is not None else f"at {at}"


def _last_stopped(stopped: HistoryEntry, looked_at_ms: int) -> str:
    """Where and how long ago: a left-off place always has its time, since breaks are found by them."""
    stored_at_ms = stopped.stored_at_ms if stopped.stored_at_ms is not None else looked_at_ms
    return f"last stopped {said_ago(looked_at_ms - stored_at_ms)}, {_where(stopped)}."


def last_listened(began: HistoryEntry | None, stopped: HistoryEntry | None, looked_at_ms: int) -> OwnWords:
    """ "When did I last listen?": where and how long ago the book last sat still for an hour or more."""
    if began is None:
        return NOT_LISTENED_YET
    if stopped is None:
        return OwnWords(NO_BREAK_YET)
    return OwnWords(f"You {_last_stopped(stopped, looked_at_ms)}")


def this_sitting(began: HistoryEntry | None, stopped: HistoryEntry | None, looked_at_ms: int) -> OwnWords:
    """ "How long have I been listening?": since this sitting began, unless it has ended (the book has
    sat still for an hour since: ``stopped`` is at or after its start)."""
    if began is None:
        return NOT_LISTENED_YET
    if began.stored_at_ms is None:
        return NO_TIMES
    if stopped is not None and stopped.seq >= began.seq:
        return OwnWords(f"You haven't listened for a while: you {_last_stopped(stopped, looked_at_ms)}")
    since = _where(began).removeprefix("in ")
    listened = said_length(looked_at_ms - began.stored_at_ms)
    return OwnWords(f"You've been listening for {listened} this time, since {since}.")


def back_to_last(began: HistoryEntry | None, stopped: HistoryEntry | None) -> int | None:
    """How many sittings back, counting this one as 0, the listening before the last break is ("where
    did I start last night?"): 1 when a sitting has begun since that break, else 0; None when the
    history holds no break yet."""
    if began is None or stopped is None:
        return None
    return 1 if began.seq > stopped.seq else 0
