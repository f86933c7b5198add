"""What no other route takes: under /api a 405 or a 404, never the page; and the local CA's certificate."""

from bedside_contracts.player import ErrorReply
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse
from starlette.routing import Match

from bedside_player.http_edge import API_PREFIX
from bedside_player.lan import LanFiles
from bedside_player.routes.deps import Bedside
from bedside_player.routes.errors import error_reply

CA_PATH = "/bedside-ca.crt"
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

router = APIRouter(include_in_schema=False)


def allowed_methods(request: Request) -> list[str]:
    """The methods of the app's routes whose path matches this request's (two routes share the
    report's path: its lane and the route)."""
    return sorted(
        {
            method
            for route in request.app.router.routes
            if route.matches(request.scope)[0] is Match.PARTIAL
            for method in getattr(route, "methods", None) or ()
        }
    )


@router.api_route(API_PREFIX + "{rest:path}", methods=ANY_METHOD)
async def no_such_route(request: Request) -> JSONResponse:
    """Under /api nothing falls through to the page: a wrong method is 405, a wrong path 404."""
    allowed = allowed_methods(request)
    if allowed:
        return JSONResponse(
            ErrorReply(detail=f"{request.method} is not allowed here").model_dump(),
            status_code=405,
            headers={"Allow": ", ".join(allowed)},
        )
    return error_reply(404, "there is no such API route")


@router.api_route(CA_PATH, methods=["GET", "HEAD"])
async def local_authority(service: Bedside) -> FileResponse:
    """The public certificate of ``bedside up --lan``'s authority, for a phone to install."""
    path = LanFiles(service.settings.lan_dir).ca_cert
    if not path.is_file():
        raise HTTPException(404, "this Bedside has no local certificate authority (see `bedside up --lan`)")
    return FileResponse(path, media_type="application/x-x509-ca-cert", filename="bedside-ca.crt")
