"""The process tree of ``bedside up``: the bus, then one OS process per service.

A lock file in the data directory makes a second ``up`` fail at once instead of
fighting the first for ports and the embedded vector store.
"""

import fcntl
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from bedside_runtime.settings import Settings


class AlreadyRunning(RuntimeError):
    pass


@dataclass
class UpLock:
    path: Path
    handle: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise AlreadyRunning(
                f"Bedside is already running here (pid {holder}, data in {self.path.parent}). "
                "Use `bedside status`, or stop it with Ctrl-C in its terminal."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle

    def release(self) -> None:
        if self.handle is not None:
            fcntl.flock(self.handle, fcntl.LOCK_UN)
            self.handle.close()
            self.handle = None


@dataclass
class ServiceProcesses:
    """Children started with ``bedside serve NAME``, each logging to its own file."""

    settings: Settings
    env: dict[str, str]
    children: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def log_dir(self) -> Path:
        return self.settings.data_dir / "logs"

    def start(self, name: str) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with (self.log_dir / f"{name}.log").open("ab") as log:
            self.children[name] = subprocess.Popen(
                [sys.executable, "-m", "bedside", "serve", name],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def exited(self) -> dict[str, int]:
        return {name: code for name, child in self.children.items() if (code := child.poll()) is not None}

    def stop(self, timeout_s: float = 15.0) -> None:
        """SIGTERM every child, wait, then SIGKILL what is left: no process stays behind."""
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        for child in self.children.values():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
