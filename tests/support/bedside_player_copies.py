"""Several player copies on one bus (a loopback JetStream cluster), simulated listeners that
report over the bus, and what the stream and the lease bucket say afterwards.

Used by tests/faults/test_faults_player_partitions.py and bench/player_partitions.py.
"""

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from bedside_contracts import subjects
from bedside_contracts.common import Health
from bedside_contracts.partitions import DEFAULT_PARTITIONS, partition_of
from bedside_contracts.player import CommandRequest, CommandResult, ListenerState, Report, StateRequest
from bedside_player.leases import COPY_PREFIX, PARTITION_PREFIX
from bedside_player.store import decode
from bedside_player.stream_range import RangeReader
from bedside_runtime.bus import call
from bedside_runtime.errors import CallFailed
from bedside_runtime.nats_server import free_port
from bedside_runtime.streams import live_keys
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError

BOOK = "b1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class PlayerCopy:
    name: str
    http_port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def alive(self) -> bool:
        return self.process.poll() is None

    def cpu_s(self) -> float:
        """User and system CPU of the copy so far, from /proc."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class PlayerCopies:
    """Player processes (``bedside serve player``), each with its own HTTP port and data dir."""

    nats_url: str
    replicas: int = 1
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bedside-copies-")))
    copies: dict[str, PlayerCopy] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    """More settings for every copy (``BEDSIDE_REQUEST_TIMEOUT_S``...)."""

    def start(self, name: str) -> PlayerCopy:
        data_dir = self.root / name
        data_dir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        env = {
            **os.environ,
            "NATS_URL": self.nats_url,
            "BEDSIDE_DATA_DIR": str(data_dir),
            "BEDSIDE_HTTP_PORT": str(port),
            "BEDSIDE_LOG_FORMAT": "json",
            "BEDSIDE_STREAM_REPLICAS": str(self.replicas),
            **self.env,
        }
        env.pop("ANTHROPIC_API_KEY", None)
        log_path = data_dir / "player.log"
        with log_path.open("ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "bedside", "serve", "player"],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        copy = PlayerCopy(name, port, process, log_path)
        self.copies[name] = copy
        return copy

    async def wait_serving(self, name: str, timeout_s: float = 120.0) -> None:
        """Until the copy's HTTP server accepts (it binds once its partitions are settled)."""
        copy = self.copies[name]
        deadline = time.monotonic() + timeout_s
        async with httpx.AsyncClient(base_url=copy.http_url, timeout=5) as http:
            while True:
                if not copy.alive():
                    raise AssertionError(f"player {name} exited: {copy.log()[-3000:]}")
                try:
                    await http.get("/api/books")
                    return
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        raise AssertionError(f"player {name} never served: {copy.log()[-3000:]}") from None
                    await asyncio.sleep(0.1)

    def kill(self, name: str) -> None:
        self.copies[name].process.send_signal(signal.SIGKILL)
        self.copies[name].process.wait()

    def stop(self) -> None:
        for copy in self.copies.values():
            if copy.alive():
                copy.process.send_signal(signal.SIGTERM)
        for copy in self.copies.values():
            try:
                copy.process.wait(15)
            except subprocess.TimeoutExpired:
                copy.process.kill()
                copy.process.wait()


async def healths(client: Client, wait_s: float = 1.0) -> list[Health]:
    """Every player copy's health (each answers the health subject)."""
    inbox = client.new_inbox()
    found: list[Health] = []

    async def got(msg: Msg) -> None:
        found.append(Health.model_validate_json(msg.data))

    sub = await client.subscribe(inbox, cb=got)
    await client.publish(subjects.HEALTH.format(service="player"), b"", reply=inbox)
    await asyncio.sleep(wait_s)
    await sub.unsubscribe()
    return found


async def leases(client: Client) -> tuple[dict[int, str], set[str]]:
    """(partition -> owner, live copies) as the lease bucket holds them now."""
    kv = await client.jetstream().key_value(subjects.PLAYER_LEASES_BUCKET)
    owners: dict[int, str] = {}
    copies: set[str] = set()
    for key in await live_keys(client.jetstream(), subjects.PLAYER_LEASES_BUCKET):
        try:
            entry = await kv.get(key)
        except NotFoundError:
            continue
        value = (entry.value or b"").decode()
        if not value:  # the server's marker of a key that aged out
            continue
        if key.startswith(PARTITION_PREFIX):
            owners[int(key.removeprefix(PARTITION_PREFIX))] = value
        elif key.startswith(COPY_PREFIX):
            copies.add(key.removeprefix(COPY_PREFIX))
    return owners, copies


@dataclass
class Reporters:
    """Simulated listeners, one device each, reporting over the bus (any copy takes the request).

    Every attempt reports a position of its own, so the stream shows which attempts were
    stored: an acknowledged one must be there exactly once, and no attempt twice.
    """

    client: Client
    listeners: list[str]
    timeout_s: float = 5.0
    acked: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    basis: dict[str, int] = field(default_factory=dict)
    attempts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    unknown: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)

    @property
    def total_acked(self) -> int:
        return sum(len(v) for v in self.acked.values())

    async def report(self, listener: str) -> None:
        self.attempts[listener] += 1
        position = self.attempts[listener] * 1_000
        basis = self.basis.get(listener, 0)
        command = Report(device="d", position_ms=position, playing=True, basis_seq=basis)
        request = CommandRequest(listener=listener, book=BOOK, command=command)
        started = time.perf_counter()
        try:
            result = await call(
                self.client, subjects.PLAYER_COMMAND, request, CommandResult, timeout_s=self.timeout_s
            )
        except CallFailed:  # the outcome is unknown (a copy died with it, or nobody owned it yet)
            self.unknown += 1
            return
        self.latencies.append(time.perf_counter() - started)
        self.basis[listener] = result.seq
        if result.accepted:
            self.acked[listener].append((result.seq, position))
        else:
            self.refused += 1

    async def run(
        self,
        rounds: int,
        in_flight: int = 64,
        progress: tuple[int, asyncio.Event] | None = None,
        until: float | None = None,
    ) -> None:
        """``rounds`` reports per listener, ``in_flight`` listeners at a time; ``progress``
        (count, event): the event is set once that many reports are acknowledged in all;
        ``until``: stop at this ``time.monotonic()``."""
        queue: asyncio.Queue[str] = asyncio.Queue()
        for _ in range(rounds):
            for listener in self.listeners:
                queue.put_nowait(listener)

        async def worker() -> None:
            while not queue.empty() and (until is None or time.monotonic() < until):
                await self.report(queue.get_nowait())
                if progress is not None and self.total_acked >= progress[0]:
                    progress[1].set()

        await asyncio.gather(*(worker() for _ in range(in_flight)))


async def stored_reports(client: Client) -> dict[str, list[tuple[int, int]]]:
    """listener -> [(seq, position)] of every report in the PLAYER stream, in stream order."""
    info = await client.jetstream().stream_info(subjects.PLAYER_STREAM)
    found: dict[str, list[tuple[int, int]]] = defaultdict(list)
    async for chunk in RangeReader(client).chunks(0, int(info.state.last_seq)):
        for subject, seq, data in chunk:
            decoded = decode(subject, data)
            if decoded is not None and decoded[2].kind == "reported":
                position = getattr(decoded[2], "position_ms", -1)
                found[decoded[0]].append((seq, position))
    return found


def partitions_of(listeners: list[str], partitions: int = 64) -> dict[int, list[str]]:
    by_partition: dict[int, list[str]] = defaultdict(list)
    for listener in listeners:
        by_partition[partition_of(listener, partitions)].append(listener)
    return by_partition


def owner_of_pid(owners: dict[int, str], pid: int) -> set[int]:
    return {p for p, owner in owners.items() if owner.startswith(f"p{pid}-")}


async def settled(client: Client, pids: list[int], timeout_s: float = 90.0) -> dict[int, str]:
    """Until every partition is owned, each of ``pids`` holds its fair share and serves it."""
    deadline = time.monotonic() + timeout_s
    share = DEFAULT_PARTITIONS // len(pids)
    while True:
        owners, _ = await leases(client)
        counts = [len(owner_of_pid(owners, pid)) for pid in pids]
        if len(owners) == DEFAULT_PARTITIONS and all(share <= n <= share + 1 for n in counts):
            ready = {h.pid for h in await healths(client, 0.3) if h.ready}
            if set(pids) <= ready:  # each copy also serves what it holds
                return owners
        if time.monotonic() > deadline:
            raise AssertionError(f"the leases never settled: {counts} of {len(owners)} owned")
        await asyncio.sleep(0.2)


async def state_of(client: Client, listener: str, timeout_s: float = 10.0) -> ListenerState:
    request = StateRequest(listener=listener, book=BOOK)
    return await call(client, subjects.PLAYER_STATE, request, ListenerState, timeout_s=timeout_s)


async def served_again(client: Client, listeners: list[str], survivors: list[int]) -> float:
    """Seconds until the dead copy's partitions are owned by survivors and each answers a state."""
    started = time.monotonic()
    while True:
        owners, _ = await leases(client)
        if len(owners) == DEFAULT_PARTITIONS and all(
            any(owner.startswith(f"p{pid}-") for pid in survivors) for owner in owners.values()
        ):
            break
        await asyncio.sleep(0.1)
    for listener in listeners:
        while True:
            try:
                await state_of(client, listener, timeout_s=1.0)  # a stalled copy may hold the request
                break
            except CallFailed:
                await asyncio.sleep(0.05)
    return time.monotonic() - started
