"""The event store: the PLAYER stream on JetStream, one subject per listener and book,
``player.<partition>.<listener>.<book>`` (the partition rule is ``bedside_contracts.partitions``).

Appends carry ``Nats-Msg-Id`` (derived from the subject, the expected sequence and the
event itself, so a retry after a timeout is deduplicated rather than doubled) and
``Nats-Expected-Last-Subject-Sequence`` (so a writer that has not seen the newest event
of that listener and book is refused and must reload and decide again).
"""

import asyncio
import contextlib
import functools
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable, Collection

import structlog
from bedside_contracts import subjects
from bedside_contracts.common import is_name
from bedside_contracts.partitions import (
    CACHED_LISTENERS,
    DEFAULT_PARTITIONS,
    events_subject,
    partition_events,
)
from bedside_contracts.player import PlayerEvent
from bedside_runtime.streams import declare_stream
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy, RawStreamMsg, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NoStreamResponseError, NotFoundError, ServiceUnavailableError
from pydantic import TypeAdapter

from bedside_player.domain.history import StoredEvent
from bedside_player.group_commit import Append, GroupCommit
from bedside_player.stream_range import ack_reply_numbers

EVENT: TypeAdapter[PlayerEvent] = TypeAdapter(PlayerEvent)
STALE_BASIS = 10071
"""JetStream's code for a failed expected-sequence check, with the stream's sequence in the text."""
UNCHECKED_BASIS = 10164
"""The same check answered without a sequence: a clustered stream says it while a new leader
replays its log, so the basis may well be right; the write is tried again."""
WRONG_LAST_SEQUENCE = frozenset({STALE_BASIS, UNCHECKED_BASIS})
DUPLICATE_WINDOW_S = 120.0
log = structlog.get_logger("bedside.player.store")
APPEND_TIMEOUT_S = 5.0
APPEND_RETRIES = 5
APPEND_BACKOFF_S = 0.25


PARTITIONS_KEY = "bedside_partitions"
"""The stream's metadata key that records how many partitions its subjects were written with."""
MIGRATED_THROUGH_KEY = "bedside_migrated_through"
"""The stream's metadata key of a migrated stream (ADR 42): the newest original (a message of
``player.<listener>.<book>``) the migration read; each at or below it that fits the contract
has a partitioned copy."""
MIGRATE_COMMAND = "bedside migrate player-stream"


Received = Callable[[Msg], Awaitable[None]]
OnStored = Callable[[str, int, bytes, int], None]
"""Told (subject, stream sequence, data, pending) of each event a ``follow`` delivers."""


class WrongLastSequence(Exception):
    """Someone appended to this listener and book since the state was read."""


class StreamRefused(Exception):
    """The PLAYER stream was written in a shape this version cannot read (ADR 36)."""


def subject_of(listener: str, book: str, partitions: int = DEFAULT_PARTITIONS) -> str:
    return events_subject(listener, book, partitions)


@functools.lru_cache(maxsize=CACHED_LISTENERS)  # replay asks once per event, about few subjects
def key_of(subject: str) -> tuple[str, str] | None:
    """(listener, book) of ``player.<partition>.<listener>.<book>``; None for any other subject."""
    parts = subject.split(".")
    if len(parts) != 4 or not parts[1].isdigit() or not all(is_name(part) for part in parts[2:]):
        return None
    return parts[2], parts[3]


@functools.lru_cache(maxsize=CACHED_LISTENERS)
def unpartitioned_key_of(subject: str) -> tuple[str, str] | None:
    """(listener, book) of ``player.<listener>.<book>``, the subject before partitions; None otherwise."""
    parts = subject.split(".")
    if len(parts) != 3 or parts[0] != "player" or not all(is_name(part) for part in parts[1:]):
        return None
    return parts[1], parts[2]


def migrated_original(subject: str, seq: int, migrated_through: int) -> bool:
    """A message written before partitions that a migration has copied (ADR 42): not an event
    of this version, and not an error either. One written later than the migration still is."""
    return 0 < seq <= migrated_through and unpartitioned_key_of(subject) is not None


def migrated_through_of(metadata: dict[str, str]) -> int:
    return int(metadata.get(MIGRATED_THROUGH_KEY, "0"))


def partition_filters(partitions: Collection[int]) -> list[str]:
    return [partition_events(partition) for partition in sorted(partitions)]


def refusal(metadata: dict[str, str], messages: int, partitions: int) -> str | None:
    """Why a PLAYER stream with this metadata and this many messages cannot be used, if it cannot.

    A stream from before partitions holds ``player.<listener>.<book>`` subjects that no copy
    follows any more; one written with another partition count puts listeners elsewhere.
    """
    recorded = metadata.get(PARTITIONS_KEY)
    if recorded is None and messages:
        return (
            f"the {subjects.PLAYER_STREAM} stream holds {messages} events written before listeners were "
            "partitioned (subjects player.<listener>.<book>, ADR 36); this version reads only "
            f"player.<partition>.<listener>.<book>. Stop every player copy and run `{MIGRATE_COMMAND}`: "
            "it copies every event to its partitioned subject and then lets copies start (ADR 42)"
        )
    if recorded is not None and recorded != str(partitions):
        return (
            f"the {subjects.PLAYER_STREAM} stream was written with {recorded} partitions and this copy "
            f"is set to {partitions} (BEDSIDE_PLAYER_PARTITIONS); the count is fixed for a stream's life"
        )
    return None


def decode(
    subject: str, data: bytes, seq: int = 0, migrated_through: int = 0
) -> tuple[str, str, PlayerEvent] | None:
    """The projection key and event of one stream message; None (logged) for what does not fit.

    The stream can hold messages no player wrote (anyone allowed to publish on ``player.>``);
    replay skips them instead of refusing to start. The originals a migration copied are
    skipped without a word (``migrated_original``).
    """
    key = key_of(subject)
    try:
        event = parse(data) if key is not None else None
    except ValueError:
        event = None
    if key is None and migrated_original(subject, seq, migrated_through):
        return None
    if key is None or event is None:
        log.error("a message in the player stream does not fit the contract", subject=subject)
        return None
    return key[0], key[1], event


def msg_id(subject: str, expected_seq: int, payload: bytes) -> str:
    """The same event on the same basis is the same message: a retry is a duplicate, not a second."""
    digest = hashlib.sha256(payload).hexdigest()[:32]
    return f"{subject}:{expected_seq}:{digest}"


def stream_config(
    replicas: int = 1, partitions: int = DEFAULT_PARTITIONS, migrated_through: int = 0
) -> StreamConfig:
    metadata = {PARTITIONS_KEY: str(partitions)}
    if migrated_through:
        metadata[MIGRATED_THROUGH_KEY] = str(migrated_through)
    return StreamConfig(
        name=subjects.PLAYER_STREAM,
        subjects=[subjects.PLAYER_SUBJECTS],
        storage=StorageType.FILE,
        num_replicas=replicas,
        duplicate_window=DUPLICATE_WINDOW_S,
        deny_delete=True,
        deny_purge=True,
        allow_direct=True,
        allow_atomic=True,
        metadata=metadata,
    )


parse: Callable[[bytes], PlayerEvent] = EVENT.validator.validate_json
"""One stream message's bytes as the event they hold; ``ValidationError`` (a ``ValueError``)
for what does not fit. The union's schema validator, bound once: replay calls it per event."""


class EventStore:
    """With ``connection``, appends that queue behind others are group-committed (ADR 41)."""

    def __init__(
        self, js: JetStreamContext, partitions: int = DEFAULT_PARTITIONS, connection: Client | None = None
    ) -> None:
        self.js = js
        self.partitions = partitions
        self.group = GroupCommit(connection, self._append_alone) if connection is not None else None

    def subject(self, listener: str, book: str) -> str:
        return subject_of(listener, book, self.partitions)

    async def declare(self, replicas: int = 1) -> None:
        """Create the PLAYER stream (only the player declares it), or bring its config up to date;
        ``StreamRefused`` for a stream this version cannot read."""
        migrated_through = 0
        try:
            info = await self.js.stream_info(subjects.PLAYER_STREAM)
        except NotFoundError:
            pass
        else:
            metadata = info.config.metadata or {}
            why = refusal(metadata, int(info.state.messages), self.partitions)
            if why is not None:
                raise StreamRefused(why)
            migrated_through = migrated_through_of(metadata)
        await declare_stream(self.js, stream_config(replicas, self.partitions, migrated_through))

    async def last_seq(self) -> int:
        info = await self.js.stream_info(subjects.PLAYER_STREAM)
        return int(info.state.last_seq)

    async def extent(self) -> tuple[int, int]:
        """(the newest sequence, the newest a migration copied) of the stream now."""
        info = await self.js.stream_info(subjects.PLAYER_STREAM)
        return int(info.state.last_seq), migrated_through_of(info.config.metadata or {})

    async def pending_after(self, after_seq: int, partitions: Collection[int]) -> int:
        """How many events of ``partitions`` the stream holds after ``after_seq``."""
        config = ConsumerConfig(
            filter_subjects=partition_filters(partitions),
            deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
            opt_start_seq=after_seq + 1,
            ack_policy=AckPolicy.NONE,
            inactive_threshold=10.0,
            mem_storage=True,
            num_replicas=1,
        )
        consumer = await self.js.add_consumer(subjects.PLAYER_STREAM, config)
        with contextlib.suppress(NatsError):
            assert consumer.name is not None
            await self.js.delete_consumer(subjects.PLAYER_STREAM, consumer.name)
        return int(consumer.num_pending or 0)

    async def append(self, listener: str, book: str, event: PlayerEvent, expected_seq: int) -> int:
        """Append ``event`` if the subject's newest sequence is still ``expected_seq``; its sequence."""
        subject = self.subject(listener, book)
        payload = event.model_dump_json(exclude_none=True).encode()
        append = Append(subject, payload, expected_seq, msg_id(subject, expected_seq, payload))
        if self.group is not None:
            return await self.group.publish(append)
        return await self._append_alone(append)

    async def _append_alone(self, append: Append) -> int:
        subject, expected_seq = append.subject, append.expected_seq
        for attempt in range(APPEND_RETRIES):
            try:
                ack = await self.js.publish(
                    subject,
                    append.payload,
                    timeout=APPEND_TIMEOUT_S,
                    stream=subjects.PLAYER_STREAM,
                    headers=append.headers(),
                )
                return int(ack.seq)
            except BadRequestError as error:
                if error.err_code not in WRONG_LAST_SEQUENCE:
                    raise
                # the server checks the expected sequence before dedupe: a retry of a write
                # that did commit lands here, so look whether the next message is ours
                newer = await self._message_after(subject, expected_seq)
                if newer is not None and (newer.headers or {}).get("Nats-Msg-Id") == append.msg_id:
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

    async def read_after(
        self, listener: str, book: str, after_seq: int
    ) -> list[tuple[int, PlayerEvent | None]]:
        """The events of one listener and book after ``after_seq``, by direct get (a catch-up);
        None for a message that fits no event (logged)."""
        subject = self.subject(listener, book)
        found: list[tuple[int, PlayerEvent | None]] = []
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
            decoded = decode(subject, msg.data)
            found.append((msg.seq, None if decoded is None else decoded[2]))
            seq = msg.seq + 1

    async def read_subject(self, listener: str, book: str) -> list[StoredEvent]:
        """Every event of one listener and book, oldest first, with when the stream stored it (a
        message that fits no event is left out, logged)."""
        subject = self.subject(listener, book)
        try:
            last = await self.js.get_last_msg(subjects.PLAYER_STREAM, subject, direct=True)
        except NotFoundError:
            return []
        found: list[StoredEvent] = []
        sub = await self.js.subscribe(
            subject, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL, stream=subjects.PLAYER_STREAM
        )
        try:
            async for msg in sub.messages:
                seq = msg.metadata.sequence.stream
                stored_at_ms = int(msg.metadata.timestamp.timestamp() * 1000)
                if (decoded := decode(subject, msg.data)) is not None:
                    found.append(StoredEvent(seq, decoded[2], stored_at_ms))
                if seq >= (last.seq or 0):
                    break
        finally:
            await sub.unsubscribe()
        return found

    async def _ordered(
        self, after_seq: int, partitions: Collection[int] | None, received: Received | None
    ) -> JetStreamContext.PushSubscription:
        """An ordered consumer of the events after ``after_seq`` (of ``partitions`` only, when given)."""
        filters = partition_filters(partitions) if partitions is not None else None
        config = ConsumerConfig(filter_subjects=filters) if filters and len(filters) > 1 else ConsumerConfig()
        if after_seq:
            policy = DeliverPolicy.BY_START_SEQUENCE
            config.opt_start_seq = after_seq + 1
        else:
            policy = DeliverPolicy.ALL
        return await self.js.subscribe(
            filters[0] if filters and len(filters) == 1 else subjects.PLAYER_SUBJECTS,
            ordered_consumer=True,
            stream=subjects.PLAYER_STREAM,
            config=config,
            deliver_policy=policy,
            pending_msgs_limit=1_000_000,
            cb=received,
        )

    async def follow(self, after_seq: int, partitions: Collection[int] | None, on_stored: OnStored) -> None:
        """Hand every event after ``after_seq`` to ``on_stored`` in stream order, then each new
        one as it is stored, until cancelled; an error ``on_stored`` raises ends it.

        A callback rather than ``feed``'s iterator: nats-py's message iterator costs a task and
        a wait for every message, and a copy's live feed carries every report it appends.
        """
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def received(msg: Msg) -> None:
            if ended.done():
                return
            try:
                seq, _, pending = ack_reply_numbers(msg.reply)
                on_stored(msg.subject, seq, msg.data, pending)
            except Exception as error:  # nats-py would log it and go on with the next message
                ended.set_exception(error)

        sub = await self._ordered(after_seq, partitions, received)
        try:
            await ended
        finally:
            with contextlib.suppress(NatsError):  # the connection may be closing already
                await sub.unsubscribe()

    async def feed(
        self, after_seq: int, partitions: Collection[int] | None = None
    ) -> AsyncIterator[tuple[str, int, bytes, int]]:
        """Every event after ``after_seq`` in stream order, then live: (subject, seq, data, pending).

        With ``partitions``, only those partitions' events; ``pending`` is how many more the
        stream held for this consumer when the message was sent. For reads that stop; what
        follows the stream for good uses ``follow``.
        """
        sub = await self._ordered(after_seq, partitions, None)
        try:
            async for msg in sub.messages:
                metadata = msg.metadata
                yield msg.subject, metadata.sequence.stream, msg.data, metadata.num_pending
        finally:
            with contextlib.suppress(NatsError):  # the connection may be closing already
                await sub.unsubscribe()
