"""The event stream a device follows: a ping and its state at once, then every change (the cookie
opens it). The first ping tells the page at once how long a silence means the stream is dead.

The frames go straight to the ASGI ``send``: the hub has encoded each state once for every
device watching it, and a stream holds no timer of its own (the hub pings them all).
"""

import asyncio

from bedside_runtime.tasks import cancel_and_wait
from fastapi import APIRouter
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from bedside_player.hub import PING_FRAME, Hub, Watcher
from bedside_player.routes.deps import Own
from bedside_player.routes.errors import DOCUMENTED_ERRORS
from bedside_player.routes.listening import LISTENER_BOOK

SSE_RESPONSE: dict[int | str, dict[str, object]] = {
    200: {
        "description": "server-sent events: a ping (saying how often pings come) and the state at "
        "once, then every change, and a ping whenever the stream has been idle that long",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}
STREAM_HEADERS = {"cache-control": "no-store", "x-accel-buffering": "no"}

router = APIRouter(prefix=LISTENER_BOOK, responses=DOCUMENTED_ERRORS)


class PushStream(StreamingResponse):
    """A device's frames as the hub hands them over, until the device goes away."""

    media_type = "text/event-stream"

    def __init__(self, hub: Hub, watcher: Watcher) -> None:
        super().__init__(iter(()), headers=STREAM_HEADERS)
        self.hub = hub
        self.watcher = watcher

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        watcher = self.watcher
        gone = asyncio.create_task(self._until_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send({"type": "http.response.body", "body": PING_FRAME, "more_body": True})
            while (frame := await watcher.next_frame()) is not None:
                await send({"type": "http.response.body", "body": frame, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.hub.unwatch(watcher)
            await cancel_and_wait(gone)

    async def _until_disconnected(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.watcher.close()


@router.get("/events", response_class=PushStream, status_code=200, responses=SSE_RESPONSE)
async def events(own: Own) -> PushStream:
    """Server-sent events: a ping and the current state at once, then every change."""
    hub = own.service.hub
    watcher = await hub.watch(own.listener, own.book.id)
    try:
        # read after subscribing, so no change between the two is lost
        hub.show(watcher, await own.service.state(own.listener, own.book.id))
    except BaseException:
        hub.unwatch(watcher)
        raise
    return PushStream(hub, watcher)
