"""Migrating a PLAYER stream written before partitions (ADR 42): ``bedside migrate player-stream``.

Every event on ``player.<listener>.<book>`` is copied, in stream order, to its partitioned
subject in the same stream, its sequences renumbered (``domain.renumber``). Each copy
carries ``Bedside-Migrated-From``, the sequence of its original, so a rerun rebuilds the
renumbering from the stream and goes on after the newest original copied. The copies go
out as atomic batches whose first message expects the stream's last sequence: a batch is
stored whole, right after the one before, or not at all, so a run stopped anywhere leaves
no hole and nothing twice, and a writer that slips in between makes the next batch fail.
Only once every original is copied does the stream's metadata get the partition count,
which is what lets player copies start.
"""

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from bedside_contracts import subjects
from bedside_contracts.partitions import events_subject
from bedside_runtime.health import check
from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.api import StreamConfig
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, NotFoundError

from bedside_player.domain.renumber import Renumbering, renumbered
from bedside_player.group_commit import committed_seqs, send_atomic_batch
from bedside_player.replay import THROUGH_KEY
from bedside_player.store import (
    MIGRATED_THROUGH_KEY,
    PARTITIONS_KEY,
    STALE_BASIS,
    key_of,
    parse,
    unpartitioned_key_of,
)
from bedside_player.stream_range import RangeInterrupted, RangeReader

MIGRATED_FROM = "Bedside-Migrated-From"
"""The header of a copy: the stream sequence of the original it was made from."""
UNPARTITIONED = "player.*.*"
PARTITIONED = "player.*.*.*"
BATCH = 500
"""Copies committed at once; the server takes at most 1,000 messages in an atomic batch."""
COMMIT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 15.0

Progress = Callable[[int], None]
"""Told how many copies this run has committed, after each batch."""


class NothingToMigrate(Exception):
    """The stream needs no migration (absent, empty, or already partitioned)."""


class CannotMigrate(Exception):
    """The migration refused or stopped; the message says why and what to do. Nothing it
    stored is lost by stopping: a rerun goes on from the stream."""


@dataclass
class Migrated:
    partitions: int
    copied_now: int
    copies: int
    """Every copy in the stream, this run's and earlier runs'."""
    unfit: list[int] = field(default_factory=list)
    """Sequences of originals that do not fit the contract: never part of a state, not copied."""
    migrated_through: int = 0
    snapshot_set_aside: bool = False

    def lines(self) -> list[str]:
        earlier = self.copies - self.copied_now
        lines = [
            f"copied {self.copied_now} events to partitioned subjects"
            + (f" ({earlier} more were copied by an earlier run)" if earlier else ""),
            f"the {subjects.PLAYER_STREAM} stream now records {self.partitions} partitions; "
            f"its originals (through seq {self.migrated_through}) stay in it and are skipped by replay",
        ]
        if self.unfit:
            shown = ", ".join(str(seq) for seq in self.unfit[:10])
            lines.append(
                f"{len(self.unfit)} messages did not fit the contract and were not copied (seq {shown}"
                f"{', ...' if len(self.unfit) > 10 else ''}); the previous version skipped them too"
            )
        if self.snapshot_set_aside:
            lines.append(
                "the snapshot named the old sequences and was set aside: the player replays the whole "
                "stream once (`bedside replay --save-snapshot` writes a new one)"
            )
        return lines


def shape_of(subject: str) -> str | None:
    """ "original" (``player.<listener>.<book>``), "partitioned", or None for neither."""
    if unpartitioned_key_of(subject) is not None:
        return "original"
    if key_of(subject) is not None:
        return "partitioned"
    return None


async def migrate(
    connection: Client, partitions: int, batch: int = BATCH, progress: Progress | None = None
) -> Migrated:
    """Copy every original not copied yet, then record ``partitions``; run while no player runs."""
    js = connection.jetstream()
    config, counts = await _stream(js)
    recorded = (config.metadata or {}).get(PARTITIONS_KEY)
    if recorded is not None:
        raise NothingToMigrate(
            f"the {subjects.PLAYER_STREAM} stream is already partitioned ({recorded} partitions): "
            "nothing to migrate"
        )
    if not counts:
        raise NothingToMigrate(f"the {subjects.PLAYER_STREAM} stream is empty: nothing to migrate")
    _refuse_other_shapes(counts)
    health = await check(connection, "player")
    if health is not None:
        raise CannotMigrate(
            f"a player copy answers on the bus (pid {health.pid}, version {health.version}): stop every "
            "player copy first; nothing may write to the stream while it is migrated"
        )
    if not config.allow_atomic:
        config.allow_atomic = True  # the copies go out as atomic batches; this version declares it anyway
        await js.update_stream(config)
    copies = sum(count for subject, count in counts.items() if shape_of(subject) == "partitioned")
    seqs = await _copies_so_far(js, copies, partitions)
    run = _Run(connection, seqs, partitions, batch, progress)
    await run.copy_all()
    migrated = Migrated(partitions, run.copied_now, len(seqs), run.unfit, run.read_through)
    migrated.snapshot_set_aside = await _set_snapshot_aside(js)
    metadata = {
        **(config.metadata or {}),
        PARTITIONS_KEY: str(partitions),
        MIGRATED_THROUGH_KEY: str(run.read_through),
    }
    config.metadata = metadata
    await js.update_stream(config)
    return migrated


async def _stream(js: JetStreamContext) -> tuple[StreamConfig, dict[str, int]]:
    """The stream's config and how many messages each of its subjects holds."""
    try:
        info = await js.stream_info(subjects.PLAYER_STREAM, subjects_filter=">")
    except NotFoundError:
        raise NothingToMigrate(
            f"there is no {subjects.PLAYER_STREAM} stream here: nothing to migrate"
        ) from None
    return info.config, dict(info.state.subjects or {})


def _refuse_other_shapes(counts: dict[str, int]) -> None:
    neither = sorted(subject for subject in counts if shape_of(subject) is None)
    if neither:
        shown = ", ".join(neither[:5]) + (", ..." if len(neither) > 5 else "")
        raise CannotMigrate(
            f"the {subjects.PLAYER_STREAM} stream holds messages on {len(neither)} subjects of neither "
            f"shape ({shown}): neither player.<listener>.<book> (before partitions) nor "
            "player.<partition>.<listener>.<book>. It was not written by a Bedside player this migration "
            "knows; nothing was changed"
        )


async def _copies_so_far(js: JetStreamContext, copies: int, partitions: int) -> Renumbering:
    """The renumbering of what earlier runs copied, read back from the copies' headers."""
    seqs = Renumbering()
    if not copies:
        return seqs
    sub = await js.subscribe(PARTITIONED, ordered_consumer=True, stream=subjects.PLAYER_STREAM)
    try:
        for _ in range(copies):
            msg = await sub.next_msg(timeout=READ_TIMEOUT_S)
            origin = (msg.headers or {}).get(MIGRATED_FROM)
            key = key_of(msg.subject)
            if origin is None or not origin.isdigit() or key is None:
                raise CannotMigrate(
                    f"{msg.subject} (seq {msg.metadata.sequence.stream}) is a partitioned event that no "
                    "migration wrote: a player of this version has written to the stream; nothing was changed"
                )
            if msg.subject != events_subject(key[0], key[1], partitions):
                raise CannotMigrate(
                    f"an earlier run copied with another partition count ({msg.subject}); run again with "
                    "the BEDSIDE_PLAYER_PARTITIONS it had"
                )
            seqs.add(int(origin), msg.metadata.sequence.stream)
    except TimeoutError:
        raise CannotMigrate(
            "the stream stopped sending its copies back; nothing was changed, run again"
        ) from None
    finally:
        with contextlib.suppress(NatsError):
            await sub.unsubscribe()
    return seqs


class _Run:
    """One run's copying: reads the originals after the newest copied, commits them in batches."""

    def __init__(
        self, connection: Client, seqs: Renumbering, partitions: int, batch: int, progress: Progress | None
    ) -> None:
        self.connection = connection
        self.seqs = seqs
        self.partitions = partitions
        self.batch = batch
        self.progress = progress
        self.copied_now = 0
        self.unfit: list[int] = []
        self.read_through = seqs.newest_old
        """The newest original read, copied or not."""
        self.last_seq = 0
        """The stream's last sequence as this run's own commits left it."""
        self.pending: list[tuple[str, bytes, int]] = []

    async def copy_all(self) -> None:
        """Until no original is left after the newest read (a writer may have added one)."""
        js = self.connection.jetstream()
        while True:
            # the last sequence and the copies counted in one answer: a batch of an earlier run
            # still being stored when the copies were read back would otherwise be copied twice
            info = await js.stream_info(subjects.PLAYER_STREAM, subjects_filter=PARTITIONED)
            if sum((info.state.subjects or {}).values()) != len(self.seqs):
                raise CannotMigrate(
                    f"the {subjects.PLAYER_STREAM} stream changed while the migration read it (an earlier "
                    "run's last batch, or a second migration): run again; nothing is doubled or skipped"
                )
            self.last_seq = int(info.state.last_seq)
            before = self.read_through
            try:
                async for chunk in RangeReader(self.connection).chunks(
                    self.read_through, self.last_seq, [UNPARTITIONED]
                ):
                    for subject, seq, data in chunk:
                        self._take(subject, seq, data)
                        if len(self.pending) >= self.batch:
                            await self._commit()
            except RangeInterrupted as error:
                raise CannotMigrate(f"reading the stream stopped ({error}); run again to go on") from None
            await self._commit()
            if self.read_through == before:
                return

    def _take(self, subject: str, seq: int, data: bytes) -> None:
        self.read_through = seq
        key = unpartitioned_key_of(subject)
        try:
            event = parse(data) if key is not None else None
        except ValueError:
            event = None
        if key is None or event is None:
            self.unfit.append(seq)
            return
        payload = renumbered(event, self.seqs).model_dump_json(exclude_none=True).encode()
        self.seqs.add(seq, self.last_seq + len(self.pending) + 1)
        self.pending.append((events_subject(key[0], key[1], self.partitions), payload, seq))

    async def _commit(self) -> None:
        if not self.pending:
            return
        batch, self.pending = self.pending, []
        messages = [(subject, payload, {MIGRATED_FROM: str(origin)}) for subject, payload, origin in batch]
        messages[0][2]["Nats-Expected-Last-Sequence"] = str(self.last_seq)
        try:
            ack = await send_atomic_batch(self.connection, messages, COMMIT_TIMEOUT_S)
        except (TimeoutError, NatsError) as error:
            raise CannotMigrate(
                f"a batch of {len(batch)} copies went unanswered ({error!r}); run again: a rerun finds "
                "whether it was stored and goes on after it"
            ) from None
        stored = committed_seqs(ack, len(batch))
        if stored is None or stored[0] != self.last_seq + 1:
            raise CannotMigrate(_refused(ack, len(batch)))
        self.last_seq = stored[-1]
        self.copied_now += len(batch)
        if self.progress is not None:
            self.progress(self.copied_now)


def _refused(ack: bytes, count: int) -> str:
    with contextlib.suppress(ValueError, AttributeError):
        error = json.loads(ack).get("error") or {}
        if error.get("err_code") == STALE_BASIS:
            return (
                f"something wrote to the {subjects.PLAYER_STREAM} stream during the migration (a player "
                "copy, or a second migration): stop it and run again; nothing is doubled or skipped"
            )
        if error:
            return f"the server refused a batch of {count} copies: {error.get('description', error)}"
    return f"the server did not store a batch of {count} copies whole: {ack[:200]!r}; run again"


async def _set_snapshot_aside(js: JetStreamContext) -> bool:
    """Remove the snapshot's ``through`` marker: its states name the old sequences, and without
    the marker a copy replays the whole stream. True when there was one."""
    try:
        kv = await js.key_value(subjects.PLAYER_SNAPSHOTS_BUCKET)
        await kv.get(THROUGH_KEY)
    except (BucketNotFoundError, KeyNotFoundError):
        return False
    await kv.delete(THROUGH_KEY)
    return True
