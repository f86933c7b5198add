"""Browsers and the container engine take turns, whichever workers run them.

Chromium ends every request it has open when a network interface appears (net::ERR_NETWORK_CHANGED),
and every container podman starts adds one to the machine: a browser test running beside the
container tests failed so. Browsers share the turn; the engine holds it alone. The lock lives in
the run's temporary folder, which every worker shares (the root conftest.py).
"""

import contextlib
import fcntl
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def network_turn(*, adds_interfaces: bool) -> Iterator[None]:
    with (Path(tempfile.gettempdir()) / "bedside-network-turn.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if adds_interfaces else fcntl.LOCK_SH)
        yield
