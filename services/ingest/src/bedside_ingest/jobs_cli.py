"""``bedside jobs``: the ingest service's audiobook jobs; follow one (re-attach) or cancel it."""

import asyncio
from collections.abc import Sequence
from typing import Annotated

import typer
from bedside_contracts import subjects
from bedside_contracts.ingest import UNFINISHED, IngestJob, IngestProgress
from bedside_runtime.bus import connected
from bedside_runtime.cli_args import checked_id
from bedside_runtime.errors import CallFailed
from bedside_runtime.settings import Settings
from nats.aio.client import Client
from nats.aio.msg import Msg
from rich.console import Console

from bedside_ingest.client import cancel_job, list_jobs
from bedside_ingest.progress_view import stage_bars, transcription_line

POLL_S = 1.0
RECENT_ENDED = 10
"""The jobs that have ended that `bedside jobs` lists, the newest; `--all` lists every one ever made."""


def jobs_to_list(jobs: Sequence[IngestJob], *, everything: bool) -> tuple[list[IngestJob], int]:
    """The jobs `bedside jobs` lists, in the service's order (those under way first, then those
    ended, newest first), and how many older ended ones it leaves out."""
    if everything:
        return list(jobs), 0
    under_way = [job for job in jobs if job.state in UNFINISHED]
    ended = [job for job in jobs if job.state not in UNFINISHED]
    return under_way + ended[:RECENT_ENDED], max(0, len(ended) - RECENT_ENDED)


def job_line(job: IngestJob) -> str:
    """A job as `bedside jobs` lists it; how far the transcription got only while it goes on."""
    status = transcription_line(job.progress) if job.progress and job.state in UNFINISHED else ""
    said = [part for part in (job.book or "", job.reason, job.note) if part]
    detail = f" ({'; '.join(said)})" if said else ""
    return f"{job.job}  {job.state:<9} {job.request.path}{detail}  {status}".rstrip()


async def _attach(client: Client, job_id: str, console: Console) -> IngestJob:
    """Show the job's progress until it ends (its record stops being queued or running)."""
    job = (await list_jobs(client, job_id))[0]
    with stage_bars(console) as bars:
        if job.progress is not None:
            bars(IngestProgress(job=job_id, stage="transcribe", done=0, total=1, transcription=job.progress))

        async def forward(message: Msg) -> None:
            bars(IngestProgress.model_validate_json(message.data))

        subscription = await client.subscribe(subjects.INGEST_PROGRESS.format(job=job_id), cb=forward)
        try:
            while job.state in UNFINISHED:
                await asyncio.sleep(POLL_S)
                job = (await list_jobs(client, job_id))[0]
        finally:
            await subscription.unsubscribe()
    return job


async def _jobs(
    settings: Settings, attach: str | None, cancel: str | None, console: Console, *, everything: bool
) -> int:
    async with connected(settings.servers, waits_long=attach is not None) as client:
        if cancel is not None:
            console.print(job_line(await cancel_job(client, cancel)))
            return 0
        if attach is not None:
            job = await _attach(client, attach, console)
            console.print(job_line(job))
            return 0 if job.state == "done" else 1
        found = await list_jobs(client)
        shown, older = jobs_to_list(found, everything=everything)
        for job in shown:
            console.print(job_line(job))
        if older:
            console.print(f"and {older} older job{'s' if older > 1 else ''} that ended: bedside jobs --all")
        if not found:
            console.print("no audiobook jobs")
        return 0


def jobs(
    *,
    attach: Annotated[
        str | None, typer.Option("--attach", help="follow this job until it ends", callback=checked_id)
    ] = None,
    cancel: Annotated[
        str | None, typer.Option("--cancel", help="cancel this job", callback=checked_id)
    ] = None,
    everything: Annotated[
        bool,
        typer.Option("--all", help=f"every job ever made, not only the {RECENT_ENDED} newest that ended"),
    ] = False,
) -> None:
    """The ingest service's audiobook jobs: list them, follow one (--attach) or cancel one."""
    console = Console()
    try:
        code = asyncio.run(_jobs(Settings(), attach, cancel, console, everything=everything))
    except CallFailed as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(1) from None
    raise typer.Exit(code)
