"""What the commands read from their arguments, read one way by every command."""

import re

import typer

_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{2})$")


def parse_clock(text: str) -> int:
    """H:MM:SS (or M:SS) on the book's clock, in milliseconds (``--at``)."""
    match = _CLOCK.match(text.strip())
    if match is None:
        raise typer.BadParameter(f"{text!r} is not a time like 1:02:03 or 12:30")
    hours, minutes, seconds = (int(g or 0) for g in match.groups())
    if minutes >= 60 or seconds >= 60:
        raise typer.BadParameter(f"{text!r}: minutes and seconds run to 59")
    return ((hours * 60 + minutes) * 60 + seconds) * 1000
