"""A length as the turn says it: of book time rounded to minutes, "about" when it is rounded; how long
ago something was stored, coarser the further back; and how fast the book plays."""


def said_length(ms: int) -> str:
    """ "less than a minute", "about 10 minutes", "about 1 hour and 5 minutes"."""
    minutes = round(ms / 60_000)
    if minutes < 1:
        return "less than a minute"
    hours, minutes = divmod(minutes, 60)
    said = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
    return "about " + " and ".join(said)


def said_speed(speed: float) -> str:
    """A speed as said aloud: "normal speed", "1.25 times speed"."""
    rounded = round(speed, 2)
    return "normal speed" if rounded == 1.0 else f"{rounded:g} times speed"


_HOUR_MS = 3_600_000
_DAY_MS = 24 * _HOUR_MS


def said_ago(ms: int) -> str:
    """ "just now", "about 40 minutes ago", "about 9 hours ago", "2 days ago"."""
    if ms >= 2 * _DAY_MS:
        return f"{round(ms / _DAY_MS)} days ago"
    if ms >= _HOUR_MS:
        hours = round(ms / _HOUR_MS)
        return f"about {hours} hour{'s' if hours != 1 else ''} ago"
    return "just now" if ms < 60_000 else f"{said_length(ms)} ago"
