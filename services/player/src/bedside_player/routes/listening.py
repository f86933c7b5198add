"""A listener's own book: its state, the commands a device sends, and its history.

Each command route turns its body into one ``PlayerCommand``; ``run`` decides it and
shapes the reply (409 with the current state when the chronology refuses it).
"""

from typing import Annotated

from bedside_contracts.player import (
    Accepted,
    AddBookmark,
    BookmarkBody,
    Bookmarks,
    BookmarkView,
    CancelList,
    CancelSleepTimer,
    DeviceBody,
    History,
    HistoryRequest,
    JoinBody,
    JoinDevice,
    LeaveBody,
    LeaveDevice,
    ListenerState,
    Located,
    LocateFilter,
    LocateRequest,
    Pause,
    PlayerCommand,
    PressBody,
    PressRow,
    RefusedReply,
    RemoveBookmark,
    Report,
    ReportBody,
    Seek,
    SeekBody,
    SetSleepTimer,
    SetSpeed,
    SleepTimerBody,
    SpeedBody,
    TimerRanOut,
    TimerRanOutBody,
    Undo,
    UndoBody,
)
from bedside_contracts.search import chapter_at
from fastapi import APIRouter, Path, Query
from fastapi.responses import Response

from bedside_player.routes.deps import Own, Target
from bedside_player.routes.errors import DOCUMENTED_ERRORS

LISTENER_BOOK = "/api/listeners/{listener}/books/{book}"
JSON = "application/json"
REFUSED: dict[int | str, dict[str, object]] = {409: {"model": RefusedReply}}

router = APIRouter(prefix=LISTENER_BOOK, responses=DOCUMENTED_ERRORS)


async def run(target: Target, command: PlayerCommand) -> Response:
    result = await target.service.command(target.listener, target.book, command)
    # serialised by pydantic-core straight to bytes, not through a dict and json.dumps
    if not result.accepted:
        refused = RefusedReply(error=result.reason, state=result.state)
        return Response(refused.model_dump_json(), status_code=409, media_type=JSON)
    return Response(Accepted(seq=result.seq, state=result.state).model_dump_json(), media_type=JSON)


def report_of(body: ReportBody) -> Report:
    return Report(**body.model_dump(exclude_none=True))


def seek_of(body: SeekBody) -> Seek:
    return Seek(**body.model_dump(exclude_none=True))


@router.post("/reports", response_model=Accepted, responses=REFUSED)
async def report(own: Own, body: ReportBody) -> Response:
    # Most reports are answered by command_lane before this route (a docstring would be the
    # OpenAPI description).
    return await run(own, report_of(body))


@router.get("/state", response_model=ListenerState)
async def state(own: Own) -> ListenerState:
    return await own.service.state(own.listener, own.book.id)


@router.post("/seek", response_model=Accepted, responses=REFUSED)
async def seek(own: Own, body: SeekBody) -> Response:
    # Most seeks are answered by command_lane before this route, as reports are.
    return await run(own, seek_of(body))


@router.post("/devices", response_model=Accepted)
async def join(own: Own, body: JoinBody) -> Response:
    return await run(own, JoinDevice(device=body.device))


@router.post("/devices/leave", response_model=Accepted)
async def leave(own: Own, body: LeaveBody) -> Response:
    """A playing device's page going away (a beacon): the last one playing leaves the book paused."""
    return await run(own, LeaveDevice(**body.model_dump()))


@router.post("/list/press", response_model=Accepted)
async def press(own: Own, body: PressBody) -> Response:
    return await run(own, PressRow(**body.model_dump()))


@router.post("/list/cancel", response_model=Accepted)
async def cancel(own: Own, body: DeviceBody | None = None) -> Response:
    return await run(own, CancelList(device=body.device if body else None))


@router.post("/pause", response_model=Accepted)
async def pause(own: Own, body: DeviceBody | None = None) -> Response:
    """Pause the book on every device playing it (ADR 46): the page asks it as the listener leaves
    the book for another, so that no other device plays the old one on."""
    return await run(own, Pause(device=body.device if body else None))


@router.post("/undo", response_model=Accepted, responses=REFUSED)
async def undo(own: Own, body: UndoBody | None = None) -> Response:
    return await run(own, Undo(**body.model_dump()) if body else Undo())


@router.post("/sleep-timer", response_model=Accepted)
async def set_sleep_timer(own: Own, body: SleepTimerBody) -> Response:
    return await run(own, SetSleepTimer(device=body.device, after=body.after))


@router.post("/sleep-timer/cancel", response_model=Accepted)
async def cancel_sleep_timer(own: Own, body: JoinBody) -> Response:
    return await run(own, CancelSleepTimer(device=body.device))


@router.post("/sleep-timer/ran-out", response_model=Accepted, responses=REFUSED)
async def sleep_timer_ran_out(own: Own, body: TimerRanOutBody) -> Response:
    return await run(own, TimerRanOut(**body.model_dump()))


@router.post("/speed", response_model=Accepted)
async def set_speed(own: Own, body: SpeedBody) -> Response:
    """How fast the book plays, on every device of the listener's (ADR 82)."""
    return await run(own, SetSpeed(**body.model_dump()))


@router.post("/bookmarks", response_model=Accepted)
async def add_bookmark(own: Own, body: BookmarkBody) -> Response:
    """Mark where the book is on this device (ADR 83); a 422 once the book holds the most kept."""
    return await run(own, AddBookmark(**body.model_dump()))


@router.get("/bookmarks", response_model=Bookmarks)
async def bookmarks(own: Own) -> Bookmarks:
    """Newest first, each with the chapter it is in (by number: the page shows a title once reached)."""
    state = await own.service.state(own.listener, own.book.id)
    return Bookmarks(
        bookmarks=[
            BookmarkView(
                **bookmark.model_dump(),
                chapter=chapter.n if (chapter := chapter_at(own.book.chapters, bookmark.at_ms)) else None,
            )
            for bookmark in state.bookmarks
        ]
    )


@router.delete("/bookmarks/{bookmark}", response_model=Accepted)
async def remove_bookmark(own: Own, bookmark: Annotated[int, Path(ge=1)]) -> Response:
    """Remove a bookmark, named by its ``seq``; a 404 when there is none such (removed already)."""
    return await run(own, RemoveBookmark(bookmark_seq=bookmark))


@router.get("/history", response_model=History)
async def history(
    own: Own,
    limit: Annotated[int, Query(ge=1, le=1000)] = 20,
    before: Annotated[int | None, Query(ge=1)] = None,
) -> History:
    return await own.service.history(
        HistoryRequest(listener=own.listener, book=own.book.id, limit=limit, before_seq=before)
    )


@router.get("/history/lookup", response_model=Located)
async def history_lookup(own: Own, query: Annotated[LocateFilter, Query()]) -> Located:
    """The newest match, how many matched, the earliest's index, and a page from ``offset``."""
    request = LocateRequest(listener=own.listener, book=own.book.id, **query.model_dump())
    return await own.service.locate(request)
