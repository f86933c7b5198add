"""Kill the stream leader of a 3-node JetStream cluster during a burst of position reports.

Several devices append reports concurrently, each to its own listener's subject, with
the expected last subject sequence and a deterministic ``Nats-Msg-Id``; a publish whose
outcome is unknown (timeout, no responders while a leader is elected, a dropped
connection) is retried with the same id. Meanwhile the stream leader is SIGKILLed and,
later, started again on its store. Afterwards every acknowledged report is in the
stream exactly once, in the order it was acknowledged, each listener's position is its
last report, and all three replicas hold the same messages.

Two writers are tried: a plain JetStream publisher written here, and the player
service's own event store (``bedside_player.store.EventStore.append``).
"""

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

import nats
import pytest
from bedside_cluster import NatsCluster, start_cluster
from bedside_contracts import subjects
from bedside_contracts.player import PositionReported
from bedside_player.store import STALE_BASIS, UNCHECKED_BASIS, EventStore, subject_of
from nats.aio.client import Client
from nats.errors import ConnectionClosedError, NoRespondersError, TimeoutError
from nats.js import JetStreamContext
from nats.js.api import DeliverPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NoStreamResponseError, NotFoundError, ServiceUnavailableError

pytestmark = [
    pytest.mark.slow,
    # nats-py drops the socket of a server that stopped answering without closing it when
    # it reconnects elsewhere; the garbage collector then warns. Not a fault of the code
    # under test, and the connection it belonged to is already gone.
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in.*StreamWriter.__del__:pytest.PytestUnraisableExceptionWarning"
    ),
]

DEVICES = 4
REPORTS_PER_DEVICE = 150
KILL_AFTER_ACKS = 150
RESTART_AFTER_ACKS = 400


class BehindTheStream(Exception):
    """The basis refused by a server that had not caught up with the stream: nothing was stored."""


UNKNOWN_OUTCOME = (
    BehindTheStream,
    TimeoutError,
    asyncio.TimeoutError,
    NoRespondersError,
    NoStreamResponseError,
    ConnectionClosedError,
    ServiceUnavailableError,
)

Append = Callable[[str, int, int], Awaitable[int]]
"""append(listener, position_ms, expected_seq) -> the stream sequence it got."""


@dataclass
class Tally:
    acked: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """listener -> [(stream seq, position_ms)] in the order the acks came."""
    retries: int = 0
    wrong_sequence_after_retry: int = 0
    killed: str = ""
    new_leader: str = ""
    progressed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def total(self) -> int:
        return sum(len(v) for v in self.acked.values())


@pytest.fixture(scope="module")
def cluster() -> Iterator[NatsCluster]:
    running = start_cluster(3, name="bedside-faults")
    try:
        yield running
    finally:
        running.stop()


async def connect(cluster: NatsCluster) -> Client:
    # Short pings: a client whose server is stalled (SIGSTOP) notices and moves on, as a
    # service's client must; the default (2 minutes) would hang the burst.
    return await nats.connect(
        cluster.urls,
        reconnect_time_wait=0.1,
        max_reconnect_attempts=-1,
        connect_timeout=2,
        ping_interval=1,
        max_outstanding_pings=2,
    )


async def settled(cluster: NatsCluster, declare: Callable[[], Awaitable[object]]) -> None:
    """Declare a stream once the cluster has settled after an earlier test's faults."""
    await asyncio.to_thread(cluster.wait_for_meta_leader, 30.0)
    for _ in range(100):
        try:
            await declare()
            return
        except (*UNKNOWN_OUTCOME, ServiceUnavailableError):
            await asyncio.sleep(0.2)
    await declare()


def raw_append(js: JetStreamContext, stream: str) -> Append:
    """The player's write discipline in plain JetStream: expected sequence plus a stable id, and
    a look at the subject when the basis is refused. The server checks the basis before the id,
    so a retry of a write that was stored can be refused as stale (seen once in CI with a paused
    leader); the message after the basis then carries this write's id."""

    async def append(listener: str, position_ms: int, expected_seq: int) -> int:
        subject = f"{stream.lower()}.{listener}.book"
        payload = json.dumps({"kind": "reported", "position_ms": position_ms}).encode()
        digest = hashlib.sha256(payload).hexdigest()[:32]
        msg_id = f"{subject}:{expected_seq}:{digest}"
        headers = {"Nats-Msg-Id": msg_id, "Nats-Expected-Last-Subject-Sequence": str(expected_seq)}
        try:
            ack = await js.publish(subject, payload, timeout=2.0, stream=stream, headers=headers)
        except BadRequestError as error:
            if error.err_code != STALE_BASIS:
                raise
            try:
                after = await js.get_msg(stream, seq=expected_seq + 1, subject=subject, next=True)
            except NotFoundError:
                # Nothing after the basis: a server behind the stream refused it (a stalled leader
                # waking up), and a retry is safe, as the player's store does (seen in CI).
                raise BehindTheStream(str(error.description)) from error
            if (after.headers or {}).get("Nats-Msg-Id") == msg_id and after.seq is not None:
                return after.seq
            raise
        return int(ack.seq)

    return append


async def drive(append: Append, listener: str, tally: Tally) -> None:
    """One device: report positions one after another, each on the basis of the last ack."""
    expected = 0
    acked = tally.acked.setdefault(listener, [])
    for i in range(REPORTS_PER_DEVICE):
        position = (i + 1) * 1_000
        retried = False
        for _ in range(400):
            try:
                seq = await append(listener, position, expected)
                break
            except UNKNOWN_OUTCOME:
                tally.retries += 1
                retried = True
                await asyncio.sleep(0.05)
            except BadRequestError as error:
                if error.err_code == UNCHECKED_BASIS:  # a new leader could not check the basis yet
                    tally.retries += 1
                    retried = True
                    await asyncio.sleep(0.05)
                    continue
                # After an unknown outcome, a refusal of the basis would mean the first try
                # was stored but its id was not recognised: a duplicate prevented only by
                # the sequence check. It is counted, and the test then fails on it.
                if error.err_code == STALE_BASIS and retried:
                    tally.wrong_sequence_after_retry += 1
                raise
            except Exception as error:
                if type(error).__name__ == "WrongLastSequence" and retried:
                    tally.wrong_sequence_after_retry += 1
                raise
        else:
            raise AssertionError(f"{listener}: report {i} never acknowledged")
        acked.append((seq, position))
        tally.progressed.set()
        expected = seq


async def until(tally: Tally, acks: int) -> None:
    while tally.total < acks:
        tally.progressed.clear()
        await tally.progressed.wait()


async def chaos(cluster: NatsCluster, stream: str, tally: Tally, fault: str) -> None:
    """Take the stream's leader away once the burst is under way; bring it back later.

    ``kill`` is a crash (SIGKILL, then a restart on the same store); ``pause`` is a stall
    (SIGSTOP, then SIGCONT): writes sent to a stalled leader time out with an unknown
    outcome, and the old leader wakes up behind a new one.
    """
    await until(tally, KILL_AFTER_ACKS)
    leader = await asyncio.to_thread(cluster.stream_leader, stream)
    assert leader, "the stream has no leader to take away"
    if fault == "kill":
        cluster.kill(leader)
    else:
        cluster.pause(leader)
    tally.killed = leader
    tally.new_leader = await asyncio.to_thread(cluster.wait_for_stream_leader, stream, 30.0, leader)
    await until(tally, RESTART_AFTER_ACKS)
    if fault == "kill":
        await asyncio.to_thread(cluster.restart, leader)
    else:
        cluster.resume(leader)


READ_SETTLE_S = 60.0


async def stored(js: JetStreamContext, stream: str, subject: str) -> list[tuple[int, int]]:
    """(sequence, position_ms) of every message on ``subject``, oldest first.

    A read is retried from the start on an unknown outcome: right after a node rejoins,
    an API request can go unanswered or be refused as temporarily unavailable, for longer
    on a loaded machine, so the retries run to a deadline rather than a count.
    """
    deadline = asyncio.get_running_loop().time() + READ_SETTLE_S
    while asyncio.get_running_loop().time() < deadline:
        try:
            return await asyncio.wait_for(read_subject(js, stream, subject), 15)
        except (*UNKNOWN_OUTCOME, ServiceUnavailableError):
            await asyncio.sleep(0.2)
    return await read_subject(js, stream, subject)


async def read_subject(js: JetStreamContext, stream: str, subject: str) -> list[tuple[int, int]]:
    info = await js.stream_info(stream, subjects_filter=subject)
    count = (info.state.subjects or {}).get(subject, 0)
    found: list[tuple[int, int]] = []
    if count == 0:
        return found
    sub = await js.subscribe(subject, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL, stream=stream)
    try:
        async for msg in sub.messages:
            found.append((msg.metadata.sequence.stream, int(json.loads(msg.data)["position_ms"])))
            if len(found) >= count:
                break
    finally:
        await sub.unsubscribe()
    return found


async def replicas_agree(cluster: NatsCluster, stream: str, timeout_s: float = 30.0) -> dict[str, int]:
    """Wait until every node reports the same message count and last sequence for ``stream``."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    seen: dict[str, tuple[int, int]] = {}
    while asyncio.get_running_loop().time() < deadline:
        seen = {}
        for node in cluster.nodes:
            with contextlib.suppress(Exception):
                data = cluster.monitor(node, "/jsz?accounts=true&streams=true")
                for acc in data.get("account_details", []):
                    for info in acc.get("stream_detail", []):
                        if info["name"] == stream:
                            state = info["state"]
                            seen[node.config.name] = (state["messages"], state["last_seq"])
        if len(seen) == len(cluster.nodes) and len(set(seen.values())) == 1:
            return {name: count for name, (count, _) in seen.items()}
        await asyncio.sleep(0.1)
    raise AssertionError(f"replicas disagree about {stream}: {seen}")


async def run_burst(cluster: NatsCluster, stream: str, append: Append, fault: str) -> Tally:
    tally = Tally()
    writers = [drive(append, f"{fault}-listener{d}", tally) for d in range(DEVICES)]
    await asyncio.wait_for(asyncio.gather(chaos(cluster, stream, tally, fault), *writers), 100)
    return tally


async def check(
    cluster: NatsCluster,
    js: JetStreamContext,
    stream: str,
    subject_of: Callable[[str], str],
    *,
    tally: Tally,
    label: str,
) -> None:
    per_node = await replicas_agree(cluster, stream)
    lost = duplicated = 0
    for listener, acked in tally.acked.items():
        in_stream = await stored(js, stream, subject_of(listener))
        stored_ids = [seq for seq, _ in in_stream]
        lost += len({seq for seq, _ in acked} - set(stored_ids))
        duplicated += len(in_stream) - len({pos for _, pos in in_stream})
        assert in_stream == acked, f"{listener}: the stream differs from what was acknowledged"
        assert in_stream[-1][1] == REPORTS_PER_DEVICE * 1_000, f"{listener}: the position ends wrong"
    print(
        f"\n[{label}] leader {tally.killed} taken away mid-burst, {tally.new_leader} took over; "
        f"acknowledged {tally.total} reports from {DEVICES} devices, retried {tally.retries} unknown "
        f"outcomes; lost {lost}, duplicated {duplicated}, refused-after-retry "
        f"{tally.wrong_sequence_after_retry}; messages per replica {per_node}"
    )
    assert lost == 0
    assert duplicated == 0
    assert tally.wrong_sequence_after_retry == 0
    assert tally.killed
    assert tally.new_leader != tally.killed


FAULTS = pytest.mark.parametrize("fault", ["kill", "pause"])


@FAULTS
async def test_raw_jetstream_survives_losing_its_leader(cluster: NatsCluster, fault: str) -> None:
    client = await connect(cluster)
    try:
        js = client.jetstream(timeout=10)
        stream = f"FAULTS_{fault.upper()}"
        config = StreamConfig(
            name=stream,
            subjects=[f"{stream.lower()}.>"],
            storage=StorageType.FILE,
            num_replicas=3,
            duplicate_window=120.0,
        )
        await settled(cluster, lambda: js.add_stream(config))
        cluster.wait_for_stream_leader(stream)
        tally = await run_burst(cluster, stream, raw_append(js, stream), fault)
        await check(
            cluster,
            js,
            stream,
            lambda listener: f"{stream.lower()}.{listener}.book",
            tally=tally,
            label=f"raw, {fault}",
        )
    finally:
        await client.close()


@FAULTS
async def test_player_event_store_survives_losing_its_leader(cluster: NatsCluster, fault: str) -> None:
    client = await connect(cluster)
    try:
        js = client.jetstream(timeout=10)
        store = EventStore(js)
        await settled(cluster, lambda: store.declare(3))
        stream = subjects.PLAYER_STREAM
        cluster.wait_for_stream_leader(stream)

        async def append(listener: str, position_ms: int, expected_seq: int) -> int:
            event = PositionReported(
                device="phone", position_ms=position_ms, playing=True, basis_seq=expected_seq
            )
            seq: int = await store.append(listener, "book", event, expected_seq)
            return seq

        tally = await run_burst(cluster, stream, append, fault)

        await check(
            cluster,
            js,
            stream,
            lambda listener: subject_of(listener, "book"),
            tally=tally,
            label=f"player store, {fault}",
        )

        # The player's own replay reads the same events back. Right after a leader change
        # JetStream may answer "temporarily unavailable" (10008) to a new consumer; the
        # read is retried here, and the count is printed.
        unavailable = 0

        async def positions(listener: str) -> list[tuple[int, int]]:
            nonlocal unavailable
            for _ in range(50):
                try:
                    events = await store.read_subject(listener, "book")
                    assert all(isinstance(e, PositionReported) for _, e, _ in events)
                    return [(seq, e.position_ms) for seq, e, _ in events if isinstance(e, PositionReported)]
                except ServiceUnavailableError:
                    unavailable += 1
                    await asyncio.sleep(0.2)
            raise AssertionError("JetStream stayed unavailable to the player's replay")

        for listener, acked in tally.acked.items():
            assert await positions(listener) == acked
        print(f"[player store, {fault}] replay read every listener back; 503s retried: {unavailable}")
    finally:
        await client.close()
