"""What the commands read from their arguments, read one way by every command."""

import re

import typer
from bedside_contracts.common import NAME_PATTERN
from pydantic import ValidationError

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


NAME_RULE = "1 to 64 letters, digits, '-' or '_' (no spaces, dots or slashes)"
SHOWN_INPUT_CHARS = 40


def plain_refusal(error: ValueError) -> str:
    """Why a contract refused what was typed, one short clause a field, in words not patterns."""
    if not isinstance(error, ValidationError):
        return str(error)
    clauses = []
    for problem in error.errors():
        field = ".".join(str(part) for part in problem["loc"]) or "value"
        typed = str(problem.get("input", ""))
        shown = typed if len(typed) <= SHOWN_INPUT_CHARS else f"{typed[:SHOWN_INPUT_CHARS]}…"
        if problem.get("ctx", {}).get("pattern") == NAME_PATTERN:
            clauses.append(f"{field} {shown!r} is not an id: an id is {NAME_RULE}")
        else:
            clauses.append(f"{field}: {problem['msg']}")
    return "; ".join(clauses)
