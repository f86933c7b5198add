"""Search's commands: `bedside books`, `bedside find`."""

import asyncio
import json
from typing import Annotated

import typer
from bedside_contracts import subjects
from bedside_contracts.search import (
    BookInfo,
    Catalog,
    CatalogRequest,
    FindPassage,
    FoundPassages,
    timing_label,
)
from bedside_guard import clock, names_as_said
from bedside_runtime.bus import call_once
from bedside_runtime.cli_args import parse_clock, plain_refusal, refused
from bedside_runtime.errors import CallFailed, NoService
from bedside_runtime.settings import Settings


def _failed_call(error: CallFailed) -> typer.Exit:
    hint = "; start it with `bedside up`" if isinstance(error, NoService) else ""
    return refused(f"{error}{hint}")


def books() -> None:
    """List the books search serves."""
    settings = Settings()
    try:
        catalog = asyncio.run(
            call_once(
                settings.servers,
                subjects.SEARCH_CATALOG,
                CatalogRequest(),
                Catalog,
                timeout_s=settings.request_timeout_s,
            )
        )
    except CallFailed as error:
        raise _failed_call(error) from None
    if not catalog.books:
        typer.echo("no books yet; add one with `bedside ingest PATH`")
    for book in catalog.books:
        typer.echo(book_line(book))


def book_line(book: BookInfo) -> str:
    """One book of `bedside books`, its columns aligned whether a count is one or more."""
    timing = timing_label(book.estimated, book.times_from)
    chapters = "chapter " if len(book.chapters) == 1 else "chapters"
    passages = "passage " if book.passages == 1 else "passages"
    coverage = book.transcript
    partial = (
        f" ({coverage.chapters_done} of {coverage.chapters} chapters transcribed: the rest play, unsearched)"
        if coverage is not None
        else ""
    )
    return (
        f"{book.id:<32} {clock(book.duration_ms):>9}  {len(book.chapters):>3} {chapters}"
        f"  {book.passages:>5} {passages}  {timing:<12}  {book.title}{partial}"
    )


def find(
    query: Annotated[str, typer.Argument(help="what to look for, as a listener would say it")],
    book: Annotated[str, typer.Option("--book", help="the book id (see `bedside books`)")],
    at: Annotated[str, typer.Option("--at", help="the listener's position, H:MM:SS")] = "0:00:00",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per hit")] = False,
) -> None:
    """Print exactly the lines the model would see for QUERY at a position."""
    settings = Settings()
    try:
        request = FindPassage(book=book, here_ms=parse_clock(at), query=query)
    except ValueError as error:
        raise refused(f"invalid request: {plain_refusal(error)}") from None
    try:
        found = asyncio.run(
            call_once(
                settings.servers,
                subjects.SEARCH_FIND,
                request,
                FoundPassages,
                timeout_s=settings.request_timeout_s,
            )
        )
    except CallFailed as error:
        raise _failed_call(error) from None
    if not found.hits:  # said aside: what is printed stays the lines the model sees, none here
        said = names_as_said(query, found.unheard_names)
        unheard = f": {', '.join(said)} not heard by {clock(request.here_ms)}" if said else ""
        typer.echo(f"no passages{unheard}", err=True)
    for hit, place in zip(found.hits, found.places, strict=True):
        line = place.line()
        if as_json:
            row = {"id": hit.passage_id, "start_ms": hit.start_ms, "chapter": hit.chapter, "score": hit.score}
            typer.echo(json.dumps({**row, "line": line}, ensure_ascii=False))
        else:
            typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("books")(books)
    app.command("find")(find)
