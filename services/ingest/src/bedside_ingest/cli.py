"""``bedside ingest`` and the first-start step that ingests the sample book."""

import asyncio
import time
import uuid
from pathlib import Path
from typing import Annotated

import typer
from bedside_contracts.ingest import BookRemoved, IngestBook, IngestReport, RemoveBook
from bedside_contracts.search import timing_label
from bedside_guard import clock
from bedside_runtime.bus import connected
from bedside_runtime.cli_args import checked_id, plain_refusal
from bedside_runtime.errors import CallFailed, RemoteFailure
from bedside_runtime.room import size_said
from bedside_runtime.settings import Settings
from nats.aio.client import Client
from nats.errors import Error as NatsError
from rich.console import Console

from bedside_ingest.accepted import AUDIO_OPTION_HELP, CHAPTERS_HELP, PATH_HELP, TEXT_HELP
from bedside_ingest.client import (
    book_replaced,
    catalog_has,
    remove_book,
    request_ingest,
    submit_job,
    wait_until_ready,
)
from bedside_ingest.errors import BadInput
from bedside_ingest.given import book_given, check_given, is_audiobook, timed_by_its_recording
from bedside_ingest.identity import replacement_refused, replacing_said
from bedside_ingest.jobs_cli import jobs
from bedside_ingest.progress_view import stage_bars
from bedside_ingest.sample import SAMPLE_BOOK_ID, SAMPLE_TRANSCRIPT

READY_TIMEOUT_S = 120.0


def counted(n: int, noun: str) -> str:
    """ "1 chapter", "6 chapters": a one-chapter book is common (a single-track recording)."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def summary(report: IngestReport) -> str:
    timing = timing_label(report.estimated, report.times_from)
    stages = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in report.stage_seconds.items())
    state = (
        "unchanged (this content was ingested before)" if report.unchanged else f"version {report.version}"
    )
    line = (
        f"{report.title!r} as {report.book}: {counted(report.chapters, 'chapter')}, "
        f"{counted(report.passages, 'passage')}, "
        f"{clock(report.duration_ms)} ({timing}); {state}; {report.seconds:.1f} s ({stages})"
    )
    if report.taken_id is not None:
        line += (
            f"\nanother book, made from another file, is {report.taken_id!r}: this one is {report.book!r} "
            f"beside it (--id {report.taken_id} --replace replaces that one instead)"
        )
    line = "\n".join([line, *report.notes])
    aligned = report.alignment
    if aligned is None:
        return line
    if aligned.fallback:
        return f"{line}\n{aligned.fallback}"
    return (
        f"{line}\ne-book aligned: {aligned.matched} of {aligned.matched + aligned.interpolated} sentences "
        f"matched ({aligned.matched_share:.0%}), {aligned.interpolated} placed between them, "
        f"{aligned.left_out} not in the recording left out"
    )


async def _ingest(request: IngestBook, settings: Settings, wait_s: float, console: Console) -> int:
    async with connected(settings.servers, waits_long=True) as client:
        await _said_if_replacing(client, request, console)
        with stage_bars(console) as bars:
            report = await request_ingest(client, request, bars)
        console.print(summary(report))
        return await _searchable(client, report, wait_s, console)


async def _searchable(client: Client, report: IngestReport, wait_s: float, console: Console) -> int:
    """Wait for search to serve what was stored: exit 0, or 2 with a message if it does not in time."""
    started = time.monotonic()
    if not await wait_until_ready(client, report.book, report.version, wait_s):
        console.print(
            f"[red]search has not announced {report.book} {report.version} ready within {wait_s:.0f} s; "
            "the book is stored and will be searchable once the search service indexes it "
            "(is it running? `bedside status`)[/red]"
        )
        return 2
    console.print(f"searchable: {report.book} (ready after {time.monotonic() - started:.1f} s more)")
    return 0


def ingest(
    paths: Annotated[list[Path], typer.Argument(help=PATH_HELP, show_default=False, metavar="PATH")],
    *,
    book_id: Annotated[
        str | None, typer.Option("--id", help="the book's id (default: from the file name)")
    ] = None,
    title: Annotated[
        str | None,
        typer.Option(
            "--title",
            help="the book's title (default: an audiobook's title tag, else its e-book's, else the file's)",
        ),
    ] = None,
    audio: Annotated[Path | None, typer.Option("--audio", help=AUDIO_OPTION_HELP)] = None,
    chapters: Annotated[Path | None, typer.Option("--chapters", help=CHAPTERS_HELP)] = None,
    text: Annotated[Path | None, typer.Option("--text", help=TEXT_HELP)] = None,
    wait: Annotated[
        float, typer.Option("--wait", help="seconds to wait for search to index it")
    ] = READY_TIMEOUT_S,
    detach: Annotated[
        bool, typer.Option("--detach", help="hand the job to the service and return (see `bedside jobs`)")
    ] = False,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="with --id: put this book in the place of the book made from another file that has the id "
            "(its listeners keep their places); without it, that is refused",
        ),
    ] = False,
) -> None:
    """Ingest a book: read it (an audiobook is transcribed offline, chapter by chapter), chunk,
    embed and store it, then wait until search serves it. A file of a kind not listed below is
    refused before anything is sent."""
    console = Console()
    if replace and book_id is None:  # a file's own name never gives it another file's book's id (ADR 62)
        raise _fail(console, "--replace replaces the book of the id given with --id: give its --id")
    try:
        path = book_given(paths)
        check_given(path, audio=audio, chapters=chapters, text=text)
    except BadInput as error:
        raise _fail(console, error.message) from None
    try:
        request = IngestBook(
            path=str(path.resolve()),
            book=book_id,
            title=title,
            audio_path=str(audio.resolve()) if audio else None,
            chapters_path=str(chapters.resolve()) if chapters else None,
            text_path=str(text.resolve()) if text else None,
            job=uuid.uuid4().hex[:16],
            replace=replace,
        )
    except ValueError as error:
        raise _fail(console, f"bad arguments: {plain_refusal(error)}") from None
    if detach and not _runs_as_a_job(request, console):
        console.print("only a recording is transcribed as a job: this book is read now")
        detach = False
    try:
        if detach:
            asyncio.run(_detach(request, Settings(), console))
            console.print(
                f"job {request.job} handed to the ingest service; "
                f"follow it with: bedside jobs --attach {request.job}"
            )
            raise typer.Exit(0)
        code = asyncio.run(_ingest(request, Settings(), wait, console))
    except KeyboardInterrupt:
        console.print(
            "stopped waiting; an audiobook's job goes on in the ingest service: "
            f"bedside jobs --attach {request.job}"
        )
        raise typer.Exit(130) from None
    except RemoteFailure as error:
        raise _fail(console, f"ingest refused it: {error.failure.error}") from None
    except CallFailed as error:
        raise _fail(console, str(error)) from None
    except NatsError as error:  # the bus stayed away longer than a restart takes
        raise _fail(
            console,
            f"lost the bus while waiting ({error}); an audiobook's job goes on in the ingest service "
            f"once the bus is back: bedside jobs --attach {request.job}",
        ) from None
    raise typer.Exit(code)


def _runs_as_a_job(request: IngestBook, console: Console) -> bool:
    """Whether the service makes the book in a job (a recording, or an e-book with its recording),
    which ``--detach`` hands over; anything else it reads at once, and a job id would name nothing."""
    try:
        return is_audiobook(Path(timed_by_its_recording(request).path))
    except BadInput as error:
        raise _fail(console, error.message) from None


async def _detach(request: IngestBook, settings: Settings, console: Console) -> None:
    async with connected(settings.servers) as client:
        await _said_if_replacing(client, request, console)
        await submit_job(client, request)


async def _said_if_replacing(client: Client, request: IngestBook, console: Console) -> None:
    """Before anything is asked: an id asked for that another file's book has is refused, naming the
    book and how many listeners are in it, unless ``--replace`` was given; then the replacement is
    said. The service refuses the same (``identity.replaces_another``); a job handed over with
    ``--detach`` would say it only in its log."""
    try:
        replaced = await book_replaced(client, request)
    except BadInput as error:
        raise _fail(console, error.message) from None
    if replaced is None:
        return
    if not request.replace:
        refused = replacement_refused(
            replaced.book, replaced.title, replaced.listeners, file_known=replaced.file_known
        )
        raise _fail(console, refused)
    console.print(replacing_said(replaced.book, replaced.title, replaced.listeners))


def _fail(console: Console, message: str) -> typer.Exit:
    console.print(f"[red]{message}[/red]")
    return typer.Exit(1)


def remove(
    book: Annotated[
        str, typer.Argument(help="the book's id, as `bedside books` lists it", callback=checked_id)
    ],
    delete_files: Annotated[
        bool,
        typer.Option(
            "--delete-files",
            help="also delete what Bedside stored of it, to make room (never a file of your own)",
        ),
    ] = False,
) -> None:
    """Serve a book no more. Every listener's place in it is kept, and so is what was ingested:
    ingesting the same file again brings it back as it was. With --delete-files, what Bedside
    stored of it is deleted (its recording and cover too, unless another book has them), and
    ingesting it again starts afresh."""
    console = Console()

    async def removing() -> tuple[BookRemoved, bool]:
        async with connected(Settings().servers) as client:
            return await remove_book(
                client, RemoveBook(book=book, delete_files=delete_files), READY_TIMEOUT_S
            )

    try:
        removed, dropped = asyncio.run(removing())
    except RemoteFailure as error:
        raise _fail(console, f"not removed: {error.failure.error}") from None
    except CallFailed as error:
        raise _fail(console, str(error)) from None
    freed = f", and deleted its files: {size_said(removed.freed_bytes)} freed" if delete_files else ""
    console.print(f"removed {removed.title!r} ({removed.book}){freed}")
    if not dropped:
        raise _fail(console, f"search still lists {book!r} after {READY_TIMEOUT_S:.0f} s; see its log")


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
    app.command("jobs")(jobs)
    app.command("remove")(remove)


async def first_start(settings: Settings, servers: list[str]) -> list[str]:
    """Ingest the sample book unless search already has it; one line saying what happened."""
    try:
        async with connected(servers) as client:
            if await catalog_has(client, SAMPLE_BOOK_ID):
                return [f"sample     {SAMPLE_BOOK_ID!r} is in the catalog"]
            request = IngestBook(path=str(SAMPLE_TRANSCRIPT), book=SAMPLE_BOOK_ID)
            report = await request_ingest(client, request)
            if not await wait_until_ready(client, report.book, report.version, READY_TIMEOUT_S):
                return [f"sample     ingested {report.title!r} but search did not index it in time"]
    except CallFailed as error:
        return [f"sample     not ingested: {error}"]
    return [
        f"sample     ingested {report.title!r} as {report.book!r}: {counted(report.chapters, 'chapter')}, "
        f"{counted(report.passages, 'passage')}, {clock(report.duration_ms)}"
    ]
