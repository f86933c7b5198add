"""The player's HTTP API against a real player process on a real nats-server.

Search is a small fake on the bus (synthetic books); the player is ``bedside serve player``.
"""

import asyncio
import json
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.common import NAME_PATTERN
from bedside_contracts.ingest import IngestBook, IngestJob, JobList, JobsRequest, JobState
from bedside_contracts.player import MAX_BOOKMARKS_PER_BOOK
from bedside_contracts.search import TranscriptCoverage
from bedside_contracts.turn import SPOKEN_ASK_MAX_BYTES, Ask, SpokenAsk, SpokenTurnReply, TurnReply
from bedside_player.domain.playing import REPORT_EVERY_MS
from bedside_player.http_edge import BODY_LIMIT
from bedside_player.hub import PING_FRAME, state_frame
from bedside_player.listeners import Listeners
from bedside_player.replay import rebuild
from bedside_player.routes.turns import LOADING_TIMEOUTS, TURN_TIMEOUTS
from bedside_player.store import subject_of
from bedside_player_testing import (
    ChunkedEvents,
    FakeSearch,
    PlainEventStream,
    PushedEvent,
    SyntheticBook,
    pushed_states,
)
from bedside_runtime.clock import wall_clock_ms
from bedside_runtime.nats_server import free_port
from bedside_testing import RunningSystem
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError

AUDIO = bytes(range(256)) * 64
COVER = b"\x89PNG\r\n\x1a\n" + bytes(100)
DEVICES_TLS = httpx.create_ssl_context()
"""One TLS context for every ``Device``: each client loading the CA bundle itself took over a second of
the test's one thread on a loaded machine, and fifty tries open a hundred devices."""


@pytest.fixture(scope="module")
def system(nats_url: str) -> Iterator[RunningSystem]:
    data_dir = Path(tempfile.mkdtemp(prefix="bedside-player-http-"))
    (data_dir / "b2.ogg").write_bytes(AUDIO)
    (data_dir / "b3.m4b").write_bytes(AUDIO)
    (data_dir / "b3.png").write_bytes(COVER)
    running = RunningSystem(nats_url, data_dir, ("player",), free_port())
    # Short, for the silent turn service's 504; but longer than a lease renewal late under load
    # (the trust window, leases.TRUSTED_FOR_S), which a lone copy rides out (a 503 in CI at 1 s).
    running.env["BEDSIDE_REQUEST_TIMEOUT_S"] = "3"
    running.start()
    try:
        yield running
    finally:
        running.stop()


INTERIM = TranscriptCoverage(
    chapters_done=1, chapters=2, audio_done_ms=1_800_000, audio_ms=3_600_000, pending=[2]
)
"""How far b4 had been transcribed when search was last given it: an interim version."""


@pytest.fixture(scope="module")
async def bus(system: RunningSystem) -> AsyncIterator[Client]:
    client = await nats.connect(system.nats_url)
    books = [
        SyntheticBook("b1"),
        SyntheticBook("b2", duration_ms=3_600_000, audio_path="b2.ogg"),
        SyntheticBook("b3", duration_ms=3_600_000, audio_path="b3.m4b", cover_path="b3.png"),
        SyntheticBook("b4", duration_ms=3_600_000, transcript=INTERIM),
    ]
    search = await FakeSearch(client, books).start()
    try:
        yield client
    finally:
        await search.stop()
        await client.close()


class Device:
    """One device of one listener: an HTTP client with the listener's token."""

    def __init__(
        self,
        system: RunningSystem,
        listener: str,
        token: str,
        name: str,
        book: str = "b1",
        *,
        kept_open_s: float = 5.0,  # httpx's own
    ) -> None:
        self.client = httpx.AsyncClient(
            base_url=system.http_url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=20,
            limits=httpx.Limits(keepalive_expiry=kept_open_s),
            verify=DEVICES_TLS,
        )
        self.base = f"/api/listeners/{listener}/books/{book}"
        self.name = name

    async def state(self) -> dict[str, Any]:
        response = await self.client.get(self.base + "/state")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    async def report(self, position_ms: int, basis_seq: int, clock: int | None = None) -> httpx.Response:
        body = {"device": self.name, "position_ms": position_ms, "playing": True, "basis_seq": basis_seq}
        if clock is not None:
            body["device_clock"] = clock
        return await self.client.post(self.base + "/reports", json=body)

    async def seek(self, position_ms: int, basis_seq: int) -> httpx.Response:
        body = {"device": self.name, "position_ms": position_ms, "basis_seq": basis_seq}
        return await self.client.post(self.base + "/seek", json=body)

    async def close(self) -> None:
        await self.client.aclose()


_count = 0


async def new_listener(bus: Client, prefix: str = "l") -> tuple[str, str]:
    global _count  # noqa: PLW0603 (a unique listener per test on a shared stream)
    _count += 1
    name = f"{prefix}{_count}-{free_port()}"
    # fifty at once on a loaded machine: more than the default 5 s for a KV write's ack
    token = await (await Listeners.open(bus.jetstream(timeout=30))).create(name)
    return name, token


async def subject_seq(bus: Client, listener: str, book: str = "b1") -> int:
    try:
        msg = await bus.jetstream().get_last_msg(subjects.PLAYER_STREAM, subject_of(listener, book))
    except NotFoundError:
        return 0
    return msg.seq or 0


async def test_a_stale_device_after_a_move_is_refused_and_the_position_stays(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    phone, tablet = Device(system, listener, token, "phone"), Device(system, listener, token, "tablet")
    first = await phone.report(60_000, 0)
    assert first.status_code == 200, first.text
    tablet_basis = first.json()["seq"]
    moved = await phone.seek(3_600_000, tablet_basis)
    assert moved.status_code == 200
    stale = await tablet.report(61_000, tablet_basis)
    assert stale.status_code == 409
    assert stale.json()["state"]["position_ms"] == 3_600_000
    assert "moved" in stale.json()["error"]
    assert (await phone.state())["position_ms"] == 3_600_000
    # the tablet takes the state it was given, and is then accepted
    again = await tablet.report(3_601_000, stale.json()["state"]["seq"])
    assert again.status_code == 200
    await phone.close()
    await tablet.close()


HOUR_MS = 3_600_000
NOW_MS = 1_800_000_000_000


async def a_then_stale_b(
    system: RunningSystem, bus: Client, a_moves: str, b_skew_ms: int
) -> tuple[httpx.Response, dict[str, Any]]:
    """A reports (or seeks to) 600 s; B, which last saw the book at 60 s, then reports 65 s."""
    listener, token = await new_listener(bus, "conflict")
    a, b = Device(system, listener, token, "a"), Device(system, listener, token, "b")
    try:
        first = await a.report(60_000, 0, clock=NOW_MS)
        assert first.status_code == 200, first.text
        b_basis = first.json()["seq"]
        if a_moves == "report":
            ahead = await a.report(600_000, b_basis, clock=NOW_MS)
        else:
            ahead = await a.seek(600_000, b_basis)
        assert ahead.status_code == 200, ahead.text
        stale = await b.report(65_000, b_basis, clock=NOW_MS + b_skew_ms)
        return stale, await a.state()
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize("a_moves", ["report", "seek"])
@pytest.mark.parametrize(
    "b_skew_ms", [0, HOUR_MS, -HOUR_MS], ids=["same-clock", "b-hour-ahead", "b-hour-behind"]
)
async def test_a_stale_report_never_drags_the_book_back(
    system: RunningSystem, bus: Client, a_moves: str, b_skew_ms: int
) -> None:
    stale, state = await a_then_stale_b(system, bus, a_moves, b_skew_ms)
    assert stale.status_code == 409, stale.text
    assert stale.json()["state"]["position_ms"] == 600_000
    assert stale.json()["state"]["seq"] == state["seq"]
    assert state["position_ms"] == 600_000


async def test_a_playing_device_keeps_its_connection_from_one_report_to_the_next(
    system: RunningSystem, bus: Client
) -> None:
    """Closed sooner, every report opens a new connection (a TLS handshake, on a LAN with a
    certificate), and a request sent as the player closes an idle one is lost (`httpx.ReadError`)."""
    listener, token = await new_listener(bus, "kept")
    # A browser keeps a used connection for minutes (chromium: 5), not httpx's 5 s.
    phone = Device(system, listener, token, "phone", kept_open_s=300)
    try:
        first = await phone.report(60_000, 0)
        opened = first.extensions["network_stream"].get_extra_info("client_addr")
        await asyncio.sleep(REPORT_EVERY_MS / 1000 + 1)
        second = await phone.report(76_000, first.json()["seq"])
        assert second.status_code == 200, second.text
        assert second.extensions["network_stream"].get_extra_info("client_addr") == opened
    finally:
        await phone.close()


async def test_fifty_simultaneous_tries_all_end_where_a_was(system: RunningSystem, bus: Client) -> None:
    tries = await asyncio.gather(*(a_then_stale_b(system, bus, "report", 0) for _ in range(50)))
    assert [stale.status_code for stale, _ in tries] == [409] * 50
    assert [state["position_ms"] for _, state in tries] == [600_000] * 50


async def test_two_devices_playing_at_once_are_corrected_once_then_agree(
    system: RunningSystem, bus: Client
) -> None:
    """The tablet reports 65 s without having heard the phone's 600 s: one 409, it adopts;
    from then on both play and follow each other's pushes, and no report is refused."""
    listener, token = await new_listener(bus, "both")
    devices = {
        "phone": Device(system, listener, token, "phone"),
        "tablet": Device(system, listener, token, "tablet"),
    }
    basis = {"phone": 0, "tablet": 0}
    where = {"phone": 600_000, "tablet": 65_000}
    refused = 0
    async with (
        devices["phone"].client.stream("GET", devices["phone"].base + "/events") as phone_events,
        devices["tablet"].client.stream("GET", devices["tablet"].base + "/events") as tablet_events,
    ):
        states = {
            "phone": pushed_states(phone_events.aiter_lines()),
            "tablet": pushed_states(tablet_events.aiter_lines()),
        }

        async def push_from(name: str, seq: int) -> dict[str, Any]:
            """The first state pushed to ``name`` at or after ``seq`` (older ones are skipped)."""
            async for pushed in states[name]:
                if pushed["seq"] >= seq:
                    return pushed
            raise AssertionError("the push stream ended")

        async def report(name: str) -> None:
            nonlocal refused
            response = await devices[name].report(where[name], basis[name])
            if response.status_code == 409:
                refused += 1
                state = response.json()["state"]
                basis[name], where[name] = state["seq"], state["position_ms"]
                return
            assert response.status_code == 200, response.text
            basis[name] = response.json()["seq"]

        for name in states:
            await push_from(name, 0)  # the state on connecting
        await report("phone")
        await report("tablet")  # has not read the phone's push: refused, adopts 600 s
        assert (refused, where["tablet"]) == (1, 600_000)
        for _ in range(10):
            for name, other in (("phone", "tablet"), ("tablet", "phone")):
                await report(name)
                pushed = await push_from(other, basis[name])
                basis[other] = max(basis[other], pushed["seq"])
                if abs(pushed["position_ms"] - where[other]) > 2_000:  # as the page follows
                    where[other] = pushed["position_ms"]
            for name in where:
                where[name] += 15_000
    assert refused == 1
    assert where["phone"] == where["tablet"]
    assert (await devices["phone"].state())["position_ms"] == where["phone"] - 15_000
    for device in devices.values():
        await device.close()


async def test_device_clocks_skewed_and_out_of_order_do_not_decide(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    ahead, behind = Device(system, listener, token, "ahead"), Device(system, listener, token, "behind")
    now = 1_800_000_000_000
    hour = 3_600_000
    r1 = await ahead.report(100_000, 0, clock=now + hour)
    r2 = await behind.report(200_000, r1.json()["seq"], clock=now - hour)
    r3 = await ahead.report(150_000, r2.json()["seq"], clock=now - 2 * hour)  # its clock ran backwards
    assert [r.status_code for r in (r1, r2, r3)] == [200, 200, 200]
    seqs = [r.json()["seq"] for r in (r1, r2, r3)]
    assert seqs == sorted(seqs)
    assert (await ahead.state())["position_ms"] == 150_000  # the newest by sequence
    history = (await ahead.client.get(ahead.base + "/history", params={"limit": 10})).json()["entries"]
    assert [e["position_ms"] for e in history] == [150_000, 200_000, 100_000]
    await ahead.close()
    await behind.close()


async def test_tokens_reach_only_their_own_listener(system: RunningSystem, bus: Client) -> None:
    ann, ann_token = await new_listener(bus, "ann")
    bob, bob_token = await new_listener(bus, "bob")
    device = Device(system, ann, bob_token, "phone")
    before = await subject_seq(bus, ann)
    assert (await device.client.get(device.base + "/state")).status_code == 403
    assert (await device.report(5_000, 0)).status_code == 403
    assert (await device.client.post(device.base + "/undo")).status_code == 403
    async with httpx.AsyncClient(base_url=system.http_url) as anonymous:
        missing = await anonymous.get(device.base + "/state")
        assert missing.status_code == 401
        assert "token" in missing.json()["detail"]
        wrong = await anonymous.get(device.base + "/state", headers={"Authorization": "Bearer not-a-token"})
        assert wrong.status_code == 401
        # One answer for every name not the caller's own: a 404 for names no listener has told a
        # guest which names the household's listeners have.
        unknown = await anonymous.get(
            "/api/listeners/nobody-here/books/b1/state", headers={"Authorization": f"Bearer {ann_token}"}
        )
        anothers = await device.client.get(device.base + "/state")
        assert (unknown.status_code, unknown.json()) == (403, anothers.json())
    assert await subject_seq(bus, ann) == before
    own = Device(system, bob, bob_token, "phone")
    assert (await own.client.get(own.base + "/state")).status_code == 200
    await device.close()
    await own.close()


async def test_bad_input_is_a_clear_4xx_and_appends_nothing(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    ok = await device.report(1_000, 0)
    assert ok.status_code == 200
    before = await subject_seq(bus, listener)
    cases = [
        await device.report(-5, before),
        await device.report(10 * 3600_000 + 1, before),  # past the end of a ten-hour book
        await device.report(1_000, before + 50),  # a basis from the future
        await device.client.post(
            device.base + "/reports", content=b"{not json", headers={"Content-Type": "application/json"}
        ),
        await device.client.post(device.base + "/reports", json={"device": "phone"}),
        await device.client.post(device.base + "/list/press", json={"row": 0}),  # no list on the screen
        await device.client.post(device.base + "/undo"),  # nothing to undo
        await device.client.get(f"/api/listeners/{listener}/books/no-such-book/state"),
        await device.client.get("/api/books/no-such-book"),
    ]
    codes = [r.status_code for r in cases]
    assert all(400 <= code < 500 for code in codes), codes
    assert codes[-2:] == [404, 404]
    assert "past the end" in cases[1].json()["detail"]
    assert all(r.json().get("detail") for r in cases)
    assert await subject_seq(bus, listener) == before
    await device.close()


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "text/plain", None])
async def test_a_json_body_sent_as_another_kind_is_told_to_be_sent_as_json(
    system: RunningSystem, bus: Client, kind: str | None
) -> None:
    """`curl -d '{...}'` sends a form: the reply said "body: Input should be a valid dictionary or
    object to extract fields from", which tells a script's author nothing of what to change."""
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    before = await subject_seq(bus, listener)
    headers = {"Content-Type": kind} if kind else {}
    sent = {
        "/seek": {"device": "phone", "position_ms": 1_000, "basis_seq": before},
        "/reports": {"device": "phone", "position_ms": 1_000, "playing": True, "basis_seq": before},
        "/turns": {"device": "phone", "utterance": "who is Oskar?"},
        "/sleep-timer": {"device": "phone", "after": 15},
    }
    for path, body in sent.items():
        reply = await device.client.post(device.base + path, content=json.dumps(body), headers=headers)
        assert reply.status_code == 422, (path, reply.text)
        assert "Content-Type: application/json" in reply.json()["detail"], (path, reply.text)
    assert await subject_seq(bus, listener) == before
    await device.close()


async def test_books_and_chapter_titles_only_once_reached(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    books = (await device.client.get("/api/books")).json()
    assert {b["id"] for b in books} >= {"b1", "b2"}
    await device.report(2_000_000, 0)  # into chapter 2 of 30-minute chapters
    book = (await device.client.get("/api/books/b1")).json()
    titles = {c["n"]: c["title"] for c in book["chapters"]}
    assert titles[1] == "Chapter title 1"
    assert titles[2] == "Chapter title 2"
    assert titles[3] is None
    assert titles[20] is None
    assert [c["ahead"] for c in book["chapters"][:3]] == [False, False, True]
    # Exactly at a chapter's start it is still ahead (the guard's rule): its number, no title.
    at_start = await device.report(2 * 1_800_000, (await device.state())["seq"])
    assert at_start.status_code == 200, at_start.text
    third = (await device.client.get("/api/books/b1")).json()["chapters"][2]
    assert (third["n"], third["title"], third["ahead"]) == (3, None, True)
    await device.report(2 * 1_800_000 + 1, at_start.json()["seq"])
    third = (await device.client.get("/api/books/b1")).json()["chapters"][2]
    assert (third["title"], third["ahead"]) == ("Chapter title 3", False)
    await device.close()


async def test_the_book_listened_to_is_the_one_placed_newest(system: RunningSystem, bus: Client) -> None:
    """What the page opens when no book is asked for: where the position was reported or moved
    newest, not the first book; a device joining or a timer set places nothing."""
    listener, token = await new_listener(bus)
    b1, b2, b3 = (Device(system, listener, token, "phone", book=book) for book in ("b1", "b2", "b3"))
    path = f"/api/listeners/{listener}/listening"

    async def listening() -> str | None:
        response = await b1.client.get(path)
        assert response.status_code == 200, response.text
        book: str | None = response.json()["book"]
        return book

    assert await listening() is None
    assert (await b3.client.post(b3.base + "/devices", json={"device": "phone"})).status_code == 200
    assert await listening() is None
    assert (await b2.report(60_000, 0)).status_code == 200
    assert await listening() == "b2"
    assert (await b1.report(5_000, 0)).status_code == 200
    assert await listening() == "b1"
    assert (await b3.client.post(b3.base + "/devices", json={"device": "tablet"})).status_code == 200
    timer = await b2.client.post(b2.base + "/sleep-timer", json={"device": "phone", "after": 15})
    assert timer.status_code == 200, timer.text
    assert await listening() == "b1"
    assert (await b2.seek(120_000, (await b2.state())["seq"])).status_code == 200
    assert await listening() == "b2"
    other, other_token = await new_listener(bus)
    stranger = Device(system, other, other_token, "phone")
    assert (await stranger.client.get(path)).status_code == 403
    for device in (b1, b2, b3, stranger):
        await device.close()


async def test_a_playing_device_that_leaves_pauses_the_book_only_if_it_was_the_last_playing(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    phone, speaker = Device(system, listener, token, "phone"), Device(system, listener, token, "speaker")

    async def leave(device: Device, position_ms: int) -> dict[str, Any]:
        body = {"device": device.name, "position_ms": position_ms, "basis_seq": (await device.state())["seq"]}
        response = await device.client.post(device.base + "/devices/leave", json=body)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    first = await phone.report(60_000, 0)
    assert (await speaker.report(61_000, first.json()["seq"])).status_code == 200
    still = await leave(phone, 75_000)  # the speaker plays on
    assert (still["state"]["playing"], still["state"]["position_ms"]) == (True, 61_000)
    paused = await leave(speaker, 76_000)
    assert (paused["state"]["playing"], paused["state"]["position_ms"]) == (False, 76_000)
    before = await subject_seq(bus, listener)
    await leave(phone, 80_000)  # not playing: nothing to record
    assert await subject_seq(bus, listener) == before
    await phone.close()
    await speaker.close()


async def test_a_pause_from_one_device_pauses_the_book_on_every_device(
    system: RunningSystem, bus: Client
) -> None:
    """What a page asks as the listener leaves the book for another: a speaker playing on was left to
    play the old book all night (a listener session)."""
    listener, token = await new_listener(bus)
    phone, speaker = Device(system, listener, token, "phone"), Device(system, listener, token, "speaker")
    first = await phone.report(60_000, 0)
    assert (await speaker.report(61_000, first.json()["seq"])).status_code == 200
    paused = await phone.client.post(phone.base + "/pause", json={"device": "phone"})
    assert paused.status_code == 200, paused.text
    state = paused.json()["state"]
    assert (state["playing"], state["last_move_cause"]) == (False, "paused")
    again = await phone.client.post(phone.base + "/pause", json={"device": "phone"})  # paused: nothing more
    assert (again.status_code, again.json()["state"]["seq"]) == (200, state["seq"])
    await phone.close()
    await speaker.close()


async def test_audio_is_served_with_ranges(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone", book="b2")
    whole = await device.client.get("/api/books/b2/audio")
    assert whole.status_code == 200
    assert whole.content == AUDIO
    part = await device.client.get("/api/books/b2/audio", headers={"Range": "bytes=10-19"})
    assert part.status_code == 206
    assert part.content == AUDIO[10:20]
    assert (await device.client.get("/api/books/b1/audio")).status_code == 404
    assert whole.headers["content-type"] == "audio/ogg"
    audiobook = await device.client.get("/api/books/b3/audio", headers={"Range": "bytes=0-99"})
    assert (audiobook.status_code, audiobook.headers["content-type"]) == (206, "audio/mp4")
    assert audiobook.headers["content-range"] == f"bytes 0-99/{len(AUDIO)}"
    assert (await device.client.get("/api/books/b3")).json()["has_cover"]
    cover = await device.client.get("/api/books/b3/cover")
    assert (cover.status_code, cover.headers["content-type"], cover.content) == (200, "image/png", COVER)
    assert (await device.client.get("/api/books/b2/cover")).status_code == 404
    await device.close()


async def read_event(lines: AsyncIterator[str]) -> dict[str, Any]:
    """The data of the next ``state`` event of an SSE stream."""
    async for state in pushed_states(lines):
        return state
    raise AssertionError("the event stream ended")


async def test_every_device_is_pushed_each_change(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    phone = Device(system, listener, token, "phone")
    await phone.report(10_000, 0)
    streams = [Device(system, listener, token, f"d{i}") for i in range(3)]
    pushed_on_nats: asyncio.Queue[bytes] = asyncio.Queue()

    async def on_push(msg: Msg) -> None:
        await pushed_on_nats.put(msg.data)

    sub = await bus.subscribe(subjects.PLAYER_PUSH.format(listener=listener, book="b1"), cb=on_push)
    async with asyncio.timeout(30):
        contexts = [d.client.stream("GET", d.base + "/events") for d in streams]
        responses = [await c.__aenter__() for c in contexts]
        lines = [r.aiter_lines() for r in responses]
        firsts = [await read_event(line) for line in lines]
        assert all(f["position_ms"] == 10_000 for f in firsts)
        moved = await phone.seek(500_000, (await phone.state())["seq"])
        seq = moved.json()["seq"]
        for line in lines:
            state = await read_event(line)
            assert (state["seq"], state["position_ms"]) == (seq, 500_000)
        # the push of the phone's report may come after its answer, once subscribed: older ones are passed
        while (pushed_seq := json.loads(await pushed_on_nats.get())["seq"]) < seq:
            pass
        assert pushed_seq == seq
        for context in contexts:
            await context.__aexit__(None, None, None)
    await sub.unsubscribe()
    for device in [phone, *streams]:
        await device.close()


def chunked(*chunks: bytes) -> bytes:
    """An HTTP/1.1 chunked body of ``chunks``, ended."""
    return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"


def test_the_plain_reader_finds_each_event_however_the_socket_splits_the_body() -> None:
    """The benches' reader of a push stream on a bare socket: the chunk framing, LF or CRLF line
    ends, a comment and a frame split across chunks mid-line do not change what it reads."""
    second = state_frame(8, b'{"seq": 8}')
    body = chunked(
        PING_FRAME,
        state_frame(7, b'{"seq": 7}'),
        b': a comment\r\nevent: state\r\nid: 9\r\ndata: {"seq":\r\ndata:  9}\r\n\r\n',
        second[:12],
        second[12:],
    )
    expected = [
        PushedEvent("ping", "", json.dumps({"every_ms": 15_000})),
        PushedEvent("state", "7", '{"seq": 7}'),
        PushedEvent("state", "9", '{"seq":\n 9}'),
        PushedEvent("state", "8", '{"seq": 8}'),
    ]
    for cut in range(len(body) + 1):
        events = ChunkedEvents()
        assert [*events.feed(body[:cut]), *events.feed(body[cut:])] == expected, cut
        assert events.ended
    one_byte_at_a_time = ChunkedEvents()
    assert [e for i in range(len(body)) for e in one_byte_at_a_time.feed(body[i : i + 1])] == expected


async def test_the_plain_reader_reads_the_states_a_page_reads(system: RunningSystem, bus: Client) -> None:
    """The benches read a device's pushes on a bare socket: the same states, by sequence, as
    the page's reader of the same stream."""
    listener, token = await new_listener(bus)
    phone = Device(system, listener, token, "phone")
    basis = (await phone.report(10_000, 0)).json()["seq"]
    plain = PlainEventStream()
    reading = asyncio.create_task(plain.run(system.http_port, phone.base + "/events", token))
    async with asyncio.timeout(30), phone.client.stream("GET", phone.base + "/events") as response:
        states = pushed_states(response.aiter_lines())
        page = [(await anext(states))["seq"]]
        await plain.reached(0)
        for n in range(3):
            basis = (await phone.seek(100_000 * (n + 1), basis)).json()["seq"]
            page.append((await anext(states))["seq"])
            await plain.reached(basis)
    plain.close()
    await asyncio.gather(reading, return_exceptions=True)
    assert [seq for seq, _at in plain.arrivals] == page
    assert (len(page), page[-1]) == (4, basis)
    await phone.close()


async def test_list_press_cancel_and_undo_over_http(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    await device.report(1_800_000, 0)
    # over the bus, a command the rules refuse is an answer with the state, not a failure
    undo = {"listener": listener, "book": "b1", "command": {"op": "undo"}}
    refused = json.loads(
        (await bus.request(subjects.PLAYER_COMMAND, json.dumps(undo).encode(), timeout=10)).data
    )
    assert refused["accepted"] is False
    assert "nothing to undo" in refused["reason"]
    assert refused["state"]["position_ms"] == 1_800_000
    offer = {
        "listener": listener,
        "book": "b1",
        "turn_id": "t1",
        "targets": [{"passage_id": 10}, {"passage_id": 10}, {"passage_id": 200}, {"passage_id": 99999}],
    }
    reply = json.loads(
        (await bus.request(subjects.PLAYER_OFFER, json.dumps(offer).encode(), timeout=10)).data
    )
    assert reply["outcome"] == "listed"
    assert [r["start_ms"] for r in reply["rows"]] == [300_000, 6_000_000]
    assert reply["rows"][1]["ahead"] is True
    assert reply["rows"][1]["chapter_title"] is None
    assert len(reply["unresolved"]) == 1
    state = await device.state()
    assert len(state["rows"]) == 2
    pressed = await device.client.post(device.base + "/list/press", json={"row": 1, "device": "phone"})
    assert pressed.status_code == 200
    assert pressed.json()["state"]["position_ms"] == 6_000_000
    assert pressed.json()["state"]["rows"] == []
    undone = await device.client.post(device.base + "/undo", json={"device": "phone"})
    assert undone.json()["state"]["position_ms"] == 1_800_000
    # one place behind with may_move: the book moves at once
    offer = {**offer, "turn_id": "t2", "targets": [{"passage_id": 2}]}
    reply = json.loads(
        (await bus.request(subjects.PLAYER_OFFER, json.dumps(offer).encode(), timeout=10)).data
    )
    assert reply["outcome"] == "moved"
    assert (await device.state())["position_ms"] == 60_000
    # a new list, then cancel: the list goes and nothing else changes
    offer = {**offer, "turn_id": "t3", "targets": [{"chapter": 5}, {"offset_ms": -30_000}]}
    reply = json.loads(
        (await bus.request(subjects.PLAYER_OFFER, json.dumps(offer).encode(), timeout=10)).data
    )
    assert reply["outcome"] == "listed"
    before = await device.state()
    cancelled = await device.client.post(device.base + "/list/cancel")
    after = cancelled.json()["state"]
    assert after["rows"] == []
    assert (after["position_ms"], after["last_move_seq"]) == (before["position_ms"], before["last_move_seq"])
    # nothing resolves: refused with a reason the model can act on
    offer = {**offer, "turn_id": "t4", "targets": [{"passage_id": 99999}]}
    reply = json.loads(
        (await bus.request(subjects.PLAYER_OFFER, json.dumps(offer).encode(), timeout=10)).data
    )
    assert reply["outcome"] == "refused"
    assert "find_passage" in reply["reason"]
    await device.close()


async def test_a_preview_offer_decides_from_there_and_appends_nothing(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    await device.report(1_800_000, 0)
    before = await subject_seq(bus, listener)
    offer = {"listener": listener, "book": "b1", "turn_id": "p1", "targets": [{"passage_id": 100}]}

    async def ask(**more: int) -> dict[str, Any]:
        data = (
            await bus.request(subjects.PLAYER_OFFER, json.dumps({**offer, **more}).encode(), timeout=10)
        ).data
        reply: dict[str, Any] = json.loads(data)
        return reply

    # passage 100 (50:00) is ahead of the listener: one covered row, as the real offer would draw
    assert (await ask(preview_at_ms=600_000))["outcome"] == "listed"
    # from further on it is behind, so the same rule moves there: reported, not done
    moved = await ask(preview_at_ms=4_000_000)
    assert (moved["outcome"], moved["moved_to"]["start_ms"], moved["moved_from_ms"]) == (
        "moved",
        3_000_000,
        4_000_000,
    )
    assert await subject_seq(bus, listener) == before
    state = await device.state()
    assert (state["position_ms"], state["rows"]) == (1_800_000, [])
    await device.close()


async def test_turns_are_forwarded_and_a_silent_turn_service_is_a_504(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    await device.report(2_400_000, 0)
    asked: list[Ask] = []

    async def answer(msg: Msg) -> None:
        ask = Ask.model_validate_json(msg.data)
        asked.append(ask)
        reply = TurnReply(turn_id="t9", speech="It has not come up yet.", outcome="not_yet", mode="keyless")
        await msg.respond(reply.model_dump_json().encode())

    sub = await bus.subscribe(subjects.TURN_ASK, queue=subjects.queue_for("turn"), cb=answer)
    before = wall_clock_ms()
    response = await device.client.post(device.base + "/turns", json={"device": "phone", "utterance": "who?"})
    after = wall_clock_ms()
    assert response.status_code == 200, response.text
    assert response.json()["outcome"] == "not_yet"
    assert (asked[0].listener, asked[0].book, asked[0].device, asked[0].utterance) == (
        listener,
        "b1",
        "phone",
        "who?",
    )
    assert asked[0].here_ms == 2_400_000  # the player sends the position it holds
    # and when it took the question, on its own clock: the same request heard by two devices (ADR 77)
    assert asked[0].asked_at_ms is not None
    assert before <= asked[0].asked_at_ms <= after
    # and when the page stops waiting: a turn answered after that changes nothing
    assert asked[0].answer_by_ms is not None
    assert 0 < asked[0].answer_by_ms - wall_clock_ms() <= 60_000
    await sub.unsubscribe()

    async def ignore(msg: Msg) -> None:
        return None

    sub = await bus.subscribe(subjects.TURN_ASK, queue=subjects.queue_for("turn"), cb=ignore)
    await bus.flush()
    silent = await device.client.post(device.base + "/turns", json={"utterance": "where was I?"})
    assert silent.status_code == 504
    assert "did not answer" in silent.json()["detail"]
    await sub.unsubscribe()
    await bus.flush()
    absent = await device.client.post(device.base + "/turns", json={"utterance": "where was I?"})
    assert absent.status_code == 503
    await device.close()


async def test_a_spoken_question_is_forwarded_as_a_recording_with_the_position(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    await device.report(1_200_000, 0)
    recording = b"RIFF" + b"\x00" * 2000  # the turn service decides whether it is a WAV
    asked: list[SpokenAsk] = []

    async def answer(msg: Msg) -> None:
        asked.append(SpokenAsk.model_validate_json(msg.data))
        turn = TurnReply(turn_id="t7", speech="Here is chapter 2.", outcome="moved", mode="keyless")
        await msg.respond(SpokenTurnReply(heard="go to chapter two", turn=turn).model_dump_json().encode())

    sub = await bus.subscribe(subjects.TURN_ASK_SPOKEN, queue=subjects.queue_for("turn"), cb=answer)
    before = wall_clock_ms()
    sent = await device.client.post(
        device.base + "/turns/spoken?device=phone", content=recording, headers={"Content-Type": "audio/wav"}
    )
    after = wall_clock_ms()
    assert sent.status_code == 200, sent.text
    assert sent.json()["heard"] == "go to chapter two"
    assert sent.json()["turn"]["outcome"] == "moved"
    assert (asked[0].listener, asked[0].book, asked[0].wav) == (listener, "b1", recording)
    assert (asked[0].here_ms, asked[0].device) == (1_200_000, "phone")  # a timer set aloud is the phone's
    assert asked[0].asked_at_ms is not None
    assert before <= asked[0].asked_at_ms <= after
    assert asked[0].answer_by_ms is not None
    assert asked[0].answer_by_ms > wall_clock_ms()
    await sub.unsubscribe()

    as_json = await device.client.post(device.base + "/turns/spoken", json={"utterance": "who?"})
    assert as_json.status_code == 422
    assert "audio/wav" in as_json.json()["detail"]
    await device.close()


async def test_a_recording_over_its_limit_is_refused_without_being_read(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    path = f"/api/listeners/{listener}/books/b1/turns/spoken"
    for chunked in (False, True):
        answer = await asyncio.to_thread(
            send_past_limit,
            system.http_port,
            token,
            path,
            SPOKEN_ASK_MAX_BYTES,
            chunked,
            content_type="audio/wav",
        )
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


async def test_the_page_and_the_docs_are_served(system: RunningSystem, bus: Client) -> None:
    async with httpx.AsyncClient(base_url=system.http_url) as client:
        page = await client.get("/")
        assert page.status_code == 200
        assert "<html" in page.text.lower()
        assert (await client.get("/docs")).status_code == 200
        spec = (await client.get("/api/openapi.json")).json()
        assert "/api/listeners/{listener}/books/{book}/reports" in spec["paths"]


UNFIT_NAMES = ["two words", "a*", "a>", "a:b", "$sys", "~x", "100%", "é"]


async def test_names_a_subject_cannot_hold_are_refused_before_the_bus(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    for name in UNFIT_NAMES:
        for path in (
            f"/api/listeners/{quote(name)}/books/b1/state",
            f"/api/listeners/{listener}/books/{quote(name)}/state",
        ):
            response = await device.client.get(path)
            assert response.status_code == 422, (name, response.text)
            assert response.json()["fields"][0]["type"] == "string_pattern_mismatch"
    assert "Traceback" not in system.log("player")
    await device.close()


async def test_error_replies_never_echo_the_request(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    marker = "echo-" + "x" * 4000
    sent = [
        await device.client.post(
            device.base + "/reports",
            json={"device": marker, "position_ms": 1, "playing": True, "basis_seq": 0},
        ),
        await device.client.post(
            device.base + "/seek", json={"device": "phone", "position_ms": marker, "basis_seq": 0}
        ),
        await device.client.post(device.base + "/turns", json={"utterance": "x", "extra": marker}),
        await device.client.post(device.base + "/devices", json={}),
    ]
    assert [r.status_code for r in sent] == [422, 422, 422, 422]
    for response in sent:
        assert "xxxx" not in response.text
        reply = response.json()
        assert reply["detail"].startswith("invalid request")
        assert reply["fields"]
    await device.close()


async def test_the_token_is_checked_before_the_body(system: RunningSystem, bus: Client) -> None:
    listener, _ = await new_listener(bus)
    async with httpx.AsyncClient(base_url=system.http_url) as anonymous:
        for body in (b"{not json", b"x" * (BODY_LIMIT + 1)):
            response = await anonymous.post(
                f"/api/listeners/{listener}/books/b1/reports",
                content=body,
                headers={"Content-Type": "application/json"},
            )
            assert response.status_code == 401
            assert response.headers["www-authenticate"] == "Bearer"


def send_past_limit(
    port: int,
    token: str,
    path: str,
    limit: int,
    chunked: bool,
    *,
    content_type: str = "application/json",
    declared: int = 50 * 1024 * 1024,
) -> bytes:
    """Declare a ``declared``-byte body (or a chunked one), send a piece more than ``limit`` and no
    more, then wait for the answer: a server that read on for the rest would never answer."""
    length = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {declared}".encode()
    head = (
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: {content_type}\r\n"
        ).encode()
        + length
        + b"\r\n\r\n"
    )
    piece = b"x" * 65536
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        for _ in range(limit // len(piece) + 2):
            try:
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            except (BrokenPipeError, ConnectionResetError):
                break  # refused and closed before the piece went
        return sock.recv(65536)


async def test_a_50_mb_body_is_refused_without_being_read(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus)
    path = f"/api/listeners/{listener}/books/b1/reports"
    before = await subject_seq(bus, listener)
    for chunked in (False, True):
        answer = await asyncio.to_thread(send_past_limit, system.http_port, token, path, BODY_LIMIT, chunked)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert await subject_seq(bus, listener) == before


async def test_under_api_a_wrong_method_is_405_and_a_wrong_path_404(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus)
    device = Device(system, listener, token, "phone")
    options = await device.client.options(device.base + "/state")
    assert options.status_code == 405
    assert options.headers["allow"] == "GET"
    assert (await device.client.delete(device.base + "/reports")).headers["allow"] == "POST"
    nowhere = await device.client.get("/api/no/such/route")
    assert nowhere.status_code == 404
    assert nowhere.json()["detail"] == "there is no such API route"
    await device.close()


async def test_the_openapi_document_tells_every_answer(system: RunningSystem, bus: Client) -> None:
    async with httpx.AsyncClient(base_url=system.http_url) as client:
        spec = (await client.get("/api/openapi.json")).json()
    report = spec["paths"]["/api/listeners/{listener}/books/{book}/reports"]["post"]
    assert {"200", "401", "403", "404", "409", "413", "422"} <= set(report["responses"])
    assert report["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorReply")
    events = spec["paths"]["/api/listeners/{listener}/books/{book}/events"]["get"]["responses"]["200"]
    assert list(events["content"]) == ["text/event-stream"]
    listener = next(p for p in report["parameters"] if p["name"] == "listener")
    assert listener["schema"]["pattern"] == NAME_PATTERN
    join = spec["paths"]["/api/listeners/{listener}/books/{book}/devices"]["post"]
    assert join["requestBody"]["required"] is True
    for media in ("audio", "cover"):
        answers = spec["paths"][f"/api/books/{{book}}/{media}"]["get"]["responses"]
        assert {"200", "206", "304", "404", "416"} <= set(answers)


async def test_the_history_lookup_filters_by_kind_chapter_device_and_direction(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus, "lookup")
    phone, speaker = Device(system, listener, token, "phone"), Device(system, listener, token, "speaker")
    seq = 0
    for device, verb, position in [
        (phone, "report", 60_000),  # chapter 1 (30-minute chapters)
        (phone, "report", 120_000),
        (phone, "seek", 2_000_000),  # skipped ahead into chapter 2
        (speaker, "report", 2_010_000),
        (phone, "seek", 4_000_000),  # and again, into chapter 3
        (phone, "report", 4_100_000),
    ]:
        response = await (device.report(position, seq) if verb == "report" else device.seek(position, seq))
        assert response.status_code == 200, response.text
        seq = response.json()["seq"]

    async def lookup(**params: Any) -> dict[str, Any]:
        response = await phone.client.get(phone.base + "/history/lookup", params=params)
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    left_1 = await lookup(chapter=1, visit_ends="true")
    assert (left_1["count"], left_1["newest"]["position_ms"]) == (1, 120_000)
    skips = await lookup(direction="forward")
    assert skips["count"] == 2
    assert skips["newest"]["from_ms"] == 2_010_000
    before_that = await lookup(direction="forward", offset=1, limit=1)
    assert [e["from_ms"] for e in before_that["page"]] == [120_000]
    on_speaker = await lookup(device="speaker")
    assert (on_speaker["count"], on_speaker["newest"]["position_ms"]) == (1, 2_010_000)
    reports = await lookup(kind="reported", limit=2)
    assert (reports["count"], reports["earliest_index"], len(reports["page"])) == (4, 3, 2)
    earliest = await lookup(kind="reported", offset=reports["earliest_index"], limit=2)
    assert [e["position_ms"] for e in earliest["page"]] == [60_000]
    bad = await phone.client.get(phone.base + "/history/lookup", params={"direction": "sideways"})
    assert bad.status_code == 422
    other, other_token = await new_listener(bus, "lookup-other")
    stranger = Device(system, other, other_token, "x")
    assert (await stranger.client.get(phone.base + "/history/lookup")).status_code == 403
    for device in (phone, speaker, stranger):
        await device.close()


# ---- the device cookie: a token or a pairing code traded once, then nothing in a URL ----------


def cookie_attributes(response: httpx.Response) -> set[str]:
    (set_cookie,) = response.headers.get_list("set-cookie")
    return {part.strip().lower() for part in set_cookie.split(";")[1:]}


async def test_a_token_traded_for_a_device_cookie_opens_state_audio_and_events(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus, "cookie")
    base = f"/api/listeners/{listener}/books/b2"
    async with httpx.AsyncClient(base_url=system.http_url, timeout=20) as page:
        traded = await page.post("/api/session", headers={"Authorization": f"Bearer {token}"})
        assert traded.status_code == 200, traded.text
        timeout_s = float(system.env["BEDSIDE_REQUEST_TIMEOUT_S"])
        waits = {  # the player's own waits for an answer, told so the page waits longer
            "turn_timeout_ms": round(TURN_TIMEOUTS * timeout_s * 1000),
            "spoken_turn_timeout_ms": round((TURN_TIMEOUTS + LOADING_TIMEOUTS) * timeout_s * 1000),
        }
        assert traded.json() == {"listener": listener, "via": "device", **waits}
        attributes = cookie_attributes(traded)
        assert {"httponly", "samesite=strict", "path=/"} <= attributes
        assert "secure" not in attributes  # this page came over plain http (loopback)
        assert token not in traded.headers["set-cookie"]
        # From here on the cookie alone: no header, nothing in the URL.
        assert (await page.get("/api/session")).json() == {"listener": listener, "via": "device", **waits}
        assert (await page.get(base + "/state")).status_code == 200
        assert (await page.get("/api/books/b2/audio")).content == AUDIO
        async with page.stream("GET", base + "/events") as events:
            assert events.status_code == 200
            assert "position_ms" in await read_event(events.aiter_lines())
        other, _ = await new_listener(bus, "cookie-other")
        assert (await page.get(f"/api/listeners/{other}/books/b2/state")).status_code == 403
        # Forgotten: the cookie stops working, here and on any copy that reads it.
        assert (await page.delete("/api/session")).status_code == 204
        assert (await page.get(base + "/state")).status_code == 401


async def test_a_token_in_the_url_opens_nothing(system: RunningSystem, bus: Client) -> None:
    listener, token = await new_listener(bus, "query")
    async with httpx.AsyncClient(base_url=system.http_url) as anonymous:
        for path in (f"/api/listeners/{listener}/books/b2/state", "/api/books/b2/audio"):
            assert (await anonymous.get(path, params={"token": token})).status_code == 401


async def test_a_change_with_the_cookie_from_another_origin_is_refused(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus, "origin")
    base = f"/api/listeners/{listener}/books/b1"
    body = {"device": "phone", "position_ms": 5_000, "basis_seq": 0}
    async with httpx.AsyncClient(base_url=system.http_url, timeout=20) as page:
        await page.post("/api/session", headers={"Authorization": f"Bearer {token}"})
        before = await subject_seq(bus, listener)
        # Another web app on this host, another port: the same "site" to SameSite, not the same origin.
        elsewhere = await page.post(base + "/seek", json=body, headers={"Origin": "http://127.0.0.1:1"})
        assert elsewhere.status_code == 403
        assert await subject_seq(bus, listener) == before
        own = await page.post(base + "/seek", json=body, headers={"Origin": system.http_url})
        assert own.status_code == 200, own.text


async def test_a_pairing_code_pairs_one_device_once_and_not_after_it_expires(
    system: RunningSystem, bus: Client
) -> None:
    listener, _ = await new_listener(bus, "pair")
    listeners = await Listeners.open(bus.jetstream())
    code, _ = await listeners.create_pairing(listener)
    stale, _ = await listeners.create_pairing(listener, ttl_s=-1)
    async with (
        httpx.AsyncClient(base_url=system.http_url, timeout=20) as phone,
        httpx.AsyncClient(base_url=system.http_url, timeout=20) as thief,
    ):
        paired = await phone.post("/api/pair", json={"code": code})
        assert paired.status_code == 200, paired.text
        assert {"listener": listener, "via": "device"}.items() <= paired.json().items()
        assert {"httponly", "samesite=strict"} <= cookie_attributes(paired)
        assert (await phone.get(f"/api/listeners/{listener}/books/b1/state")).status_code == 200
        # Another site cannot pair this browser with a listener of its choosing (its own code).
        other, _ = await listeners.create_pairing(listener)
        foreign = await thief.post(
            "/api/pair", json={"code": other}, headers={"Origin": "http://127.0.0.1:1"}
        )
        assert foreign.status_code == 403
        assert "set-cookie" not in foreign.headers
        again = await thief.post("/api/pair", json={"code": code})
        assert again.status_code == 401
        assert code not in again.text
        assert (await thief.post("/api/pair", json={"code": stale})).status_code == 401
        assert (await thief.get(f"/api/listeners/{listener}/books/b1/state")).status_code == 401


async def test_of_two_devices_trading_one_code_at_once_one_is_paired(bus: Client) -> None:
    listener, _ = await new_listener(bus, "race")
    listeners = await Listeners.open(bus.jetstream())
    code, _ = await listeners.create_pairing(listener)
    results = await asyncio.gather(*(listeners.redeem_pairing(code) for _ in range(8)))
    assert results.count(listener) == 1
    assert results.count(None) == 7


async def test_no_page_or_reply_sends_a_referer_or_may_be_framed(system: RunningSystem) -> None:
    """Framed by another page on the same site (another port of the house's machine), the signed-in
    page could be clicked through unseen (a security review)."""
    async with httpx.AsyncClient(base_url=system.http_url) as anonymous:
        for path in ("/", "/main.js", "/api/books"):
            headers = (await anonymous.get(path)).headers
            assert headers["referrer-policy"] == "no-referrer"
            assert (headers["x-frame-options"], headers["content-security-policy"]) == (
                "DENY",
                "frame-ancestors 'none'",
            )


async def test_behind_a_local_https_proxy_the_cookie_is_secure(system: RunningSystem, bus: Client) -> None:
    """A reverse proxy on this machine terminates TLS and says so; the cookie must then be Secure."""
    _, token = await new_listener(bus, "proxied")
    async with httpx.AsyncClient(base_url=system.http_url) as proxy:
        traded = await proxy.post(
            "/api/session", headers={"Authorization": f"Bearer {token}", "X-Forwarded-Proto": "https"}
        )
        assert traded.status_code == 200, traded.text
        assert "secure" in cookie_attributes(traded)


async def test_a_sleep_timer_set_on_one_device_pauses_at_the_chapter_end_for_all(
    system: RunningSystem, bus: Client
) -> None:
    """The tablet sets "end of chapter"; the phone plays across the boundary and pauses; the
    tablet is pushed the timer and the asleep fact, and a replay of the stream agrees."""
    listener, token = await new_listener(bus, "sleep")
    phone, tablet = Device(system, listener, token, "phone"), Device(system, listener, token, "tablet")
    chapter_two_ms = 30 * 60_000
    stop_ms = chapter_two_ms - 1  # chapter 1's last millisecond
    basis = (await phone.report(chapter_two_ms - 100_000, 0)).json()["seq"]
    async with asyncio.timeout(30), tablet.client.stream("GET", tablet.base + "/events") as events:
        lines = events.aiter_lines()
        await read_event(lines)
        set_timer = await tablet.client.post(
            tablet.base + "/sleep-timer", json={"device": "tablet", "after": "chapter_end"}
        )
        assert set_timer.status_code == 200, set_timer.text
        pushed = await read_event(lines)
        assert pushed["sleep_timer"]["stop_at_ms"] == stop_ms
        assert pushed["sleep_timer"]["device"] == "tablet"
        basis = (await phone.report(chapter_two_ms + 10_000, pushed["seq"])).json()["seq"]
        await read_event(lines)
        # the stop stays where it was fixed after the position crossed into chapter 2
        assert (await phone.state())["sleep_timer"]["stop_at_ms"] == stop_ms
        ran_out = await phone.client.post(
            phone.base + "/sleep-timer/ran-out",
            json={"device": "phone", "position_ms": chapter_two_ms + 10_500, "basis_seq": basis},
        )
        assert ran_out.status_code == 200, ran_out.text
        paused = await read_event(lines)
    assert paused["position_ms"] == stop_ms
    assert paused["playing"] is False
    assert paused["sleep_timer"] is None
    assert paused["asleep"]["paused_at_ms"] == stop_ms
    assert paused["asleep"]["asleep_at_ms"] == chapter_two_ms - 100_000
    # the tablet ran it out too, late: one pause; a report from before the pause is stale
    again = await tablet.client.post(
        tablet.base + "/sleep-timer/ran-out",
        json={"device": "tablet", "position_ms": chapter_two_ms, "basis_seq": basis},
    )
    assert again.status_code == 200
    assert again.json()["seq"] == paused["seq"]
    assert (await tablet.report(chapter_two_ms + 20_000, basis)).status_code == 409
    # a device that was away learns it from the state, and a replay of the stream holds the same
    speaker = Device(system, listener, token, "speaker")
    live = await speaker.state()
    assert live["asleep"] == paused["asleep"]
    rebuilt, _ = await rebuild(bus)
    assert rebuilt.get(listener, "b1").public(wall_clock_ms()).model_dump(mode="json") == live
    for device in (phone, tablet, speaker):
        await device.close()


async def test_any_device_cancels_a_sleep_timer_and_a_bad_one_is_a_clear_422(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus, "sleepcancel")
    phone, speaker = Device(system, listener, token, "phone"), Device(system, listener, token, "speaker")
    await phone.report(60_000, 0)
    set_timer = await phone.client.post(phone.base + "/sleep-timer", json={"device": "phone", "after": 20})
    assert set_timer.json()["state"]["sleep_timer"]["stop_at_ms"] == 60_000 + 20 * 60_000
    cancelled = await speaker.client.post(speaker.base + "/sleep-timer/cancel", json={"device": "speaker"})
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["state"]["sleep_timer"] is None
    before = await subject_seq(bus, listener)
    for after in (0, 601, "chapter", None):
        bad = await phone.client.post(phone.base + "/sleep-timer", json={"device": "phone", "after": after})
        assert bad.status_code == 422, bad.text
    assert await subject_seq(bus, listener) == before
    await phone.close()
    await speaker.close()


async def test_a_book_made_is_told_served_once_search_serves_it_whole_not_its_interim_version(
    system: RunningSystem, bus: Client
) -> None:
    """A review: ingest records the job done as it hands search the whole book, and search serves it a
    moment later; meanwhile it served the interim version, so the page was told the book made was served
    and said "Ready." over a book still being made searchable."""
    states: dict[str, JobState] = {}

    async def jobs(msg: Msg) -> None:  # ingest's list of jobs, as it answers the player
        job = JobsRequest.model_validate_json(msg.data).job or ""
        request = IngestBook(path="/sent/b4.m4b", book="b4", job=job)
        made = IngestJob(job=job, request=request, state=states[job], book="b4")
        await msg.respond(JobList(jobs=[made]).model_dump_json().encode())

    ingest = await bus.subscribe(subjects.INGEST_JOBS, cb=jobs)
    _, token = await new_listener(bus, "adder")
    signed_in = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=system.http_url, headers=signed_in) as http:
        try:
            states.update({"making-b4": "running", "made-b4": "done"})
            making = (await http.get("/api/books/added/making-b4")).json()
            assert (making["state"], making["served"]) == ("running", True)  # its interim version plays
            made = (await http.get("/api/books/added/made-b4")).json()
            assert (made["state"], made["served"]) == ("done", False)
        finally:
            await ingest.unsubscribe()


async def test_a_bookmark_made_on_one_device_is_every_devices_and_survives_a_replay(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus, "bookmarks")
    phone, tablet = Device(system, listener, token, "phone"), Device(system, listener, token, "tablet")
    await phone.report(60_000, 0)
    made = await phone.client.post(
        phone.base + "/bookmarks", json={"device": "phone", "position_ms": 61_000, "title": "the storm"}
    )
    assert made.status_code == 200, made.text
    storm = made.json()["state"]["bookmarks"][0]
    assert (storm["at_ms"], storm["title"], storm["device"]) == (61_000, "the storm", "phone")
    later = await phone.client.post(
        phone.base + "/bookmarks", json={"device": "phone", "position_ms": 2_400_000}
    )
    assert later.status_code == 200, later.text
    # the other device is told (a state pushed or asked for), and the list says where each is
    assert [b["at_ms"] for b in (await tablet.state())["bookmarks"]] == [2_400_000, 61_000]
    listed = await tablet.client.get(tablet.base + "/bookmarks")
    assert listed.status_code == 200, listed.text
    chapters = SyntheticBook("b1").chapters()
    assert [(b["at_ms"], b["chapter"]) for b in listed.json()["bookmarks"]] == [
        (at, next(c.n for c in chapters if c.start_ms <= at < c.end_ms)) for at in (2_400_000, 61_000)
    ]
    rebuilt, _ = await rebuild(bus)
    replayed = rebuilt.get(listener, "b1").public(wall_clock_ms()).model_dump(mode="json")["bookmarks"]
    assert replayed == (await phone.state())["bookmarks"]
    # played from: a seek there, as a history row's, which undo goes back on
    state = await tablet.state()
    moved = await tablet.seek(storm["at_ms"], state["seq"])
    assert moved.json()["state"]["position_ms"] == 61_000, moved.text
    removed = await tablet.client.delete(tablet.base + f"/bookmarks/{storm['seq']}")
    assert removed.status_code == 200, removed.text
    assert [b["at_ms"] for b in (await phone.state())["bookmarks"]] == [2_400_000]
    again = await phone.client.delete(phone.base + f"/bookmarks/{storm['seq']}")
    assert again.status_code == 404, again.text
    await phone.close()
    await tablet.close()


async def test_a_bookmark_too_long_past_the_end_or_one_too_many_is_a_clear_4xx_and_appends_nothing(
    system: RunningSystem, bus: Client
) -> None:
    listener, token = await new_listener(bus, "bookmarkbad")
    phone = Device(system, listener, token, "phone", book="b2")  # b2 is an hour long
    await phone.report(60_000, 0)
    before = await subject_seq(bus, listener, "b2")
    for body, said in (
        ({"device": "phone", "position_ms": 60_000, "title": "x" * 81}, "title"),
        ({"device": "phone", "position_ms": 3_600_001}, "past the end"),
    ):
        bad = await phone.client.post(phone.base + "/bookmarks", json=body)
        assert bad.status_code == 422, bad.text
        assert said in bad.text
    assert await subject_seq(bus, listener, "b2") == before
    for n in range(MAX_BOOKMARKS_PER_BOOK):
        made = await phone.client.post(phone.base + "/bookmarks", json={"device": "phone", "position_ms": n})
        assert made.status_code == 200, made.text
    full = await phone.client.post(phone.base + "/bookmarks", json={"device": "phone", "position_ms": 5})
    assert full.status_code == 422, full.text
    assert "remove one" in full.json()["detail"]
    assert len((await phone.state())["bookmarks"]) == MAX_BOOKMARKS_PER_BOOK
    await phone.close()
