"""The wall clock of a service: what stamps a report, tells a device still playing from one gone
quiet (ADR 48), and tells a turn its asker has given up. A function passed in where it is used, so
tests give their own."""

import time
from collections.abc import Callable

Clock = Callable[[], int]


def wall_clock_ms() -> int:
    """Milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


def ms_from_now(seconds: float) -> int:
    """The wall-clock time ``seconds`` from now, in epoch milliseconds (an asker's answer-by time)."""
    return wall_clock_ms() + round(seconds * 1000)
