"""Replay by the bulk pull reader rebuilds exactly what applying the stream one message at a
time from an ordered consumer rebuilds, on random histories of every kind of event, a
message that fits no contract included; from a cut in the middle too, and when the bulk read
stops part way."""

import json
import random
from collections.abc import AsyncIterator, Collection, Iterator
from typing import get_args

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.player import (
    BookmarkAdded,
    BookmarkRemoved,
    DeviceJoined,
    DeviceLeft,
    FellAsleep,
    ListCancelled,
    ListenerRetired,
    ListOffered,
    Moved,
    Paused,
    PlayerEvent,
    PositionReported,
    QuestionAsked,
    RowPressed,
    Seeked,
    SleepTimerCancelled,
    SleepTimerSet,
    SpeedSet,
)
from bedside_guard import Candidate
from bedside_player import store as store_module
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.projections import Projections
from bedside_player.replay import replay
from bedside_player.store import EventStore, decode, subject_of
from bedside_player.stream_range import RangeInterrupted, RangeReader, Stored
from bedside_testing import start_test_nats
from nats.aio.client import Client
from structlog.testing import CapturingLogger

HOUR_MS = 3600_000


@pytest.fixture(scope="module")
def own_nats() -> Iterator[str]:
    server = start_test_nats("replay")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def bus(own_nats: str) -> AsyncIterator[Client]:
    client = await nats.connect(own_nats)
    await EventStore(client.jetstream()).declare()
    try:
        yield client
    finally:
        await client.close()


def random_event(rng: random.Random) -> PlayerEvent:
    device = rng.choice(["phone", "speaker", "tablet"])
    at, to = rng.randrange(HOUR_MS), rng.randrange(HOUR_MS)
    row = Candidate(start_ms=to, ahead=rng.random() < 0.5, passage_id=rng.randrange(100))
    made: list[PlayerEvent] = [
        PositionReported(device=device, position_ms=at, playing=rng.random() < 0.8, basis_seq=0),
        Seeked(device=device, from_ms=at, position_ms=to, basis_seq=0),
        Moved(cause=rng.choice(["goto", "undo"]), from_ms=at, to_ms=to),
        ListOffered(rows=[row], turn_id=rng.choice(["t1", "t2"])),
        RowPressed(row=0, from_ms=at, to_ms=to),
        ListCancelled(),
        DeviceJoined(device=device),
        DeviceLeft(device=device, paused_at_ms=to if rng.random() < 0.5 else None, basis_seq=0),
        SleepTimerSet(device=device, after=rng.choice([5, "chapter_end"]), stop_at_ms=to),
        SleepTimerCancelled(device=device),
        SpeedSet(device=device, speed=rng.choice([0.75, 1.0, 1.5])),
        FellAsleep(device=device, paused_at_ms=to, asleep_at_ms=at, basis_seq=0),
        Paused(device=device if rng.random() < 0.5 else None, paused_at_ms=to),
        QuestionAsked(turn_id=rng.choice(["t1", "t2"]), position_ms=at),
        ListenerRetired(),
        BookmarkAdded(at_ms=at, title=rng.choice([None, "here"]), device=device),
        BookmarkRemoved(bookmark_seq=rng.randrange(1, 50)),
    ]
    # mostly reports, as on a real stream, but every kind turns up
    return made[0] if rng.random() < 0.6 else rng.choice(made[1:])


async def append_history(bus: Client, seed: int, events: int) -> None:
    rng = random.Random(seed)
    js = bus.jetstream()
    keys = [(f"s{seed}-l{n}", f"b{n % 3}") for n in range(12)]
    for n in range(events):
        listener, book = rng.choice(keys)
        data = random_event(rng).model_dump_json(exclude_none=True).encode()
        await js.publish(subject_of(listener, book), data, stream=subjects.PLAYER_STREAM)
        if n == events // 2:  # what no player wrote: replay skips both
            await js.publish("player.unkeyed", b"{}", stream=subjects.PLAYER_STREAM)
            await js.publish(subject_of(*keys[0]), b'{"kind":"nope"}', stream=subjects.PLAYER_STREAM)


async def one_message_at_a_time(store: EventStore, through_seq: int) -> Projections:
    """The replay as it was: an ordered consumer, each message decoded and applied in turn."""
    projections = Projections()
    async for subject, seq, data, _ in store.feed(0):
        if (decoded := decode(subject, data)) is not None:
            projections.apply(*decoded, seq)
        projections.through_seq = seq
        if seq >= through_seq:
            break
    return projections


class StopsAfterOneChunk(RangeReader):
    async def chunks(
        self, after_seq: int, through_seq: int, filters: Collection[str] | None = None
    ) -> AsyncIterator[list[Stored]]:
        async for chunk in super().chunks(after_seq, through_seq, filters):
            yield chunk
            raise RangeInterrupted("stopped on purpose")


@pytest.mark.parametrize(("seed", "events"), [(1, 300), (2, 900), (3, 1500)])
async def test_bulk_replay_equals_applying_one_message_at_a_time(bus: Client, seed: int, events: int) -> None:
    await append_history(bus, seed, events)
    store = EventStore(bus.jetstream())
    target = await store.last_seq()
    expected = await one_message_at_a_time(store, target)
    for reader in (RangeReader(bus), RangeReader(bus, batch=7, in_flight=3), StopsAfterOneChunk(bus, 50)):
        rebuilt = Projections()
        applied, _ = await replay(store, reader, rebuilt)
        assert rebuilt.states == expected.states
        assert rebuilt.through_seq >= target
        assert applied == sum(state.events for state in expected.states.values())


async def test_replay_from_a_cut_equals_a_full_replay(bus: Client) -> None:
    await append_history(bus, 4, 600)
    store = EventStore(bus.jetstream())
    target = await store.last_seq()
    cut = target // 2
    from_cut = await one_message_at_a_time(store, cut)
    await replay(store, RangeReader(bus, batch=5, in_flight=2), from_cut, after_seq=cut)
    assert from_cut.states == (await one_message_at_a_time(store, target)).states


async def test_the_reader_gives_every_sequence_of_its_range_once_in_order_and_cleans_up(bus: Client) -> None:
    await append_history(bus, 5, 200)
    last = await EventStore(bus.jetstream()).last_seq()
    after, through = 17, last - 40
    js = bus.jetstream()
    seen = [seq async for chunk in RangeReader(bus, 9, 2).chunks(after, through) for _, seq, _ in chunk]
    assert seen == list(range(after + 1, through + 1))
    # the reader's consumer goes with it (other players on this bus make and remove their own)
    left = [
        info.name
        for info in await js.consumers_info(subjects.PLAYER_STREAM)
        if info.config.opt_start_seq == after + 1 and info.config.deliver_subject is None
    ]
    assert left == []


async def test_replay_equals_folding_evolve_over_the_events_as_they_were_appended(bus: Client) -> None:
    rng = random.Random(6)
    js = bus.jetstream()
    keys = [(f"fold-l{n}", f"b{n % 2}") for n in range(5)]
    folded = {key: PlayerState(*key) for key in keys}
    for _ in range(400):
        key = rng.choice(keys)
        event = random_event(rng)
        ack = await js.publish(
            subject_of(*key), event.model_dump_json(exclude_none=True).encode(), stream=subjects.PLAYER_STREAM
        )
        folded[key] = evolve(folded[key], event, ack.seq)
    rebuilt = Projections()
    await replay(EventStore(js), RangeReader(bus, batch=16, in_flight=2), rebuilt)
    assert {key: rebuilt.states[key] for key in keys} == folded


def report_bytes(**changes: object) -> bytes:
    fields = {"kind": "reported", "device": "phone", "position_ms": 5, "playing": True, "basis_seq": 0}
    return json.dumps({**fields, **changes}).encode()


KEYED = "player.3.anna.b1"


@pytest.mark.parametrize(
    ("subject", "data"),
    [
        (KEYED, b"not json"),
        (KEYED, b'{"kind":"nope"}'),
        (KEYED, b'{"kind":"reported","device":"phone","position_ms":5,"playing":true}'),  # no basis_seq
        (KEYED, report_bytes(device="a phone")),
        (KEYED, report_bytes(position_ms=-5)),
        (KEYED, report_bytes(extra=1)),
        (KEYED, report_bytes(playing="maybe")),
        (KEYED, b"[" + report_bytes() + b"," + report_bytes() + b"]"),
        (KEYED, report_bytes() + report_bytes()),
        ("player.anna.b1", report_bytes()),
        ("player.x.anna.b1", report_bytes()),
    ],
)
def test_decode_skips_and_logs_what_does_not_fit_the_contract(
    subject: str, data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    logged = CapturingLogger()  # not capture_logs: a service started in this process caches its loggers
    monkeypatch.setattr(store_module, "log", logged)
    assert decode(subject, data) is None
    assert [(call.method_name, call.kwargs) for call in logged.calls] == [("error", {"subject": subject})]


def test_decode_gives_back_every_kind_of_event_as_it_was_written() -> None:
    rng = random.Random(7)
    made = [random_event(rng) for _ in range(400)]
    assert {type(event) for event in made} == set(get_args(get_args(PlayerEvent)[0]))
    for event in made:
        assert decode("player.3.anna.b1", event.model_dump_json(exclude_none=True).encode()) == (
            "anna",
            "b1",
            event,
        )


def test_a_message_that_fits_no_event_moves_on_only_the_listener_whose_own_subject_it_is_on() -> None:
    """A review: a subject of the right shape with another partition's number (which no append of the
    listener ever names) moved the listener's sequence past what their appends and catch-ups read,
    and every append of theirs was refused from then on."""
    projections = Projections()
    own = subject_of("bea", "b1", projections.partitions)
    partition = int(own.split(".")[1])
    elsewhere = own.replace(f".{partition}.", f".{(partition + 1) % projections.partitions}.", 1)
    projections.pass_over(elsewhere, 5)
    assert projections.get("bea", "b1").seq == 0
    projections.pass_over(own, 6)
    assert projections.get("bea", "b1").seq == 6
