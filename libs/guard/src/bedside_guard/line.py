"""The line: the one predicate that says whether a place has been heard."""


def ahead_of(start_ms: int, here_ms: int) -> bool:
    """True when a place starting at ``start_ms`` has not been heard by a listener at ``here_ms``.

    The boundary belongs to what is ahead: the passage that starts exactly where the
    listener is has not been heard yet.
    """
    return start_ms >= here_ms


def heard_once_past(start_ms: int, end_ms: int) -> int:
    """Where a stretch of words (a cue, a passage) lies on the line as a whole: its last millisecond.

    Words are heard together only once all of them are (ADR 60): ``ahead_of`` of this is False
    exactly when the line has reached the stretch's end.
    """
    return max(start_ms, end_ms - 1)


def clock(ms: int) -> str:
    """A time on the book's clock as H:MM:SS; a clock time says nothing about the story."""
    if ms < 0:
        raise ValueError(f"a book time cannot be negative: {ms} ms")
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
