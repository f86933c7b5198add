"""Rebuilding projections from the stream (all of them, or a partition's), optionally from a
KV snapshot, and writing one.

A snapshot is one KV key per listener and book (``<listener>.<book>``) holding the state
and the stream sequence it covers, plus ``through`` written last. Loading takes every
state and replays the stream from the lowest sequence any of them covers; ``evolve``
skips what a state already holds.
"""

import json
import time
from collections.abc import Collection
from dataclasses import dataclass

import structlog
from bedside_contracts import subjects
from bedside_contracts.common import Contract
from bedside_contracts.player import Asleep, Bookmark, MoveCause, SleepTimer, Speed
from bedside_guard import Candidate
from bedside_runtime.streams import key_value_bucket, live_keys
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue
from pydantic import Field, ValidationError

from bedside_player.domain.heard_twice import GotoMade, RequestMade
from bedside_player.domain.playing import PlayingDevice, SpeedChanged
from bedside_player.domain.state import PlayerState
from bedside_player.projections import Projections, apply_stored
from bedside_player.store import EventStore, partition_filters
from bedside_player.stream_range import RangeInterrupted, RangeReader

THROUGH_KEY = "through"
log = structlog.get_logger("bedside.player")


class Snapshot(Contract):
    """A projection exactly as replay holds it, and the stream sequence it covers.

    The rows are stored as they were drawn, not as a device is shown them now: a row
    covered only because the listener is before it must uncover again once they pass it.
    """

    listener: str
    book: str
    position_ms: int
    playing: bool
    seq: int
    last_move_seq: int
    before_move_ms: int | None
    rows: list[Candidate]
    list_turn_id: str | None
    devices: list[str]
    events: int
    through: int
    last_report_seq: int = 0
    last_reporter: str | None = None
    other_report_seq: int = 0
    sleep_timer: SleepTimer | None = None
    asleep: Asleep | None = None
    last_touch_ms: int = 0
    players: list[PlayingDevice | str] = Field(
        default_factory=list,
        description="with when each was heard; a bare name is a snapshot from before ADR 48 (heard: unknown)",
    )
    last_move_cause: MoveCause | None = None
    retired: bool = False
    last_move_device: str | None = None
    last_goto: GotoMade | None = None
    last_undo: RequestMade | None = None
    last_timer_set: RequestMade | None = None
    speed: Speed = 1.0
    speed_changes: list[SpeedChanged] = Field(default_factory=list)
    speed_changed: SpeedChanged | None = Field(
        default=None, description="the newest change alone, as snapshots kept it before each was: read as one"
    )
    bookmarks: list[Bookmark] = Field(default_factory=list)
    last_bookmark_added: RequestMade | None = None


@dataclass
class ReplayReport:
    projections: int
    events: int
    seconds: float
    from_snapshot_seq: int

    def line(self) -> str:
        rate = self.events / self.seconds if self.seconds else 0.0
        start = f" from a snapshot at seq {self.from_snapshot_seq}" if self.from_snapshot_seq else ""
        return (
            f"replayed {self.events} events into {self.projections} projections in {self.seconds:.2f} s "
            f"({rate:,.0f} events/s){start}"
        )


async def snapshots(js: JetStreamContext, replicas: int = 1) -> KeyValue:
    config = KeyValueConfig(
        bucket=subjects.PLAYER_SNAPSHOTS_BUCKET, history=1, storage=StorageType.FILE, replicas=replicas
    )
    return await key_value_bucket(js, config)


def to_snapshot(state: PlayerState, through: int) -> Snapshot:
    return Snapshot.model_validate(
        {
            **state._asdict(),
            "rows": list(state.rows),
            "devices": list(state.devices),
            "players": list(state.players),
            "speed_changes": list(state.speed_changes),
            "bookmarks": list(state.bookmarks),
            "through": through,
        }
    )


def from_snapshot(snapshot: Snapshot) -> PlayerState:
    fields = snapshot.model_dump(
        exclude={
            "through",
            "rows",
            "devices",
            "players",
            "sleep_timer",
            "asleep",
            "last_move_cause",
            "last_goto",
            "last_undo",
            "last_timer_set",
            "speed_changes",
            "speed_changed",
            "bookmarks",
            "last_bookmark_added",
        }
    )
    return PlayerState(
        **fields,
        last_move_cause=snapshot.last_move_cause or cause_before_adr_47(snapshot),
        rows=tuple(snapshot.rows),
        devices=tuple(snapshot.devices),
        players=tuple(
            PlayingDevice(player, None) if isinstance(player, str) else player for player in snapshot.players
        ),
        sleep_timer=snapshot.sleep_timer,
        asleep=snapshot.asleep,
        last_goto=snapshot.last_goto,
        last_undo=snapshot.last_undo,
        last_timer_set=snapshot.last_timer_set,
        speed_changes=tuple(SpeedChanged(*change) for change in snapshot.speed_changes)
        or ((SpeedChanged(*snapshot.speed_changed),) if snapshot.speed_changed else ()),
        bookmarks=tuple(snapshot.bookmarks),
        last_bookmark_added=snapshot.last_bookmark_added,
    )


def cause_before_adr_47(snapshot: Snapshot) -> MoveCause | None:
    """A snapshot from before ADR 47 names no move's cause. The one a page must know, the sleep
    timer's pause (its offer of where the listener fell asleep), is its asleep fact's own move."""
    asleep = snapshot.asleep
    return "fell_asleep" if asleep is not None and asleep.seq == snapshot.last_move_seq else None


async def load_snapshot(js: JetStreamContext, kv: KeyValue, projections: Projections) -> int:
    """Load every stored state; the sequence to replay from (0 when there is no snapshot)."""
    try:
        marker = await kv.get(THROUGH_KEY)
    except KeyNotFoundError:
        return 0
    start = int(json.loads(marker.value or b"0"))
    for key in await live_keys(js, subjects.PLAYER_SNAPSHOTS_BUCKET):
        if key == THROUGH_KEY:
            continue
        entry = await kv.get(key)
        try:
            snapshot = Snapshot.model_validate_json(entry.value or b"{}")
        except ValidationError:  # written in another shape: replaying the whole stream is always right
            log.warning("the snapshot does not fit this version; replaying the whole stream", key=key)
            projections.states.clear()
            return 0
        projections.states[(snapshot.listener, snapshot.book)] = from_snapshot(snapshot)
        start = min(start, snapshot.through)
    return start


async def write_snapshot(kv: KeyValue, projections: Projections) -> int:
    through = projections.through_seq
    for (listener, book), state in list(projections.states.items()):
        await kv.put(f"{listener}.{book}", to_snapshot(state, through).model_dump_json().encode())
    await kv.put(THROUGH_KEY, json.dumps(through).encode())
    return len(projections.states)


async def read_range(
    store: EventStore,
    reader: RangeReader,
    projections: Projections,
    after_seq: int,
    partitions: Collection[int] | None = None,
) -> tuple[int, int]:
    """Apply every stored event after ``after_seq`` up to the stream's newest sequence now (of
    ``partitions`` only, when given); (events applied, the sequence read through).

    The bulk read does it; should it stop early, an ordered consumer reads the rest.
    """
    target, migrated_through = await store.extent()
    filters = partition_filters(partitions) if partitions is not None else None
    applied, through, complete = 0, after_seq, True
    if target > through:
        try:
            async for chunk in reader.chunks(through, target, filters):
                applied += apply_stored(projections, chunk, migrated_through)
                through = chunk[-1][1]
        except RangeInterrupted as error:
            complete = False
            log.warning("the bulk read stopped; the rest comes from an ordered consumer", error=str(error))
    # with a filter, nothing may follow on these subjects: an ordered consumer would wait
    rest = not complete and target > through
    if rest and (partitions is None or await store.pending_after(through, partitions)):
        async for subject, seq, data, pending in store.feed(through, partitions):
            applied += apply_stored(projections, [(subject, seq, data)], migrated_through)
            if seq >= target or pending == 0:
                break
    return applied, target


async def replay(
    store: EventStore, reader: RangeReader, projections: Projections, after_seq: int = 0
) -> tuple[int, float]:
    """Rebuild every projection from the stream up to its newest sequence now; (events, seconds)."""
    started = time.perf_counter()
    projections.through_seq = max(projections.through_seq, after_seq)
    applied, target = await read_range(store, reader, projections, projections.through_seq)
    projections.through_seq = max(projections.through_seq, target)
    return applied, time.perf_counter() - started


async def rebuild(connection: Client, use_snapshot: bool = False) -> tuple[Projections, ReplayReport]:
    """Every projection, rebuilt from the stream (and a snapshot when asked)."""
    js = connection.jetstream()
    projections = Projections()
    started = time.perf_counter()
    start = await load_snapshot(js, await snapshots(js), projections) if use_snapshot else 0
    events, _ = await replay(EventStore(js), RangeReader(connection), projections, after_seq=start)
    seconds = time.perf_counter() - started
    return projections, ReplayReport(len(projections.states), events, seconds, start)
