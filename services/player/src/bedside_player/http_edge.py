"""What every API request meets before a route: the token, then the size of its body.

Both are plain ASGI layers so that they run before anything reads the body: a request
without a valid token is refused with 401 however large or malformed its body, and a body
over the limit is refused with 413 from its Content-Length, or as soon as the bytes
received pass the limit, never after reading it whole.
"""

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol
from urllib.parse import parse_qsl

from bedside_contracts.player import ErrorReply

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

API_PREFIX = "/api/"
BODY_LIMIT = 16 * 1024
"""Every command and question is a few hundred bytes of JSON."""


class TokenOwners(Protocol):
    async def listener_for(self, token: str) -> str | None: ...


def error_body(status: int, detail: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> list[Message]:
    body = ErrorReply(detail=detail).model_dump_json().encode()
    return [
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        },
        {"type": "http.response.body", "body": body},
    ]


async def reply(send: Send, status: int, detail: str, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    for message in error_body(status, detail, headers):
        await send(message)


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def token_of(scope: Scope) -> str | None:
    """``Authorization: Bearer <token>``, else ``?token=`` (EventSource and <audio> cannot send a header)."""
    scheme, _, value = (header(scope, b"authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    query: bytes = scope.get("query_string", b"")
    for key, token in parse_qsl(query.decode("latin-1")):
        if key == "token" and token:
            return token
    return None


NO_TOKEN = (
    "a listener token is needed: send 'Authorization: Bearer <token>' (bedside listener add NAME prints one)"
)
CHALLENGE = ((b"www-authenticate", b"Bearer"),)


class Authenticate:
    """Puts the caller's listener in ``scope['state']['caller']``, or answers 401."""

    def __init__(self, app: App, owners: TokenOwners, open_paths: frozenset[str]) -> None:
        self.app = app
        self.owners = owners
        self.open_paths = open_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith(API_PREFIX) or path in self.open_paths:
            await self.app(scope, receive, send)
            return
        token = token_of(scope)
        if token is None:
            await reply(send, 401, NO_TOKEN, CHALLENGE)
            return
        listener = await self.owners.listener_for(token)
        if listener is None:
            await reply(send, 401, "this token belongs to no listener", CHALLENGE)
            return
        scope.setdefault("state", {})["caller"] = listener
        await self.app(scope, receive, send)


class LimitBody:
    """Refuses a request body over ``limit`` bytes with 413, reading at most ``limit`` of it.

    A body without a Content-Length is counted as it arrives; once past the limit the app
    is told the client left, and whatever it answers is replaced by the 413.
    """

    def __init__(self, app: App, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None and not declared.isdigit():
            await reply(send, 400, "Content-Length is not a number")
            return
        too_large = f"the request body is over {self.limit} bytes"
        if declared is not None and int(declared) > self.limit:
            await reply(send, 413, too_large)
            return
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            if received > self.limit:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    return {"type": "http.disconnect"}
            return message

        async def replaced_send(message: Message) -> None:
            if received <= self.limit:
                await send(message)
            elif message["type"] == "http.response.start":
                await reply(send, 413, too_large)

        await self.app(scope, counted_receive, replaced_send)
