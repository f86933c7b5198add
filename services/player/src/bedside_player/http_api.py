"""The HTTP API for devices (everything under /api) and the device page at /.

Thin: the edge layers prove the credential and bound the body, the routers (``routes``)
check the path against the caller, hand a command to the player and shape the reply. A
credential reaches only its own listener: every listener path is checked against it.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bedside_contracts.ingest import UPLOAD_MAX_BYTES
from bedside_contracts.player import PlayerCommand, ReportBody, SeekBody
from bedside_contracts.turn import SPOKEN_ASK_MAX_BYTES
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.routing import Route

from bedside_player.http_edge import Authenticate, LimitBody, PageHeaders
from bedside_player.routes import API_ROUTERS, adding, fallback, listening, session, turns
from bedside_player.routes.command_lane import Body, CommandLane, check_fits
from bedside_player.routes.errors import HANDLERS
from bedside_player.service import Service

WEB_DIR = Path(__file__).parent / "web"
OPENAPI_PATH = "/api/openapi.json"
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}


def add_lane(
    app: FastAPI, endpoint: Callable[..., Any], model: type[Body], command_of: Callable[[Body], PlayerCommand]
) -> None:
    """The lane goes first of all routes (its command is matched before anything else); the
    command's FastAPI route stays for the OpenAPI document and every request the lane hands on.
    A lane that does not fit its route stops the app being built (``LaneDoesNotFit``)."""
    full = next(r for r in app.router.routes if isinstance(r, APIRoute) and r.endpoint is endpoint)
    check_fits(full, model, command_of)
    lane = CommandLane(full.app, app.state.service, model, command_of)
    app.router.routes.insert(0, Route(full.path, lane, methods=["POST"], include_in_schema=False))


def add_command_lanes(app: FastAPI) -> None:
    """The report, most of the traffic (ADR 40), and the seek, the move whose push to the other
    devices is waited for (issue 16's move -> push)."""
    add_lane(app, listening.report, ReportBody, listening.report_of)
    add_lane(app, listening.seek, SeekBody, listening.seek_of)


def build_api(service: Service) -> FastAPI:
    app = FastAPI(
        title="Bedside player",
        description="One listening position shared by every device, the list on the screen, and turns.",
        docs_url="/docs",
        openapi_url=OPENAPI_PATH,
        exception_handlers=HANDLERS,
        # Bedside exports no OpenTelemetry; left on, FastAPI looks for a provider on every request.
        telemetry=NO_TELEMETRY,
    )
    app.state.service = service
    larger = {turns.SPOKEN_SUFFIX: SPOKEN_ASK_MAX_BYTES, adding.UPLOADS_PATH: UPLOAD_MAX_BYTES}
    app.add_middleware(LimitBody, larger=larger)
    app.add_middleware(Authenticate, owners=service, open_paths=frozenset({OPENAPI_PATH, session.PAIR_PATH}))
    app.add_middleware(PageHeaders)
    # The routes go onto the app itself: an included router is one more layer of matching
    # on every request (ADR 27). The fallback's catch-all under /api comes after them all.
    for router in (*API_ROUTERS, fallback.router):
        app.router.routes.extend(router.routes)
    add_command_lanes(app)
    app.mount("/", StaticFiles(directory=WEB_DIR, html=True, check_dir=False), name="page")
    return app
