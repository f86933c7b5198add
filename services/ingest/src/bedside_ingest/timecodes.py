"""Reading the ways files write a time: 00:01:02.500, 01:02,500, 0:01:02, 62.5s, 1.5min, 62.5."""

import math
import re

_CLOCK = re.compile(r"^(?:(?P<h>\d+):)?(?P<m>\d{1,2}):(?P<s>\d{1,2})(?:[.,](?P<f>\d{1,9}))?$")
_COUNT = re.compile(r"^(?P<n>\d+(?:\.\d+)?)(?P<unit>h|min|s|ms)?$")
_UNIT_MS = {"h": 3_600_000.0, "min": 60_000.0, "s": 1000.0, "ms": 1.0, None: 1000.0}


class BadTime(ValueError):
    """A time that cannot be read; the message says what was expected."""


def clock_ms(value: str) -> int:
    """A clock time [H:]MM:SS[.fff] (a comma also separates the fraction, as SRT writes it)."""
    match = _CLOCK.match(value.strip())
    if match is None:
        raise BadTime(f"{value!r} is not a time like 00:01:02.500")
    hours = int(match.group("h") or 0)
    minutes, seconds = int(match.group("m")), int(match.group("s"))
    if minutes >= 60 or seconds >= 60:
        raise BadTime(f"{value!r} has minutes or seconds of 60 or more")
    fraction = match.group("f") or "0"
    millis = round(int(fraction[:3].ljust(3, "0")) + int(fraction[3:4] or 0) / 10)
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis


def seconds_ms(value: float | int | str) -> int:
    """Seconds as a number or a numeric string (JSON transcripts write both)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise BadTime(f"{value!r} is not a number of seconds") from None
    if not math.isfinite(number) or number < 0:
        raise BadTime(f"{value!r} is not a time (negative or not finite)")
    return round(number * 1000)


def smil_ms(value: str) -> int:
    """A SMIL clock value: a clock (0:00:17.600, 00:02.5) or a count with a unit (17.6s, 250ms)."""
    text = value.strip().removeprefix("npt=")
    if ":" in text:
        return clock_ms(text)
    match = _COUNT.match(text)
    if match is None:
        raise BadTime(f"{value!r} is not a SMIL clock value")
    return round(float(match.group("n")) * _UNIT_MS[match.group("unit")])


def flexible_ms(value: float | int | str) -> int:
    """Seconds as a number, or a clock string "H:MM:SS" (what a chapters file may hold)."""
    if isinstance(value, str) and ":" in value:
        return clock_ms(value)
    return seconds_ms(value)
