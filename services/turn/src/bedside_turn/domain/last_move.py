"""What last moved the shared place, told from the player's history, without I/O.

Every device follows one place, so a seek on the speaker or a device left playing moves it for the
phone too; the listener hears what moved it, when, and from where, and that "undo" puts it back.
Places are said by the clock and the chapter number, never a title, as the page's history does.
"""

from bedside_contracts.player import HistoryEntry, MoveCause, device_spoken
from bedside_guard import chapter_name, clock

from bedside_turn.domain.lengths import said_ago
from bedside_turn.domain.own_words import OwnWords

NOT_MOVED = OwnWords("Nothing has moved the book yet: it has only played on.")
_BY: dict[MoveCause, str] = {
    "seeked": "a seek",
    "pressed": "a place chosen from the list",
    "goto": "a request to me",
    "undo": "an undo",
    "fell_asleep": "the sleep timer",
    "paused": "a pause asked for aloud",
}


def last_move(moved: HistoryEntry | None, looked_at_ms: int) -> OwnWords:
    """ "Why did it jump?", "who moved it?": the newest move, and how to put it back."""
    if moved is None:
        return NOT_MOVED
    when = f" {said_ago(looked_at_ms - moved.stored_at_ms)}" if moved.stored_at_ms is not None else ""
    by = _BY[moved.cause] if moved.cause is not None else "a move"
    on = f" on the {device_spoken(moved.device)}" if moved.device else ""
    came_from = f"from {clock(moved.from_ms)} " if moved.from_ms is not None else ""
    chapter = f", in {chapter_name(moved.chapter)}" if moved.chapter is not None else ""
    return OwnWords(
        f"It was last moved{when}, by {by}{on}: {came_from}to {clock(moved.position_ms)}{chapter}."
        ' Say "undo" to put it back.'
    )
