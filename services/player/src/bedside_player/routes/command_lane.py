"""A command's own lane: a request answered without FastAPI's request machinery (ADR 40).

The lane answers only a command it can check completely and cheaply: a JSON body that fits
the route's body model, for the caller's own listener, under names that fit their pattern.
Anything else (bad JSON, a body that does not fit, another listener, a client gone mid-body)
is handed with its body to the FastAPI route, which answers it exactly as it always has. The
book and the command raise what they raised under the route, for the same error handlers to
answer.
"""

import json
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from bedside_contracts.common import is_name
from bedside_contracts.player import PlayerCommand
from pydantic import BaseModel, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bedside_player.routes.deps import owns, target_of
from bedside_player.routes.listening import run
from bedside_player.service import Service

Body = TypeVar("Body", bound=BaseModel)


def is_json(scope: Scope) -> bool:
    """Only the plain ``application/json``, read from the first Content-Type as the route reads
    it: any other type, or none, goes the route's way."""
    first = next((value for key, value in scope["headers"] if key == b"content-type"), None)
    return first == b"application/json"


def replaying(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` as it was before the lane read ``messages`` from it."""
    pending = list(messages)

    async def again() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return again


def body_in(body: bytes, model: type[Body]) -> Body | None:
    """The body as the route would validate it (``json.loads``, then the model), or None."""
    try:
        decoded: Any = json.loads(body)
        return model.model_validate(decoded)
    # JSONDecodeError and UnicodeDecodeError are ValueErrors; nesting past the recursion limit
    # is a RecursionError, which the route answers 400 like any other body it cannot parse
    except (ValueError, ValidationError, RecursionError):
        return None


class CommandLane(Generic[Body]):
    """An ASGI endpoint on a command's path, ahead of the FastAPI route ``full``, which turns
    the same body into the same command with ``command_of``."""

    def __init__(
        self, full: ASGIApp, service: Service, model: type[Body], command_of: Callable[[Body], PlayerCommand]
    ) -> None:
        self.full = full
        self.service = service
        self.model = model
        self.command_of = command_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        messages: list[Message] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        listener, book = scope["path_params"]["listener"], scope["path_params"]["book"]
        joined = b"".join(m.get("body", b"") for m in messages)
        body = body_in(joined, self.model) if is_json(scope) else None
        if (
            body is None
            or message["type"] != "http.request"
            or not owns(scope["state"]["caller"], listener)
            or not (is_name(listener) and is_name(book))
        ):
            await self.full(scope, replaying(messages, receive), send)
            return
        response = await run(await target_of(self.service, listener, book), self.command_of(body))
        await response(scope, receive, send)
