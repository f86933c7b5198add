"""CPU of one HTTP report inside the player's app: edge layers, routing, the ``Own``
dependency, body validation and the reply, with the player's decision replaced by a fixed
answer. ``.venv/bin/python -m bench.player_routing``

Four apps take the same ASGI request in turns, in one process: the app as ``build_api``
makes it (routes put onto the app, the report answered by its lane), the same without the
lane (the report through its FastAPI route), the same routers added with ``include_router``
(FastAPI then matches each included router as one more layer), and the floor: a bare
FastAPI app whose one route returns the same bytes, without edge layers or dependencies.
"""

import asyncio
import json
import time
from collections.abc import Callable, Coroutine
from typing import Any

from bedside_contracts.player import Accepted, ListenerState
from bedside_contracts.search import BookInfo
from bedside_contracts.turn import SPOKEN_ASK_MAX_BYTES
from bedside_player.http_api import OPENAPI_PATH, build_api
from bedside_player.http_edge import Authenticate, LimitBody, PageHeaders
from bedside_player.routes import API_ROUTERS, fallback, session, turns
from bedside_player.routes.errors import HANDLERS
from bedside_player.service import Service
from bedside_player_testing import without_the_lanes
from bedside_runtime.settings import Settings
from fastapi import FastAPI
from fastapi.responses import Response

from bench.report import Figure, report

REQUESTS = 2000
ROUNDS = 10
LISTENER, BOOK_ID = "me", "b"
PATH = f"/api/listeners/{LISTENER}/books/{BOOK_ID}/reports"
BODY = json.dumps({"device": "phone", "position_ms": 1000, "playing": True, "basis_seq": 3}).encode()
BOOK = BookInfo(id=BOOK_ID, title="B", duration_ms=3_600_000, estimated=False, passages=10, chapters=[])
STATE = ListenerState(listener=LISTENER, book=BOOK_ID, position_ms=1000, playing=True, seq=7, last_move_seq=0)
App = Callable[[dict[str, Any], Any, Any], Coroutine[Any, Any, None]]


class Decided:
    accepted = True
    seq = STATE.seq
    reason = ""
    state = STATE


class OneBook:
    async def get(self, book: str) -> BookInfo:
        return BOOK


class Owners(Service):
    """The service with a fixed token owner, book and decision: only the HTTP layers run."""

    def __init__(self) -> None:
        super().__init__(None, Settings())  # type: ignore[arg-type]  # no broker: nothing leaves
        self.books = OneBook()  # type: ignore[assignment]

    async def listener_for(self, token: str) -> str | None:
        return LISTENER

    async def command(self, *_: object) -> Decided:  # type: ignore[override]
        return Decided()


def included(service: Service) -> FastAPI:
    """The shape not chosen: the same routers, included."""
    app = FastAPI(openapi_url=OPENAPI_PATH, exception_handlers=HANDLERS)
    app.state.service = service
    app.add_middleware(LimitBody, larger={turns.SPOKEN_SUFFIX: SPOKEN_ASK_MAX_BYTES})
    app.add_middleware(Authenticate, owners=service, open_paths=frozenset({OPENAPI_PATH, session.PAIR_PATH}))
    app.add_middleware(PageHeaders)
    for router in (*API_ROUTERS, fallback.router):
        app.include_router(router)
    return app


def bare() -> FastAPI:
    app = FastAPI()
    reply = Accepted(seq=STATE.seq, state=STATE).model_dump_json()

    @app.post(PATH)
    async def report(body: dict[str, Any]) -> Response:
        return Response(reply, media_type="application/json")

    return app


async def one(app: App) -> int:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": BODY, "more_body": False}

    status: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": PATH,
        "raw_path": PATH.encode(),
        "query_string": b"",
        "root_path": "",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1),
        "headers": [
            (b"host", b"bench"),
            (b"authorization", b"Bearer bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(BODY)).encode()),
        ],
    }
    await app(scope, receive, send)
    return status[0]


async def cpu_per_request(apps: dict[str, App]) -> dict[str, float]:
    """The median over rounds of process CPU per request, in µs; the apps alternate."""
    runs: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(ROUNDS):
        for name, app in apps.items():
            assert await one(app) == 200, name
            started = time.process_time()
            for _ in range(REQUESTS):
                await one(app)
            runs[name].append((time.process_time() - started) / REQUESTS * 1e6)
    return {name: sorted(values)[len(values) // 2] for name, values in runs.items()}


def main() -> None:
    apps: dict[str, App] = {
        "built": build_api(Owners()),
        "no lane": without_the_lanes(build_api(Owners())),
        "included": included(Owners()),
        "bare": bare(),
    }
    cpu = asyncio.run(cpu_per_request(apps))
    report(
        [
            Figure("player HTTP report in process, CPU, as built", cpu["built"], "µs", floor=cpu["bare"]),
            Figure(
                "player HTTP report in process, CPU, without the command lanes",
                cpu["no lane"],
                "µs",
                floor=cpu["bare"],
            ),
            Figure(
                "player HTTP report in process, CPU, routers included",
                cpu["included"],
                "µs",
                floor=cpu["bare"],
            ),
        ]
    )


if __name__ == "__main__":
    main()
