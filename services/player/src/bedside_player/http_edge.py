"""What every API request meets before a route: the credential, then the size of its body.

Both are plain ASGI layers so that they run before anything reads the body: a request
without a valid token or device cookie is refused with 401 however large or malformed its body, and a body
over the limit is refused with 413 from its Content-Length, or as soon as the bytes
received pass the limit, never after reading it whole.
"""

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

from bedside_contracts.player import ErrorReply
from nats.errors import Error as NatsError
from starlette.requests import cookie_parser

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

API_PREFIX = "/api/"
BODY_LIMIT = 16 * 1024
"""Every command and question is a few hundred bytes of JSON."""


DEVICE_COOKIE = "bedside_device"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class TokenOwners(Protocol):
    async def listener_for(self, token: str) -> str | None: ...

    async def listener_for_device(self, credential: str) -> str | None: ...


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


Credential = tuple[Literal["token", "device"], str]


def credential_of(scope: Scope) -> Credential | None:
    """``Authorization: Bearer <token>`` (scripts), else the page's device cookie. Never the URL:
    a token in a query string lands in history, logs and the Referer of whatever a page loads."""
    scheme, _, value = (header(scope, b"authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return "token", value.strip()
    device = cookie_parser(header(scope, b"cookie") or "").get(DEVICE_COOKIE)
    if device:
        return "device", device
    return None


def from_another_site(scope: Scope) -> bool:
    """A change sent with the cookie from a page of another origin. SameSite does not separate
    ports of one host, so another web app on this machine would otherwise be "same site"."""
    if scope.get("method", "GET") in SAFE_METHODS:
        return False
    origin = header(scope, b"origin")
    if origin is None:
        return False
    return urlsplit(origin).netloc.lower() != (header(scope, b"host") or "").lower()


NO_TOKEN = (
    "a listener token is needed: send 'Authorization: Bearer <token>' (bedside listener add NAME prints one)"
)
CHALLENGE = ((b"www-authenticate", b"Bearer"),)
FOREIGN_ORIGIN = "a change made from a browser must come from Bedside's own page"
BUS_NOT_ANSWERING = "the bus is not answering, so who is asking cannot be checked; try again in a moment"


class Authenticate:
    """Puts the caller's listener (and how it was proven) in ``scope['state']``, or answers 401."""

    def __init__(self, app: App, owners: TokenOwners, open_paths: frozenset[str]) -> None:
        self.app = app
        self.owners = owners
        self.open_paths = open_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        if path in self.open_paths:
            # No credential, but still this page's own: another site could otherwise pair the
            # browser with a listener of its choosing by posting its own code.
            if from_another_site(scope):
                await reply(send, 403, FOREIGN_ORIGIN)
                return
            await self.app(scope, receive, send)
            return
        credential = credential_of(scope)
        if credential is None:
            await reply(send, 401, NO_TOKEN, CHALLENGE)
            return
        via, secret = credential
        try:
            if via == "token":
                listener = await self.owners.listener_for(secret)
            else:
                listener = await self.owners.listener_for_device(secret)
        except (NatsError, TimeoutError):  # a stalled bus: said so, and the page tries again
            await reply(send, 503, BUS_NOT_ANSWERING)
            return
        if listener is None:
            await reply(
                send, 401, f"this {'token' if via == 'token' else 'device'} belongs to no listener", CHALLENGE
            )
            return
        if via == "device" and from_another_site(scope):
            await reply(send, 403, FOREIGN_ORIGIN)
            return
        scope.setdefault("state", {}).update(caller=listener, caller_via=via, credential=secret)
        await self.app(scope, receive, send)


class PageHeaders:
    """On every reply: no Referer leaves the page, so no address it was opened with travels on; and
    no other page may frame it, where the signed-in page could be clicked through unseen."""

    HEADERS = (
        (b"referrer-policy", b"no-referrer"),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy", b"frame-ancestors 'none'"),
    )

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class LimitBody:
    """Refuses a request body over ``limit`` bytes with 413, reading at most ``limit`` of it.

    A path ending in one of ``larger``'s suffixes has that suffix's limit instead (a spoken
    question is a recording, not a few hundred bytes of JSON).

    A body without a Content-Length is counted as it arrives; once past the limit the app
    is told the client left, and whatever it answers is replaced by the 413.
    """

    def __init__(self, app: App, limit: int = BODY_LIMIT, larger: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.default_limit = limit
        self.larger = dict(larger or {})

    def limit_for(self, path: str) -> int:
        return next((n for suffix, n in self.larger.items() if path.endswith(suffix)), self.default_limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        declared = header(scope, b"content-length")
        if declared is not None and not declared.isdigit():
            await reply(send, 400, "Content-Length is not a number")
            return
        too_large = f"the request body is over {limit} bytes"
        if declared is not None and int(declared) > limit:
            await reply(send, 413, too_large)
            return
        if declared is not None and header(scope, b"transfer-encoding") is None:
            # The server reads exactly Content-Length bytes of body, so this one is within bounds.
            await self.app(scope, receive, send)
            return
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            if received > limit:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    return {"type": "http.disconnect"}
            return message

        async def replaced_send(message: Message) -> None:
            if received <= limit:
                await send(message)
            elif message["type"] == "http.response.start":
                await reply(send, 413, too_large)

        await self.app(scope, counted_receive, replaced_send)
