"""Decoding and applying a long replay in a second process, while this one reads.

Reading the stream (nats-py parsing every message) and decoding and applying its events are
each about as costly, and one Python thread does one at a time. For a long range, replay
hands each chunk the reader delivers to a child process, which decodes and applies it to its
own copy of the projections, and this process goes on reading; at the end the child sends
back the states, which replace the ones here. Events are still applied once each, in stream
order, by the same ``apply_stored``; only the process doing it differs.
"""

import asyncio
import multiprocessing
import pickle
import signal
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Protocol

from bedside_player.domain.state import PlayerState
from bedside_player.projections import Key, Projections, apply_stored
from bedside_player.stream_range import Stored

IN_ANOTHER_PROCESS_FROM = 100_000
"""Messages to read from which the child pays for its start (about half a second of imports)."""
CHUNKS_QUEUED = 64
"""Chunks written ahead of the child at most (some megabytes): a child that falls behind slows
the read rather than fill this process's memory."""


class Applier(Protocol):
    async def apply(self, chunk: list[Stored]) -> None: ...

    async def finish(self) -> int:
        """Every chunk handed over is applied to the projections; how many events fitted."""
        ...


class InProcess:
    def __init__(self, projections: Projections, migrated_through: int = 0) -> None:
        self.projections = projections
        self.migrated_through = migrated_through
        self.applied = 0

    async def apply(self, chunk: list[Stored]) -> None:
        self.applied += apply_stored(self.projections, chunk, self.migrated_through)

    async def finish(self) -> int:
        return self.applied


class ApplyWorkerFailed(Exception):
    """The child could not apply what it was given; nothing it applied has been used."""


def _work(
    connection: Connection,
    partitions: int,
    states: dict[Key, PlayerState],
    through_seq: int,
    migrated_through: int,
) -> None:
    # Ctrl-C reaches the whole process group; the parent decides what a stop means
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    projections = Projections(partitions)
    projections.states = states
    projections.through_seq = through_seq
    applied = 0
    try:
        while chunk := connection.recv_bytes():
            applied += apply_stored(projections, pickle.loads(chunk), migrated_through)
    except Exception as error:
        connection.send_bytes(pickle.dumps(("failed", repr(error))))
        return
    connection.send_bytes(pickle.dumps(("applied", applied, projections.states, projections.through_seq)))


class InAnotherProcess:
    """Hands chunks to a child process over a pipe; the pipe's writes and the final read run on
    a thread of their own, one at a time and in order, so the event loop goes on reading."""

    def __init__(self, projections: Projections, migrated_through: int = 0) -> None:
        self.projections = projections
        context = multiprocessing.get_context("spawn")
        self.connection, child_end = context.Pipe()
        self.process = context.Process(
            target=_work,
            args=(
                child_end,
                projections.partitions,
                dict(projections.states),
                projections.through_seq,
                migrated_through,
            ),
            daemon=True,
        )
        self.process.start()
        child_end.close()
        self.pipe = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay-pipe")
        self.sending: deque[asyncio.Future[None]] = deque()

    async def _send(self, data: bytes) -> None:
        # the reader asks for more only while it is iterated: it must not wait on every write
        self.sending.append(asyncio.wrap_future(self.pipe.submit(self.connection.send_bytes, data)))
        while len(self.sending) > CHUNKS_QUEUED or (self.sending and self.sending[0].done()):
            await self.sending.popleft()

    async def apply(self, chunk: list[Stored]) -> None:
        await self._send(pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL))

    async def finish(self) -> int:
        try:
            await self._send(b"")
            while self.sending:
                await self.sending.popleft()
            answer = pickle.loads(
                await asyncio.get_running_loop().run_in_executor(self.pipe, self.connection.recv_bytes)
            )
        except (EOFError, OSError) as error:
            raise ApplyWorkerFailed(f"the replay's second process ended early: {error!r}") from error
        finally:
            self.pipe.shutdown(wait=False)
            self.connection.close()
            await asyncio.get_running_loop().run_in_executor(None, self.process.join, 10)
        if answer[0] != "applied":
            raise ApplyWorkerFailed(f"the replay's second process could not apply an event: {answer[1]}")
        _, applied, states, through_seq = answer
        self.projections.replace(states, through_seq)
        return int(applied)

    def abandon(self) -> None:
        """Stop the child without waiting for what it holds (the replay itself failed)."""
        for sending in self.sending:
            sending.cancel()
        self.pipe.shutdown(wait=False, cancel_futures=True)
        self.connection.close()
        self.process.kill()


def applier_for(
    projections: Projections, messages: int, migrated_through: int = 0
) -> InProcess | InAnotherProcess:
    """``migrated_through``: the stream's originals at or below it were copied by a migration (ADR 42)."""
    if messages >= IN_ANOTHER_PROCESS_FROM:
        return InAnotherProcess(projections, migrated_through)
    return InProcess(projections, migrated_through)
