"""``bedside ask``: one turn from the terminal, through the running turn service."""

import asyncio
from typing import Annotated

import typer
from bedside_contracts import subjects
from bedside_contracts.turn import Ask, TurnReply
from bedside_runtime.bus import call_once
from bedside_runtime.cli_args import parse_clock, plain_refusal
from bedside_runtime.errors import CallFailed, RemoteFailure
from bedside_runtime.settings import Settings

DEFAULT_LISTENER = "me"
"""The listener ``bedside up`` makes on a first start (the player's default)."""
ASK_TIMEOUT_S = 60.0


async def send(servers: list[str], ask: Ask, timeout_s: float = ASK_TIMEOUT_S) -> TurnReply:
    """One turn through the running turn service; failures raise ``CallFailed``."""
    return await call_once(servers, subjects.TURN_ASK, ask, TurnReply, timeout_s=timeout_s)


def describe(reply: TurnReply) -> list[str]:
    """The reply as a terminal shows it: the speech, then what happened."""
    preview = " (preview: nothing moved)" if reply.preview else ""
    lines = [reply.speech, f"outcome: {reply.outcome}{preview}   mode: {reply.mode}   turn: {reply.turn_id}"]
    lines += [f"  {i + 1}. {row}" for i, row in enumerate(reply.rows)]
    return lines


def register(app: typer.Typer) -> None:
    @app.command()
    def ask(
        utterance: Annotated[str, typer.Argument(help="what you would say, in quotes")],
        book: Annotated[str, typer.Option("--book", help="the book's id")],
        listener: Annotated[str, typer.Option("--listener", help="who is asking")] = DEFAULT_LISTENER,
        at: Annotated[
            str | None, typer.Option("--at", help="answer as if you were at H:MM:SS (nothing moves)")
        ] = None,
    ) -> None:
        """Ask Bedside something about a book; prints what it says and what it did."""
        try:
            request = Ask(
                listener=listener, book=book, utterance=utterance, at_ms=parse_clock(at) if at else None
            )
        except ValueError as error:
            raise typer.BadParameter(plain_refusal(error)) from None
        settings = Settings()
        try:
            reply = asyncio.run(send(settings.servers, request))
        except RemoteFailure as refused:
            typer.secho(f"{refused.failure.code}: {refused.failure.error}", err=True, fg="red")
            raise typer.Exit(code=1) from None
        except CallFailed as error:  # no bus, no turn service: say so plainly
            typer.secho(f"no answer from the turn service: {error}", err=True, fg="red")
            raise typer.Exit(code=1) from None
        for line in describe(reply):
            typer.echo(line)
        if reply.outcome == "failed":  # a service let the turn down: a script must see it did not happen
            raise typer.Exit(code=1)
