"""Appends to a PLAYER-like stream with fsync per message, four ways, alternated in one run.

``.venv/bin/python -m bench.player_append_modes [devices] [seconds] [runs] [--unsynced]``

Each of ``devices`` chains appends to its own listener-book subject one at a time, each
append carrying the chain's last sequence as ``Nats-Expected-Last-Subject-Sequence`` and its
own ``Nats-Msg-Id``, as the player's per-listener lock does. The ways the appends go out:

- atomic: today's ``bedside_player.group_commit.GroupCommit`` (ADR 41) over single publishes;
- fast, one batch: one long fast batch (ADR-50 of nats-architecture-and-design, "fast
  ingest"), gap ``ok``, the server asked to ack every message;
- fast, a batch a group: while one fast batch is out the appends wait, then all leave as
  the next (start, appends, commit), gap ``fail``;
- plain: each append its own publish, as many in flight as devices (the floor of the rates).

A fast batch's acks name batch sequences, never stream sequences (NOTES, "Fast batch
publishing"), so the two fast ways here take each append's stream sequence from the first
one's and the order sent: right only because nothing else writes to the stream and nothing is
refused or deduplicated, which the run checks at the end of each leg. The player could not.
``--unsynced`` runs the server with its default fsync interval, to show what the fsyncs cost.
"""

import asyncio
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import nats
from bedside_contracts import subjects
from bedside_player.group_commit import Append, GroupCommit
from bedside_player.store import msg_id, stream_config
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from nats.aio.client import Client
from nats.aio.msg import Msg

from bench.player_common import UnsyncedConfig
from bench.report import Figure, percentile, report

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
DEVICES = int(ARGS[0]) if ARGS else 50
SECONDS = float(ARGS[1]) if len(ARGS) > 1 else 4.0
RUNS = int(ARGS[2]) if len(ARGS) > 2 else 3
SYNC_ALWAYS = "--unsynced" not in sys.argv
ACK_TIMEOUT_S = 10.0
FAST_SUFFIX = "$FI"
"""A fast batch's message carries its batch state in its reply subject, which ends so."""
FAST_INBOX = f"_BENCH_FAST.{uuid.uuid4().hex}"


class Publisher(Protocol):
    async def publish(self, append: Append) -> int: ...

    async def close(self) -> None: ...


def stored_seq(ack: bytes) -> int:
    answer = json.loads(ack)
    if "error" in answer:
        raise RuntimeError(f"refused: {answer['error']}")
    return int(answer["seq"])


def fast_reply(batch: str, flow: int, gap: str, batch_seq: int, op: int) -> str:
    """``<inbox>.<batch id>.<flow>.<gap ok|fail>.<batch seq>.<op>.$FI``; op 0 starts, 1
    appends, 2 commits with this message, 3 commits without storing it."""
    return f"{FAST_INBOX}.{batch}.{flow}.{gap}.{batch_seq}.{op}.{FAST_SUFFIX}"


class Plain:
    def __init__(self, nc: Client) -> None:
        self.nc = nc

    async def publish(self, append: Append) -> int:
        answer = await self.nc.request(
            append.subject, append.payload, timeout=ACK_TIMEOUT_S, headers=append.headers()
        )
        return stored_seq(answer.data)

    async def close(self) -> None:
        return None


class Atomic:
    def __init__(self, nc: Client) -> None:
        self.group = GroupCommit(nc, Plain(nc).publish)

    async def publish(self, append: Append) -> int:
        return await self.group.publish(append)

    async def close(self) -> None:
        return None


class FastStream:
    """One long fast batch, flow 1: the server acks every message by its batch sequence."""

    def __init__(self, nc: Client) -> None:
        self.nc = nc
        self.batch = uuid.uuid4().hex
        self.sent = 0
        self.acked = 0
        self.first_seq = 0
        self.waiting: dict[int, asyncio.Future[int]] = {}
        self.started: asyncio.Future[None] | None = None
        self.committed: asyncio.Future[None] | None = None
        self.complaints: list[bytes] = []

    async def _answer(self, msg: Msg) -> None:
        answer = json.loads(msg.data)
        kind = answer.get("type")
        if kind == "ack":
            if self.started is not None and not self.started.done():
                self.started.set_result(None)
            while self.acked < answer["seq"]:
                self.acked += 1
                future = self.waiting.pop(self.acked, None)
                if future is not None and not future.done():
                    future.set_result(self.first_seq + self.acked - 1)
        elif kind is not None:  # "err" or "gap"
            self.complaints.append(msg.data)
        elif self.committed is not None and not self.committed.done():
            self.committed.set_result(None)

    async def publish(self, append: Append) -> int:
        loop = asyncio.get_running_loop()
        if self.started is None:
            self.started = loop.create_future()
            await self.nc.subscribe(f"{FAST_INBOX}.{self.batch}.>", cb=self._answer)
            info = await self.nc.request(f"$JS.API.STREAM.INFO.{subjects.PLAYER_STREAM}", b"", timeout=5)
            self.first_seq = json.loads(info.data)["state"]["last_seq"] + 1
            op = 0
        else:
            await self.started  # a client must not send on before the batch's first answer
            op = 1
        self.sent += 1
        future: asyncio.Future[int] = loop.create_future()
        self.waiting[self.sent] = future
        reply = fast_reply(self.batch, 1, "ok", self.sent, op)
        await self.nc.publish(append.subject, append.payload, reply=reply, headers=append.headers())
        return await future

    async def close(self) -> None:
        if self.started is None:
            return
        self.committed = asyncio.get_running_loop().create_future()
        reply = fast_reply(self.batch, 1, "ok", self.sent + 1, 3)
        await self.nc.publish(f"{subjects.PLAYER_STREAM.lower()}.end", b"", reply=reply)
        await asyncio.wait_for(self.committed, ACK_TIMEOUT_S)


class FastGroups:
    """Group commit by fast batches, one out at a time; each append's sequence from the
    commit's (last sequence, count), true only while nothing else writes."""

    def __init__(self, nc: Client) -> None:
        self.nc = nc
        self.queue: list[tuple[Append, asyncio.Future[int]]] = []
        self.sender: asyncio.Task[None] | None = None
        self.complaints: list[bytes] = []

    async def publish(self, append: Append) -> int:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.queue.append((append, future))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send_all())
        return await future

    async def close(self) -> None:
        return None

    async def _send_all(self) -> None:
        while self.queue:
            group, self.queue = self.queue, []
            seqs = await self._send(group)
            for (_, future), seq in zip(group, seqs, strict=True):
                future.set_result(seq)

    async def _send(self, group: list[tuple[Append, asyncio.Future[int]]]) -> list[int]:
        loop = asyncio.get_running_loop()
        batch = uuid.uuid4().hex
        started: asyncio.Future[None] = loop.create_future()
        committed: asyncio.Future[bytes] = loop.create_future()

        async def answer(msg: Msg) -> None:
            kind = json.loads(msg.data).get("type")
            if kind in ("err", "gap"):
                self.complaints.append(msg.data)
            if not started.done():
                started.set_result(None)
            if kind is None and not committed.done():
                committed.set_result(msg.data)

        subscription = await self.nc.subscribe(f"{FAST_INBOX}.{batch}.>", cb=answer)
        count = len(group)
        for batch_seq, (append, _) in enumerate(group, start=1):
            op = 2 if batch_seq == count else 0 if batch_seq == 1 else 1
            reply = fast_reply(batch, count, "fail", batch_seq, op)
            await self.nc.publish(append.subject, append.payload, reply=reply, headers=append.headers())
            if batch_seq == 1:
                await started
        ack = json.loads(await asyncio.wait_for(committed, ACK_TIMEOUT_S))
        await subscription.unsubscribe()
        if "error" in ack or ack.get("count") != count:
            raise RuntimeError(f"a fast batch was not stored whole: {ack}")
        return list(range(ack["seq"] - count + 1, ack["seq"] + 1))


MODES: dict[str, Callable[[Client], Publisher]] = {
    "atomic batches (today, ADR 41)": Atomic,
    "fast, one batch": FastStream,
    "fast, a batch a group": FastGroups,
    "plain, all in flight": Plain,
}


def body(device: int, n: int) -> bytes:
    report = {"kind": "Reported", "device": f"d{device}", "position_ms": n * 15_000, "at": time.time()}
    return json.dumps(report).encode()


async def leg(nc: Client, name: str, make: Callable[[Client], Publisher]) -> tuple[float, list[float]]:
    """(appends a second, each append's ms to its ack) of one way, on a fresh stream."""
    js = nc.jetstream()
    config = stream_config()
    config.allow_batched = True
    await js.add_stream(config)
    publisher = make(nc)
    tag = uuid.uuid4().hex[:8]
    chains = [f"player.{i % 64}.l{tag}{i}.b1" for i in range(DEVICES)]
    last = [0] * DEVICES
    done = [0] * DEVICES
    latencies_ms: list[float] = []
    stop = time.perf_counter() + SECONDS

    async def device(i: int) -> None:
        while time.perf_counter() < stop:
            payload = body(i, done[i])
            append = Append(chains[i], payload, last[i], msg_id(chains[i], last[i], payload))
            sent = time.perf_counter()
            last[i] = await publisher.publish(append)
            latencies_ms.append((time.perf_counter() - sent) * 1000)
            done[i] += 1

    began = time.perf_counter()
    await asyncio.gather(*(device(i) for i in range(DEVICES)))
    elapsed = time.perf_counter() - began
    await publisher.close()
    # every append stored once, on the sequence its device was told
    stored = (await js.stream_info(subjects.PLAYER_STREAM)).state.messages
    complaints = getattr(publisher, "complaints", [])
    if stored != sum(done) or complaints:
        raise RuntimeError(f"{name}: {stored} stored for {sum(done)} appends; {complaints[:3]}")
    for i, subject in enumerate(chains):
        if done[i] and (await js.get_last_msg(subjects.PLAYER_STREAM, subject)).seq != last[i]:
            raise RuntimeError(f"{name}: {subject} is not at the sequence its device was told")
    await js.delete_stream(subjects.PLAYER_STREAM)
    return sum(done) / elapsed, latencies_ms


async def main() -> None:
    kind = NatsServerConfig if SYNC_ALWAYS else UnsyncedConfig
    store = Path(tempfile.mkdtemp(prefix="bedside-bench-appends-"))
    server = NatsServer(
        kind(store_dir=store, port=free_port(), monitor_port=free_port(), name="bench")
    ).start()
    rates: dict[str, list[float]] = {name: [] for name in MODES}
    p50s: dict[str, list[float]] = {name: [] for name in MODES}
    try:
        nc = await nats.connect(server.url)
        fsync = "fsync per message" if SYNC_ALWAYS else "the server's default fsync interval"
        print(f"{DEVICES} devices, {SECONDS:g} s a leg, {fsync}, {RUNS} runs, the ways alternated")
        for run in range(1, RUNS + 1):
            for name, make in MODES.items():
                rate, latencies_ms = await leg(nc, name, make)
                rates[name].append(rate)
                p50s[name].append(percentile(latencies_ms, 50))
                print(
                    f"  run {run}  {name:32s} {rate:8,.0f} appends/s  "
                    f"ack p50 {percentile(latencies_ms, 50):6.2f} ms  "
                    f"p99 {percentile(latencies_ms, 99):6.2f} ms"
                )
        await nc.close()
    finally:
        server.stop()
    floor_name = "plain, all in flight"
    floor_rate = statistics.median(rates[floor_name])
    figures = []
    for name in MODES:
        label = f"{name}, {DEVICES} devices, median of {RUNS}"
        rate = statistics.median(rates[name])
        figures.append(Figure(f"appends/s, {label}", rate, "appends/s", floor_rate, "appends/s"))
        figures.append(Figure(f"append->ack p50, {label}", statistics.median(p50s[name]), "ms"))
    report(figures)


if __name__ == "__main__":
    asyncio.run(main())
