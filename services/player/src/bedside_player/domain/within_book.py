"""A listener's places held within the book as it is now (ADR 81).

A book's id can be given to another recording (``bedside ingest --id``, ADR 62), and its stream
goes on: positions recorded in a longer version stay in it. A place past the end of the book
served now is its end, and a sleep timer stopping past it stops there, for everything the player
decides and tells. Nothing is appended: the book served decides, and the stream keeps what was.
"""

from bedside_contracts.player import SleepTimer

from bedside_player.domain import bookmarks
from bedside_player.domain.state import PlayerState


def held_within(state: PlayerState, book_end_ms: int | None) -> PlayerState:
    """``state`` with every place past ``book_end_ms`` at the end (as it is when the length is not known)."""
    if book_end_ms is None:
        return state
    timer = state.sleep_timer
    if timer is not None and timer.stop_at_ms > book_end_ms:
        timer = timer_held(timer, book_end_ms)
    before_move_ms = state.before_move_ms
    return state._replace(
        position_ms=min(state.position_ms, book_end_ms),
        before_move_ms=None if before_move_ms is None else min(before_move_ms, book_end_ms),
        last_touch_ms=min(state.last_touch_ms, book_end_ms),
        sleep_timer=timer,
        bookmarks=bookmarks.held_within(state.bookmarks, book_end_ms),
    )


def timer_held(timer: SleepTimer, book_end_ms: int) -> SleepTimer:
    """A timer stopping past the end stops at it; minutes then say the book ends first, keeping where
    they would have stopped (``past_end_ms``) for a move back, as when the book's end cut them at first."""
    if timer.after == "chapter_end":
        return timer.model_copy(update={"stop_at_ms": book_end_ms})
    past_end_ms = timer.past_end_ms if timer.book_ends_first else timer.stop_at_ms
    return timer.model_copy(
        update={"stop_at_ms": book_end_ms, "book_ends_first": True, "past_end_ms": past_end_ms}
    )
