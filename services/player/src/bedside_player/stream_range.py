"""Reading a stored range of the PLAYER stream in bulk: what replay reads.

One ephemeral pull consumer without acks, several pull requests in flight, and a callback
that only appends each message to the chunk being filled. Whoever iterates ``chunks`` works
on one chunk while the server already sends the next ones into the socket. The reader only
delivers a chunk whose consumer sequences follow on without a hole; anything it cannot vouch
for (a hole, an error status, silence) ends the read with ``RangeInterrupted`` and the caller
goes on from the last sequence it applied by another way.
"""

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Collection

from bedside_contracts import subjects
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

Stored = tuple[str, int, bytes]
"""(subject, stream sequence, data) of one stored message."""

REQUEST_EXPIRES_S = 30.0
INACTIVE_THRESHOLD_S = 10.0
SILENCE_S = 15.0
NOT_READY_TRIES = 100
NOT_READY_PAUSE_S = 0.02


class RangeInterrupted(Exception):
    """The bulk read stopped before the end of its range; what was delivered is still right."""


def ack_reply_numbers(reply: str) -> tuple[int, int, int]:
    """(stream sequence, consumer sequence, pending) from a consumer message's reply subject."""
    # ``$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<time>.<pending>``; the form with
    # a domain and an account hash has two more tokens in front and a random one at the end.
    # Split from the right only as far as the numbers: replay reads one of these a message
    if reply.count(".") == 8:
        _, stream_seq, consumer_seq, _, pending = reply.rsplit(".", 4)
    else:
        _, stream_seq, consumer_seq, _, pending, _ = reply.rsplit(".", 5)
    return int(stream_seq), int(consumer_seq), int(pending)


class _Chunks:
    """The callback side: fills chunks in arrival order and says when one is complete."""

    def __init__(self, size: int, through_seq: int, ask: Callable[[], Awaitable[None]]) -> None:
        self.size = size
        self.through_seq = through_seq
        self.ask = ask
        """One more pull request: sent from here, at once, as each one is answered, rather than
        when the chunks are next iterated, so the server always has requests to fill."""
        self.filling: list[Stored] = []
        self.ready: deque[list[Stored]] = deque()
        self.wake = asyncio.Event()
        self.next_consumer_seq = 1
        """The consumer sequence the chunk being filled must start at."""
        self.first_reply = ""
        """The reply subject of the chunk's first message."""
        self.finished = False
        self.failure: str | None = None
        self.not_ready = 0
        self.pause = False
        """Asked again after a pause: a consumer just made did not take pull requests yet."""

    async def receive(self, msg: Msg) -> None:
        if self.finished or self.failure is not None:
            return
        if msg.headers and "Status" in msg.headers:
            await self._status(msg.headers)
            return
        # a message costs only its stream sequence and pending count here; the consumer
        # sequences are checked once a chunk (``_complete``)
        try:
            stream_seq, _, pending = ack_reply_numbers(msg.reply)
            last = pending == 0
        except ValueError:
            self._fail(f"a message without a consumer's reply subject: {msg.reply!r}")
            return
        filling = self.filling
        filling.append((msg.subject, stream_seq, msg.data))
        if len(filling) == 1:
            self.first_reply = msg.reply
        if last or stream_seq >= self.through_seq:
            self.finished = True
            self._complete(msg.reply)
        elif len(filling) >= self.size and self._complete(msg.reply):
            await self.ask()  # that chunk's request is answered

    async def _status(self, headers: dict[str, str]) -> None:
        # 408: a pull request expired before it was filled; ask again (the others still wait).
        # 503 before the first message: on a cluster a consumer just made may not take pull
        # requests yet; ask again shortly rather than fall back to the slow ordered read
        status = headers["Status"]
        nothing_yet = self.next_consumer_seq == 1 and not self.filling
        if status == "408":
            await self.ask()
        elif status == "503" and nothing_yet and self.not_ready < NOT_READY_TRIES:
            self.not_ready += 1
            self.pause = True
            self.wake.set()
        else:
            self._fail(f"status {headers['Status']} {headers.get('Description', '')}".strip())

    def _complete(self, last_reply: str) -> bool:
        """Hand the chunk being filled over; False (the read failed) when it holds a hole."""
        # one consumer without acks sends each message once, in consumer sequence: the chunk
        # holds no hole exactly when it starts where the last one ended and its first and
        # last consumer sequences span its length
        try:
            first, last = ack_reply_numbers(self.first_reply)[1], ack_reply_numbers(last_reply)[1]
        except ValueError:
            self._fail(f"a message without a consumer's reply subject: {last_reply!r}")
            return False
        if first != self.next_consumer_seq or last - first + 1 != len(self.filling):
            self._fail(
                f"consumer sequences {first} to {last} for {len(self.filling)} messages, "
                f"expected from {self.next_consumer_seq}"
            )
            return False
        self.next_consumer_seq = last + 1
        self.ready.append(self.filling)
        self.filling = []
        self.wake.set()
        return True

    def _fail(self, why: str) -> None:
        self.failure = why
        self.wake.set()


class RangeReader:
    """Reads the messages after one sequence through another, in chunks of ``batch``."""

    def __init__(self, connection: Client, batch: int = 1000, in_flight: int = 4) -> None:
        self.connection = connection
        self.batch = batch
        self.in_flight = in_flight

    async def chunks(
        self, after_seq: int, through_seq: int, filters: Collection[str] | None = None
    ) -> AsyncIterator[list[Stored]]:
        """Every stored message after ``after_seq`` through ``through_seq`` (or the stream's end
        if that comes first), oldest first; with ``filters``, only messages on those subjects."""
        if through_seq <= after_seq:
            return
        js = self.connection.jetstream()
        config = ConsumerConfig(
            filter_subjects=list(filters) if filters else None,
            deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
            opt_start_seq=after_seq + 1,
            ack_policy=AckPolicy.NONE,
            inactive_threshold=INACTIVE_THRESHOLD_S,
            mem_storage=True,
            num_replicas=1,
        )
        consumer = await js.add_consumer(subjects.PLAYER_STREAM, config)
        assert consumer.name is not None
        if not consumer.num_pending:  # nothing on these subjects after ``after_seq``
            with contextlib.suppress(NatsError):
                await js.delete_consumer(subjects.PLAYER_STREAM, consumer.name)
            return
        inbox = self.connection.new_inbox()
        next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{subjects.PLAYER_STREAM}.{consumer.name}"
        request = json.dumps({"batch": self.batch, "expires": int(REQUEST_EXPIRES_S * 1e9)}).encode()

        async def ask() -> None:
            await self.connection.publish(next_subject, request, reply=inbox)

        state = _Chunks(self.batch, through_seq, ask)
        sub = await self.connection.subscribe(
            inbox, cb=state.receive, pending_msgs_limit=0, pending_bytes_limit=0
        )
        try:
            for _ in range(self.in_flight):
                await ask()
            while True:
                state.wake.clear()
                while state.ready:
                    yield state.ready.popleft()
                if state.failure is not None:
                    raise RangeInterrupted(state.failure)
                if state.finished:
                    return
                if state.pause:
                    state.pause = False
                    await asyncio.sleep(NOT_READY_PAUSE_S)
                    await ask()
                if state.ready or state.failure is not None:
                    continue
                try:
                    await asyncio.wait_for(state.wake.wait(), SILENCE_S)
                except TimeoutError:
                    raise RangeInterrupted(f"nothing from the consumer for {SILENCE_S:.0f} s") from None
        finally:
            with contextlib.suppress(NatsError):
                await sub.unsubscribe()
            with contextlib.suppress(NatsError):
                await js.delete_consumer(subjects.PLAYER_STREAM, consumer.name)
