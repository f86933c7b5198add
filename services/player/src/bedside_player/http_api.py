"""The HTTP API for devices (everything under /api) and the device page at /.

Thin: authenticate, check the book, hand a command to the player, shape the reply.
A token reaches only its own listener: every listener path is checked against it.
"""

import asyncio
from collections.abc import AsyncIterator
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
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sse_starlette import EventSourceResponse, ServerSentEvent

from bedside_player.remote import TimedOut, ask
from bedside_player.service import Service

WEB_DIR = Path(__file__).parent / "web"
TURN_TIMEOUTS = 3
"""A turn may call Claude and search several times: it gets three ordinary request timeouts."""
STATUS = {"invalid": 422, "not_found": 404, "conflict": 409, "unavailable": 503, "internal": 500}


async def bearer(request: Request) -> str:
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

    async def token_listener(token: Annotated[str, Depends(bearer)]) -> str:
        listener = await service.listeners.listener_for(token)
        if listener is None:
            raise HTTPException(
                401, "this token belongs to no listener", headers={"WWW-Authenticate": "Bearer"}
            )
        return listener

    async def own_listener(listener: str, caller: Annotated[str, Depends(token_listener)]) -> str:
        if listener != caller:
            if await service.listeners.record(listener) is None:
                raise HTTPException(404, f"there is no listener {listener!r}")
            raise HTTPException(403, "this token belongs to another listener")
        return listener

    async def known_book(book: str) -> BookInfo:
        return await service.books.get(book)

    Caller = Annotated[str, Depends(token_listener)]  # noqa: N806
    Owner = Annotated[str, Depends(own_listener)]  # noqa: N806
    Book = Annotated[BookInfo, Depends(known_book)]  # noqa: N806

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
            duration_ms=book.duration_ms,
            has_audio=book.audio_path is not None,
            chapters=chapters,
        )

    async def run(listener: str, book: BookInfo, command: PlayerCommand) -> JSONResponse:
        result: CommandResult = await service.player.command(listener, book.id, command, book.duration_ms)
        if not result.accepted:
            refused = RefusedReply(error=result.reason, state=result.state)
            return JSONResponse(refused.model_dump(mode="json"), status_code=409)
        return JSONResponse(Accepted(seq=result.seq, state=result.state).model_dump(mode="json"))

    responses: dict[int | str, dict[str, object]] = {409: {"model": RefusedReply}}

    @app.get("/api/books", response_model=list[BookView])
    async def books(caller: Caller) -> list[BookView]:
        return [view(book, None) for book in await service.books.all()]

    @app.get("/api/books/{book}", response_model=BookView)
    async def book_view(caller: Caller, book: Book) -> BookView:
        state = await service.player.catch_up(caller, book.id)
        return view(book, state.position_ms)

    @app.get("/api/books/{book}/audio", response_class=FileResponse)
    async def audio(caller: Caller, book: Book) -> FileResponse:
        if book.audio_path is None:
            raise HTTPException(404, f"the book {book.id!r} has no audio file")
        path = Path(book.audio_path)
        if not path.is_absolute():
            path = service.settings.data_dir / path
        if not path.is_file():
            raise HTTPException(404, f"the audio file of {book.id!r} is missing")
        return FileResponse(path)

    base = "/api/listeners/{listener}/books/{book}"

    @app.get(base + "/state", response_model=ListenerState)
    async def state(listener: Owner, book: Book) -> ListenerState:
        return (await service.player.catch_up(listener, book.id)).public()

    @app.post(base + "/reports", response_model=Accepted, responses=responses)
    async def report(listener: Owner, book: Book, body: ReportBody) -> JSONResponse:
        return await run(listener, book, Report(**body.model_dump(exclude_none=True)))

    @app.post(base + "/seek", response_model=Accepted, responses=responses)
    async def seek(listener: Owner, book: Book, body: SeekBody) -> JSONResponse:
        return await run(listener, book, Seek(**body.model_dump(exclude_none=True)))

    @app.post(base + "/devices", response_model=Accepted)
    async def join(listener: Owner, book: Book, body: DeviceBody) -> JSONResponse:
        if body.device is None:
            raise HTTPException(422, "device is required to join")
        return await run(listener, book, JoinDevice(device=body.device))

    @app.post(base + "/list/press", response_model=Accepted)
    async def press(listener: Owner, book: Book, body: PressBody) -> JSONResponse:
        return await run(listener, book, PressRow(row=body.row, device=body.device))

    @app.post(base + "/list/cancel", response_model=Accepted)
    async def cancel(listener: Owner, book: Book, body: DeviceBody | None = None) -> JSONResponse:
        return await run(listener, book, CancelList(device=body.device if body else None))

    @app.post(base + "/undo", response_model=Accepted)
    async def undo(listener: Owner, book: Book, body: DeviceBody | None = None) -> JSONResponse:
        return await run(listener, book, Undo(device=body.device if body else None))

    @app.get(base + "/history", response_model=History)
    async def history(
        listener: Owner,
        book: Book,
        limit: Annotated[int, Query(ge=1, le=1000)] = 20,
        before: Annotated[int | None, Query(ge=1)] = None,
    ) -> History:
        return await service.player.history(
            HistoryRequest(listener=listener, book=book.id, limit=limit, before_seq=before)
        )

    @app.get(base + "/events")
    async def events(listener: Owner, book: Book, request: Request) -> EventSourceResponse:
        """Server-sent events: the current state at once, then every change."""
        queue = service.hub.subscribe(listener, book.id)

        async def stream() -> AsyncIterator[ServerSentEvent]:
            try:
                current = await service.player.catch_up(listener, book.id)
                yield ServerSentEvent(
                    data=current.public().model_dump_json(), event="state", id=str(current.seq)
                )
                while True:
                    state = await queue.get()
                    yield ServerSentEvent(data=state.model_dump_json(), event="state", id=str(state.seq))
            except asyncio.CancelledError:
                raise
            finally:
                service.hub.unsubscribe(listener, book.id, queue)

        return EventSourceResponse(stream(), ping=15)

    @app.post(base + "/turns", response_model=TurnReply)
    async def turn(listener: Owner, book: Book, body: TurnBody) -> TurnReply:
        timeout = TURN_TIMEOUTS * service.settings.request_timeout_s
        question = Ask(listener=listener, book=book.id, utterance=body.utterance, device=body.device)
        return await ask(service.broker, "turn", subjects.TURN_ASK, question, TurnReply, timeout)

    app.mount("/", StaticFiles(directory=WEB_DIR, html=True, check_dir=False), name="page")
    return app
