"""When ``bedside up`` starts again a process that exited on its own, and when it gives up (ADR 49).

Plain arithmetic on the times of a process's exits, no I/O; ``processes.Supervisor`` asks it.
A process that dies once in a while (a crash at 2am) is started again after a short wait that
doubles with each exit in the last minute; one that keeps dying quickly cannot be helped by
starting it again, and then everything stops, saying so.
"""

import signal
from dataclasses import dataclass, field

GIVE_UP_AFTER_EXITS = 5
"""This many exits of one process within ``WITHIN_S``: it cannot stay up, everything stops."""
WITHIN_S = 60.0
FIRST_WAIT_S = 1.0
"""The wait before the first start again; each exit within ``WITHIN_S`` doubles it (1, 2, 4, 8 s)."""


@dataclass
class Restarts:
    """The exits of one supervised process that still count (monotonic seconds)."""

    exits: list[float] = field(default_factory=list)

    def after_exit(self, now: float) -> float | None:
        """The wait before starting the process again after an exit at ``now``; None to give up."""
        self.exits = [*(at for at in self.exits if now - at < WITHIN_S), now]
        if len(self.exits) >= GIVE_UP_AFTER_EXITS:
            return None
        return FIRST_WAIT_S * 2.0 ** (len(self.exits) - 1)

    @property
    def recent(self) -> int:
        return len(self.exits)


def exit_words(code: int) -> str:
    """An exit status as a person reads it: a signal by its name, else the code."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"
