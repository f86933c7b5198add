"""The HTTP API for devices (everything under /api) and the device page at /.

Thin: authenticate, check the book, hand a command to the player, shape the reply.
A token reaches only its own listener: every listener path is checked against it.
"""

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from bedside_contracts import subjects
from bedside_contracts.common import NAME_PATTERN
from bedside_contracts.player import (
    Accepted,
    BookView,
    CancelList,
    CancelSleepTimer,
    ChapterView,
    CommandResult,
    DeviceBody,
    ErrorReply,
    FieldError,
    History,
    HistoryRequest,
    JoinBody,
    JoinDevice,
    ListenerState,
    Located,
    LocateFilter,
    LocateRequest,
    PairBody,
    PlayerCommand,
    PressBody,
    PressRow,
    RefusedReply,
    Report,
    ReportBody,
    Seek,
    SeekBody,
    Session,
    SetSleepTimer,
    SleepTimerBody,
    TimerRanOut,
    TimerRanOutBody,
    TurnBody,
    Undo,
)
from bedside_contracts.search import BookInfo
from bedside_contracts.turn import SPOKEN_ASK_MAX_BYTES, Ask, SpokenAsk, SpokenTurnReply, TurnReply
from bedside_guard import ahead_of
from bedside_runtime.bus import call, failure_for
from bedside_runtime.errors import NoAnswer, ServiceError
from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import Match

from bedside_player.audio import audio_media_type
from bedside_player.http_edge import API_PREFIX, DEVICE_COOKIE, Authenticate, LimitBody, PageHeaders
from bedside_player.lan import LanFiles
from bedside_player.service import Service

WEB_DIR = Path(__file__).parent / "web"
TURN_TIMEOUTS = 3
"""A turn may call Claude and search several times: it gets three ordinary request timeouts."""
JSON = "application/json"
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
STATUS = {"invalid": 422, "not_found": 404, "conflict": 409, "unavailable": 503, "internal": 500}


@dataclass(frozen=True)
class Target:
    """A listener the caller's token owns, and a book that exists."""

    listener: str
    book: BookInfo


OPENAPI_PATH = "/api/openapi.json"
SPOKEN_SUFFIX = "/turns/spoken"
WAV_TYPES = frozenset({"audio/wav", "audio/x-wav", "audio/wave"})
SPOKEN_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": f"a 16-bit PCM WAV recording of the question, at most {SPOKEN_ASK_MAX_BYTES} bytes",
        "content": {"audio/wav": {"schema": {"type": "string", "format": "binary"}}},
    }
}
WAV_HEADER_BYTES = 44
SESSION_PATH = "/api/session"
PAIR_PATH = "/api/pair"
CA_PATH = "/bedside-ca.crt"
DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 3600
DOCUMENTED_ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorReply, "description": why}
    for status, why in {
        400: "a malformed request line or header",
        401: "no token, or a token of no listener",
        403: "the token belongs to another listener",
        404: "no such listener, book or route",
        405: "the route does not take this method",
        413: "the request body is too large",
        422: "the request does not fit its schema",
        503: "a service behind the player is unavailable",
        504: "a service behind the player did not answer in time",
    }.items()
}
SSE_RESPONSE: dict[int | str, dict[str, object]] = {
    200: {
        "description": "server-sent events: the state at once, then every change",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}
ListenerName = Annotated[str, PathParam(pattern=NAME_PATTERN)]
BookId = Annotated[str, PathParam(pattern=NAME_PATTERN)]


def error_reply(status: int, detail: str, fields: list[FieldError] | None = None) -> JSONResponse:
    return JSONResponse(ErrorReply(detail=detail, fields=fields or []).model_dump(), status_code=status)


def field_errors(errors: Sequence[Any]) -> list[FieldError]:
    """The errors without ``input`` or ``ctx``: an error reply never echoes what was sent."""
    return [FieldError(loc=list(e["loc"]), msg=e["msg"], type=e["type"]) for e in errors]


def summary(fields: list[FieldError]) -> str:
    first = fields[0] if fields else None
    where = ".".join(str(part) for part in first.loc) if first else "request"
    return f"invalid request: {where}: {first.msg if first else 'does not fit its schema'}"


def build_api(service: Service) -> FastAPI:  # noqa: PLR0915 (one route table, read top to bottom)
    app = FastAPI(
        title="Bedside player",
        description="One listening position shared by every device, the list on the screen, and turns.",
        docs_url="/docs",
        openapi_url=OPENAPI_PATH,
        responses=DOCUMENTED_ERRORS,
    )
    app.add_middleware(LimitBody, larger={SPOKEN_SUFFIX: SPOKEN_ASK_MAX_BYTES})
    app.add_middleware(Authenticate, owners=service, open_paths=frozenset({OPENAPI_PATH, PAIR_PATH}))
    app.add_middleware(PageHeaders)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        status = 504 if isinstance(error, NoAnswer) else STATUS.get(error.code, 500)
        return error_reply(status, error.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        response = error_reply(error.status_code, str(error.detail))
        response.headers.update(error.headers or {})
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        fields = field_errors(error.errors())
        return error_reply(422, summary(fields), fields)

    @app.exception_handler(ValidationError)
    async def invalid(request: Request, error: ValidationError) -> JSONResponse:
        return error_reply(422, failure_for(error).error, field_errors(error.errors()))

    def caller_of(request: Request) -> str:
        """The listener whose token the request carries (``Authenticate`` found it)."""
        caller: str = request.state.caller
        return caller

    async def known_book(book: BookId) -> BookInfo:
        return await service.books.get(book)

    async def listener_book(listener: ListenerName, book: BookId, request: Request) -> Target:
        """Token, then listener (403 for another's, 404 for none), then book: one dependency.

        One FastAPI dependency per check (four per request) cost more of a report's CPU
        than deciding and appending it; the checks and their order are the same here.
        """
        caller = caller_of(request)
        if listener != caller:
            if await service.listeners.record(listener) is None:
                raise HTTPException(404, "there is no such listener")
            raise HTTPException(403, "this token belongs to another listener")
        return Target(listener, await known_book(book))

    def session_of(request: Request) -> Session:
        return Session(listener=caller_of(request), via=request.state.caller_via)

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

    Caller = Annotated[str, Depends(caller_of)]  # noqa: N806
    Book = Annotated[BookInfo, Depends(known_book)]  # noqa: N806
    Own = Annotated[Target, Depends(listener_book)]  # noqa: N806

    def view(book: BookInfo, here_ms: int | None) -> BookView:
        chapters = (
            []
            if here_ms is None
            else [
                ChapterView(
                    n=c.n,
                    start_ms=c.start_ms,
                    end_ms=c.end_ms,
                    title=None if ahead_of(c.start_ms, here_ms) else c.title,
                )
                for c in book.chapters
            ]
        )
        return BookView(
            id=book.id,
            title=book.title,
            author=book.author,
            narrator=book.narrator,
            duration_ms=book.duration_ms,
            has_audio=book.audio_path is not None,
            has_cover=book.cover_path is not None,
            estimated=book.estimated,
            chapters=chapters,
        )

    async def run(target: Target, command: PlayerCommand) -> Response:
        book = target.book
        result: CommandResult = await service.player.command(
            target.listener, book.id, command, book.duration_ms, book.chapters
        )
        # serialised by pydantic-core straight to bytes, not through a dict and json.dumps
        if not result.accepted:
            refused = RefusedReply(error=result.reason, state=result.state)
            return Response(refused.model_dump_json(), status_code=409, media_type=JSON)
        return Response(Accepted(seq=result.seq, state=result.state).model_dump_json(), media_type=JSON)

    responses: dict[int | str, dict[str, object]] = {409: {"model": RefusedReply}}

    @app.get(SESSION_PATH, response_model=Session)
    async def session(request: Request) -> Session:
        """Who this request acts for: what the page asks once it has a cookie and no name."""
        return session_of(request)

    @app.post(SESSION_PATH, response_model=Session)
    async def trade_token(request: Request) -> Response:
        """The listener token in the Authorization header, traded for a device cookie."""
        current = session_of(request)
        if current.via == "device":
            return Response(current.model_dump_json(), media_type=JSON)
        credential = await service.listeners.issue_device(current.listener)
        return with_device_cookie(request, Session(listener=current.listener, via="device"), credential)

    @app.delete(SESSION_PATH, status_code=204, response_class=Response)
    async def forget_device(request: Request) -> Response:
        """This device's credential stops working (a token is left as it is)."""
        response = Response(status_code=204)
        if request.state.caller_via == "device":
            await service.listeners.revoke_device(request.state.credential)
            response.delete_cookie(DEVICE_COOKIE, path="/", httponly=True, samesite="strict")
        return response

    @app.post(PAIR_PATH, response_model=Session)
    async def pair(request: Request, body: PairBody) -> Response:
        """A one-time pairing code (``bedside pair``), traded for a device cookie; no token needed."""
        listener = await service.listeners.redeem_pairing(body.code)
        if listener is None:
            raise HTTPException(
                401, "this pairing code is unknown, used or expired: `bedside pair` makes another"
            )
        credential = await service.listeners.issue_device(listener)
        return with_device_cookie(request, Session(listener=listener, via="device"), credential)

    @app.get("/api/books", response_model=list[BookView])
    async def books(caller: Caller) -> list[BookView]:
        return [view(book, None) for book in await service.books.all()]

    @app.get("/api/books/{book}", response_model=BookView)
    async def book_view(caller: Caller, book: Book) -> BookView:
        state = await service.player.catch_up(caller, book.id)
        return view(book, state.position_ms)

    def local_file(book: BookInfo, named: str | None, what: str) -> Path:
        if named is None:
            raise HTTPException(404, f"the book {book.id!r} has no {what}")
        path = Path(named)
        if not path.is_absolute():
            path = service.settings.data_dir / path
        if not path.is_file():
            raise HTTPException(404, f"the {what} of {book.id!r} is missing")
        return path

    @app.get("/api/books/{book}/audio", response_class=FileResponse)
    async def audio(caller: Caller, book: Book) -> FileResponse:
        path = local_file(book, book.audio_path, "audio file")
        return FileResponse(path, media_type=audio_media_type(path))

    @app.get("/api/books/{book}/cover", response_class=FileResponse)
    async def cover(caller: Caller, book: Book) -> FileResponse:
        return FileResponse(local_file(book, book.cover_path, "cover"))

    base = "/api/listeners/{listener}/books/{book}"

    @app.get(base + "/state", response_model=ListenerState)
    async def state(own: Own) -> ListenerState:
        return (await service.player.catch_up(own.listener, own.book.id)).public()

    @app.post(base + "/reports", response_model=Accepted, responses=responses)
    async def report(own: Own, body: ReportBody) -> Response:
        return await run(own, Report(**body.model_dump(exclude_none=True)))

    @app.post(base + "/seek", response_model=Accepted, responses=responses)
    async def seek(own: Own, body: SeekBody) -> Response:
        return await run(own, Seek(**body.model_dump(exclude_none=True)))

    @app.post(base + "/devices", response_model=Accepted)
    async def join(own: Own, body: JoinBody) -> Response:
        return await run(own, JoinDevice(device=body.device))

    @app.post(base + "/list/press", response_model=Accepted)
    async def press(own: Own, body: PressBody) -> Response:
        return await run(own, PressRow(row=body.row, device=body.device))

    @app.post(base + "/list/cancel", response_model=Accepted)
    async def cancel(own: Own, body: DeviceBody | None = None) -> Response:
        return await run(own, CancelList(device=body.device if body else None))

    @app.post(base + "/undo", response_model=Accepted)
    async def undo(own: Own, body: DeviceBody | None = None) -> Response:
        return await run(own, Undo(device=body.device if body else None))

    @app.post(base + "/sleep-timer", response_model=Accepted)
    async def set_sleep_timer(own: Own, body: SleepTimerBody) -> Response:
        return await run(own, SetSleepTimer(device=body.device, after=body.after))

    @app.post(base + "/sleep-timer/cancel", response_model=Accepted)
    async def cancel_sleep_timer(own: Own, body: JoinBody) -> Response:
        return await run(own, CancelSleepTimer(device=body.device))

    @app.post(base + "/sleep-timer/ran-out", response_model=Accepted, responses=responses)
    async def sleep_timer_ran_out(own: Own, body: TimerRanOutBody) -> Response:
        return await run(own, TimerRanOut(**body.model_dump()))

    @app.get(base + "/history", response_model=History)
    async def history(
        own: Own,
        limit: Annotated[int, Query(ge=1, le=1000)] = 20,
        before: Annotated[int | None, Query(ge=1)] = None,
    ) -> History:
        return await service.player.history(
            HistoryRequest(listener=own.listener, book=own.book.id, limit=limit, before_seq=before)
        )

    @app.get(base + "/history/lookup", response_model=Located)
    async def history_lookup(own: Own, query: Annotated[LocateFilter, Query()]) -> Located:
        """The newest match, how many matched, the earliest's index, and a page from ``offset``."""
        request = LocateRequest(listener=own.listener, book=own.book.id, **query.model_dump())
        return await service.player.locate(request)

    @app.get(base + "/events", response_class=EventSourceResponse, responses=SSE_RESPONSE)
    async def events(own: Own) -> EventSourceResponse:
        """Server-sent events: the current state at once, then every change."""
        listener, book = own.listener, own.book.id
        queue = service.hub.subscribe(listener, book)

        async def stream() -> AsyncIterator[ServerSentEvent]:
            try:
                current = await service.player.catch_up(listener, book)
                yield ServerSentEvent(
                    data=current.public().model_dump_json(), event="state", id=str(current.seq)
                )
                while True:
                    state = await queue.get()
                    yield ServerSentEvent(data=state.model_dump_json(), event="state", id=str(state.seq))
            except asyncio.CancelledError:
                raise
            finally:
                service.hub.unsubscribe(listener, book, queue)

        return EventSourceResponse(stream(), ping=15)

    @app.post(base + "/turns", response_model=TurnReply)
    async def turn(own: Own, body: TurnBody) -> TurnReply:
        timeout = TURN_TIMEOUTS * service.settings.request_timeout_s
        here = await service.player.catch_up(own.listener, own.book.id)  # the player has the position
        question = Ask(
            listener=own.listener,
            book=own.book.id,
            utterance=body.utterance,
            device=body.device,
            here_ms=here.position_ms,
        )
        return await call(
            service.broker.connection, subjects.TURN_ASK, question, TurnReply, timeout_s=timeout
        )

    @app.post(base + SPOKEN_SUFFIX, response_model=SpokenTurnReply, openapi_extra=SPOKEN_BODY)
    async def spoken_turn(own: Own, request: Request) -> SpokenTurnReply | JSONResponse:
        """A question said aloud: the turn service transcribes it offline, then answers it."""
        kind = (request.headers.get("content-type") or "").partition(";")[0].strip().lower()
        if kind not in WAV_TYPES:
            return error_reply(422, "the recording must be sent as audio/wav")
        try:
            recording = await request.body()  # bounded by LimitBody before it is read
        except ClientDisconnect:  # LimitBody stopped the body midway and answers 413 itself
            return error_reply(413, "the recording is too large")
        if len(recording) < WAV_HEADER_BYTES:
            return error_reply(422, "the recording is too short to be a WAV")
        here = await service.player.catch_up(own.listener, own.book.id)
        question = SpokenAsk(listener=own.listener, book=own.book.id, wav=recording, here_ms=here.position_ms)
        # The first spoken question also loads the recogniser: it gets two timeouts more.
        timeout = (TURN_TIMEOUTS + 2) * service.settings.request_timeout_s
        return await call(
            service.broker.connection, subjects.TURN_ASK_SPOKEN, question, SpokenTurnReply, timeout_s=timeout
        )

    @app.api_route(API_PREFIX + "{rest:path}", methods=ANY_METHOD, include_in_schema=False)
    async def no_such_route(request: Request) -> JSONResponse:
        """Under /api nothing falls through to the page: a wrong method is 405, a wrong path 404."""
        allowed = sorted(
            method
            for route in app.router.routes
            if route.matches(request.scope)[0] is Match.PARTIAL
            for method in getattr(route, "methods", None) or ()
        )
        if allowed:
            return JSONResponse(
                ErrorReply(detail=f"{request.method} is not allowed here").model_dump(),
                status_code=405,
                headers={"Allow": ", ".join(allowed)},
            )
        return error_reply(404, "there is no such API route")

    @app.api_route(CA_PATH, methods=["GET", "HEAD"], include_in_schema=False)
    async def local_authority() -> FileResponse:
        """The public certificate of ``bedside up --lan``'s authority, for a phone to install."""
        path = LanFiles(service.settings.lan_dir).ca_cert
        if not path.is_file():
            raise HTTPException(
                404, "this Bedside has no local certificate authority (see `bedside up --lan`)"
            )
        return FileResponse(path, media_type="application/x-x509-ca-cert", filename="bedside-ca.crt")

    app.mount("/", StaticFiles(directory=WEB_DIR, html=True, check_dir=False), name="page")
    return app
