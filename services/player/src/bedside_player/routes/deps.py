"""What a route depends on: the service handle, the caller, a book, and a listener's own book.

``Authenticate`` (http_edge) has already proven the credential; these only read what it
found and check the path against it.
"""

from dataclasses import dataclass
from typing import Annotated

from bedside_contracts.common import NAME_PATTERN
from bedside_contracts.search import BookInfo
from fastapi import Depends, HTTPException, Request
from fastapi import Path as PathParam

from bedside_player.service import Service

ListenerName = Annotated[str, PathParam(pattern=NAME_PATTERN)]
BookId = Annotated[str, PathParam(pattern=NAME_PATTERN)]


@dataclass(frozen=True)
class Target:
    """A listener the caller's credential owns, a book that exists, and the service to act with."""

    listener: str
    book: BookInfo
    service: Service


def service_in(request: Request) -> Service:
    """The service ``build_api`` put on the app."""
    service: Service = request.app.state.service
    return service


async def the_service(request: Request) -> Service:
    return service_in(request)


async def caller_of(request: Request) -> str:
    """The listener whose credential the request carries (``Authenticate`` found it)."""
    caller: str = request.state.caller
    return caller


async def known_book(book: BookId, request: Request) -> BookInfo:
    return await service_in(request).books.get(book)


async def listener_book(listener: ListenerName, book: BookId, request: Request) -> Target:
    """Credential, then listener (403 for any other), then book: one dependency.

    Sub-dependencies would be resolved on every report, the busiest route, so the checks
    are plain calls here, in the same order.
    """
    check_owner(request.state.caller, listener)
    return await target_of(service_in(request), listener, book)


def check_owner(caller: str, listener: str) -> None:
    """403 for any listener's path but the caller's own, whether or not there is such a listener:
    a 404 for names no one has would tell a guest which names the household's listeners have."""
    if not owns(caller, listener):
        raise HTTPException(403, "this token belongs to another listener")


async def own_listener(listener: ListenerName, request: Request) -> str:
    """A listener the caller's credential owns (403 for any other name)."""
    check_owner(request.state.caller, listener)
    return listener


def owns(caller: str, listener: str) -> bool:
    """A credential acts for its own listener only (the command lane asks the same)."""
    return caller == listener


async def target_of(service: Service, listener: str, book: str) -> Target:
    return Target(listener, await service.books.get(book), service)


Bedside = Annotated[Service, Depends(the_service)]
Caller = Annotated[str, Depends(caller_of)]
Book = Annotated[BookInfo, Depends(known_book)]
Own = Annotated[Target, Depends(listener_book)]
OwnListener = Annotated[str, Depends(own_listener)]
