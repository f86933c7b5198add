"""`bedside up` as a listener runs it: a service killed at 2am comes back, the rest keep going.

The real command, its real processes: search, the player and then the bus are SIGKILLed, each
comes back, and the page and the API answer again; Ctrl-C then stops everything and leaves no
process behind. A process that keeps dying stops everything, saying why (ADR 49).
"""

import asyncio
import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from bedside_runtime.health import check
from bedside_runtime.nats_server import embedded_server, free_port
from bedside_runtime.settings import Settings
from bedside_testing import run_bedside
from nats.aio.client import Client

from bedside.processes import GaveUp, ServiceProcesses, Supervisor, buses_started_with
from bedside.restarts import GIVE_UP_AFTER_EXITS, WITHIN_S, Restarts

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

WAIT_S = 180.0


class Up:
    """``bedside up`` in a subprocess, its output read line by line as it comes."""

    def __init__(self, data_dir: Path, ports: tuple[int, int] | None = None) -> None:
        self.nats_port, self.http_port = ports or (free_port(), free_port())
        env = dict(
            os.environ,
            BEDSIDE_DATA_DIR=str(data_dir),
            BEDSIDE_NATS_PORT=str(self.nats_port),
            BEDSIDE_HTTP_PORT=str(self.http_port),
            COLUMNS="300",
        )
        for name in ("NATS_URL", "ANTHROPIC_API_KEY"):
            env.pop(name, None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bedside", "up"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first line from now on that matches ``pattern``."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1.0)
            except queue.Empty:
                assert self.process.poll() is None, f"bedside up ended: {self.seen[-20:]}"
                continue
            self.seen.append(line)
            if found := re.search(pattern, line):
                return found
        raise AssertionError(f"no line matching {pattern!r} in {WAIT_S} s: {self.seen[-20:]}")

    @property
    def nats_url(self) -> str:
        return f"nats://127.0.0.1:{self.nats_port}"

    def stop(self) -> None:
        """Ctrl-C first, so ``up`` stops the services it started (each in a session of its own, out
        of reach of a signal to ``up``'s group); SIGKILL only for an ``up`` that does not stop."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture
def up(tmp_path: Path) -> Iterator[Up]:
    running = Up(tmp_path / "data")
    try:
        yield running
    finally:
        running.stop()


def health_pid(nats_url: str, name: str) -> int | None:
    async def ask() -> int | None:
        client = Client()
        try:  # closed even when the connect fails half way (a bus that is just starting)
            await client.connect(nats_url, connect_timeout=2, max_reconnect_attempts=1)
            health = await check(client, name)
        finally:
            with contextlib.suppress(Exception):
                await client.close()
        return health.pid if health is not None and health.ready else None

    with contextlib.suppress(Exception):
        return asyncio.run(ask())
    return None


def back_with_a_new_pid(up: Up, name: str, old_pid: int) -> int:
    deadline = time.monotonic() + WAIT_S
    while (pid := health_pid(up.nats_url, name)) in (None, old_pid):
        assert time.monotonic() < deadline, f"{name} never came back: {up.seen[-20:]}"
        assert up.process.poll() is None, f"bedside up ended: {up.seen[-20:]}"
        time.sleep(0.5)
    assert pid is not None
    return pid


def until_true(check: Callable[[], bool], failure: str, up: Up) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, f"{failure}: {up.seen[-20:]}"
        time.sleep(0.5)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def report_is_taken(base: str, listener: str, headers: dict[str, str], position_ms: int) -> bool:
    """A device's report, on the basis of the state it reads first: accepted and stored."""
    path = f"{base}/api/listeners/{listener}/books/sample"
    with contextlib.suppress(httpx.HTTPError):
        state = httpx.get(f"{path}/state", headers=headers, timeout=10)
        if state.status_code != 200:
            return False
        basis = state.json()["seq"]
        body = {"device": "night", "position_ms": position_ms, "playing": True, "basis_seq": basis}
        return httpx.post(f"{path}/reports", headers=headers, json=body, timeout=10).status_code == 200
    return False


def test_a_killed_service_comes_back_and_ctrl_c_still_stops_everything(up: Up) -> None:
    bus_pid = int(up.wait_for(r"^bus\s+nats-server \S+ pid (\d+)").group(1))
    pids = {name: int(up.wait_for(rf"^{name}\s+ready\s+pid (\d+)").group(1)) for name in ("search", "player")}
    page = up.wait_for(r"^page\s+(\S+)").group(1)
    token, listener = re.search(r"#token=([^&]+)&listener=(\S+)", page).groups()  # type: ignore[union-attr]
    up.wait_for(r"Bedside is up")
    base = f"http://127.0.0.1:{up.http_port}"
    headers = {"Authorization": f"Bearer {token}"}

    os.kill(pids["search"], signal.SIGKILL)
    up.wait_for(r"search .*(SIGKILL|-9).*starting it again")
    new_search = back_with_a_new_pid(up, "search", pids["search"])

    os.kill(pids["player"], signal.SIGKILL)
    up.wait_for(r"player .*(SIGKILL|-9).*starting it again")
    new_player = back_with_a_new_pid(up, "player", pids["player"])
    assert httpx.get(f"{base}/", timeout=10).status_code == 200
    books = httpx.get(f"{base}/api/books", headers=headers, timeout=10)
    assert books.status_code == 200, books.text
    state = httpx.get(f"{base}/api/listeners/{listener}/books/sample/state", headers=headers, timeout=10)
    assert state.status_code == 200, state.text

    until_true(lambda: report_is_taken(base, listener, headers, 1_000), "the player never took a report", up)

    # The bus too: started again on its port and store, the services find it by themselves.
    os.kill(bus_pid, signal.SIGKILL)
    up.wait_for(r"bus .*SIGKILL.*starting it again")
    up.wait_for(r"bus .*started again")
    until_true(lambda: report_is_taken(base, listener, headers, 2_000), "no report once the bus was back", up)
    until_true(lambda: health_pid(up.nats_url, "search") is not None, "search never answered again", up)
    assert health_pid(up.nats_url, "search") == new_search  # reconnected, not started again

    up.process.send_signal(signal.SIGINT)
    assert up.process.wait(60) == 0, up.seen[-20:]
    assert not [pid for pid in (new_search, new_player) if alive(pid)]


def test_what_an_up_killed_outright_left_running_is_stopped_by_the_next_up(up: Up, tmp_path: Path) -> None:
    """SIGKILL (or an out-of-memory kill) gives ``up`` no chance to stop its services: they ran on,
    holding the ports and stores, and the next ``up`` refused to start (a listener session)."""
    bus_pid = int(up.wait_for(r"^bus\s+nats-server \S+ pid (\d+)").group(1))
    ready = [up.wait_for(r"^(\w+)\s+ready\s+pid (\d+)") for _ in range(4)]
    pids = [bus_pid, *(int(service.group(2)) for service in ready)]
    up.wait_for(r"Bedside is up")
    up.process.kill()
    up.process.wait()
    assert all(alive(pid) for pid in pids)  # each in a session of its own
    again = Up(tmp_path / "data", (up.nats_port, up.http_port))
    try:
        left = again.wait_for(r"stopped what a `bedside up` killed outright had left running: (.*)").group(1)
        assert set(left.split(", ")) == {"bus", "search", "player", "turn", "ingest"}
        again.wait_for(r"Bedside is up")
        assert not [pid for pid in pids if alive(pid)]
        # the services were stopped before the bus, as Ctrl-C stops them: the player gave its
        # leases back over it, rather than leaving them to age out (an operations session)
        player_log = (tmp_path / "data" / "logs" / "player.log").read_text()
        assert "leases were not given back" not in player_log
        assert "bus not drained on stop" not in player_log
    finally:
        again.stop()


def test_a_bus_of_this_data_folder_that_no_record_names_is_stopped_by_the_next_up(tmp_path: Path) -> None:
    """A chaos session: `up` SIGKILLed between starting its nats-server and recording it (the bus
    took seconds to answer, with a large store) left the bus running, and the next `up` refused:
    "port ... is already in use". Here the bus is started with no record at all."""
    data, nats_port = tmp_path / "data", free_port()
    stray = embedded_server(Settings(data_dir=data).nats_store_dir, nats_port).start()
    assert stray.process is not None
    again = Up(data, (nats_port, free_port()))
    try:
        again.wait_for(r"stopped what a `bedside up` killed outright had left running: bus")
        again.wait_for(r"Bedside is up")
        assert stray.process.poll() is not None
    finally:
        again.stop()
        stray.stop()


def test_status_tells_a_service_that_runs_but_does_not_answer_from_one_that_is_gone(
    up: Up, tmp_path: Path
) -> None:
    """A player stopped with SIGSTOP was "player DOWN", the word for a dead one (an operations
    session): the one who looks needs to know it is there but stuck."""
    started = [up.wait_for(r"^(\w+)\s+ready\s+pid (\d+)") for _ in range(4)]
    ready = {service.group(1): service.group(2) for service in started}
    up.wait_for(r"Bedside is up")
    player = int(ready["player"])
    env = dict(
        os.environ,
        BEDSIDE_DATA_DIR=str(tmp_path / "data"),
        BEDSIDE_NATS_PORT=str(up.nats_port),
        COLUMNS="300",
    )
    os.kill(player, signal.SIGSTOP)
    try:
        said = run_bedside("status", env=env, timeout_s=60)
    finally:
        os.kill(player, signal.SIGCONT)
    assert said.returncode == 1, said.stdout
    assert re.search(rf"^player\s+NOT ANSWERING\s+pid {player}\b", said.stdout, re.MULTILINE), said.stdout
    assert re.search(r"^search\s+healthy", said.stdout, re.MULTILINE), said.stdout


def test_waits_double_with_each_exit_in_a_minute_and_the_fifth_gives_up() -> None:
    restarts = Restarts()
    assert [restarts.after_exit(at) for at in (0.0, 10.0, 20.0, 30.0)] == [1.0, 2.0, 4.0, 8.0]
    assert restarts.after_exit(40.0) is None


def test_an_exit_more_than_a_minute_ago_no_longer_counts() -> None:
    restarts = Restarts()
    for at in (0.0, 10.0, 20.0, 30.0):
        restarts.after_exit(at)
    assert restarts.after_exit(30.0 + WITHIN_S) == 1.0  # only itself within the last minute


def tend_for_ever(supervisor: Supervisor, said: list[str]) -> None:
    """Tends until it raises, on a clock that skips each wait before a start again: the waits
    (1, 2, 4, 8 s) pass at once, while a process's own time to start and die counts as it runs,
    however slow the machine (a clock merely sped up counted a slow start several times over, and
    the exits fell out of the minute)."""
    started = time.monotonic()
    deadline = started + WAIT_S
    skipped = 0.0
    while True:
        now = time.monotonic() + skipped
        if supervisor.due and (first_due := min(supervisor.due.values())) > now:
            skipped += first_due - now
            now = first_due
        said += supervisor.tend(now)
        assert time.monotonic() < deadline, said
        time.sleep(0.1)


def test_a_process_that_keeps_dying_stops_everything_saying_which_and_why(tmp_path: Path) -> None:
    """A real process that dies at once each time it starts (``bedside serve`` of a service that
    is not there): started again after each exit, then given up on with its name, its count and
    the last line of its log."""
    env = dict(os.environ, BEDSIDE_DATA_DIR=str(tmp_path))
    processes = ServiceProcesses(Settings(data_dir=tmp_path), env)
    supervisor = Supervisor(processes)
    processes.start("no-such-service")
    said: list[str] = []
    with pytest.raises(GaveUp) as gave_up:
        tend_for_ever(supervisor, said)
    processes.stop()
    assert len([line for line in said if "started again" in line]) == GIVE_UP_AFTER_EXITS - 1
    assert "exited with code 1" in said[0]
    # the count said as a count of stops, not read as an exit code ("exit 1 within 60 s")
    assert f"(stop number 1 within 60 s; the {GIVE_UP_AFTER_EXITS}th stops everything)" in said[0], said[0]
    message = str(gave_up.value)
    assert f"no-such-service stopped {GIVE_UP_AFTER_EXITS} times" in message
    assert "unknown service 'no-such-service'" in message


def test_only_a_nats_server_started_with_this_folders_config_is_taken_for_a_stray_bus(tmp_path: Path) -> None:
    """A review: the first scan took any process with the config's path among its arguments (an
    editor open on it, or a shell)."""
    bus = embedded_server(tmp_path / "nats", free_port()).start()
    conf = bus.config.path
    decoy_script = tmp_path / "decoy"
    decoy_script.write_text("sleep 30\n")
    decoy_script.chmod(0o755)
    decoy = subprocess.Popen(["sh", "-c", str(decoy_script)])  # not nats-server, args `-c <path>`
    try:
        assert bus.process is not None
        assert buses_started_with(conf) == [bus.process.pid]
        assert buses_started_with(decoy_script) == []
        assert buses_started_with(tmp_path / "elsewhere" / "bedside.conf") == []
    finally:
        decoy.kill()
        decoy.wait()
        bus.stop()
