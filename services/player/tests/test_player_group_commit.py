"""Group commit on a real nats-server: appends queued behind others leave as one atomic batch,
each keeps its own sequence and basis check, and a refused batch costs no append but the
stale one (ADR 41)."""

import asyncio
from typing import Any

import pytest
from bedside_contracts import subjects
from bedside_contracts.player import PositionReported
from bedside_player import group_commit
from bedside_player.group_commit import committed_seqs
from bedside_player.store import EventStore, WrongLastSequence
from bedside_runtime.nats_server import free_port
from nats.aio.client import Client
from nats.js.errors import NotFoundError


def report(position_ms: int, basis_seq: int = 0) -> PositionReported:
    return PositionReported(device="phone", position_ms=position_ms, playing=True, basis_seq=basis_seq)


async def stored(nats_client: Client, seq: int) -> tuple[str, dict[str, str]]:
    msg = await nats_client.jetstream().get_msg(subjects.PLAYER_STREAM, seq, direct=True)
    assert msg.subject is not None
    return msg.subject, msg.headers or {}


async def test_appends_queued_behind_others_are_stored_as_batches_each_at_its_own_sequence(
    nats_client: Client,
) -> None:
    store = EventStore(nats_client.jetstream(), connection=nats_client)
    await store.declare()
    names = [f"group-{free_port()}-{i}" for i in range(40)]
    seqs = await asyncio.gather(*(store.append(name, "b1", report(1_000), 0) for name in names))
    assert len(set(seqs)) == len(names)
    batched = 0
    for name, seq in zip(names, seqs, strict=True):
        subject, headers = await stored(nats_client, seq)
        assert subject == store.subject(name, "b1")  # the sequence handed back is this append's
        assert headers["Nats-Expected-Last-Subject-Sequence"] == "0"
        batched += "Nats-Batch-Id" in headers
    # the first IN_FLIGHT leave alone; the rest waited and left together
    assert batched >= len(names) - group_commit.IN_FLIGHT


async def test_one_stale_basis_refuses_its_batch_and_every_other_append_still_lands(
    nats_client: Client,
) -> None:
    store = EventStore(nats_client.jetstream(), connection=nats_client)
    await store.declare()
    stale = f"stale-{free_port()}"
    first = await store.append(stale, "b1", report(1_000), 0)
    names = [f"fresh-{free_port()}-{i}" for i in range(20)]
    appends = [store.append(name, "b1", report(2_000), 0) for name in names]
    appends.insert(10, store.append(stale, "b1", report(3_000), 0))  # its basis is behind `first`
    outcomes = await asyncio.gather(*appends, return_exceptions=True)
    refused = outcomes.pop(10)
    assert isinstance(refused, WrongLastSequence)
    assert all(isinstance(seq, int) for seq in outcomes)
    for name, seq in zip(names, outcomes, strict=True):
        assert isinstance(seq, int)
        assert (await stored(nats_client, seq))[0] == store.subject(name, "b1")
    last = await nats_client.jetstream().get_last_msg(subjects.PLAYER_STREAM, store.subject(stale, "b1"))
    assert last.seq == first


async def test_an_append_whose_caller_gave_up_before_its_batch_left_is_never_sent(
    nats_client: Client,
) -> None:
    store = EventStore(nats_client.jetstream(), connection=nats_client)
    await store.declare()
    names = [f"gaveup-{free_port()}-{i}" for i in range(group_commit.IN_FLIGHT + 2)]
    tasks = [asyncio.create_task(store.append(name, "b1", report(1_000), 0)) for name in names]
    await asyncio.sleep(0)  # every append has started: the first IN_FLIGHT are out, two wait
    assert store.group is not None
    assert len(store.group.waiting) == 2
    tasks[-1].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[-1], asyncio.CancelledError)
    js = nats_client.jetstream()
    assert (await js.get_last_msg(subjects.PLAYER_STREAM, store.subject(names[-2], "b1"))).seq == done[-2]
    with pytest.raises(NotFoundError):
        await js.get_last_msg(subjects.PLAYER_STREAM, store.subject(names[-1], "b1"))


class AckLost:
    """The real connection, but every commit's ack is lost after the server stored the batch."""

    def __init__(self, connection: Client) -> None:
        self.connection = connection

    async def publish(self, subject: str, payload: bytes, headers: dict[str, str]) -> None:
        await self.connection.publish(subject, payload, headers=headers)

    async def request(self, subject: str, payload: bytes, **options: Any) -> None:
        await self.connection.request(subject, payload, **options)
        raise TimeoutError


async def test_a_batch_whose_ack_is_lost_is_found_by_its_msg_ids_and_stored_once(nats_client: Client) -> None:
    store = EventStore(nats_client.jetstream(), connection=nats_client)
    await store.declare()
    assert store.group is not None
    store.group.connection = AckLost(nats_client)  # type: ignore[assignment]
    before = await store.last_seq()
    names = [f"lost-{free_port()}-{i}" for i in range(group_commit.IN_FLIGHT + 6)]
    seqs = await asyncio.gather(*(store.append(name, "b1", report(1_000), 0) for name in names))
    assert await store.last_seq() == before + len(names)  # nothing stored twice
    batched = 0
    for name, seq in zip(names, seqs, strict=True):
        subject, headers = await stored(nats_client, seq)
        assert subject == store.subject(name, "b1")
        batched += "Nats-Batch-Id" in headers
    assert batched == 6  # the six that waited were stored by their batch, not again alone


def test_a_commit_ack_counts_only_when_the_whole_batch_was_stored() -> None:
    assert committed_seqs(b'{"stream":"PLAYER","seq":12,"batch":"x","count":3}', 3) == [10, 11, 12]
    assert committed_seqs(b'{"stream":"PLAYER","seq":12,"batch":"x","count":2}', 3) is None
    assert committed_seqs(b'{"error":{"code":400,"err_code":10071},"seq":0}', 3) is None
    assert committed_seqs(b"not json", 3) is None
