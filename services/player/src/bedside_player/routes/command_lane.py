"""A command's own lane: a request answered without FastAPI's request machinery (ADR 40).

The lane answers only a command it can check completely and cheaply: a JSON body that fits
the route's body model, for the caller's own listener, under names that fit their pattern.
Anything else (bad JSON, a body that does not fit, another listener, a client gone mid-body)
is handed with its body to the FastAPI route, which answers it exactly as it always has. The
book and the command raise what they raised under the route, for the same error handlers to
answer.

What the lane does in the route's stead is fixed: one body of its model, the listener and the
book from the path, ``Own``'s checks. ``check_fits`` holds the route to that when the lane is
added, so a route that comes to take more (a query, a header, another dependency) or another
body stops the app being built instead of being answered two ways.
"""

import inspect
import json
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar, get_type_hints

from bedside_contracts.common import is_name
from bedside_contracts.player import PlayerCommand
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bedside_player.routes.deps import listener_book, owns, target_of
from bedside_player.routes.listening import run
from bedside_player.service import Service

Body = TypeVar("Body", bound=BaseModel)

LANE_PATH = frozenset({"listener", "book"})
"""The path parameters the lane reads, and checks with ``is_name`` as their pattern does."""
LANE_DEPENDENCY = listener_book
"""``Own``: the route's one dependency, which the lane does with ``owns`` and ``target_of``."""
NOT_FIELDS = (
    "request_param_name",
    "websocket_param_name",
    "http_connection_param_name",
    "response_param_name",
    "background_tasks_param_name",
    "security_scopes_param_name",
)
"""What an endpoint can take besides fields: none of these reaches the route's own code through the lane."""


class LaneDoesNotFit(RuntimeError):
    """A lane added for a route that takes, or makes, something the lane does not."""


def check_fits(route: APIRoute, model: type[BaseModel], command_of: Callable[..., PlayerCommand]) -> None:
    """Raises ``LaneDoesNotFit`` saying each way ``route`` differs from a lane of ``model`` and
    ``command_of``. Once, as the lane is added: a request pays nothing for it."""
    found = misfits(route, model, command_of)
    if found:
        raise LaneDoesNotFit(
            f"the lane for POST {route.path} does not fit its route {route.name}: {'; '.join(found)}. "
            "A lane answers only what it reads as the route does (ADR 40): change both, or drop the lane."
        )


def misfits(route: APIRoute, model: type[BaseModel], command_of: Callable[..., PlayerCommand]) -> list[str]:
    found = []
    if route.methods != {"POST"}:
        found.append(f"it answers {', '.join(sorted(route.methods or ()))}, the lane POST")
    top = route.dependant
    # a validator or constraint Annotated on the body is in its metadata, not its annotation
    bodies = [field.field_info for field in top.body_params]
    if [(b.annotation, b.metadata, bool(getattr(b, "embed", False))) for b in bodies] != [(model, [], False)]:
        described = ", ".join(map(body_named, bodies)) or "none"
        found.append(f"its body is {described}, the lane's is {model.__name__}")
    below = list(everything_below(top))
    if not any(d.call is LANE_DEPENDENCY for d in top.dependencies):
        found.append(f"it does not depend on {LANE_DEPENDENCY.__name__} (Own), which the lane does")
    found += [f"it depends on {named(d.call)}" for d in below if d.call is not LANE_DEPENDENCY]
    for dependant in [top, *below]:
        for kind in ("query", "header", "cookie"):
            found += [f"it takes the {kind} parameter {f.name}" for f in getattr(dependant, f"{kind}_params")]
        found += [
            f"it takes the path parameter {f.name}" for f in dependant.path_params if f.name not in LANE_PATH
        ]
    found += [f"it takes the {getattr(top, name)} ({name})" for name in NOT_FIELDS if getattr(top, name)]
    if set(route.param_convertors) != LANE_PATH:
        path = sorted(route.param_convertors)
        found.append(f"its path {route.path} names {path}, the lane reads {sorted(LANE_PATH)}")
    endpoint = inspect.unwrap(route.endpoint)
    if not (inspect.isfunction(command_of) and inspect.isfunction(endpoint)):
        # a partial or a callable object has no hints or code of its own to read
        found.append(f"{named(command_of)} and {named(endpoint)} are not both plain functions")
        return found
    takes = [hint for name, hint in get_type_hints(command_of).items() if name != "return"]
    if takes != [model]:
        found.append(f"{named(command_of)} takes {', '.join(map(named, takes))}, not {model.__name__}")
    # the route's own code names the command function: both make the command the same way
    if named(command_of) not in endpoint.__code__.co_names:
        found.append(f"it does not make its command with {named(command_of)}")
    return found


def everything_below(dependant: Dependant) -> Iterator[Dependant]:
    for below in dependant.dependencies:
        yield below
        yield from everything_below(below)


def body_named(body: FieldInfo) -> str:
    marks = [*map(str, body.metadata), *(["embedded"] if getattr(body, "embed", False) else [])]
    return named(body.annotation) + (f" ({', '.join(marks)})" if marks else "")


def named(thing: Any) -> str:
    """A class or a function by its name, anything else (``SeekBody | None``) as it prints."""
    return getattr(thing, "__name__", None) or str(thing)


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
