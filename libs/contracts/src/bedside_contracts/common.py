"""The base of every contract, and the few shapes every service shares."""

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

LONGEST_NAME = 64
NAME_PATTERN = rf"^[A-Za-z0-9_-]{{1,{LONGEST_NAME}}}$"
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN)]
"""An id that is safe as one NATS subject token: a book, a listener, a device."""
_NAME = re.compile(NAME_PATTERN)


MEDIA_SUFFIX_PATTERN = r"\.[a-z0-9]{1,10}"
MediaName = Annotated[str, StringConstraints(pattern=rf"^[0-9a-f]{{32}}({MEDIA_SUFFIX_PATTERN})?$")]
"""A file of the media bucket: its content's hash and suffix, safe as a file name on any disk."""


def is_name(text: str) -> bool:
    """Whether ``text`` fits ``Name``, without building a model around it."""
    return _NAME.fullmatch(text) is not None


LONGEST_BOOK_MS = 1_000 * 3600 * 24 * 30
"""No book runs a month: the bound of every time on a book's clock, and of every move along it."""
Millis = Annotated[int, Field(ge=0, le=LONGEST_BOOK_MS)]
"""A time on a book's clock in milliseconds."""
Offset = Annotated[int, Field(ge=-LONGEST_BOOK_MS, le=LONGEST_BOOK_MS)]
"""A move along a book's clock in milliseconds: negative is back."""


class Contract(BaseModel):
    """Every message on the bus: immutable, and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Failure(Contract):
    """The reply to a request that could not be served; ``code`` is stable, ``error`` is for people."""

    ok: Literal[False] = False
    code: Literal["invalid", "not_found", "conflict", "no_room", "unavailable", "internal"]
    error: str
    failed_service: str | None = None
    """The service that could not answer, when another let the one replying down: the player's
    offer answers that search, which resolves its places, failed it (``bus.failure_for``)."""


class HealthCheck(Contract):
    """Ask a service whether it is up."""


class Health(Contract):
    service: str
    version: str
    pid: int
    uptime_s: float
    ready: bool = True
    detail: str = ""
