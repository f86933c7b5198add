"""The player's stream on a real nats-server: dedupe, optimistic concurrency, two instances,
kill -9 and restart, replay and snapshots, and the CLI."""

import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.player import (
    CommandRequest,
    CommandResult,
    ErrorReply,
    Heard,
    History,
    HistoryRequest,
    ListenerState,
    LocateRequest,
    OfferPositions,
    PositionReported,
    Report,
    Undo,
)
from bedside_contracts.search import Catalog, CatalogRequest, Resolve, Resolved, Target
from bedside_player.catalog import Books
from bedside_player.cli import first_start
from bedside_player.domain import history as history_rules
from bedside_player.listeners import Listeners
from bedside_player.player import Player
from bedside_player.projections import Projections
from bedside_player.replay import rebuild, snapshots, write_snapshot
from bedside_player.store import EventStore, WrongLastSequence, subject_of
from bedside_player_testing import FakeSearch, SyntheticBook
from bedside_runtime.bus import call
from bedside_runtime.clock import wall_clock_ms
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import free_port
from bedside_runtime.settings import Settings
from bedside_testing import RunningSystem, start_system, start_test_nats
from nats.aio.client import Client
from nats.aio.msg import Msg


@pytest.fixture(scope="module")
async def bus(nats_url: str) -> AsyncIterator[Client]:
    client = await nats.connect(nats_url)
    search = await FakeSearch(client, [SyntheticBook("b1")]).start()
    try:
        yield client
    finally:
        await search.stop()
        await client.close()


async def bedside(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the ``bedside`` CLI in a child process without blocking the loop."""
    command = [sys.executable, "-m", "bedside", *args]
    return await asyncio.to_thread(
        subprocess.run, command, env=env, capture_output=True, text=True, check=False
    )


async def listener(bus: Client, prefix: str) -> tuple[str, str]:
    name = f"{prefix}-{free_port()}"
    return name, await (await Listeners.open(bus.jetstream())).create(name)


async def test_one_report_published_twice_with_one_msg_id_is_one_event(bus: Client) -> None:
    store = EventStore(bus.jetstream())
    await store.declare()
    name = f"dup-{free_port()}"
    event = PositionReported(device="phone", position_ms=5_000, playing=True, basis_seq=0)
    first = await store.append(name, "b1", event, expected_seq=0)
    again = await store.append(name, "b1", event, expected_seq=0)  # a retry after a lost ack
    assert again == first
    raw = event.model_dump_json().encode()
    headers = {"Nats-Msg-Id": f"raw-{name}"}
    acks = [
        await bus.jetstream().publish(
            subject_of(name, "b1"), raw, stream=subjects.PLAYER_STREAM, headers=headers
        )
        for _ in range(2)
    ]
    assert acks[1].duplicate
    assert acks[0].seq == acks[1].seq
    assert [stored.seq for stored in await store.read_subject(name, "b1")] == [first, acks[0].seq]


async def test_events_read_back_carry_when_the_stream_stored_them_not_when_they_were_read(
    bus: Client,
) -> None:
    store = EventStore(bus.jetstream())
    await store.declare()
    name = f"times-{free_port()}"
    before_ms = wall_clock_ms()
    event = PositionReported(device="phone", position_ms=5_000, playing=True, basis_seq=0)
    await store.append(name, "b1", event, expected_seq=0)
    after_ms = wall_clock_ms()
    await asyncio.sleep(1.2)
    [stored] = await store.read_subject(name, "b1")
    assert stored.stored_at_ms is not None
    assert before_ms - 50 <= stored.stored_at_ms <= after_ms + 50  # the server's clock, this machine's
    items = history_rules.entries(name, "b1", [stored])
    left_off = LocateRequest(listener=name, book="b1", left_off=True)
    assert history_rules.lookup(items, left_off, wall_clock_ms()).count == 0  # still listening
    later = history_rules.lookup(items, left_off, after_ms + history_rules.LISTENING_BREAK_MS + 100)
    assert [e.position_ms for e in later.page] == [5_000]  # an hour on: where they left off


async def test_an_append_on_an_old_basis_is_refused_by_the_stream(bus: Client) -> None:
    store = EventStore(bus.jetstream())
    name = f"occ-{free_port()}"
    seq = await store.append(
        name, "b1", PositionReported(device="a", position_ms=1, playing=True, basis_seq=0), 0
    )
    await store.append(
        name, "b1", PositionReported(device="a", position_ms=2, playing=True, basis_seq=seq), seq
    )
    with pytest.raises(WrongLastSequence):
        await store.append(
            name, "b1", PositionReported(device="b", position_ms=3, playing=True, basis_seq=seq), seq
        )


class PlayerProcess:
    """One more ``bedside serve player`` on the same bus, on its own HTTP port."""

    def __init__(self, nats_url: str) -> None:
        self.port = free_port()
        self.data_dir = Path(tempfile.mkdtemp(prefix="bedside-player-copy-"))
        env = {
            **os.environ,
            "NATS_URL": nats_url,
            "BEDSIDE_DATA_DIR": str(self.data_dir),
            "BEDSIDE_HTTP_PORT": str(self.port),
            "BEDSIDE_LOG_FORMAT": "json",
        }
        self.log = (self.data_dir / "player.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bedside", "serve", "player"],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def wait_ready(self) -> None:
        async with httpx.AsyncClient() as client:
            for _ in range(600):
                try:
                    if (await client.get(self.url + "/api/openapi.json")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                assert self.process.poll() is None, (self.data_dir / "player.log").read_text()
                await asyncio.sleep(0.1)
        raise AssertionError("the player did not start")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


async def test_two_instances_taking_commands_for_one_listener_lose_no_update(
    nats_url: str, bus: Client
) -> None:
    copies = [PlayerProcess(nats_url), PlayerProcess(nats_url)]
    try:
        await asyncio.gather(*(c.wait_ready() for c in copies))
        name, token = await listener(bus, "twin")
        headers = {"Authorization": f"Bearer {token}"}
        clients = [httpx.AsyncClient(base_url=c.url, headers=headers, timeout=30) for c in copies]
        path = f"/api/listeners/{name}/books/b1"

        async def join(i: int) -> int:
            # a 409 here says the stream changed under the copy more times than it retries
            # (two copies appending for one listener): the device tries again, as it is told to
            for _ in range(20):
                response = await clients[i % 2].post(path + "/devices", json={"device": f"dev{i}"})
                if response.status_code != 409:
                    break
            return response.status_code

        async def report(i: int) -> tuple[int, int]:
            # forty devices at once: a report that another device's report overtook is
            # refused with the state, and the device reports again from that basis
            client = clients[i % 2]
            basis = (await client.get(path + "/state")).json()["seq"]
            for _ in range(200):
                response = await client.post(
                    path + "/reports",
                    json={"device": f"dev{i}", "position_ms": 1_000 * i, "playing": True, "basis_seq": basis},
                )
                if response.status_code == 200:
                    return 200, response.json()["seq"]
                if response.status_code != 409:
                    break
                basis = response.json()["state"]["seq"]
            return response.status_code, 0

        codes = await asyncio.gather(*(join(i) for i in range(40)))
        assert set(codes) == {200}
        reports = await asyncio.gather(*(report(i) for i in range(40)))
        assert {code for code, _ in reports} == {200}
        for client in clients:
            state = (await client.get(path + "/state")).json()
            assert sorted(state["devices"]) == sorted(f"dev{i}" for i in range(40))
            newest = max(reports, key=lambda r: r[1])
            assert state["seq"] == newest[1]
        stored = await EventStore(bus.jetstream()).read_subject(name, "b1")
        assert len(stored) == 80  # every join and every accepted report, none lost, none doubled
        assert sorted(seq for _, seq in reports) == sorted(
            seq for seq, e, _ in stored if e.kind == "reported"
        )
        for client in clients:
            await client.aclose()
    finally:
        for copy in copies:
            copy.stop()


@pytest.fixture(scope="module")
def lone_player(nats_url: str) -> Iterator[RunningSystem]:
    system = start_system(nats_url, services=("player",))
    try:
        yield system
    finally:
        system.stop()


async def test_kill_9_under_load_and_restart_gives_the_same_state(
    lone_player: RunningSystem, bus: Client
) -> None:
    name, token = await listener(bus, "crash")
    path = f"/api/listeners/{name}/books/b1"
    acked: dict[int, int] = {}
    enough = asyncio.Event()

    async def device(i: int) -> None:
        async with httpx.AsyncClient(
            base_url=lone_player.http_url, headers={"Authorization": f"Bearer {token}"}, timeout=5
        ) as client:
            basis = 0
            position = i * 10_000_000
            try:
                while True:
                    position += 1_000
                    body = {"device": f"d{i}", "position_ms": position, "playing": True, "basis_seq": basis}
                    response = await client.post(path + "/reports", json=body)
                    if response.status_code == 200:
                        basis = response.json()["seq"]
                        acked[basis] = position
                    elif response.status_code == 409:  # another device reported: adopt, as a page does
                        basis = response.json()["state"]["seq"]
                    if len(acked) >= 300:
                        enough.set()
            except httpx.TransportError:
                return  # the player is gone

    load = [asyncio.create_task(device(i)) for i in range(3)]
    await asyncio.wait_for(enough.wait(), 60)
    lone_player.processes.children["player"].kill()  # SIGKILL, mid-load
    await asyncio.gather(*load)
    lone_player.processes.children["player"].wait()
    lone_player.processes.start("player")
    health = await wait_until_healthy([lone_player.nats_url], ("player",), 60)
    assert health["player"] is not None
    assert health["player"].ready
    async with httpx.AsyncClient(
        base_url=lone_player.http_url, headers={"Authorization": f"Bearer {token}"}
    ) as client:
        for _ in range(100):
            try:
                after = (await client.get(path + "/state")).json()
                break
            except httpx.TransportError:
                await asyncio.sleep(0.1)
    stored = {seq: e for seq, e, _ in await EventStore(bus.jetstream()).read_subject(name, "b1")}
    for seq, position in acked.items():  # every acknowledged report survived
        event = stored[seq]
        assert isinstance(event, PositionReported)
        assert event.position_ms == position
    rebuilt, _ = await rebuild(bus)
    assert after == rebuilt.get(name, "b1").public(wall_clock_ms()).model_dump(mode="json")
    assert after["seq"] == max(stored) >= max(acked)


async def test_replay_and_snapshot_rebuild_what_the_service_holds(
    lone_player: RunningSystem, bus: Client
) -> None:
    name, token = await listener(bus, "replay")
    path = f"/api/listeners/{name}/books/b1"
    async with httpx.AsyncClient(
        base_url=lone_player.http_url, headers={"Authorization": f"Bearer {token}"}
    ) as client:
        basis = 0
        for position in (10_000, 20_000, 900_000):
            basis = (
                await client.post(
                    path + "/reports",
                    json={"device": "p", "position_ms": position, "playing": True, "basis_seq": basis},
                )
            ).json()["seq"]
        await client.post(path + "/seek", json={"device": "p", "position_ms": 5_000, "basis_seq": basis})
        await client.post(path + "/undo")
        # a timer that ran out, then one still running: replay rebuilds both
        timer = (await client.post(path + "/sleep-timer", json={"device": "p", "after": 5})).json()
        stop = timer["state"]["sleep_timer"]["stop_at_ms"]
        ran_out = {"device": "p", "position_ms": stop + 2_000, "basis_seq": timer["seq"]}
        (await client.post(path + "/sleep-timer/ran-out", json=ran_out)).raise_for_status()
        (await client.post(path + "/sleep-timer", json={"device": "q", "after": 10})).raise_for_status()
        live = (await client.get(path + "/state")).json()
    assert live["asleep"]["paused_at_ms"] == stop
    assert live["sleep_timer"]["device"] == "q"
    js = bus.jetstream()
    rebuilt, report = await rebuild(bus)
    assert rebuilt.get(name, "b1").public(wall_clock_ms()).model_dump(mode="json") == live
    assert report.events >= 5
    await write_snapshot(await snapshots(js), rebuilt)
    from_snapshot, snap_report = await rebuild(bus, use_snapshot=True)
    assert snap_report.from_snapshot_seq == rebuilt.through_seq
    assert from_snapshot.states == rebuilt.states
    # the service starts from the snapshot too, and holds the same state
    child = lone_player.processes.children["player"]
    child.terminate()
    await asyncio.to_thread(child.wait)
    lone_player.processes.start("player")
    assert (await wait_until_healthy([lone_player.nats_url], ("player",), 60))["player"] is not None
    async with httpx.AsyncClient(
        base_url=lone_player.http_url, headers={"Authorization": f"Bearer {token}"}
    ) as client:
        assert (await client.get(path + "/state")).json() == live
    assert f'"from_snapshot_seq": {rebuilt.through_seq}' in lone_player.log("player")
    result = await bedside("replay", env={**os.environ, "NATS_URL": lone_player.nats_url})
    assert result.returncode == 0, result.stderr
    assert "replayed" in result.stdout
    assert "projections" in result.stdout


async def test_listener_add_prints_a_token_that_opens_the_api(
    lone_player: RunningSystem, bus: Client
) -> None:
    name = f"cli-{free_port()}"
    env = {**os.environ, "NATS_URL": lone_player.nats_url, "BEDSIDE_HTTP_PORT": str(lone_player.http_port)}
    result = await bedside("listener", "add", name, env=env)
    assert result.returncode == 0, result.stderr
    token = next(line.split()[1] for line in result.stdout.splitlines() if line.startswith("token"))
    assert f"/#token={token}&listener={name}" in result.stdout
    async with httpx.AsyncClient(
        base_url=lone_player.http_url, headers={"Authorization": f"Bearer {token}"}
    ) as c:
        assert (await c.get(f"/api/listeners/{name}/books/b1/state")).status_code == 200
    again = await bedside("listener", "add", name, env=env)
    assert again.returncode == 1
    assert "exists already" in again.stderr


async def test_pair_prints_a_one_time_code_and_never_the_token(
    lone_player: RunningSystem, bus: Client
) -> None:
    name = f"pair-{free_port()}"
    env = {
        **os.environ,
        "NATS_URL": lone_player.nats_url,
        "BEDSIDE_DATA_DIR": str(lone_player.data_dir),
        "BEDSIDE_HTTP_PORT": str(lone_player.http_port),
    }
    added = await bedside("listener", "add", name, env=env)
    token = next(line.split()[1] for line in added.stdout.splitlines() if line.startswith("token"))
    first, second = (
        await bedside("pair", "--listener", name, env=env),
        await bedside("pair", "--listener", name, env=env),
    )
    assert first.returncode == 0, first.stderr
    found = [re.search(r"#pair=(\S+)", done.stdout) for done in (first, second)]
    codes = [match.group(1) for match in found if match]
    assert len(codes) == 2
    assert codes[0] != codes[1]  # a fresh code each time
    assert token not in first.stdout
    unknown = await bedside("pair", "--listener", "nobody-at-all", env=env)
    assert unknown.returncode == 1
    assert "no listener" in unknown.stderr


async def test_first_start_makes_one_default_listener() -> None:
    server = start_test_nats("player-first")
    try:
        settings = Settings(data_dir=Path(tempfile.mkdtemp()), http_port=8123)
        first = await first_start(settings, [server.url])
        second = await first_start(settings, [server.url])
        assert first == second
        (line,) = first
        assert "http://127.0.0.1:8123/#token=" in line
        assert line.endswith("&listener=me")
    finally:
        server.stop()


async def test_listener_remove_retires_them_tells_their_devices_and_keeps_their_events(
    lone_player: RunningSystem, bus: Client
) -> None:
    env = {**os.environ, "NATS_URL": lone_player.nats_url, "BEDSIDE_HTTP_PORT": str(lone_player.http_port)}
    name, token = await listener(bus, "gone")
    other, _ = await listener(bus, "stays")
    state_path = f"/api/listeners/{name}/books/b1/state"
    pushed: asyncio.Queue[ListenerState] = asyncio.Queue()

    async def on_push(msg: Msg) -> None:
        await pushed.put(ListenerState.model_validate_json(msg.data))

    await bus.subscribe(subjects.PLAYER_PUSH.format(listener=name, book="b1"), cb=on_push)
    async with httpx.AsyncClient(base_url=lone_player.http_url) as http:
        bearer = {"Authorization": f"Bearer {token}"}
        report = {"device": "phone", "position_ms": 5_000, "playing": True, "basis_seq": 0}
        assert (
            await http.post(f"/api/listeners/{name}/books/b1/reports", json=report, headers=bearer)
        ).is_success
        traded = await http.post("/api/session", headers=bearer)
        assert traded.is_success, traded.text
        cookie = {"Cookie": f"bedside_device={traded.cookies['bedside_device']}"}
        assert (await http.get(state_path, headers=cookie)).status_code == 200

        listed = await bedside("listener", "list", env=env)
        assert listed.returncode == 0, listed.stderr
        assert {name, other} <= set(listed.stdout.split())

        removed = await bedside("listener", "remove", name, env=env)
        assert removed.returncode == 0, removed.stderr
        assert f"removed {name}: their token and 1 device no longer work" in removed.stdout
        assert "their history in 1 book stays in the stream" in removed.stdout

        while not (told := await asyncio.wait_for(pushed.get(), timeout=30)).retired:
            pass  # the device hears of it: the state its stream ends with
        assert (told.playing, told.position_ms) == (False, 5_000)
        assert (await http.get(state_path, headers=bearer)).status_code == 401
        assert (await http.get(state_path, headers=cookie)).status_code == 401

    listed = await bedside("listener", "list", env=env)
    assert name not in listed.stdout.split()
    assert other in listed.stdout.split()
    history = await call(bus, subjects.PLAYER_HISTORY, HistoryRequest(listener=name, book="b1"), History)
    assert [entry.kind for entry in history.entries] == ["retired", "reported"]  # nothing was lost
    late = Report(device="tablet", position_ms=9_000, playing=True, basis_seq=history.entries[0].seq)
    refused = await call(
        bus, subjects.PLAYER_COMMAND, CommandRequest(listener=name, book="b1", command=late), CommandResult
    )
    assert not refused.accepted
    assert "removed" in refused.reason
    assert refused.state.retired  # the refusal tells the device so, and the page stops

    again = await bedside("listener", "remove", name, env=env)
    assert again.returncode == 1
    assert f"there is no listener {name!r}" in again.stderr
    assert other in again.stderr  # the listeners there are
    readded = await bedside("listener", "add", name, env=env)
    assert readded.returncode == 1
    assert "was removed" in readded.stderr


def test_the_last_listener_is_not_removed() -> None:
    server = start_test_nats("player-last-listener")
    try:
        system = start_system(server.url, services=("player",))
    except BaseException:
        server.stop()
        raise

    async def make_one() -> None:
        client = await nats.connect(server.url)
        try:
            await (await Listeners.open(client.jetstream())).create("only")
        finally:
            await client.close()

    try:
        asyncio.run(make_one())
        env = {**os.environ, "NATS_URL": server.url}
        refused = asyncio.run(bedside("listener", "remove", "only", env=env))
        assert refused.returncode == 1
        assert "'only' is the only listener" in refused.stderr
        assert asyncio.run(bedside("listener", "list", env=env)).stdout.split() == ["only"]
    finally:
        system.stop()
        server.stop()


async def test_a_message_that_does_not_fit_the_contract_is_passed_over_not_fatal_to_the_book(
    lone_player: RunningSystem, bus: Client
) -> None:
    """A code review: a message on a listener's subject that no event fits (a newer copy's event
    kind, during an upgrade) made every catch-up raise; the projection never passed it, so every
    append met a newer last sequence, and the listener's book answered nothing but errors."""
    name, token = await listener(bus, "unfit")
    path = f"/api/listeners/{name}/books/b1"
    async with httpx.AsyncClient(
        base_url=lone_player.http_url, headers={"Authorization": f"Bearer {token}"}, timeout=10
    ) as client:

        async def report(position_ms: int, basis_seq: int) -> httpx.Response:
            body = {"device": "phone", "position_ms": position_ms, "playing": True, "basis_seq": basis_seq}
            return await client.post(path + "/reports", json=body)

        first = await report(1_000, 0)
        assert first.status_code == 200
        unfit = await bus.jetstream().publish(subject_of(name, "b1"), b'{"kind": "from-the-future"}')
        accepted = await report(2_000, first.json()["seq"])
        assert accepted.status_code == 200
        assert accepted.json()["seq"] > unfit.seq
        state = (await client.get(path + "/state")).json()
        assert state["position_ms"] == 2_000
        assert (await client.get(path + "/history")).status_code == 200


async def test_a_stalled_bus_is_said_so_by_a_route_not_a_bare_internal_error() -> None:
    """A household's check (the bus stopped with SIGSTOP for 12 s): the page's state, history and
    turn routes answered a bare "500 Internal Server Error" after five seconds."""
    server = start_test_nats("player-stall")
    system = await asyncio.to_thread(start_system, server.url, ("player",))
    client = await nats.connect(server.url)
    try:
        search = await FakeSearch(client, [SyntheticBook("b1")]).start()
        name, token = await listener(client, "stall")
        bearer = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=system.http_url, timeout=60) as http:
            state = f"/api/listeners/{name}/books/b1/state"
            assert (await http.get(state, headers=bearer)).status_code == 200  # who is asking, known
            assert server.process is not None
            os.kill(server.process.pid, signal.SIGSTOP)
            try:
                stalled = await http.get(state, headers=bearer)
            finally:
                os.kill(server.process.pid, signal.SIGCONT)
        assert stalled.status_code == 503, stalled.text
        assert "bus" in ErrorReply.model_validate(stalled.json()).detail
        await search.stop()
    finally:
        await client.close()
        system.stop()
        server.stop()


class CopyOfThePlayer:
    """A player copy on the real stream, with its own projection: fed only by its own appends and
    catch-ups, it lags whatever another copy appends, as one does while a lease changes hands."""

    def __init__(self, bus: Client, book: SyntheticBook) -> None:
        async def catalog(_: CatalogRequest) -> Catalog:
            return Catalog(books=[book.info()])

        async def resolve(request: Resolve) -> Resolved:
            return Resolved(resolutions=[book.resolve(t, request.here_ms) for t in request.targets])

        async def publish(_subject: str, _data: bytes) -> None:
            return None

        self.store = EventStore(bus.jetstream())
        self.player = Player(self.store, Projections(), Books(catalog), resolve, publish)


async def test_a_copy_behind_the_stream_does_not_take_a_request_for_one_heard_twice_when_it_was_undone(
    bus: Client,
) -> None:
    """The phone's "go back 2 minutes" moved the book and a tablet's page undid it, on the owner; the
    copy that takes the speaker's "go back 2 minutes" has not seen the undo. By its view the speaker's
    is the phone's heard again, and it would tell the speaker a move since undone (ADR 77)."""
    book = SyntheticBook("b1")
    owner, behind = CopyOfThePlayer(bus, book), CopyOfThePlayer(bus, book)
    await owner.store.declare()
    name = f"lag-{free_port()}"
    key = "ab" * 32

    def go_back(device: str, basis_seq: int) -> OfferPositions:
        return OfferPositions(
            listener=name,
            book="b1",
            turn_id=f"t-{device}",
            targets=[Target(offset_ms=-120_000)],
            device=device,
            heard=Heard(request_key=key, basis_seq=basis_seq),
        )

    report = Report(device="phone", position_ms=1_000_000, playing=True, basis_seq=0)
    placed = await owner.player.command(name, "b1", report, book.duration_ms)
    assert (await owner.player.offer(go_back("phone", placed.seq))).outcome == "moved"
    await behind.player.catch_up(name, "b1")  # it has seen the move
    undone = await owner.player.command(name, "b1", Undo(device="tablet"), book.duration_ms)
    assert undone.state.position_ms == 1_000_000

    told = await behind.player.offer(go_back("speaker", placed.seq))

    assert told.outcome == "moved"
    stored = await owner.store.read_subject(name, "b1")
    assert stored[-1].seq > undone.seq  # the speaker's is a request of its own: the book moved again
    assert (await behind.player.catch_up(name, "b1")).position_ms == 1_000_000 - 120_000
