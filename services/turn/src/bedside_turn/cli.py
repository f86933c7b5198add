"""``bedside ask``: one turn from the terminal, through the running turn service."""

import asyncio
from typing import Annotated

import typer
from bedside_contracts import subjects
from bedside_contracts.player import BookListenedToRequest, Listening
from bedside_contracts.search import Catalog, CatalogRequest
from bedside_contracts.turn import Ask, TurnReply
from bedside_runtime.bus import call_once
from bedside_runtime.cli_args import (
    NoBookToChoose,
    book_when_unnamed,
    no_such_listener,
    parse_clock,
    plain_refusal,
    refused,
)
from bedside_runtime.clock import ms_from_now
from bedside_runtime.errors import CallFailed, NotFound, RemoteFailure
from bedside_runtime.settings import Settings

DEFAULT_LISTENER = "me"
"""The listener ``bedside up`` makes on a first start (the player's default)."""
ASK_TIMEOUT_S = 60.0


async def send(servers: list[str], ask: Ask, timeout_s: float = ASK_TIMEOUT_S) -> TurnReply:
    """One turn through the running turn service, which changes nothing once this stops waiting;
    failures raise ``CallFailed``."""
    answer_by = ask.model_copy(update={"answer_by_ms": ms_from_now(timeout_s)})
    return await call_once(servers, subjects.TURN_ASK, answer_by, TurnReply, timeout_s=timeout_s)


async def book_listened_to(servers: list[str], asked: BookListenedToRequest, timeout_s: float) -> str:
    """The book to ask about when none is named: the player says which one the listener's position
    is in, search which books there are; ``book_when_unnamed`` chooses (``NoBookToChoose``)."""
    listening, catalog = await asyncio.gather(
        call_once(servers, subjects.PLAYER_LISTENING, asked, Listening, timeout_s=timeout_s),
        call_once(servers, subjects.SEARCH_CATALOG, CatalogRequest(), Catalog, timeout_s=timeout_s),
    )
    return book_when_unnamed(asked.listener, listening.book, [book.id for book in catalog.books])


def book_unnamed(settings: Settings, listener: str) -> str:
    """The book for an ask without ``--book``, or a sentence saying why there is none and exit 1."""
    try:
        asked = BookListenedToRequest(listener=listener)
    except ValueError as error:
        raise typer.BadParameter(plain_refusal(error)) from None
    try:
        return asyncio.run(book_listened_to(settings.servers, asked, settings.request_timeout_s))
    except NoBookToChoose as unclear:
        raise refused(str(unclear)) from None
    except CallFailed as error:
        if isinstance(error, RemoteFailure) and error.code == NotFound.code:
            raise refused(no_such_listener(listener)) from None
        raise refused(f"could not tell which book you are listening to: {error}") from None


def describe(reply: TurnReply, book: str) -> list[str]:
    """The reply as a terminal shows it: the speech, then what happened, and in which book (without
    ``--book`` it is the one listened to, which a removed book's listener would not guess)."""
    preview = " (preview: nothing moved)" if reply.preview else ""
    done = f"outcome: {reply.outcome}{preview}   mode: {reply.mode}   book: {book}   turn: {reply.turn_id}"
    lines = [reply.speech, done]
    lines += [f"  {i + 1}. {row}" for i, row in enumerate(reply.rows)]
    return lines


def register(app: typer.Typer) -> None:
    @app.command()
    def ask(
        utterance: Annotated[str, typer.Argument(help="what you would say, in quotes")],
        book: Annotated[
            str | None,
            typer.Option("--book", help="the book's id; without it, the book you are listening to"),
        ] = None,
        listener: Annotated[str, typer.Option("--listener", help="who is asking")] = DEFAULT_LISTENER,
        at: Annotated[
            str | None, typer.Option("--at", help="answer as if you were at H:MM:SS (nothing moves)")
        ] = None,
    ) -> None:
        """Ask Bedside something about a book; prints what it says and what it did."""
        at_ms = parse_clock(at) if at is not None else None
        settings = Settings()

        def typed(chosen: str) -> Ask:
            try:
                return Ask(listener=listener, book=chosen, utterance=utterance, at_ms=at_ms)
            except ValueError as error:
                raise typer.BadParameter(plain_refusal(error)) from None

        # a book typed is checked before anything goes on the bus
        request = typed(book) if book is not None else typed(book_unnamed(settings, listener))
        try:
            reply = asyncio.run(send(settings.servers, request))
        except RemoteFailure as failed:
            raise refused(f"{failed.failure.code}: {failed.failure.error}") from None
        except CallFailed as error:  # no bus, no turn service: say so plainly
            raise refused(f"no answer from the turn service: {error}") from None
        for line in describe(reply, request.book):
            typer.echo(line)
        if reply.outcome == "failed":  # a service let the turn down: a script must see it did not happen
            raise typer.Exit(code=1)
