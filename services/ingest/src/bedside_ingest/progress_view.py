"""The progress bars of an ingest in a terminal, moved by the service's progress events."""

from collections.abc import Iterator
from contextlib import contextmanager

from bedside_contracts.ingest import IngestProgress, TranscriptionProgress
from bedside_guard import clock
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

STAGES = ("parse", "transcribe", "align", "chunk", "embed", "store")


class StageBars:
    """One progress bar per stage, moved by the service's progress events."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.tasks: dict[str, TaskID] = {
            stage: progress.add_task(stage, total=None, visible=False, status="") for stage in STAGES
        }

    def __call__(self, event: IngestProgress) -> None:
        task = self.tasks[event.stage]
        status = event.transcription
        if status is not None:
            # Transcription moves by seconds of audio, not by chapters: chapters differ in length.
            total_s = max(status.audio_total_s, 1.0)
            self.progress.update(
                task,
                total=total_s,
                completed=min(status.audio_done_s, total_s),
                visible=True,
                status=transcription_line(status),
            )
            return
        total = max(event.total, 1)
        self.progress.update(task, total=total, completed=min(event.done, total), visible=True)


def transcription_line(status: TranscriptionProgress) -> str:
    """ "chapter 2 of 9, 0:12:30 of 1:40:00, RTF 0.08, 0:07:00 left" (figures once known)."""
    parts = [
        f"chapter {status.chapter} of {status.chapters}",
        f"{clock(round(status.audio_done_s * 1000))} of {clock(round(status.audio_total_s * 1000))} audio",
    ]
    if status.resumed:
        parts.append(f"{status.resumed} stored before")
    if status.rtf is not None:
        parts.append(f"RTF {status.rtf:.3f}")
    if status.eta_s is not None:
        parts.append(f"{clock(round(status.eta_s * 1000))} left")
    return ", ".join(parts)


@contextmanager
def stage_bars(console: Console) -> Iterator[StageBars]:
    columns = (
        TextColumn("{task.description:<10}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        yield StageBars(progress)
