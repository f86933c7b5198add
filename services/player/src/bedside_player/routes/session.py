"""Who a device is: a token or a pairing code traded for a device cookie, and the cookie revoked (ADR 22)."""

from typing import Literal

from bedside_contracts.player import PairBody, Session
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from bedside_player.http_edge import DEVICE_COOKIE
from bedside_player.routes.deps import Bedside
from bedside_player.routes.errors import DOCUMENTED_ERRORS
from bedside_player.routes.turns import turn_timeout_s
from bedside_player.service import Service

SESSION_PATH = "/api/session"
PAIR_PATH = "/api/pair"
DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 3600
JSON = "application/json"

router = APIRouter(responses=DOCUMENTED_ERRORS)


def session_of(listener: str, via: Literal["token", "device"], service: Service) -> Session:
    return Session(
        listener=listener,
        via=via,
        turn_timeout_ms=round(turn_timeout_s(service.settings) * 1000),
        spoken_turn_timeout_ms=round(turn_timeout_s(service.settings, spoken=True) * 1000),
    )


def caller_of(request: Request, service: Service) -> Session:
    return session_of(request.state.caller, request.state.caller_via, service)


def with_device_cookie(request: Request, session: Session, credential: str) -> Response:
    """HttpOnly so no script on the page can read it; Secure whenever the page came over HTTPS."""
    response = Response(session.model_dump_json(), media_type=JSON)
    response.set_cookie(
        DEVICE_COOKIE,
        credential,
        max_age=DEVICE_COOKIE_MAX_AGE_S,
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return response


@router.get(SESSION_PATH, response_model=Session)
async def session(request: Request, service: Bedside) -> Session:
    """Who this request acts for: what the page asks once it has a cookie and no name."""
    return caller_of(request, service)


@router.post(SESSION_PATH, response_model=Session)
async def trade_token(request: Request, service: Bedside) -> Response:
    """The listener token in the Authorization header, traded for a device cookie."""
    current = caller_of(request, service)
    if current.via == "device":
        return Response(current.model_dump_json(), media_type=JSON)
    credential = await service.listeners.issue_device(current.listener)
    return with_device_cookie(request, current.model_copy(update={"via": "device"}), credential)


@router.delete(SESSION_PATH, status_code=204, response_class=Response)
async def forget_device(request: Request, service: Bedside) -> Response:
    """This device's credential stops working (a token is left as it is)."""
    response = Response(status_code=204)
    if request.state.caller_via == "device":
        await service.listeners.revoke_device(request.state.credential)
        response.delete_cookie(DEVICE_COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.post(PAIR_PATH, response_model=Session)
async def pair(request: Request, body: PairBody, service: Bedside) -> Response:
    """A one-time pairing code (``bedside pair``), traded for a device cookie; no token needed."""
    listener = await service.listeners.redeem_pairing(body.code)
    if listener is None:
        raise HTTPException(
            401, "this pairing code is unknown, used or expired: `bedside pair` makes another"
        )
    credential = await service.listeners.issue_device(listener)
    return with_device_cookie(request, session_of(listener, "device", service), credential)
