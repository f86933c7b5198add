"""What the commands read from their arguments, read one way by every command."""

import re
from collections.abc import Sequence

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
        elif problem["type"] == "string_too_long":
            longest = problem["ctx"]["max_length"]
            clauses.append(f"{field} is {len(typed):,} characters long; it may be at most {longest:,}")
        else:
            clauses.append(f"{field}: {problem['msg']}")
    return "; ".join(clauses)


def checked_id(typed: str | None) -> str | None:
    """An id typed as an argument, refused in words before anything is sent (a typer callback)."""
    if typed is not None and re.fullmatch(NAME_PATTERN, typed) is None:
        shown = typed if len(typed) <= SHOWN_INPUT_CHARS else f"{typed[:SHOWN_INPUT_CHARS]}…"
        raise typer.BadParameter(f"{shown!r} is not an id: an id is {NAME_RULE}")
    return typed


def refused(message: str) -> typer.Exit:
    """Say why a command did nothing, in red on stderr; the exit (code 1) is the caller's to raise."""
    typer.secho(message, err=True, fg=typer.colors.RED)
    return typer.Exit(code=1)


def no_such_listener(listener: str) -> str:
    """What a command asked for a listener nobody made says, with the command that makes one."""
    return f"there is no listener called {listener}; `bedside listener add {listener}` makes one"


class NoBookToChoose(ValueError):
    """A command run without ``--book`` has no book to go by; the message says what to type."""


def book_when_unnamed(listener: str, listening: str | None, books: Sequence[str]) -> str:
    """The book a command acts on when ``--book`` is not given: the one the listener's position is
    in (the player's ``listening_to``), else the only book there is. Several books and no position
    is refused, naming them: a guess would answer about a book the listener did not mean (the page
    may take the first, since it shows which it opened)."""
    if listening is not None and listening in books:
        return listening
    if len(books) == 1:
        return books[0]
    if not books:
        raise NoBookToChoose("there are no books yet; add one with `bedside ingest PATH`")
    raise NoBookToChoose(
        f"which book? {listener} has not listened to any of the {len(books)} yet; "
        f"pass --book with one of: {', '.join(books)}"
    )
