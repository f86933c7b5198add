"""The HTTP API for devices (everything under /api) and the device page at /.

Thin: authenticate, check the book, hand a command to the player, shape the reply.
A token reaches only its own listener: every listener path is checked against it.
"""

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from bedside_contracts import subjects
from bedside_contracts.player import (
    Accepted,
    BookView,
    CancelList,
    ChapterView,
    CommandResult,
    DeviceBody,
    History,
    HistoryRequest,
    JoinDevice,
    ListenerState,
    PlayerCommand,
    PressBody,
    PressRow,
    RefusedReply,
    Report,
    ReportBody,
    Seek,
    SeekBody,
    TurnBody,
    Undo,
)
from bedside_contracts.search import BookInfo
from bedside_contracts.turn import Ask, TurnReply
from bedside_guard import ahead_of
from bedside_runtime.bus import failure_for
from bedside_runtime.errors import ServiceError
from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sse_starlette import EventSourceResponse, ServerSentEvent

from bedside_player.audio import audio_media_type
from bedside_player.remote import TimedOut, ask
from bedside_player.service import Service

WEB_DIR = Path(__file__).parent / "web"
TURN_TIMEOUTS = 3
"""A turn may call Claude and search several times: it gets three ordinary request timeouts."""
JSON = "application/json"
STATUS = {"invalid": 422, "not_found": 404, "conflict": 409, "unavailable": 503, "internal": 500}


@dataclass(frozen=True)
class Target:
    """A listener the caller's token owns, and a book that exists."""

    listener: str
    book: BookInfo


def bearer(request: Request) -> str:
    """The token from ``Authorization: Bearer`` (or ``?token=``, for EventSource and <audio>)."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    token = request.query_params.get("token")
    if token:
        return token
    raise HTTPException(
        401,
        "a listener token is needed: send 'Authorization: Bearer <token>' "
        "(bedside listener add NAME prints one)",
        headers={"WWW-Authenticate": "Bearer"},
    )


def build_api(service: Service) -> FastAPI:  # noqa: PLR0915 (one route table, read top to bottom)
    app = FastAPI(
        title="Bedside player",
        description="One listening position shared by every device, the list on the screen, and turns.",
        docs_url="/docs",
        openapi_url="/api/openapi.json",
    )

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        status = 504 if isinstance(error, TimedOut) else STATUS.get(error.code, 500)
        return JSONResponse({"detail": error.message}, status_code=status)

    @app.exception_handler(ValidationError)
    async def invalid(request: Request, error: ValidationError) -> JSONResponse:
        return JSONResponse({"detail": failure_for(error).error}, status_code=422)

    async def caller_of(request: Request) -> str:
        """The listener the request's token belongs to (401 without one, or for an unknown one)."""
        listener = await service.listeners.listener_for(bearer(request))
        if listener is None:
            raise HTTPException(
                401, "this token belongs to no listener", headers={"WWW-Authenticate": "Bearer"}
            )
        return listener

    async def known_book(book: str) -> BookInfo:
        return await service.books.get(book)

    async def listener_book(listener: str, book: str, request: Request) -> Target:
        """Token, then listener (403 for another's, 404 for none), then book: one dependency.

        One FastAPI dependency per check (four per request) cost more of a report's CPU
        than deciding and appending it; the checks and their order are the same here.
        """
        caller = await caller_of(request)
        if listener != caller:
            if await service.listeners.record(listener) is None:
                raise HTTPException(404, f"there is no listener {listener!r}")
            raise HTTPException(403, "this token belongs to another listener")
        return Target(listener, await known_book(book))

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
            target.listener, book.id, command, book.duration_ms
        )
        # serialised by pydantic-core straight to bytes, not through a dict and json.dumps
        if not result.accepted:
            refused = RefusedReply(error=result.reason, state=result.state)
            return Response(refused.model_dump_json(), status_code=409, media_type=JSON)
        return Response(Accepted(seq=result.seq, state=result.state).model_dump_json(), media_type=JSON)

    responses: dict[int | str, dict[str, object]] = {409: {"model": RefusedReply}}

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
    async def join(own: Own, body: DeviceBody) -> Response:
        if body.device is None:
            raise HTTPException(422, "device is required to join")
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

    @app.get(base + "/history", response_model=History)
    async def history(
        own: Own,
        limit: Annotated[int, Query(ge=1, le=1000)] = 20,
        before: Annotated[int | None, Query(ge=1)] = None,
    ) -> History:
        return await service.player.history(
            HistoryRequest(listener=own.listener, book=own.book.id, limit=limit, before_seq=before)
        )

    @app.get(base + "/events")
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
        question = Ask(listener=own.listener, book=own.book.id, utterance=body.utterance, device=body.device)
        return await ask(service.broker, "turn", subjects.TURN_ASK, question, TurnReply, timeout)

    app.mount("/", StaticFiles(directory=WEB_DIR, html=True, check_dir=False), name="page")
    return app
