"""Shared parts of the player benchmarks: a fresh bus, the fake search, a player process, floors.

Run the benchmarks from the repository root, e.g. ``.venv/bin/python -m bench.player_reports``.
Nothing here asserts a time; everything is printed.
"""

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import httpx
import nats
from bedside_player.listeners import Listeners
from bedside_player_testing import FakeSearch, PlainEventStream, SyntheticBook
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.api import StorageType, StreamConfig

from bench.processes import process_cpu_s
from bench.report import percentile


def summary(values_ms: Sequence[float]) -> str:
    return (
        f"p50 {percentile(values_ms, 50):.2f} ms  p95 {percentile(values_ms, 95):.2f} ms  "
        f"p99 {percentile(values_ms, 99):.2f} ms  "
        f"(n={len(values_ms)}, mean {statistics.fmean(values_ms):.2f})"
    )


class UnsyncedConfig(NatsServerConfig):
    """The server's default fsync interval instead of Bedside's fsync-per-write: only for
    generating a large stream quickly; reading it back is the same either way."""

    def render(self) -> str:
        return super().render().replace("  sync_interval: always\n", "")


def start_nats(sync_always: bool = True) -> NatsServer:
    store = Path(tempfile.mkdtemp(prefix="bedside-bench-nats-"))
    kind = NatsServerConfig if sync_always else UnsyncedConfig
    config = kind(store_dir=store, port=free_port(), monitor_port=free_port(), name="bench")
    return NatsServer(config).start()


def spawn_player(env: dict[str, str], log: Path) -> "subprocess.Popen[bytes]":
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "bedside", "serve", "player"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


class Bench:
    """A bus, a fake search on it, and one player process."""

    def __init__(self, sync_always: bool = True, books: list[SyntheticBook] | None = None) -> None:
        self.server = start_nats(sync_always)
        self.books = books or [SyntheticBook("b1", duration_ms=100 * 3600_000)]
        self.port = free_port()
        self.data_dir = Path(tempfile.mkdtemp(prefix="bedside-bench-data-"))
        self.client: Client | None = None
        self.player: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def nc(self) -> Client:
        assert self.client is not None
        return self.client

    async def start(self, player: bool = True) -> "Bench":
        self.client = await nats.connect(self.server.url)
        await FakeSearch(self.client, self.books).start()
        if player:
            env = {
                **os.environ,
                "NATS_URL": self.server.url,
                "BEDSIDE_DATA_DIR": str(self.data_dir),
                "BEDSIDE_HTTP_PORT": str(self.port),
                "BEDSIDE_LOG_FORMAT": "json",
                "BEDSIDE_LOG_LEVEL": "warning",
            }
            self.player = spawn_player(env, self.data_dir / "player.log")
            await self.wait_http()
        return self

    async def wait_http(self) -> None:
        async with httpx.AsyncClient() as client:
            for _ in range(1200):
                try:
                    if (await client.get(self.url + "/api/openapi.json")).status_code == 200:
                        return
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
        raise RuntimeError("the player did not start")

    def player_cpu_s(self) -> float:
        """CPU seconds the player process has used (user + system), read from /proc."""
        assert self.player is not None
        return process_cpu_s(self.player.pid)

    def nats_cpu_s(self) -> float:
        """CPU seconds the nats-server process has used."""
        assert self.server.process is not None
        return process_cpu_s(self.server.process.pid)

    async def listeners(self, count: int, prefix: str = "bench") -> list[tuple[str, str]]:
        registry = await Listeners.open(self.nc.jetstream())
        return [(f"{prefix}{i}", await registry.create(f"{prefix}{i}")) for i in range(count)]

    async def stop(self) -> None:
        if self.player is not None:
            self.player.terminate()
            self.player.wait(20)
        if self.client is not None:
            await self.client.close()
        self.server.stop()


async def floor_request_reply(nc: Client, n: int = 2000) -> list[float]:
    """nats-py request-reply round trips to a trivial responder in the same process."""

    async def echo(msg: Msg) -> None:
        await msg.respond(msg.data)

    sub = await nc.subscribe("bench.floor.echo", cb=echo)
    # the responder lives on a second connection, as a service would
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        await nc.request("bench.floor.echo", b"{}", timeout=5)
        samples.append((time.perf_counter() - started) * 1000)
    await sub.unsubscribe()
    return samples


async def floor_publish_ack(nc: Client, n: int = 2000, every_s: float = 0.0) -> list[float]:
    """JetStream publish-ack round trips on a file stream like the player's: back to back, or
    paced (a pause of ``every_s`` after each ack, as a bench's moves are paced)."""
    js = nc.jetstream()
    await js.add_stream(StreamConfig(name="BENCHFLOOR", subjects=["benchfloor.>"], storage=StorageType.FILE))
    samples = []
    payload = b'{"kind":"reported","device":"d","position_ms":1000,"playing":true,"basis_seq":0}'
    for i in range(n):
        started = time.perf_counter()
        await js.publish(f"benchfloor.{i % 50}", payload, stream="BENCHFLOOR")
        samples.append((time.perf_counter() - started) * 1000)
        if every_s:
            await asyncio.sleep(every_s)
    await js.delete_stream("BENCHFLOOR")
    return samples


async def floors(nc: Client) -> tuple[list[float], list[float]]:
    rr = await floor_request_reply(nc)
    ack = await floor_publish_ack(nc)
    print(f"floor  nats-py request-reply round trip   {summary(rr)}")
    print(f"floor  JetStream publish ack (file)        {summary(ack)}")
    return rr, ack


def ratio(measured: Sequence[float], floor: Sequence[float], p: float) -> str:
    return f"{percentile(measured, p) / percentile(floor, p):.1f}x"


class PlainHttp:
    """HTTP/1.1 keep-alive on bare asyncio streams, one connection per device.

    A load generator that costs about 0.2 ms of CPU a report (an httpx client costs about
    2 ms), so that on two shared cores the saturation measures the player, not the client.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: dict[int, tuple[asyncio.StreamReader, asyncio.StreamWriter]] = {}
        self.turns: dict[int, asyncio.Lock] = {}
        """One request at a time on a device's connection (paced reports can overlap), as an
        httpx client with one connection queues them."""

    async def _connection(self, i: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader_writer = self.streams.get(i)
        if reader_writer is None or reader_writer[0].at_eof() or reader_writer[1].is_closing():
            reader_writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.streams[i] = reader_writer
        return reader_writer

    async def post(self, i: int, path: str, token: str, body: bytes) -> tuple[int, bytes]:
        async with self.turns.setdefault(i, asyncio.Lock()):
            try:
                return await self._post(i, path, token, body)
            except ConnectionError:  # closed as idle (uvicorn's 5 s keep-alive) just as it was reused
                return await self._post(i, path, token, body)

    async def _post(self, i: int, path: str, token: str, body: bytes) -> tuple[int, bytes]:
        reader, writer = await self._connection(i)
        head = (
            f"POST {path} HTTP/1.1\r\nhost: bench\r\nauthorization: Bearer {token}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
        )
        writer.write(head.encode() + body)
        status = await reader.readline()
        length = 0
        while (line := await reader.readline()) != b"\r\n":
            if not line or not status:
                del self.streams[i]
                raise ConnectionError("the player closed the connection")
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return int(status.split()[1]), await reader.readexactly(length)

    async def close(self) -> None:
        for _, writer in self.streams.values():
            writer.close()
        self.streams.clear()


async def watch(
    bench: Bench, people: list[tuple[str, str]]
) -> tuple[list[PlainEventStream], list[asyncio.Task[None]]]:
    """A push stream on a bare socket for each of ``people`` (a listener may come more than once:
    one device each), once every one has read its first state."""
    readers = [PlainEventStream() for _ in people]
    tasks = [
        asyncio.create_task(r.run(bench.port, f"/api/listeners/{name}/books/b1/events", token))
        for r, (name, token) in zip(readers, people, strict=True)
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*(r.reached(0) for r in readers)), 60)
    except TimeoutError:
        raise_what_a_reader_raised(tasks)
        raise
    return readers, tasks


def raise_what_a_reader_raised(tasks: list[asyncio.Task[None]]) -> None:
    """A reader that died shows as its error, not as pushes it never saw."""
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise RuntimeError("a push stream's reader failed") from task.exception()


async def unwatch(readers: list[PlainEventStream], tasks: list[asyncio.Task[None]]) -> None:
    raise_what_a_reader_raised(tasks)
    for r in readers:
        r.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def moves_to_watchers(
    bench: Bench, mover: tuple[str, str], readers: list[PlainEventStream], moves: int, every_s: float
) -> tuple[list[float], list[float], int, int]:
    """``moves`` seeks on ``mover``'s book over a bare keep-alive socket, a pause of ``every_s``
    after each reply; the latency from sending a seek until a reader has read a state at its
    sequence or later (the hub hands a device only the newest): (to each reader, until all have,
    how many a reader never saw, how many a reader saw only through a later move's state: at one
    move every 40-50 ms, a push dropped and covered by the next)."""
    name, token = mover
    plain = PlainHttp(bench.port)
    path = f"/api/listeners/{name}/books/b1"
    body = {"device": "m", "position_ms": 1, "playing": True, "basis_seq": readers[0].arrivals[-1][0]}
    status, data = await plain.post(0, path + "/reports", token, json.dumps(body).encode())
    if status != 200:
        raise RuntimeError(data.decode())
    basis = json.loads(data)["seq"]
    await asyncio.sleep(0.2)
    sent: list[tuple[int, float]] = []
    for n in range(moves):
        started = time.perf_counter()
        body = {"device": "m", "position_ms": 2_000_000 + n * 1_000, "basis_seq": basis}
        status, data = await plain.post(0, path + "/seek", token, json.dumps(body).encode())
        if status != 200:
            raise RuntimeError(data.decode())
        basis = json.loads(data)["seq"]
        sent.append((basis, started))
        await asyncio.sleep(every_s)
    await asyncio.sleep(1)
    await plain.close()
    each, every, missed, covered = [], [], 0, 0
    for seq, at in sent:
        reached = []
        for r in readers:
            seen = next(((s, t) for s, t in r.arrivals if s >= seq), None)
            if seen is None:
                missed += 1
            else:
                covered += seen[0] != seq
                reached.append((seen[1] - at) * 1000)
        each += reached
        if len(reached) == len(readers):
            every.append(max(reached))
    return each, every, missed, covered


Send = Callable[[int], Coroutine[Any, Any, float]]
"""One report from device ``i``; the milliseconds until it was acknowledged."""


class PlainDevices:
    """One device per listener, each keeping its own basis (the seq of its last ack), reporting
    over bare keep-alive sockets (``PlainHttp``)."""

    def __init__(self, port: int, people: list[tuple[str, str]]) -> None:
        self.people = people
        self.basis = [0] * len(people)
        self.position = [0] * len(people)
        self.plain = PlainHttp(port)

    def next_report(self, i: int) -> dict[str, object]:
        """Device ``i``'s next report: a second further on, on the basis of its last ack."""
        self.position[i] += 1000
        return {"device": "d", "position_ms": self.position[i], "playing": True, "basis_seq": self.basis[i]}

    def acknowledged(self, i: int, seq: int) -> None:
        self.basis[i] = max(self.basis[i], seq)

    async def plain_http_report(self, i: int) -> float:
        """A report from device ``i`` on its bare keep-alive connection."""
        name, token = self.people[i]
        body = json.dumps(self.next_report(i)).encode()
        started = time.perf_counter()
        status, data = await self.plain.post(i, f"/api/listeners/{name}/books/b1/reports", token, body)
        elapsed = (time.perf_counter() - started) * 1000
        if status != 200:
            raise RuntimeError(data.decode())
        self.acknowledged(i, json.loads(data)["seq"])
        return elapsed

    async def close(self) -> None:
        await self.plain.close()


async def saturate(send: Send, workers: int, seconds: float, people: int) -> tuple[float, int]:
    """Closed loop: ``workers`` devices reporting back to back (worker ``w`` sends as devices
    ``w``, ``w + workers``, ... modulo ``people``); (reports acknowledged per second, reports
    acknowledged)."""
    done = 0
    stop = time.perf_counter() + seconds

    async def worker(w: int) -> None:
        nonlocal done
        i = w
        while time.perf_counter() < stop:
            await send(i % people)
            done += 1
            i += workers

    started = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(workers)))
    return done / (time.perf_counter() - started), done
