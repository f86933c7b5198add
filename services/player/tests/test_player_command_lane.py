"""The command lanes answer every report and seek exactly as the FastAPI routes do.

One player service in process on its own nats-server, and two apps over it: the app as
``build_api`` makes it, and the same app without the lanes. Each request goes to both, each
app acting for a listener of its own, and the answers must be the same but for the
listener's name and the stream's sequence numbers.
"""

import functools
import json
import re
import tempfile
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from pathlib import Path
from typing import Annotated, Any

import fastapi
import httpx
import pytest
from bedside_contracts.common import LONGEST_BOOK_MS
from bedside_contracts.player import PlayerCommand, ReportBody, Seek, SeekBody
from bedside_player.http_api import add_lane, build_api
from bedside_player.http_edge import BODY_LIMIT
from bedside_player.listeners import Listeners
from bedside_player.main import build_app
from bedside_player.routes import listening
from bedside_player.routes.command_lane import CommandLane, LaneDoesNotFit, is_json
from bedside_player.routes.deps import Caller, Own
from bedside_player.routes.listening import LISTENER_BOOK, report_of, run, seek_of
from bedside_player_testing import FakeSearch, SyntheticBook, lane_routes, without_the_lanes
from bedside_runtime.settings import Settings
from bedside_testing import start_test_nats
from fastapi import APIRouter, FastAPI, Header, Response
from nats.aio.client import Client as Nats
from pydantic import AfterValidator
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

JSON = {"content-type": "application/json"}
Request = tuple[str, dict[str, str], bytes | list[bytes]]
"""A path under the listener's book (or a whole path), its headers, its body (in pieces: sent
chunked, each piece its own ASGI message)."""


class Side:
    """One app, one listener of its own (and its device cookie), and the last seq it was told."""

    def __init__(self, app: FastAPI, listener: str, token: str) -> None:
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://player")
        self.listener = listener
        self.token = token
        self.cookie = ""
        self.seq = 0

    async def send(self, request: Request) -> httpx.Response:
        path, headers, content = request
        if not path.startswith("/"):
            path = f"/api/listeners/{self.listener}/books/b1/{path}"
        headers = {"authorization": f"Bearer {self.token}", **headers}
        if headers.get("cookie") == "DEVICE":
            del headers["authorization"]
            headers["cookie"] = f"bedside_device={self.cookie}"
        response = await self.client.post(path, headers=headers, content=pieces(content))
        if response.status_code == 200 and "seq" in response.json():
            self.seq = response.json()["seq"]
        return response

    def plain(self, response: httpx.Response) -> tuple[int, dict[str, str], Any]:
        """The answer with this side's listener and the stream's sequence numbers (in fields and in
        error texts) masked."""
        text = response.text.replace(self.listener, "LISTENER")
        headers = {k: v for k, v in response.headers.items() if k != "content-length"}
        return response.status_code, headers, mask_seqs(json.loads(text) if text else None)


def pieces(content: bytes | list[bytes]) -> bytes | AsyncIterator[bytes]:
    if isinstance(content, bytes):
        return content

    async def each() -> AsyncIterator[bytes]:
        for piece in content:
            yield piece

    return each()


def mask_seqs(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: masked(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_seqs(v) for v in value]
    return value


def masked(key: str, value: Any) -> Any:
    if key.endswith("seq") and isinstance(value, int) and value:
        return "SEQ"
    if key in ("detail", "error") and isinstance(value, str):
        return re.sub(r"\d+", "N", value)  # texts that name a sequence
    return mask_seqs(value)


def report(device: str = "phone", position_ms: int = 60_000, basis: int | None = None, **more: object) -> str:
    return json.dumps(
        {"device": device, "position_ms": position_ms, "playing": True, "basis_seq": basis, **more}
    )


CASES: list[Callable[[Side], Request]] = [
    lambda me: ("reports", JSON, report(basis=0).encode()),
    lambda me: ("reports", JSON, report(position_ms=61_000, basis=me.seq).encode()),
    lambda me: ("reports", JSON, report(position_ms=62_000, basis=me.seq, device_clock=1_700_000).encode()),
    lambda me: ("reports", JSON, report(device="tablet", basis=0).encode()),  # stale: 409 with the state
    lambda me: ("reports", JSON, report(position_ms=11 * 3600_000, basis=me.seq).encode()),  # past the end
    lambda me: ("reports", JSON, report(position_ms=-5, basis=me.seq).encode()),
    lambda me: ("reports", JSON, report(basis=me.seq + 50).encode()),  # a basis from the future
    lambda me: ("reports", JSON, report(device="a.b", basis=me.seq).encode()),
    lambda me: ("reports", JSON, report(basis=me.seq, extra=1).encode()),
    lambda me: (
        "reports",
        JSON,
        b'{"device": "phone", "position_ms": "63000", "playing": "true", "basis_seq": 0}',
    ),
    lambda me: ("reports", JSON, b"{not json"),
    lambda me: ("reports", JSON, b'{"device": "phone"}'),
    lambda me: ("reports", JSON, b"[1, 2]"),
    lambda me: ("reports", JSON, b""),
    lambda me: ("reports", JSON, b'{"device": "\xff"}'),
    lambda me: ("reports", JSON, b"[" * 2000),  # nested past the recursion limit
    lambda me: ("reports", {"content-type": "text/plain"}, report(basis=me.seq).encode()),
    lambda me: ("reports", {}, report(basis=me.seq).encode()),
    lambda me: (
        "reports",
        {"content-type": "application/json; charset=utf-8"},
        report(basis=me.seq).encode(),
    ),
    lambda me: (
        "reports",
        {"content-type": "application/json", "cookie": "DEVICE"},
        report(basis=me.seq).encode(),
    ),
    lambda me: (
        "reports",
        {**JSON, "cookie": "DEVICE", "origin": "http://elsewhere:1"},
        report(basis=0).encode(),
    ),
    lambda me: ("reports", JSON, b"x" * (BODY_LIMIT + 1)),
    lambda me: ("/api/listeners/other/books/b1/reports", JSON, report(basis=0).encode()),
    lambda me: ("/api/listeners/other/books/b1/reports", JSON, b"{not json"),
    lambda me: ("/api/listeners/nobody/books/b1/reports", JSON, report(basis=0).encode()),
    lambda me: (f"/api/listeners/{me.listener}/books/no-such-book/reports", JSON, report(basis=0).encode()),
    lambda me: (f"/api/listeners/{me.listener}/books/no-such-book/reports", JSON, b'{"device": "phone"}'),
    lambda me: (f"/api/listeners/{me.listener}/books/b.1/reports", JSON, report(basis=0).encode()),
    lambda me: (f"/api/listeners/{me.listener}/books/{'b' * 65}/reports", JSON, report(basis=0).encode()),
    lambda me: ("reports", JSON, [b'{"device": "phone", ', report(basis=me.seq).encode()[19:]]),
    lambda me: ("reports", JSON, [b"x" * BODY_LIMIT, b"x"]),
    lambda me: ("reports", JSON, report(position_ms=70_000, basis=me.seq).encode()),
]


def seek(position_ms: int = 120_000, basis: int | None = None, **more: object) -> str:
    return json.dumps({"device": "phone", "position_ms": position_ms, "basis_seq": basis, **more})


SEEK_CASES: list[Callable[[Side], Request]] = [
    lambda me: ("seek", JSON, seek(basis=me.seq).encode()),
    lambda me: ("seek", JSON, seek(position_ms=90_000, basis=me.seq, by_ms=-30_000).encode()),
    lambda me: ("seek", JSON, seek(basis=me.seq, device_clock=1_700_000).encode()),
    lambda me: ("seek", JSON, seek(basis=0).encode()),  # stale after a move: 409 with the state
    lambda me: ("seek", JSON, seek(position_ms=11 * 3600_000, basis=me.seq).encode()),  # past the end
    lambda me: ("seek", JSON, seek(position_ms=-5, basis=me.seq).encode()),
    lambda me: ("seek", JSON, seek(basis=me.seq, extra=1).encode()),
    lambda me: ("seek", JSON, b"{not json"),
    lambda me: ("seek", JSON, b'{"device": "phone"}'),
    lambda me: ("seek", {"content-type": "text/plain"}, seek(basis=me.seq).encode()),
    lambda me: ("seek", {**JSON, "cookie": "DEVICE"}, seek(basis=me.seq).encode()),
    lambda me: ("/api/listeners/other/books/b1/seek", JSON, seek(basis=0).encode()),
    lambda me: (f"/api/listeners/{me.listener}/books/no-such-book/seek", JSON, seek(basis=0).encode()),
    lambda me: ("seek", JSON, [b'{"device": "phone", ', seek(130_000, basis=me.seq).encode()[19:]]),
    lambda me: ("seek", JSON, seek(position_ms=100_000, basis=me.seq, from_ms=95_000).encode()),
    lambda me: (
        "seek",
        JSON,
        seek(position_ms=70_000, basis=me.seq, by_ms=-30_000, from_ms=101_000).encode(),
    ),
    lambda me: ("seek", JSON, seek(basis=me.seq, from_ms=-1).encode()),
    lambda me: ("seek", JSON, seek(basis=me.seq, from_ms=LONGEST_BOOK_MS + 1).encode()),
    lambda me: ("seek", JSON, seek(basis=me.seq, by_ms=LONGEST_BOOK_MS).encode()),  # past this book's end
    lambda me: ("seek", JSON, seek(basis=me.seq, by_ms=-LONGEST_BOOK_MS).encode()),  # before its start
    lambda me: ("seek", JSON, seek(basis=me.seq, by_ms=LONGEST_BOOK_MS + 1).encode()),
    lambda me: ("seek", JSON, seek(basis=me.seq, by_ms=-LONGEST_BOOK_MS - 1).encode()),
    lambda me: ("seek", JSON, seek(basis=me.seq, by_ms=1.5).encode()),
    lambda me: (f"/api/listeners/{me.listener}/books/b.1/seek", JSON, seek(basis=me.seq).encode()),
    lambda me: (f"/api/listeners/{me.listener}/books/{'b' * 65}/seek", JSON, seek(basis=me.seq).encode()),
    lambda me: ("/api/listeners/a.b/books/b1/seek", JSON, seek(basis=me.seq).encode()),
    lambda me: ("seek", JSON, seek(position_ms=140_000, basis=me.seq).encode()),
]
SEEK_LANE_ANSWERS = {0, 1, 2, 3, 4, 10, 12, 13, 14, 15, 18, 19, 26}
"""The seeks the lane answers itself, as for reports: those that fit (a move from where the device had
played to, a skip however far), refused by the rules or not, the device cookie's, an unknown book's
and a chunked one."""


class LaneSpy:
    """Counts the commands that reach a lane and those it hands to the route."""

    def __init__(self, route: Route, lane: CommandLane[Any]) -> None:
        self.entered = self.handed_on = 0
        self.lane = lane
        self.route = lane.full
        lane.full = self.hand_on
        route.app = self.enter

    async def enter(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.entered += 1
        await self.lane(scope, receive, send)

    async def hand_on(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.handed_on += 1
        await self.route(scope, receive, send)


LANE_ANSWERS = {0, 1, 2, 3, 4, 6, 9, 19, 25, 29, 31}
"""The cases the lane answers itself: reports that fit, for the caller's own listener, including
those the command refuses (stale, past the end, a basis from the future), the loosely typed
one the route accepts too, the device cookie's, an unknown book's and a chunked one. Every other
case is handed to the route, or refused by the edge before the lane."""


@pytest.fixture
async def sides() -> AsyncIterator[tuple[Side, Side, dict[str, LaneSpy]]]:
    server = start_test_nats("lane")
    settings = Settings(nats_url=server.url, data_dir=Path(tempfile.mkdtemp(prefix="bedside-lane-")))
    bus = Nats()
    await bus.connect(server.url)
    search = await FakeSearch(bus, [SyntheticBook("b1")]).start()
    app = build_app(settings)
    try:
        async with app.router.lifespan_context(app):
            registry = await Listeners.open(bus.jetstream(timeout=30))
            await registry.create("other")
            lane = Side(app, "lane", await registry.create("lane"))
            route_only = without_the_lanes(build_api(app.state.service))
            assert lane_routes(route_only) == {}
            route = Side(route_only, "route", await registry.create("route"))
            spies = {command: LaneSpy(*found) for command, found in lane_routes(app).items()}
            for side in (lane, route):
                traded = await side.client.post(
                    "/api/session", headers={"authorization": f"Bearer {side.token}"}
                )
                side.cookie = traded.cookies["bedside_device"]
            yield lane, route, spies
            for side in (lane, route):
                await side.client.aclose()
    finally:
        await search.stop()
        await bus.close()
        server.stop()


async def _answered_alike(
    lane: Side,
    route: Side,
    spy: LaneSpy,
    cases: Sequence[Callable[[Side], Request]],
    lane_answers: Collection[int],
) -> set[int]:
    """Sends each case to the app with its lane and to the app without: the answers must match, and the
    lane must answer exactly ``lane_answers`` (by their numbers). The statuses seen."""
    statuses = set()
    for number, case in enumerate(cases):
        entered, handed_on = spy.entered, spy.handed_on
        by_lane, by_route = await lane.send(case(lane)), await route.send(case(route))
        assert lane.plain(by_lane) == route.plain(by_route), (number, by_lane.text, by_route.text)
        answered_by_lane = spy.entered > entered and spy.handed_on == handed_on
        assert answered_by_lane == (number in lane_answers), number
        statuses.add(by_lane.status_code)
    return statuses


async def _position_alike(lane: Side, route: Side) -> int:
    """The state both apps hold after the same requests: the same; its position."""
    states = [
        await side.client.get(
            f"/api/listeners/{side.listener}/books/b1/state",
            headers={"authorization": f"Bearer {side.token}"},
        )
        for side in (lane, route)
    ]
    assert lane.plain(states[0]) == route.plain(states[1])
    position: int = states[0].json()["position_ms"]
    return position


async def test_the_lane_answers_as_the_route_does(sides: tuple[Side, Side, dict[str, LaneSpy]]) -> None:
    lane, route, spies = sides
    statuses = await _answered_alike(lane, route, spies["reports"], CASES, LANE_ANSWERS)
    assert statuses == {200, 400, 403, 404, 409, 413, 422}
    assert await _position_alike(lane, route) == 70_000


def test_the_first_content_type_decides_as_it_does_for_the_route() -> None:
    twice = [(b"content-type", b"text/plain"), (b"content-type", b"application/json")]
    assert not is_json({"headers": twice})
    assert is_json({"headers": list(reversed(twice))})
    assert not is_json({"headers": []})


async def test_the_seeks_lane_answers_as_the_route_does(sides: tuple[Side, Side, dict[str, LaneSpy]]) -> None:
    lane, route, spies = sides
    for side in (lane, route):
        await side.send(CASES[0](side))
    assert "seek" in spies, "the seek has no lane"
    statuses = await _answered_alike(lane, route, spies["seek"], SEEK_CASES, SEEK_LANE_ANSWERS)
    assert statuses == {200, 403, 404, 409, 422}
    assert await _position_alike(lane, route) == 140_000


odd = APIRouter(prefix=LISTENER_BOOK)
"""Seek routes that take something more than, or other than, what the seek's lane reads."""


@odd.post("/seek-gently")
async def seek_with_a_query(own: Own, body: SeekBody, gently: bool = False) -> Response:
    return await run(own, seek_of(body))


@odd.post("/seek-as-caller")
async def seek_with_a_dependency(own: Own, caller: Caller, body: SeekBody) -> Response:
    return await run(own, seek_of(body))


@odd.post("/seek-with-header")
async def seek_with_a_header(own: Own, body: SeekBody, x_gently: Annotated[str, Header()] = "") -> Response:
    return await run(own, seek_of(body))


@odd.post("/seek-with-request")
async def seek_with_the_request(own: Own, body: SeekBody, request: fastapi.Request) -> Response:
    return await run(own, seek_of(body))


@odd.post("/seek-optional")
async def seek_with_an_optional_body(own: Own, body: SeekBody | None = None) -> Response:
    return await run(own, seek_of(body or SeekBody(device="phone", position_ms=0, basis_seq=None)))


@odd.post("/seek-made-here")
async def seek_made_its_own_way(own: Own, body: SeekBody) -> Response:
    return await run(own, Seek(**body.model_dump()))


def not_from_the_kitchen(body: SeekBody) -> SeekBody:
    if body.device == "kitchen":
        raise ValueError("the kitchen's device does not seek")
    return body


@odd.post("/seek-checked")
async def seek_with_a_check_of_its_own(
    own: Own, body: Annotated[SeekBody, AfterValidator(not_from_the_kitchen)]
) -> Response:
    return await run(own, seek_of(body))


@odd.post("/seek-embedded")
async def seek_embedded(own: Own, body: Annotated[SeekBody, fastapi.Body(embed=True)]) -> Response:
    return await run(own, seek_of(body))


@odd.put("/seek-put")
async def seek_put(own: Own, body: SeekBody) -> Response:
    return await run(own, seek_of(body))


seek_in_part = functools.partial(listening.seek)
odd.add_api_route("/seek-in-part", seek_in_part, methods=["POST"])

elsewhere = APIRouter(prefix="/api/listeners/{who}/books/{book}")


@elsewhere.post("/seek")
async def seek_for_whom(who: str, book: str, body: SeekBody) -> Response:
    return Response(seek_of(body).model_dump_json())


def seek_twice(body: SeekBody) -> PlayerCommand:
    return Seek(**body.model_dump(exclude_none=True))


class SeekOf:
    """A command made by an object, not a function: nothing to read its hints or its name from."""

    def __call__(self, body: SeekBody) -> PlayerCommand:
        return seek_of(body)


MISFITS: list[tuple[Callable[..., Any], type[Any], Callable[[Any], PlayerCommand], str]] = [
    (listening.seek, ReportBody, report_of, "ReportBody"),
    (listening.seek, SeekBody, report_of, "report_of"),
    (listening.seek, SeekBody, seek_twice, "seek_twice"),
    (seek_with_a_query, SeekBody, seek_of, "gently"),
    (seek_with_a_dependency, SeekBody, seek_of, "caller_of"),
    (seek_with_a_header, SeekBody, seek_of, "x_gently"),
    (seek_with_the_request, SeekBody, seek_of, "request"),
    (seek_with_an_optional_body, SeekBody, seek_of, "SeekBody | None"),
    (seek_made_its_own_way, SeekBody, seek_of, "seek_of"),
    (seek_for_whom, SeekBody, seek_of, "'who'"),
    (seek_with_a_check_of_its_own, SeekBody, seek_of, "not_from_the_kitchen"),
    (seek_embedded, SeekBody, seek_of, "SeekBody (embedded)"),
    (seek_put, SeekBody, seek_of, "PUT"),
    (listening.seek, SeekBody, functools.partial(seek_of), "partial"),
    (listening.seek, SeekBody, SeekOf(), "SeekOf"),
    (seek_in_part, SeekBody, seek_of, "seek_of and functools.partial"),
]


def routes_app() -> FastAPI:
    app = FastAPI()
    app.state.service = None  # the lanes are built, never called
    for router in (listening.router, odd, elsewhere):
        app.router.routes.extend(router.routes)
    return app


@pytest.mark.parametrize(("endpoint", "model", "command_of", "named"), MISFITS)
def test_a_lane_that_does_not_fit_its_route_stops_the_app_being_built(
    endpoint: Callable[..., Any], model: type[Any], command_of: Callable[[Any], PlayerCommand], named: str
) -> None:
    with pytest.raises(LaneDoesNotFit, match=re.escape(named)):
        add_lane(routes_app(), endpoint, model, command_of)


def test_the_lanes_fit_their_routes() -> None:
    app = routes_app()
    add_lane(app, listening.report, ReportBody, report_of)
    add_lane(app, listening.seek, SeekBody, seek_of)
    assert set(lane_routes(app)) == {"reports", "seek"}
