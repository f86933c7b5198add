"""The process tree of ``bedside up``: the bus, then one OS process per service.

A lock file in the data directory makes a second ``up`` fail at once instead of
fighting the first for ports and the embedded vector store. The supervisor starts again
a process that exits on its own, and stops everything if one keeps dying (ADR 49).
"""

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from bedside_runtime.nats_server import NatsServer, NatsServerError, nats_server_binary
from bedside_runtime.settings import Settings

from bedside.restarts import GIVE_UP_AFTER_EXITS, WITHIN_S, Restarts, exit_words

BUS = "bus"
CHILD_RECORD = "up.children"
"""The file beside the data directory's lock naming the processes `up` started (``ChildRecord``)."""
LAST_WORDS_CHARS = 300


class AlreadyRunning(RuntimeError):
    pass


class GaveUp(RuntimeError):
    """A process kept dying quickly: starting it again does not help, everything stops."""


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

    def log_path(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    def start(self, name: str) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path(name).open("ab") as log:
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


def running_pids(processes: ServiceProcesses, bus: NatsServer | None) -> dict[str, int]:
    """Every process ``up`` started, by name."""
    pids = {name: child.pid for name, child in processes.children.items()}
    if bus is not None and bus.process is not None:
        pids[BUS] = bus.process.pid
    return pids


def _started_at(pid: int) -> str:
    """When ``pid`` started, in the kernel's ticks since boot ('' when it does not run): with its
    pid, it names one process, never another given the same pid later."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19]  # field 22; the name before ")" may hold spaces


@dataclass
class ChildRecord:
    """The processes ``bedside up`` started, in a file beside its lock. Each runs in a session of its
    own, out of reach of a signal to ``up``; an ``up`` killed outright (SIGKILL, out of memory)
    leaves them running on its ports and stores, and the next ``up`` stops them first."""

    path: Path
    written: dict[str, int] = field(default_factory=dict)

    def write(self, pids: dict[str, int]) -> None:
        if pids != self.written:
            self.path.write_text("".join(f"{name} {pid} {_started_at(pid)}\n" for name, pid in pids.items()))
            self.written = dict(pids)

    def running(self) -> dict[str, int]:
        """What the record names and still runs as it was started, by name."""
        try:
            lines = self.path.read_text().splitlines()
        except FileNotFoundError:
            return {}
        found: dict[str, int] = {}
        for line in lines:
            match line.split():
                case [name, number, started] if number.isdigit() and _started_at(int(number)) == started:
                    found[name] = int(number)
        return found

    def stop_leftovers(self, timeout_s: float = 15.0) -> list[str]:
        """Stop what the record names and still runs as it was started, the services first and the
        bus last, as Ctrl-C does (ADR 49): a service stopping gives its leases back over the bus. Each
        is sent SIGTERM, then SIGKILL after ``timeout_s``; the names of those stopped."""
        left = self.running()
        if not left:
            return []
        _stop([pid for name, pid in left.items() if name != BUS], timeout_s)
        _stop([pid for name, pid in left.items() if name == BUS], timeout_s)
        self.clear()
        return list(left)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def buses_started_with(conf: Path) -> list[int]:
    """This user's nats-server processes (the binary ``bedside up`` runs) started as ``-c conf``."""
    binary, wanted = nats_server_binary().resolve(), [b"-c", str(conf).encode()]
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):  # gone meanwhile, or not ours to read
                args = (entry / "cmdline").read_bytes().split(b"\0")[1:-1]
                if (
                    args == wanted
                    and entry.stat().st_uid == os.getuid()
                    and (entry / "exe").resolve() == binary
                ):
                    found.append(int(entry.name))
    return found


def stop_bus_started_with(conf: Path, timeout_s: float = 15.0) -> bool:
    """Stop the nats-server of this data folder that no record names (an ``up`` killed between
    starting it and writing its record); whether there was one."""
    strays = buses_started_with(conf)
    _stop(strays, timeout_s)
    return bool(strays)


def _stop(pids: list[int], timeout_s: float) -> None:
    """SIGTERM each, then SIGKILL those still running after ``timeout_s``."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # gone meanwhile
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while (running := [p for p in pids if _started_at(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    for still in running:
        with contextlib.suppress(ProcessLookupError):
            os.kill(still, signal.SIGKILL)


def last_words(log: Path) -> str:
    """The last line a process wrote to its log: after a crash, a traceback's last line says why."""
    try:
        with log.open("rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - 4096))
            lines = file.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    said = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return said[:LAST_WORDS_CHARS]


@dataclass
class Supervisor:
    """Keeps ``bedside up``'s processes running (ADR 49).

    A service that exits while nobody asked it to is started again after a wait
    (``restarts.Restarts``); the others run on meanwhile. The embedded bus is started again the
    same way, on its port and its store, and the services reconnect to it by themselves.
    """

    processes: ServiceProcesses
    bus: NatsServer | None = None
    restarts: dict[str, Restarts] = field(default_factory=dict)
    due: dict[str, float] = field(default_factory=dict)
    """name -> when (monotonic) to start it again."""

    def tend(self, now: float) -> list[str]:
        """Notice what exited and start again what is due; the lines to print. Raises ``GaveUp``."""
        lines = [self._after_exit(name, exit_words(code), now) for name, code in self._newly_exited().items()]
        for name, at in sorted(self.due.items(), key=lambda item: item[1]):
            if at <= now:
                del self.due[name]
                lines.append(self._start_again(name, now))
        return lines

    def _newly_exited(self) -> dict[str, int]:
        exited = {name: code for name, code in self.processes.exited().items() if name not in self.due}
        if (
            self.bus is not None
            and BUS not in self.due
            and self.bus.process is not None
            and (code := self.bus.process.poll()) is not None
        ):
            exited[BUS] = code
        return exited

    def _log(self, name: str) -> Path:
        if name == BUS and self.bus is not None:
            return self.bus.log_path
        return self.processes.log_path(name)

    def _after_exit(self, name: str, how: str, now: float) -> str:
        log = self._log(name)
        said = last_words(log)
        restarts = self.restarts.setdefault(name, Restarts())
        wait = restarts.after_exit(now)
        if wait is None:
            raise GaveUp(
                f"{name} stopped {GIVE_UP_AFTER_EXITS} times within {WITHIN_S:.0f} s, last {how}: "
                f"starting it again does not help, so everything stops. Its log: {log}"
                + (f"\nthe last line of its log: {said}" if said else "")
            )
        self.due[name] = now + wait
        return (
            f"{name:<10} {how} (stop number {restarts.recent} within {WITHIN_S:.0f} s; the "
            f"{GIVE_UP_AFTER_EXITS}th stops everything); starting it again in {wait:.0f} s. Its log: {log}"
            + (f"\n{'':<10} the last line of its log: {said}" if said else "")
        )

    def _start_again(self, name: str, now: float) -> str:
        if name != BUS:
            self.processes.start(name)
            return f"{name:<10} started again, pid {self.processes.children[name].pid}"
        assert self.bus is not None
        try:
            self.bus.start()
        except NatsServerError as error:
            return self._after_exit(name, f"did not start again ({error})", now)
        pid = self.bus.process.pid if self.bus.process is not None else "?"
        return f"{name:<10} nats-server started again, pid {pid}; the services reconnect by themselves"
