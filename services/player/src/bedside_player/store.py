"""The event store: the PLAYER stream on JetStream, one subject per listener and book.

Appends carry ``Nats-Msg-Id`` (derived from the subject, the expected sequence and the
event itself, so a retry after a timeout is deduplicated rather than doubled) and
``Nats-Expected-Last-Subject-Sequence`` (so a writer that has not seen the newest event
of that listener and book is refused and must reload and decide again).
"""

import asyncio
import contextlib
import functools
import hashlib
import re
from collections.abc import AsyncIterator

import structlog
from bedside_contracts import subjects
from bedside_contracts.common import NAME_PATTERN
from bedside_contracts.player import PlayerEvent
from bedside_runtime.streams import declare_stream
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy, RawStreamMsg, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NoStreamResponseError, NotFoundError, ServiceUnavailableError
from pydantic import TypeAdapter

EVENT: TypeAdapter[PlayerEvent] = TypeAdapter(PlayerEvent)
STALE_BASIS = 10071
"""JetStream's code for a failed expected-sequence check, with the stream's sequence in the text."""
UNCHECKED_BASIS = 10164
"""The same check answered without a sequence: a clustered stream says it while a new leader
replays its log, so the basis may well be right; the write is tried again."""
WRONG_LAST_SEQUENCE = frozenset({STALE_BASIS, UNCHECKED_BASIS})
DUPLICATE_WINDOW_S = 120.0
log = structlog.get_logger("bedside.player.store")
NAME = re.compile(NAME_PATTERN)
APPEND_TIMEOUT_S = 5.0
APPEND_RETRIES = 5
APPEND_BACKOFF_S = 0.25


class WrongLastSequence(Exception):
    """Someone appended to this listener and book since the state was read."""


def subject_of(listener: str, book: str) -> str:
    return subjects.PLAYER_EVENTS.format(listener=listener, book=book)


@functools.lru_cache(maxsize=1 << 16)  # replay asks once per event, about few subjects
def key_of(subject: str) -> tuple[str, str] | None:
    """(listener, book) of a subject ``player.<listener>.<book>``; None for any other subject."""
    parts = subject.split(".")
    if len(parts) != 3 or not all(NAME.fullmatch(part) for part in parts[1:]):
        return None
    return parts[1], parts[2]


def decode(subject: str, data: bytes) -> tuple[str, str, PlayerEvent] | None:
    """The projection key and event of one stream message; None (logged) for what does not fit.

    The stream can hold messages no player wrote (anyone allowed to publish on ``player.>``);
    replay skips them instead of refusing to start.
    """
    key = key_of(subject)
    try:
        event = parse(data) if key is not None else None
    except ValueError:
        event = None
    if key is None or event is None:
        log.error("a message in the player stream does not fit the contract", subject=subject)
        return None
    return key[0], key[1], event


def msg_id(subject: str, expected_seq: int, payload: bytes) -> str:
    """The same event on the same basis is the same message: a retry is a duplicate, not a second."""
    digest = hashlib.sha256(payload).hexdigest()[:32]
    return f"{subject}:{expected_seq}:{digest}"


def stream_config(replicas: int = 1) -> StreamConfig:
    return StreamConfig(
        name=subjects.PLAYER_STREAM,
        subjects=[subjects.PLAYER_SUBJECTS],
        storage=StorageType.FILE,
        num_replicas=replicas,
        duplicate_window=DUPLICATE_WINDOW_S,
        deny_delete=True,
        deny_purge=True,
        allow_direct=True,
    )


def parse(data: bytes) -> PlayerEvent:
    # the schema validator itself: TypeAdapter.validate_json's wrapper cost 10 % of a decode
    event: PlayerEvent = EVENT.validator.validate_json(data)
    return event


class EventStore:
    def __init__(self, js: JetStreamContext) -> None:
        self.js = js

    async def declare(self, replicas: int = 1) -> None:
        """Create the PLAYER stream (only the player declares it), or bring its config up to date."""
        config = stream_config(replicas)
        await declare_stream(self.js, config)

    async def last_seq(self) -> int:
        info = await self.js.stream_info(subjects.PLAYER_STREAM)
        return int(info.state.last_seq)

    async def append(self, listener: str, book: str, event: PlayerEvent, expected_seq: int) -> int:
        """Append ``event`` if the subject's newest sequence is still ``expected_seq``; its sequence."""
        subject = subject_of(listener, book)
        payload = event.model_dump_json(exclude_none=True).encode()
        headers = {
            "Nats-Msg-Id": msg_id(subject, expected_seq, payload),
            "Nats-Expected-Last-Subject-Sequence": str(expected_seq),
        }
        for attempt in range(APPEND_RETRIES):
            try:
                ack = await self.js.publish(
                    subject, payload, timeout=APPEND_TIMEOUT_S, stream=subjects.PLAYER_STREAM, headers=headers
                )
                return int(ack.seq)
            except BadRequestError as error:
                if error.err_code not in WRONG_LAST_SEQUENCE:
                    raise
                # the server checks the expected sequence before dedupe: a retry of a write
                # that did commit lands here, so look whether the next message is ours
                newer = await self._message_after(subject, expected_seq)
                if newer is not None and (newer.headers or {}).get("Nats-Msg-Id") == headers["Nats-Msg-Id"]:
                    return int(newer.seq or 0)
                # a newer event of someone else's makes the basis stale; with none, the refusal
                # came from a server behind the stream (a stalled leader waking up), so retry
                if newer is not None or attempt == APPEND_RETRIES - 1:
                    raise WrongLastSequence(str(error.description)) from error
                await asyncio.sleep(APPEND_BACKOFF_S * (attempt + 1))
            except (TimeoutError, NoStreamResponseError, ServiceUnavailableError):
                # a timeout is an unknown outcome, and while a cluster elects a new stream
                # leader nobody answers (no responders, 503): the same msg id makes a retry safe
                if attempt == APPEND_RETRIES - 1:
                    raise
                await asyncio.sleep(APPEND_BACKOFF_S * (attempt + 1))
        raise AssertionError("unreachable")

    async def _message_after(self, subject: str, expected_seq: int) -> RawStreamMsg | None:
        """The first message on ``subject`` after ``expected_seq``, if there is one."""
        try:
            msg = await self.js.get_msg(
                subjects.PLAYER_STREAM, seq=expected_seq + 1, subject=subject, next=True, direct=True
            )
        except NotFoundError:
            return None
        return msg if msg.seq is not None else None

    async def read_after(self, listener: str, book: str, after_seq: int) -> list[tuple[int, PlayerEvent]]:
        """The events of one listener and book after ``after_seq``, by direct get (a catch-up)."""
        subject = subject_of(listener, book)
        found: list[tuple[int, PlayerEvent]] = []
        seq = after_seq + 1
        while True:
            try:
                msg = await self.js.get_msg(
                    subjects.PLAYER_STREAM, seq=seq, subject=subject, next=True, direct=True
                )
            except NotFoundError:
                return found
            if msg.seq is None or msg.data is None:
                return found
            found.append((msg.seq, parse(msg.data)))
            seq = msg.seq + 1

    async def read_subject(self, listener: str, book: str) -> list[tuple[int, PlayerEvent]]:
        """Every event of one listener and book, oldest first."""
        subject = subject_of(listener, book)
        try:
            last = await self.js.get_last_msg(subjects.PLAYER_STREAM, subject, direct=True)
        except NotFoundError:
            return []
        found: list[tuple[int, PlayerEvent]] = []
        sub = await self.js.subscribe(
            subject, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL, stream=subjects.PLAYER_STREAM
        )
        try:
            async for msg in sub.messages:
                seq = msg.metadata.sequence.stream
                found.append((seq, parse(msg.data)))
                if seq >= (last.seq or 0):
                    break
        finally:
            await sub.unsubscribe()
        return found

    async def feed(self, after_seq: int) -> AsyncIterator[tuple[str, int, bytes]]:
        """Every event after ``after_seq`` in stream order, then live: (subject, seq, data)."""
        if after_seq:
            policy = DeliverPolicy.BY_START_SEQUENCE
            config = ConsumerConfig(opt_start_seq=after_seq + 1)
        else:
            policy, config = DeliverPolicy.ALL, None
        sub = await self.js.subscribe(
            subjects.PLAYER_SUBJECTS,
            ordered_consumer=True,
            stream=subjects.PLAYER_STREAM,
            config=config,
            deliver_policy=policy,
            pending_msgs_limit=1_000_000,
        )
        try:
            async for msg in sub.messages:
                yield msg.subject, msg.metadata.sequence.stream, msg.data
        finally:
            with contextlib.suppress(NatsError):  # the connection may be closing already
                await sub.unsubscribe()
