"""Every error reply of the HTTP API has one shape, ``ErrorReply``, and never echoes what was sent."""

from collections.abc import Sequence
from typing import Any

from bedside_contracts.player import ErrorReply, FieldError
from bedside_runtime.bus import failure_for
from bedside_runtime.errors import NoAnswer, ServiceError
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from nats.errors import Error as NatsError
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

STATUS = {
    "invalid": 422,
    "not_found": 404,
    "conflict": 409,
    "no_room": 507,
    "unavailable": 503,
    "internal": 500,
}
DOCUMENTED_ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorReply, "description": why}
    for status, why in {
        400: "a malformed request line or header",
        401: "no token, or a token of no listener",
        403: "the token belongs to another listener",
        404: "no such book or route",
        405: "the route does not take this method",
        413: "the request body is too large",
        422: "the request does not fit its schema",
        503: "a service behind the player is unavailable",
        507: "no room on the disk for the file sent",
        504: "a service behind the player did not answer in time",
    }.items()
}


def error_reply(status: int, detail: str, fields: list[FieldError] | None = None) -> JSONResponse:
    return JSONResponse(ErrorReply(detail=detail, fields=fields or []).model_dump(), status_code=status)


def field_errors(errors: Sequence[Any]) -> list[FieldError]:
    """The errors without ``input`` or ``ctx``: an error reply never echoes what was sent."""
    return [FieldError(loc=list(e["loc"]), msg=e["msg"], type=e["type"]) for e in errors]


def summary(fields: list[FieldError]) -> str:
    first = fields[0] if fields else None
    where = ".".join(str(part) for part in first.loc) if first else "request"
    return f"invalid request: {where}: {first.msg if first else 'does not fit its schema'}"


async def service_error(request: Request, error: ServiceError) -> JSONResponse:
    status = 504 if isinstance(error, NoAnswer) else STATUS.get(error.code, 500)
    return error_reply(status, error.message)


async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
    response = error_reply(error.status_code, str(error.detail))
    response.headers.update(error.headers or {})
    return response


NOT_SENT_AS_JSON = (
    "invalid request: the body was not sent as JSON; send it with 'Content-Type: application/json'"
)


def sent_as_other_than_json(request: Request, fields: list[FieldError]) -> bool:
    """Whether a body came as something else than JSON (``curl -d`` sends a form), which FastAPI does
    not read, and so says only that the body is no object."""
    kind = (request.headers.get("content-type") or "").partition(";")[0].strip().lower()
    unread = any(f.loc == ["body"] and f.type == "model_attributes_type" for f in fields)
    return unread and not (kind == "application/json" or kind.endswith("+json"))


async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    fields = field_errors(error.errors())
    detail = NOT_SENT_AS_JSON if sent_as_other_than_json(request, fields) else summary(fields)
    return error_reply(422, detail, fields)


async def invalid(request: Request, error: ValidationError) -> JSONResponse:
    return error_reply(422, failure_for(error).error, field_errors(error.errors()))


BUS_STALLED = "the bus is not answering just now; try again in a moment"
BUS_STALLED_WRITING = (
    "the bus did not answer, so whether this was done is not known; look at where the book is before "
    "trying again"
)


async def bus_stalled(request: Request, error: Exception) -> JSONResponse:
    """A read or write of the stream that the bus did not answer, said so. A write's outcome is not
    known (a timed-out append may have been stored), so trying it again blind could do it twice."""
    return error_reply(503, BUS_STALLED if request.method == "GET" else BUS_STALLED_WRITING)


HANDLERS: dict[int | type[Exception], Any] = {
    ServiceError: service_error,
    StarletteHTTPException: http_error,
    RequestValidationError: invalid_request,
    ValidationError: invalid,
    NatsError: bus_stalled,
    TimeoutError: bus_stalled,
}
