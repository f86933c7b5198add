"""The event stream a device follows: its state at once, then every change (the cookie opens it)."""

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter
from sse_starlette import EventSourceResponse, ServerSentEvent

from bedside_player.routes.deps import Own
from bedside_player.routes.errors import DOCUMENTED_ERRORS
from bedside_player.routes.listening import LISTENER_BOOK

SSE_RESPONSE: dict[int | str, dict[str, object]] = {
    200: {
        "description": "server-sent events: the state at once, then every change",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}
PING_S = 15

router = APIRouter(prefix=LISTENER_BOOK, responses=DOCUMENTED_ERRORS)


async def states(own: Own) -> AsyncIterator[ServerSentEvent]:
    """Subscribed before the current state is read, so no change between the two is lost."""
    service, listener, book = own.service, own.listener, own.book.id
    queue = await service.hub.subscribe(listener, book)
    try:
        current = await service.state(listener, book)
        yield ServerSentEvent(data=current.model_dump_json(), event="state", id=str(current.seq))
        while True:
            state = await queue.get()
            yield ServerSentEvent(data=state.model_dump_json(), event="state", id=str(state.seq))
    except asyncio.CancelledError:
        raise
    finally:
        service.hub.unsubscribe(listener, book, queue)


@router.get("/events", response_class=EventSourceResponse, responses=SSE_RESPONSE)
async def events(own: Own) -> EventSourceResponse:
    """Server-sent events: the current state at once, then every change."""
    return EventSourceResponse(states(own), ping=PING_S)
