"""Group commit: appends that queue behind the ones in flight go to JetStream as one atomic batch.

With ``sync_interval: always`` every stored message costs the server an fsync, and a
message's ack waits for it. While ``IN_FLIGHT`` appends are out, the next ones wait and
then leave together as an atomic batch (ADR 41): one commit, one fsync, one ack for all of
them, each message keeping its own ``Nats-Expected-Last-Subject-Sequence`` and
``Nats-Msg-Id``. A batch is all or nothing, so when it is refused (one stale basis is
enough) or its outcome is unknown, each of its appends is tried again alone, where the
single-append path tells a stale basis from a write that did commit.
"""

import asyncio
import json
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import structlog
from nats.aio.client import Client
from nats.errors import Error as NatsError

IN_FLIGHT = 4
"""Appends or batches out at once; below it an append leaves at once, alone."""
BATCH_MAX = 256
"""Below the server's limit of 1,000 messages a batch."""
COMMIT_TIMEOUT_S = 5.0
log = structlog.get_logger("bedside.player.store")


@dataclass(frozen=True)
class Append:
    """One event's message for the listener-book's subject, on the basis it was decided on."""

    subject: str
    payload: bytes
    expected_seq: int
    msg_id: str

    def headers(self) -> dict[str, str]:
        return {"Nats-Msg-Id": self.msg_id, "Nats-Expected-Last-Subject-Sequence": str(self.expected_seq)}


PublishOne = Callable[[Append], Awaitable[int]]
"""One append on its own: its stream sequence, or the single path's own errors."""


@dataclass(frozen=True)
class Waiting:
    append: Append
    seq: "asyncio.Future[int]"


Batched = tuple[str, bytes, dict[str, str]]
"""One message of an atomic batch: (subject, payload, its own headers)."""


async def send_atomic_batch(connection: Client, messages: Sequence[Batched], timeout_s: float) -> bytes:
    """Publish ``messages`` as one JetStream atomic batch, in order; the commit's ack. What
    nats-py raises when the commit goes unanswered is the caller's to handle."""
    if not messages:
        raise ValueError("an atomic batch holds at least one message")
    batch_id = uuid.uuid4().hex
    last = len(messages) - 1
    for index, (subject, payload, own) in enumerate(messages):
        headers = {**own, "Nats-Batch-Id": batch_id, "Nats-Batch-Sequence": str(index + 1)}
        if index < last:
            await connection.publish(subject, payload, headers=headers)
        else:
            headers["Nats-Batch-Commit"] = "1"
            return (await connection.request(subject, payload, timeout=timeout_s, headers=headers)).data
    raise AssertionError("unreachable")


def committed_seqs(ack: bytes, count: int) -> list[int] | None:
    """The sequence of each of ``count`` batched messages from the commit's ack; None unless
    the batch was stored whole. A batch is stored contiguously, the commit last."""
    try:
        answer = json.loads(ack)
    except ValueError:
        return None
    if not isinstance(answer, dict) or "error" in answer or answer.get("count") != count:
        return None
    last = answer.get("seq")
    if not isinstance(last, int) or last < count:
        return None
    return list(range(last - count + 1, last + 1))


class GroupCommit:
    def __init__(self, connection: Client, publish_one: PublishOne) -> None:
        self.connection = connection
        self.publish_one = publish_one
        self.in_flight = 0
        self.waiting: deque[Waiting] = deque()
        self.batches: set[asyncio.Task[None]] = set()

    async def publish(self, append: Append) -> int:
        if self.in_flight < IN_FLIGHT and not self.waiting:
            self.in_flight += 1
            try:
                return await self.publish_one(append)
            finally:
                self._done_one()
        seq: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append(Waiting(append, seq))
        # a caller that gives up before its batch leaves is dropped from it, never sent
        return await seq

    def _done_one(self) -> None:
        self.in_flight -= 1
        while self.waiting and self.in_flight < IN_FLIGHT:
            group = self._take()
            if not group:
                return
            self.in_flight += 1
            task = asyncio.create_task(self._send(group))
            self.batches.add(task)
            task.add_done_callback(self.batches.discard)

    def _take(self) -> list[Waiting]:
        group: list[Waiting] = []
        while self.waiting and len(group) < BATCH_MAX:
            waiting = self.waiting.popleft()
            if not waiting.seq.done():
                group.append(waiting)
        return group

    async def _send(self, group: list[Waiting]) -> None:
        try:
            seqs = await self._commit(group) if len(group) > 1 else None
            if seqs is None:
                await asyncio.gather(*(self._alone(waiting) for waiting in group))
            else:
                for waiting, seq in zip(group, seqs, strict=True):
                    if not waiting.seq.done():
                        waiting.seq.set_result(seq)
        finally:
            for waiting in group:
                if not waiting.seq.done():  # only when this task itself was cancelled
                    waiting.seq.set_exception(TimeoutError("the batch was abandoned; its outcome is unknown"))
            self._done_one()

    async def _commit(self, group: list[Waiting]) -> list[int] | None:
        """The batch's sequences, or None when it was refused or its fate is unknown."""
        messages = [(w.append.subject, w.append.payload, w.append.headers()) for w in group]
        try:
            ack = await send_atomic_batch(self.connection, messages, COMMIT_TIMEOUT_S)
        except (TimeoutError, NatsError) as error:
            log.warning("a batch of appends went unanswered", size=len(group), error=str(error))
            return None
        seqs = committed_seqs(ack, len(group))
        if seqs is None:
            log.debug("a batch of appends was refused; each is tried alone", size=len(group))
        return seqs

    async def _alone(self, waiting: Waiting) -> None:
        if waiting.seq.done():
            return
        try:
            seq = await self.publish_one(waiting.append)
        except Exception as error:  # the caller's error: handed to it
            if not waiting.seq.done():
                waiting.seq.set_exception(error)
        else:
            if not waiting.seq.done():
                waiting.seq.set_result(seq)
