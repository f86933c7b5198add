"""The partition rule, the ownership rule, and the stream's refusal of a shape it cannot read."""

import random

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.partitions import events_subject, partition_of
from bedside_player.domain.ownership import plan, share, trusted
from bedside_player.store import PARTITIONS_KEY, EventStore, StreamRefused, key_of, refusal
from bedside_runtime.nats_server import free_port
from bedside_testing import start_test_nats
from nats.js.api import StreamConfig


def test_a_listeners_partition_is_the_same_in_every_process_and_spreads_listeners() -> None:
    # fixed values: a change of the hash would move every listener of an existing stream
    assert [partition_of(name) for name in ("anna", "me", "listener-9999")] == [59, 39, 16]
    assert partition_of("a", 1 << 32) == 0xE40C292C  # FNV-1a's published value for "a"
    counts = [0] * 64
    for n in range(10_000):
        counts[partition_of(f"listener-{n}")] += 1
    assert min(counts) > 10_000 / 64 * 0.7
    assert max(counts) < 10_000 / 64 * 1.3


def test_every_book_of_a_listener_is_in_one_partition_and_the_subject_reads_back() -> None:
    a, b = events_subject("anna", "b1"), events_subject("anna", "b2")
    assert a.split(".")[1] == b.split(".")[1] == str(partition_of("anna"))
    assert key_of(a) == ("anna", "b1")
    assert key_of("player.anna.b1") is None  # the shape before partitions
    assert key_of("player.x.anna.b1") is None


def test_shares_add_up_to_every_partition_whatever_the_copies() -> None:
    rng = random.Random(5)
    for _ in range(200):
        copies = {f"c{rng.randrange(10_000)}" for _ in range(rng.randint(1, 9))}
        partitions = rng.randint(1, 128)
        assert sum(share(c, copies, partitions) for c in copies) == partitions


def settle(copies: list[str], partitions: int, owners: dict[int, str]) -> dict[int, str]:
    """Run every copy's plan in turn, as their loops would, until nothing changes."""
    for _ in range(50):
        changed = False
        for me in copies:
            mine = {p for p, owner in owners.items() if owner == me}
            decision = plan(me, partitions, copies, owners, mine)
            for p in decision.release:
                del owners[p]
            for p in decision.claim:
                assert p not in owners  # only a free partition is ever claimed
                owners[p] = me
            changed = changed or bool(decision.claim or decision.release)
        if not changed:
            return owners
    raise AssertionError("the plans never settled")


def test_copies_that_join_and_leave_end_with_every_partition_owned_once_and_fairly() -> None:
    owners = settle(["a"], 64, {})
    assert set(owners.values()) == {"a"}
    assert len(owners) == 64
    owners = settle(["a", "b"], 64, owners)  # b joins: a releases half, b claims them
    assert sorted(list(owners.values()).count(c) for c in "ab") == [32, 32]
    owners = settle(["a", "b", "c"], 64, owners)
    assert sorted(list(owners.values()).count(c) for c in "abc") == [21, 21, 22]
    gone = {p: o for p, o in owners.items() if o != "b"}  # b dies: its leases age out
    owners = settle(["a", "c"], 64, gone)
    assert len(owners) == 64
    assert sorted(list(owners.values()).count(c) for c in "ac") == [32, 32]


def test_a_copy_does_not_claim_a_partition_someone_else_holds() -> None:
    owners = dict.fromkeys(range(64), "other")
    assert plan("me", 64, ["me", "other"], owners, set()).claim == ()


def test_a_live_lease_naming_this_copy_that_it_does_not_hold_is_claimed_again_at_once() -> None:
    """After the bus came back from a restart every renewal was refused (the server held older
    revisions) and the copy waited for its own leases to age out, which did not happen: no
    partition was served again for minutes. A lease that names this copy is claimable."""
    owners = dict.fromkeys(range(4), "me") | {4: "other"}
    assert set(plan("me", 5, ["me"], owners, set()).claim) == {0, 1, 2, 3}
    assert 4 not in plan("me", 5, ["me"], owners, set()).claim


def test_a_lease_sent_too_long_ago_is_not_trusted_whatever_copies_are_seen() -> None:
    sent_at = {1: 10.0, 2: 12.5, 3: 12.6}
    assert trusted(sent_at, now=15.0, trusted_for_s=2.5) == {3}
    assert trusted({}, now=15.0, trusted_for_s=2.5) == frozenset()


def test_a_stream_from_before_partitions_or_with_another_count_is_refused() -> None:
    assert refusal({}, 0, 64) is None  # empty: it is given the metadata
    assert refusal({PARTITIONS_KEY: "64"}, 10, 64) is None
    assert "before listeners were partitioned" in (refusal({}, 3, 64) or "")
    assert "written with 32 partitions" in (refusal({PARTITIONS_KEY: "32"}, 3, 64) or "")


async def test_the_player_refuses_to_start_on_an_old_stream_and_keeps_it_whole() -> None:
    server = start_test_nats(f"old-stream-{free_port()}")
    try:
        client = await nats.connect(server.url)
        js = client.jetstream()
        await js.add_stream(StreamConfig(name=subjects.PLAYER_STREAM, subjects=[subjects.PLAYER_SUBJECTS]))
        old_event = b'{"kind":"joined","device":"phone"}'
        await js.publish("player.anna.b1", old_event, stream=subjects.PLAYER_STREAM)
        with pytest.raises(StreamRefused, match="bedside migrate player-stream"):
            await EventStore(js).declare()
        info = await js.stream_info(subjects.PLAYER_STREAM)
        assert info.state.messages == 1
        assert PARTITIONS_KEY not in (info.config.metadata or {})
        await client.close()
    finally:
        server.stop()
