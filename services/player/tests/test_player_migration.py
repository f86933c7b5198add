"""Migrating a PLAYER stream written before partitions (ADR 42), on real nats-servers.

The old events are decided by the player's rules and appended as the store before partitions
did (``bedside_player_before_partitions``); after the migration the real player service starts
on the stream and its states and history, asked over the bus, are the old ones renumbered.
"""

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, get_args

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.common import Health
from bedside_contracts.partitions import events_subject
from bedside_contracts.player import (
    CommandRequest,
    CommandResult,
    FellAsleep,
    History,
    HistoryRequest,
    ListenerState,
    PlayerEvent,
    PositionReported,
    Report,
    Seeked,
    StateRequest,
    Undo,
)
from bedside_player.domain.renumber import Renumbering, renumbered, sequence_fields
from bedside_player.migration import MIGRATED_FROM, CannotMigrate, Migrated, NothingToMigrate, migrate
from bedside_player.replay import THROUGH_KEY, rebuild, snapshots, write_snapshot
from bedside_player.store import (
    MIGRATED_THROUGH_KEY,
    PARTITIONS_KEY,
    EventStore,
    StreamRefused,
    decode,
    parse,
)
from bedside_player_before_partitions import (
    BOOKS,
    OLD_STREAM,
    OldPlayer,
    a_household,
    many_reports,
    old_subject,
)
from bedside_player_testing import FakeSearch
from bedside_runtime.bus import call
from bedside_runtime.nats_server import NatsServer, embedded_server, free_port
from bedside_runtime.settings import Settings
from bedside_testing import RunningSystem
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.api import DeliverPolicy
from nats.js.errors import KeyNotFoundError
from structlog.testing import capture_logs

from bedside.processes import UpLock

NOW = 1_800_000_000_000
"""The player's clock in these tests (ms since the epoch): every report is heard at it."""


PARTITIONS = 64
UNFIT = b'{"kind":"reported","device":"phone"}'
"""An original that never fitted the contract: the old replay skipped it; so does the migration."""


async def old_household(own_nats_client: Client, rounds: int) -> OldPlayer:
    old = OldPlayer(own_nats_client.jetstream())
    await old.declare()
    await a_household(old, rounds)
    await own_nats_client.jetstream().publish(
        old_subject("carol", "b1"), UNFIT, stream=subjects.PLAYER_STREAM
    )
    await a_household(old, rounds // 4, seed=17)  # more after it, so it sits mid-stream
    return old


async def copies_in_stream(own_nats_client: Client) -> list[tuple[int, int, str, bytes]]:
    """(origin, seq, subject, data) of every partitioned message, in stream order."""
    js = own_nats_client.jetstream()
    info = await js.stream_info(subjects.PLAYER_STREAM, subjects_filter="player.*.*.*")
    expected = sum((info.state.subjects or {}).values())
    found: list[tuple[int, int, str, bytes]] = []
    if not expected:
        return found
    sub = await js.subscribe(
        "player.*.*.*", ordered_consumer=True, stream=subjects.PLAYER_STREAM, deliver_policy=DeliverPolicy.ALL
    )
    for _ in range(expected):
        msg = await sub.next_msg(timeout=15)
        headers = msg.headers or {}
        found.append((int(headers[MIGRATED_FROM]), msg.metadata.sequence.stream, msg.subject, msg.data))
    await sub.unsubscribe()
    return found


async def originals(own_nats_client: Client) -> list[tuple[int, str, bytes]]:
    js = own_nats_client.jetstream()
    info = await js.stream_info(subjects.PLAYER_STREAM, subjects_filter="player.*.*")
    expected = sum((info.state.subjects or {}).values())
    sub = await js.subscribe(
        "player.*.*", ordered_consumer=True, stream=subjects.PLAYER_STREAM, deliver_policy=DeliverPolicy.ALL
    )
    found = []
    for _ in range(expected):
        msg = await sub.next_msg(timeout=15)
        found.append((msg.metadata.sequence.stream, msg.subject, msg.data))
    await sub.unsubscribe()
    return found


async def assert_every_original_copied_once_in_order(own_nats_client: Client) -> Renumbering:
    """Each original that fits has exactly one copy, in the same order, on its partitioned
    subject, with its sequences renumbered; returns the renumbering the copies make."""
    copies = await copies_in_stream(own_nats_client)
    fitting = [
        (seq, subject, data) for seq, subject, data in await originals(own_nats_client) if data != UNFIT
    ]
    assert [origin for origin, _, _, _ in copies] == [seq for seq, _, _ in fitting]
    seqs = Renumbering()
    for (origin, seq, subject, data), (_, old_subject_, old_data) in zip(copies, fitting, strict=True):
        _, listener, book = old_subject_.split(".")
        assert subject == events_subject(listener, book, PARTITIONS)
        assert parse(data) == renumbered(parse(old_data), seqs)
        seqs.add(origin, seq)
    return seqs


# ------------------------------------------------------------------ the renumbering, without I/O


def test_a_basis_maps_to_the_copy_of_the_newest_event_at_or_below_it() -> None:
    seqs = Renumbering()
    for old, new in ((3, 101), (5, 102), (9, 103)):
        seqs.add(old, new)
    assert [seqs(old) for old in (0, 2, 3, 4, 5, 8, 9, 50)] == [0, 0, 101, 101, 102, 102, 103, 103]
    with pytest.raises(ValueError, match="out of order"):
        seqs.add(9, 104)


@pytest.mark.parametrize("basis", range(0, 12))
def test_renumbering_keeps_every_comparison_of_a_basis_with_a_copied_event(basis: int) -> None:
    copied = {2: 40, 4: 41, 7: 42, 10: 43}
    seqs = Renumbering()
    for old, new in copied.items():
        seqs.add(old, new)
    for old, new in copied.items():
        assert (basis >= old) == (seqs(basis) >= new)


def test_every_event_field_that_names_a_stream_sequence_is_renumbered() -> None:
    events: list[PlayerEvent] = [
        PositionReported(device="phone", position_ms=1, playing=True, basis_seq=5),
        Seeked(device="phone", from_ms=0, position_ms=1, basis_seq=5),
        FellAsleep(device="phone", paused_at_ms=1, asleep_at_ms=0, basis_seq=5),
    ]
    seqs = Renumbering()
    seqs.add(5, 77)
    for event in events:
        assert sequence_fields(event) == ["basis_seq"]
        assert renumbered(event, seqs) == event.model_copy(update={"basis_seq": 77})


def test_the_contracts_name_every_sequence_field_by_the_convention() -> None:
    """Every event field described as a stream sequence ends in ``_seq``, and only those do."""
    for event_type in get_args(get_args(PlayerEvent)[0]):
        for name, info in event_type.model_fields.items():
            is_sequence = "stream sequence" in (info.description or "")
            assert is_sequence == name.endswith("_seq"), (event_type.__name__, name)


def test_only_originals_at_or_below_what_was_migrated_are_skipped_quietly() -> None:
    with capture_logs() as logs:
        assert decode("player.anna.b1", UNFIT, seq=5, migrated_through=9) is None
        assert decode("player.anna.b1", b"{}", seq=9, migrated_through=9) is None
    assert logs == []
    with capture_logs() as logs:
        assert decode("player.anna.b1", b"{}", seq=10, migrated_through=9) is None  # written since
        assert decode("player.x", b"{}", seq=3, migrated_through=9) is None  # of neither shape
        assert decode("player.anna.b1", b"{}") is None  # a stream never migrated
    assert [entry["event"] for entry in logs] == [
        "a message in the player stream does not fit the contract"
    ] * 3


# ------------------------------------------------------------------ on a real server


async def test_a_migration_copies_every_event_once_and_only_then_lets_copies_start(
    own_nats_client: Client,
) -> None:
    old = await old_household(own_nats_client, 240)
    js = own_nats_client.jetstream()
    before = (await js.stream_info(subjects.PLAYER_STREAM)).state.last_seq
    migrated = await migrate(own_nats_client, PARTITIONS)
    assert migrated.copied_now == migrated.copies == sum(len(events) for events in old.stored.values())
    assert len(migrated.unfit) == 1
    seqs = await assert_every_original_copied_once_in_order(own_nats_client)
    info = await js.stream_info(subjects.PLAYER_STREAM)
    assert info.state.messages == before + migrated.copies  # the originals stay
    assert info.config.metadata is not None
    assert info.config.metadata[PARTITIONS_KEY] == str(PARTITIONS)
    assert info.config.metadata[MIGRATED_THROUGH_KEY] == str(before)
    with capture_logs() as logs:
        projections, report = await rebuild(own_nats_client)
    assert logs == []  # not one line for the originals
    assert report.events == migrated.copies
    for (listener, book), state in old.states.items():
        assert projections.get(listener, book).public(NOW) == renumbered_state(state.public(NOW), seqs)
    with pytest.raises(NothingToMigrate, match="already partitioned"):
        await migrate(own_nats_client, PARTITIONS)


def renumbered_state(state: ListenerState, seqs: Renumbering) -> ListenerState:
    """The state the copies must make: the same, with every sequence it names renumbered."""
    update: dict[str, Any] = {"seq": seqs(state.seq), "last_move_seq": seqs(state.last_move_seq)}
    if state.sleep_timer is not None:
        update["sleep_timer"] = state.sleep_timer.model_copy(
            update={"set_seq": seqs(state.sleep_timer.set_seq)}
        )
    if state.asleep is not None:
        update["asleep"] = state.asleep.model_copy(update={"seq": seqs(state.asleep.seq)})
    return state.model_copy(update=update)


def without_sequences(state: ListenerState) -> dict[str, Any]:
    return state.model_dump(
        exclude={"seq": True, "last_move_seq": True, "sleep_timer": {"set_seq"}, "asleep": {"seq"}}
    )


async def test_a_run_stopped_half_way_and_run_again_neither_doubles_nor_skips(
    own_nats_client: Client,
) -> None:
    old = await old_household(own_nats_client, 300)
    total = sum(len(events) for events in old.stored.values())
    stopped: list[asyncio.Task[Any]] = []

    def stop_after_some(copied: int) -> None:
        if copied >= 40:  # lands in the middle of the next batch's publishes or its commit
            asyncio.get_running_loop().call_soon(stopped[0].cancel)

    task = asyncio.create_task(migrate(own_nats_client, PARTITIONS, batch=7, progress=stop_after_some))
    stopped.append(task)
    with pytest.raises(asyncio.CancelledError):
        await task
    half = await copies_in_stream(own_nats_client)
    assert 40 <= len(half) < total
    with pytest.raises(StreamRefused, match="migrate player-stream"):
        await EventStore(own_nats_client.jetstream()).declare()  # a half-migrated stream still refuses copies
    migrated = await migrate_again(own_nats_client, batch=7)
    assert migrated.copies == total
    assert migrated.copied_now <= total - len(half)  # what was stored is not copied again
    seqs = await assert_every_original_copied_once_in_order(own_nats_client)
    projections, _ = await rebuild(own_nats_client)
    for (listener, book), state in old.states.items():
        assert projections.get(listener, book).public(NOW) == renumbered_state(state.public(NOW), seqs)


async def migrate_again(own_nats_client: Client, batch: int) -> Migrated:
    """As a user would: run again while a refusal says the stream was still changing (the
    stopped run's last batch may still be being stored)."""
    for _ in range(2):
        with contextlib.suppress(CannotMigrate):
            return await migrate(own_nats_client, PARTITIONS, batch=batch)
        await asyncio.sleep(0.5)
    return await migrate(own_nats_client, PARTITIONS, batch=batch)


async def test_a_writer_during_the_migration_stops_it_and_a_rerun_copies_its_event_too(
    own_nats_client: Client,
) -> None:
    old = await old_household(own_nats_client, 120)
    writes: list[asyncio.Task[int]] = []

    def an_old_copy_still_running(copied: int) -> None:
        if not writes:
            event = PositionReported(device="phone", position_ms=5_000, playing=False, basis_seq=0)
            writes.append(asyncio.get_running_loop().create_task(old.append("ben", "b2", event)))

    with pytest.raises(CannotMigrate, match="wrote to the PLAYER stream during the migration"):
        await migrate(own_nats_client, PARTITIONS, batch=5, progress=an_old_copy_still_running)
    await writes[0]
    migrated = await migrate(own_nats_client, PARTITIONS)
    assert migrated.copies == sum(len(events) for events in old.stored.values())
    await assert_every_original_copied_once_in_order(own_nats_client)


async def test_what_cannot_be_migrated_is_said_and_nothing_is_changed(own_nats_client: Client) -> None:
    js = own_nats_client.jetstream()
    with pytest.raises(NothingToMigrate, match="no PLAYER stream"):
        await migrate(own_nats_client, PARTITIONS)
    old = await old_household(own_nats_client, 20)
    answering = await own_nats_client.subscribe(subjects.HEALTH.format(service="player"), cb=health_reply)
    with pytest.raises(CannotMigrate, match="a player copy answers on the bus"):
        await migrate(own_nats_client, PARTITIONS)
    await answering.unsubscribe()
    await js.publish("player.someone.else.entirely.deep", b"{}", stream=subjects.PLAYER_STREAM)
    with pytest.raises(CannotMigrate, match="neither shape"):
        await migrate(own_nats_client, PARTITIONS)
    info = await js.stream_info(subjects.PLAYER_STREAM)
    assert info.state.messages == sum(len(events) for events in old.stored.values()) + 2
    assert PARTITIONS_KEY not in (info.config.metadata or {})


async def health_reply(msg: Msg) -> None:
    health = Health(service="player", version="0.9", pid=4242, uptime_s=1.0)
    await msg.respond(health.model_dump_json().encode())


async def test_an_empty_or_fresh_stream_needs_no_migration(own_nats_client: Client) -> None:
    await own_nats_client.jetstream().add_stream(
        name=subjects.PLAYER_STREAM, subjects=[subjects.PLAYER_SUBJECTS]
    )
    with pytest.raises(NothingToMigrate, match="empty"):
        await migrate(own_nats_client, PARTITIONS)


async def test_the_snapshot_of_the_old_sequences_is_set_aside(own_nats_client: Client) -> None:
    await old_household(own_nats_client, 30)
    js = own_nats_client.jetstream()
    kv = await snapshots(js)
    old_projections, _ = await rebuild(own_nats_client)  # the old shape reads as nothing: an empty snapshot
    await write_snapshot(kv, old_projections)
    migrated = await migrate(own_nats_client, PARTITIONS)
    assert migrated.snapshot_set_aside
    with pytest.raises(KeyNotFoundError):
        await kv.get(THROUGH_KEY)


# ------------------------------------------------------------------ the real player on it


async def test_the_player_started_on_a_migrated_stream_serves_what_the_old_one_did(
    own_nats: NatsServer, own_nats_client: Client
) -> None:
    old = await old_household(own_nats_client, 240)
    await migrate(own_nats_client, PARTITIONS)
    search = await FakeSearch(own_nats_client, list(BOOKS.values())).start()
    system = RunningSystem(
        own_nats.url, Path(tempfile.mkdtemp(prefix="bedside-migrated-")), ("player",), free_port()
    )
    try:
        await asyncio.to_thread(system.start)  # it waits for health with a loop of its own
        seqs = await assert_every_original_copied_once_in_order(own_nats_client)
        for (listener, book), state in sorted(old.states.items()):
            now = await call(
                own_nats_client,
                subjects.PLAYER_STATE,
                StateRequest(listener=listener, book=book),
                ListenerState,
            )
            expected = state.public(NOW)
            assert without_sequences(now) == without_sequences(expected)
            assert now == renumbered_state(expected, seqs)
            request = HistoryRequest(listener=listener, book=book, limit=1000)
            entries = (await call(own_nats_client, subjects.PLAYER_HISTORY, request, History)).entries
            before = old.entries(listener, book)
            # the copies are stored anew, so their stream times are the migration's (ADR 53)
            assert [e.model_dump(exclude={"seq", "stored_at_ms"}) for e in entries] == [
                e.model_dump(exclude={"seq", "stored_at_ms"}) for e in before
            ]
            assert all(e.stored_at_ms is not None for e in entries)
            assert [e.seq for e in entries] == [seqs(e.seq) for e in before]
        moved = next(state for state in old.states.values() if state.before_move_ms is not None)
        undo = CommandRequest(listener=moved.listener, book=moved.book, command=Undo(device="phone"))
        result = await call(own_nats_client, subjects.PLAYER_COMMAND, undo, CommandResult)
        assert result.accepted, result.reason
        assert result.state.position_ms == moved.before_move_ms
        newest = HistoryRequest(listener=moved.listener, book=moved.book, limit=1)
        entry = (await call(own_nats_client, subjects.PLAYER_HISTORY, newest, History)).entries[0]
        assert (entry.kind, entry.cause, entry.position_ms) == ("moved", "undo", moved.before_move_ms)
        report = Report(device="phone", position_ms=1_000, playing=True, basis_seq=0)
        stale = CommandRequest(listener=moved.listener, book=moved.book, command=report)
        refused = await call(own_nats_client, subjects.PLAYER_COMMAND, stale, CommandResult)
        assert not refused.accepted  # an old device's basis still cannot drag the book back
        assert "does not fit the contract" not in system.log("player")
    finally:
        system.stop()
        await search.stop()


# ------------------------------------------------------------------ the command, on a household's data


async def bedside(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bedside", *args]
    return await asyncio.to_thread(
        subprocess.run, command, env=env, capture_output=True, text=True, check=False
    )


async def test_the_command_migrates_the_households_own_store_and_then_has_nothing_to_do() -> None:
    """As after an upgrade: no NATS_URL, the data directory `bedside up` used, nothing running."""
    data_dir = Path(tempfile.mkdtemp(prefix="bedside-household-"))
    settings = Settings(data_dir=data_dir)
    port = free_port()
    server = embedded_server(settings.nats_store_dir, port).start()
    try:
        connection = await nats.connect(server.url)
        old = await old_household(connection, 60)
        await connection.close()
    finally:
        server.stop()
    env = {**os.environ, "BEDSIDE_DATA_DIR": str(data_dir), "BEDSIDE_NATS_PORT": str(port)}
    env.pop("NATS_URL", None)
    first = await bedside("migrate", "player-stream", env=env)
    assert first.returncode == 0, first.stderr
    copied = sum(len(events) for events in old.stored.values())
    assert f"copied {copied} events to partitioned subjects" in first.stdout
    again = await bedside("migrate", "player-stream", env=env)
    assert again.returncode == 0, again.stderr
    assert "already partitioned (64 partitions): nothing to migrate" in again.stdout
    lock = UpLock(data_dir / "up.lock")
    lock.acquire()  # as `bedside up` holds it
    try:
        running = await bedside("migrate", "player-stream", env=env)
    finally:
        lock.release()
    assert running.returncode == 1
    assert "already running" in running.stderr


@pytest.mark.timeout(300)  # 15,000 reports copied twice and read back: 71 s at a load average of 11
async def test_a_command_killed_mid_way_and_run_again_neither_doubles_nor_skips(
    own_nats: NatsServer, own_nats_client: Client
) -> None:
    js = own_nats_client.jetstream()
    await js.add_stream(OLD_STREAM)
    total = await many_reports(js, 15_000)
    env = {
        **os.environ,
        "NATS_URL": own_nats.url,
        "BEDSIDE_DATA_DIR": tempfile.mkdtemp(prefix="bedside-kill-"),
    }
    command = [sys.executable, "-m", "bedside", "migrate", "player-stream"]
    child = await asyncio.create_subprocess_exec(
        *command, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )
    try:
        copies = 0
        while copies == 0 and child.returncode is None:
            info = await js.stream_info(subjects.PLAYER_STREAM, subjects_filter="player.*.*.*")
            copies = sum((info.state.subjects or {}).values())
            await asyncio.sleep(0.01)
        child.send_signal(signal.SIGKILL)
    finally:
        await child.wait()
    assert child.returncode == -signal.SIGKILL  # killed, not finished
    half = await copies_in_stream(own_nats_client)
    assert 0 < len(half) < total
    finished = await bedside("migrate", "player-stream", env=env)
    assert finished.returncode == 0, finished.stderr
    await assert_every_original_copied_once_in_order(own_nats_client)
    assert len(await copies_in_stream(own_nats_client)) == total
