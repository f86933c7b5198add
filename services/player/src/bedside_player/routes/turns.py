"""Questions, typed or said aloud, handed to the turn service with the position the player holds."""

from typing import Annotated, Any

from bedside_contracts import subjects
from bedside_contracts.common import Name
from bedside_contracts.player import TurnBody
from bedside_contracts.turn import SPOKEN_ASK_MAX_BYTES, Ask, SpokenAsk, SpokenTurnReply, TurnReply
from bedside_runtime.bus import call
from bedside_runtime.clock import ms_from_now, wall_clock_ms
from bedside_runtime.settings import Settings
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from starlette.requests import ClientDisconnect

from bedside_player.routes.deps import Own
from bedside_player.routes.errors import DOCUMENTED_ERRORS, error_reply
from bedside_player.routes.listening import LISTENER_BOOK

TURN_TIMEOUTS = 3
"""A turn may call Claude and search several times: it gets three ordinary request timeouts."""
LOADING_TIMEOUTS = 2
"""The first spoken question also loads the recogniser: it gets two timeouts more."""


def turn_timeout_s(settings: Settings, *, spoken: bool = False) -> float:
    """How long a question's answer is waited for here: the page is told it (``Session``)."""
    return (TURN_TIMEOUTS + (LOADING_TIMEOUTS if spoken else 0)) * settings.request_timeout_s


SPOKEN_SUFFIX = "/turns/spoken"
WAV_TYPES = frozenset({"audio/wav", "audio/x-wav", "audio/wave"})
WAV_HEADER_BYTES = 44
SPOKEN_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": f"a 16-bit PCM WAV recording of the question, at most {SPOKEN_ASK_MAX_BYTES} bytes",
        "content": {"audio/wav": {"schema": {"type": "string", "format": "binary"}}},
    }
}

router = APIRouter(prefix=LISTENER_BOOK, responses=DOCUMENTED_ERRORS)


@router.post("/turns", response_model=TurnReply)
async def turn(own: Own, body: TurnBody) -> TurnReply:
    service = own.service
    here = await service.state(own.listener, own.book.id)  # the player has the position
    timeout = turn_timeout_s(service.settings)
    question = Ask(
        listener=own.listener,
        book=own.book.id,
        utterance=body.utterance,
        device=body.device,
        here_ms=here.position_ms,
        basis_seq=here.seq,  # another device's move after this was not known when it was asked
        asked_at_ms=wall_clock_ms(),  # the player's clock, as a move's made_at_ms is stamped (ADR 77)
        answer_by_ms=ms_from_now(timeout),  # the page stops waiting then
    )
    return await call(service.broker.connection, subjects.TURN_ASK, question, TurnReply, timeout_s=timeout)


def wav_kind(request: Request) -> str:
    return (request.headers.get("content-type") or "").partition(";")[0].strip().lower()


@router.post(SPOKEN_SUFFIX, response_model=SpokenTurnReply, openapi_extra=SPOKEN_BODY)
async def spoken_turn(
    own: Own,
    request: Request,
    device: Annotated[
        Name | None, Query(description="the device that heard it, as a typed question's")
    ] = None,
) -> SpokenTurnReply | JSONResponse:
    """A question said aloud: the turn service transcribes it offline, then answers it."""
    if wav_kind(request) not in WAV_TYPES:
        return error_reply(422, "the recording must be sent as audio/wav")
    try:
        recording = await request.body()  # bounded by LimitBody before it is read
    except ClientDisconnect:  # LimitBody stopped the body midway and answers 413 itself
        return error_reply(413, "the recording is too large")
    if len(recording) < WAV_HEADER_BYTES:
        return error_reply(422, "the recording is too short to be a WAV")
    service = own.service
    here = await service.state(own.listener, own.book.id)
    timeout = turn_timeout_s(service.settings, spoken=True)
    question = SpokenAsk(
        listener=own.listener,
        book=own.book.id,
        wav=recording,
        device=device,
        here_ms=here.position_ms,
        basis_seq=here.seq,  # another device's move after this was not known when it was asked
        asked_at_ms=wall_clock_ms(),  # the player's clock, as a move's made_at_ms is stamped (ADR 77)
        answer_by_ms=ms_from_now(timeout),  # the page stops waiting then
    )
    return await call(
        service.broker.connection, subjects.TURN_ASK_SPOKEN, question, SpokenTurnReply, timeout_s=timeout
    )
