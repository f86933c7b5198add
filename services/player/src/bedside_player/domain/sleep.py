"""Bedtime rules: where a sleep timer stops the book, and when the listener stopped hearing.

Both are book times, fixed from the stream, so every device and every replay agrees. A
chapter-end stop is the chapter's own last millisecond, the one before the next chapter's
start: the pause is in the chapter the listener fell asleep in, by every rule that names a
chapter (history, the page, the turn), and the next chapter stays ahead of the line.
"""

from collections.abc import Sequence

from bedside_contracts.player import Asleep, MoveCause, SleepTimer, book_ms_heard_in
from bedside_contracts.search import ChapterInfo

MINUTE_MS = 60_000


def minutes_reach(position_ms: int, minutes: int, speed: float) -> int:
    """Where ``minutes`` of listening from ``position_ms`` at ``speed`` take the book, the end aside."""
    return position_ms + book_ms_heard_in(minutes * MINUTE_MS, speed)


def book_ends_first(position_ms: int, minutes: int, book_end_ms: int | None, speed: float = 1.0) -> bool:
    """Whether the book ends within ``minutes`` of listening from ``position_ms``: the timer then
    stops at the book's end, and says so (``SleepTimer.book_ends_first``).

    The one rule for it: the turn says "the book ends in …" and the page "Pausing at the end of
    the book" from the flag the player sets with it, neither working it out again.
    """
    return book_end_ms is not None and minutes_reach(position_ms, minutes, speed) >= book_end_ms


def minutes_stop(position_ms: int, minutes: int, book_end_ms: int | None, speed: float = 1.0) -> int:
    """``minutes`` of listening from ``position_ms`` at ``speed``, never past the end."""
    if book_end_ms is not None and book_ends_first(position_ms, minutes, book_end_ms, speed):
        return book_end_ms
    return minutes_reach(position_ms, minutes, speed)


def chapter_end_stop(
    chapters: Sequence[ChapterInfo], position_ms: int, book_end_ms: int | None
) -> int | None:
    """The end of the chapter holding ``position_ms``: the millisecond before the next chapter's start.

    A position already on that last millisecond stops at the next chapter's end. In the last
    chapter (or a book without chapters) it is the end of the book; None when that is not known.
    """
    last_ms = [chapter.start_ms - 1 for chapter in chapters if chapter.start_ms - 1 > position_ms]
    if last_ms:
        return min(last_ms)
    ends = [chapter.end_ms for chapter in chapters if chapter.end_ms > position_ms]
    return max(ends) if ends else book_end_ms


def named_chapter_end_stop(
    chapters: Sequence[ChapterInfo], chapter: int, book_end_ms: int | None
) -> int | None:
    """The end of the chapter numbered ``chapter``, as ``chapter_end_stop`` ends the one playing: the
    millisecond before the next chapter's start; the last chapter's own end (else the book's).
    None when the book has no such chapter."""
    named = [c for c in chapters if c.n == chapter]
    if not named:
        return None
    later = [c.start_ms - 1 for c in chapters if c.start_ms > named[0].start_ms]
    if later:
        return min(later)
    return named[0].end_ms or book_end_ms


def chapter_end_after_move(
    timer: SleepTimer | None, to_ms: int, chapters: Sequence[ChapterInfo], book_end_ms: int | None
) -> int | None:
    """Where a chapter-end timer stops once the book has moved to ``to_ms``; None for any other timer.

    "The end of the chapter" is the end of the one the book is in, so a skip into the next chapter
    stops at that one's end, not back on the chapter left. A chapter named aloud keeps its end while
    the end is still ahead; a move past it makes the timer the chapter playing's.
    """
    if timer is None or timer.after != "chapter_end":
        return None
    if timer.chapter is not None and timer.stop_at_ms > to_ms:
        return timer.stop_at_ms
    return chapter_end_stop(chapters, to_ms, book_end_ms)


def after_a_move(
    timer: SleepTimer, from_ms: int, to_ms: int, chapter_end_ms: int | None, book_end_ms: int | None = None
) -> SleepTimer:
    """A running timer once the book has moved from ``from_ms`` to ``to_ms``.

    A minutes timer keeps the listening it had left, as a clock on the bedside table would: going
    back five minutes does not add five, and a skip ahead past the stop does not pause the book back
    on it. Carried past the book's end (``book_end_ms``, which the move carries), it stops there and
    the book ends first; moved back, a stop that was the book's end is no longer. A chapter-end timer
    stops at ``chapter_end_ms``, which the move carries (``chapter_end_after_move``); a move stored
    without it leaves the stop where it was.
    """
    if timer.after == "chapter_end":
        if chapter_end_ms is None or chapter_end_ms == timer.stop_at_ms:
            return timer
        return timer.model_copy(update={"stop_at_ms": chapter_end_ms, "chapter": None})
    stop_at_ms = max(to_ms, to_ms + _counted_to(timer) - from_ms)
    return _stopping_at(timer, stop_at_ms, book_end_ms, timer.book_ends_first and to_ms >= from_ms)


def after_a_speed_change(
    timer: SleepTimer, at_ms: int, speed_was: float, speed: float, book_end_ms: int | None
) -> SleepTimer:
    """A running timer once the book, at ``at_ms``, plays at ``speed`` instead of ``speed_was``.

    A minutes timer keeps the listening it had left, as after a move: its stop moves further on in
    the book when it plays faster, and nearer when slower. A chapter's end is where it was.
    """
    if timer.after == "chapter_end":
        return timer
    listening_left = max(0, _counted_to(timer) - at_ms) / speed_was
    return _stopping_at(timer, at_ms + round(listening_left * speed), book_end_ms, False)


def _counted_to(timer: SleepTimer) -> int:
    """Where the minutes of a timer take the book, counting those the book's end cut (``past_end_ms``):
    moved back, or slowed, they are had again."""
    return timer.past_end_ms if timer.past_end_ms is not None else timer.stop_at_ms


def _stopping_at(timer: SleepTimer, stop_at_ms: int, book_end_ms: int | None, ends_first: bool) -> SleepTimer:
    """A minutes timer stopping at ``stop_at_ms``, or at the book's end when that comes first."""
    if book_end_ms is not None and stop_at_ms >= book_end_ms:
        return timer.model_copy(
            update={"stop_at_ms": book_end_ms, "book_ends_first": True, "past_end_ms": stop_at_ms}
        )
    return timer.model_copy(
        update={"stop_at_ms": stop_at_ms, "book_ends_first": ends_first, "past_end_ms": None}
    )


def paused_at(position_ms: int, stop_at_ms: int) -> int:
    """Where the book pauses: a device that overshot the stop is put back on it."""
    return min(position_ms, stop_at_ms)


def still_where_timer_paused(
    asleep: Asleep | None, last_move_cause: MoveCause | None, playing: bool, position_ms: int
) -> bool:
    """Whether the book still rests where the sleep timer paused it: the pause is the newest move,
    nothing has played on from it (``playing``: the stream's word, not the book told paused once its
    devices went quiet), and the book rests at the pause (``Asleep.rests_at``)."""
    if asleep is None or last_move_cause != "fell_asleep" or playing:
        return False
    return asleep.rests_at(position_ms)


def asleep_at(last_touch_ms: int, paused_at_ms: int) -> int:
    """The estimate of when hearing stopped: the last touch or request before the pause."""
    return min(last_touch_ms, paused_at_ms)


def doze_after_a_move(asleep: Asleep, to_ms: int) -> Asleep:
    """A move back to what has been heard of the doze, or before it, starts (or goes on with) one run
    of playing it again; a move past it ends the run, leaving the rest missed."""
    replaying = to_ms <= asleep.missed_from_ms()
    return asleep if replaying == asleep.replaying else asleep.model_copy(update={"replaying": replaying})


def doze_played_to(asleep: Asleep, position_ms: int) -> Asleep:
    """A report while the doze is played again: heard as far as it has played, never past the pause."""
    if not asleep.replaying or position_ms <= asleep.missed_from_ms():
        return asleep
    return asleep.model_copy(update={"reheard_to_ms": min(position_ms, asleep.paused_at_ms)})
