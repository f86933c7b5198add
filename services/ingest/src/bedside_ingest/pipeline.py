"""The stages of an ingest as plain, synchronous functions: parse, chunk, embed, build the
artifact. The service runs them off its event loop; the benchmark runs them directly.
"""

import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from bedside_contracts.ingest import AlignmentSummary, BookArtifact, IngestBook, Stage
from bedside_contracts.search import ChapterInfo, TranscriptCoverage, times_from_format
from bedside_embedding import Embedder
from bedside_embedding.cache import vectors_through_cache
from bedside_guard import Passage
from bedside_guard import clock as clock_of

from bedside_ingest.artifact import artifact_fields, content_version, encode_vectors
from bedside_ingest.audio import audio_duration_ms
from bedside_ingest.book import Book
from bedside_ingest.chunking import chapter_infos, chunk_book
from bedside_ingest.errors import BadInput
from bedside_ingest.identity import book_of
from bedside_ingest.interim import with_timed_only
from bedside_ingest.media_bucket import Media
from bedside_ingest.reader import read_book
from bedside_ingest.timeline import DEFAULT_WPM

AUDIO_SLACK_MS = 2_000
"""A transcript may end a little after its audio (rounding, a trailing cue); more is the wrong file."""
EMBED_BATCH = 16
"""Passages sorted by length and embedded sixteen at a time: little padding, steady progress."""

Progress = Callable[[Stage, int, int, str], None]


def no_progress(stage: Stage, done: int, total: int, detail: str) -> None:
    return None


@dataclass
class StageClock:
    """Seconds spent in each stage, for the report and the benchmark."""

    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = round(self.seconds.get(name, 0.0) + time.perf_counter() - started, 4)


@dataclass(frozen=True)
class Prepared:
    """A book parsed and chunked, with its version: everything but the vectors."""

    book_id: str
    version: str
    book: Book
    chapters: list[ChapterInfo]
    passages: list[Passage]
    fields: dict[str, Any]
    alignment: AlignmentSummary | None = None
    notes: tuple[str, ...] = ()
    """What the listener should know of the book made (a recording cut short)."""

    @property
    def duration_ms(self) -> int:
        duration: int = self.fields["duration_ms"]
        return duration

    @property
    def transcript(self) -> TranscriptCoverage | None:
        """Set on an interim version of a recording still being transcribed."""
        coverage = self.fields.get("transcript")
        return TranscriptCoverage.model_validate(coverage) if coverage is not None else None


def prepare(
    request: IngestBook,
    *,
    embedding_model: str,
    narration_wpm: int = DEFAULT_WPM,
    progress: Progress = no_progress,
    clock: StageClock | None = None,
) -> Prepared:
    """Parse and chunk the file a request names; raises ``BadInput`` on anything wrong with it."""
    clock = clock or StageClock()
    path = Path(request.path)
    if request.text_path is not None:
        raise BadInput(request.text_path, "an e-book given with --text needs an audiobook (audio) as PATH")
    with clock.stage("parse"):
        progress("parse", 0, 1, path.name)
        book = read_book(
            path, chapters_path=request.chapters_path, title=request.title, narration_wpm=narration_wpm
        )
        if book.estimated and request.audio_path:  # the service makes it an audiobook job first
            raise BadInput(path, f"an e-book is timed by its recording: ingest that with --text {path}")
        audio_ms = audio_duration_ms(Path(request.audio_path)) if request.audio_path else 0
        progress("parse", 1, 1, f"{len(book.chapters)} chapters, {book.format}")
    return prepare_book(
        request,
        book,
        audio_ms=audio_ms,
        audio_path=request.audio_path,
        media=Media.of(request.audio_path, None),
        embedding_model=embedding_model,
        narration_wpm=narration_wpm,
        progress=progress,
        clock=clock,
    )


def prepare_book(
    request: IngestBook,
    book: Book,
    *,
    audio_ms: int,
    audio_path: str | None,
    embedding_model: str,
    cover_path: str | None = None,
    media: Media | None = None,
    narration_wpm: int = DEFAULT_WPM,
    progress: Progress = no_progress,
    clock: StageClock | None = None,
    pending: Sequence[ChapterInfo] = (),
    silent: Sequence[ChapterInfo] = (),
    transcript: TranscriptCoverage | None = None,
) -> Prepared:
    """Chunk a book that has been read (from a file, or transcribed from its recording).

    A recording's book also lists, with their times and no passages, the ``silent`` chapters, in
    which nothing was heard, and in an interim version (``transcript`` set) the ``pending`` ones,
    not transcribed yet."""
    clock = clock or StageClock()
    path = Path(request.path)
    with clock.stage("chunk"):
        progress("chunk", 0, 1, "")
        passages = chunk_book(book, narration_wpm)
        if not passages and transcript is None:  # an interim version may have none yet
            raise BadInput(path, "there is no text to make passages of")
        if book.timed and audio_ms and passages and passages[-1].end_ms > audio_ms + AUDIO_SLACK_MS:
            raise BadInput(
                audio_path or "",
                f"lasts {clock_of(audio_ms)} but the transcript runs to {clock_of(passages[-1].end_ms)}: "
                "is it the audio of this transcript?",
            )
        chapters = with_timed_only(chapter_infos(book, passages), [*pending, *silent])
        progress("chunk", 1, 1, f"{len(passages)} passages")
    book_id = book_of(request)
    fields = artifact_fields(
        book=book_id,
        title=book.title,
        author=book.author,
        estimated=book.estimated,
        duration_ms=max(passages[-1].end_ms if passages else 0, audio_ms),
        audio_path=str(Path(audio_path).resolve()) if audio_path else None,
        source=f"{book.format}: {book.source}",
        chapters=chapters,
        passages=passages,
        embedding_model=embedding_model,
        narrator=book.narrator,
        cover_path=cover_path,
        transcript=transcript,
        silent_chapters=[c.n for c in silent],
        times_from=times_from_format(book.format),
        audio_object=media.audio if media else None,
        cover_object=media.cover if media else None,
    )
    return Prepared(book_id, content_version(fields), book, chapters, passages, fields)


def embed_passages(
    texts: list[str], embedders: Sequence[Embedder], progress: Progress = no_progress
) -> npt.NDArray[np.float32]:
    """One vector per text, in order; computed shortest first, sixteen at a time, one batch per
    embedder at once (each embedder is used by one thread at a time).
    """
    vectors = np.zeros((len(texts), embedders[0].dimensions), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    batches = [order[begin : begin + EMBED_BATCH] for begin in range(0, len(order), EMBED_BATCH)]
    free: queue.SimpleQueue[Embedder] = queue.SimpleQueue()
    for embedder in embedders:
        free.put(embedder)
    counted = threading.Lock()
    done = 0
    progress("embed", 0, len(texts), "")

    def run(batch: list[int]) -> tuple[list[int], npt.NDArray[np.float32]]:
        nonlocal done
        embedder = free.get()
        try:
            rows = embedder.embed_passages([texts[i] for i in batch])
        finally:
            free.put(embedder)
        with counted:
            done += len(batch)
            progress("embed", done, len(texts), "")
        return batch, rows

    with ThreadPoolExecutor(max_workers=len(embedders), thread_name_prefix="embed") as pool:
        for batch, rows in pool.map(run, batches):
            vectors[batch] = rows
    return vectors


def embed_new(
    texts: list[str],
    embedders: Sequence[Embedder],
    known: dict[str, npt.NDArray[np.float32]],
    progress: Progress = no_progress,
    cache: Path | None = None,
) -> npt.NDArray[np.float32]:
    """``embed_passages`` for the texts not in ``known`` (which it adds to): the interim versions
    of an audiobook share their earlier chapters' passages, embedded once. With ``cache`` (a test
    run's folder, Settings.vector_cache_dir) texts embedded by an earlier ingest are read from there."""
    new = sorted({t for t in texts if t not in known})
    if new:
        embedded = [False]

        def compute(distinct: list[str]) -> npt.NDArray[np.float32]:
            embedded[0] = True
            return embed_passages(distinct, embedders, progress)

        model, dimensions = embedders[0].model_id, embedders[0].dimensions
        vectors = (
            compute(new) if cache is None else vectors_through_cache(model, new, compute, cache, dimensions)
        )
        if not embedded[0]:
            progress("embed", len(texts), len(texts), "embedded before")
        for text, row in zip(new, vectors, strict=True):
            known[text] = row
    else:
        progress("embed", len(texts), len(texts), "embedded before")
    rows = [known[t] for t in texts]
    return np.stack(rows).astype(np.float32) if rows else np.zeros((0, embedders[0].dimensions), np.float32)


def build_artifact(prepared: Prepared, vectors: npt.NDArray[np.float32]) -> BookArtifact:
    return BookArtifact.model_validate(
        {**prepared.fields, "version": prepared.version, "vectors_b64": encode_vectors(vectors)}
    )
