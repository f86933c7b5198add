"""The player's clock: what stamps a report and tells a device still playing from one gone quiet
(ADR 48). A function passed in where it is used, so tests give their own."""

import time
from collections.abc import Callable

Clock = Callable[[], int]


def wall_clock_ms() -> int:
    """Milliseconds since the epoch."""
    return time.time_ns() // 1_000_000
