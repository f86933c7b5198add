"""Audiobook ingest as a job: read the recording, transcribe it chapter by chapter (each piece's
and each chapter's transcript stored as soon as it is done), and make the book of it for the
usual pipeline.
"""

import asyncio
import hashlib
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from bedside_contracts.ingest import AlignmentSummary, ChapterTranscript, IngestBook, TranscriptionProgress
from bedside_contracts.search import ChapterInfo
from bedside_speech import Transcriber

from bedside_ingest.alignment import AlignmentReport, align_book
from bedside_ingest.audiobook import Audiobook
from bedside_ingest.interim import interim_of
from bedside_ingest.jobs import JobStore
from bedside_ingest.joined_audio import keep_joined
from bedside_ingest.media import read_audiobook, read_cover
from bedside_ingest.media_bucket import Media
from bedside_ingest.naming import book_names
from bedside_ingest.pipeline import Prepared, Progress, StageClock, prepare_book
from bedside_ingest.reader import read_book
from bedside_ingest.transcribe import PieceLog, audio_fingerprint, transcribe_audiobook
from bedside_ingest.transcription import silent_chapters, transcribed_book, unheard_notes

TranscriptionReport = Callable[[TranscriptionProgress], None]
PublishInterim = Callable[[Prepared], Coroutine[Any, Any, None]]
COVER_NAME_CHARS = 24
T = TypeVar("T")


class Audiobooks:
    """Turns a recording into a prepared book; the transcriber is loaded at the first job."""

    def __init__(
        self, store: JobStore, load_transcriber: Callable[[], Transcriber], covers: Path, joined: Path
    ) -> None:
        self._store = store
        self._load = load_transcriber
        self._covers = covers
        self._joined = joined
        self._transcriber: Transcriber | None = None

    def _keep_cover(self, audiobook: Audiobook, path: Path) -> str | None:
        """The cover, written once under ingest's data directory (named by its content) for the
        player to serve, as it serves the audio from its path."""
        found = read_cover(audiobook, path)
        if found is None:
            return None
        data, kind = found
        self._covers.mkdir(parents=True, exist_ok=True)
        kept = self._covers / f"{hashlib.sha256(data).hexdigest()[:COVER_NAME_CHARS]}.{kind}"
        if not kept.exists():
            kept.write_bytes(data)
        return str(kept)

    async def transcriber(self) -> Transcriber:
        if self._transcriber is None:
            self._transcriber = await asyncio.to_thread(self._load)
        return self._transcriber

    async def prepare(
        self,
        request: IngestBook,
        *,
        embedding_model: str,
        progress: Progress,
        transcription: TranscriptionReport,
        should_stop: Callable[[], bool],
        clock: StageClock,
        publish_interim: PublishInterim | None = None,
    ) -> Prepared:
        """The whole book of the recording; with ``publish_interim``, each chapter this run
        transcribes also makes an interim version of the chapters done so far (adr/0032),
        handed over before the next chapter begins."""
        path = Path(request.path)
        with clock.stage("parse"):
            progress("parse", 0, 1, path.name)
            audiobook = await asyncio.to_thread(read_audiobook, path)
            cover = await asyncio.to_thread(self._keep_cover, audiobook, path)
            if len(audiobook.files) > 1:
                progress("parse", 0, 1, f"joining {len(audiobook.files)} tracks into one recording")
                audiobook = await asyncio.to_thread(keep_joined, audiobook, self._joined)
            # The e-book is read before the hours of transcription: a bad one is refused at once,
            # and its title is known to the interim versions too.
            ebook = await asyncio.to_thread(read_book, request.text_path) if request.text_path else None
            progress("parse", 1, 1, f"{len(audiobook.chapters)} chapters, audio")
        title, author = book_names(request.title, audiobook, ebook)
        transcriber = await self.transcriber()
        fingerprint = await asyncio.to_thread(audio_fingerprint, audiobook, transcriber.model_id)
        stored = await self._store.stored_transcripts(fingerprint, [c.n for c in audiobook.chapters])
        loop = asyncio.get_running_loop()

        def run(step: Coroutine[Any, Any, T]) -> T:
            """One store call from the transcribing thread, on the service's loop."""
            return asyncio.run_coroutine_threadsafe(step, loop).result()

        def save(transcript: ChapterTranscript) -> None:
            run(self._store.save_transcript(fingerprint, transcript))

        piece_log = PieceLog(
            heard_before=lambda chapter: run(self._store.stored_pieces(fingerprint, chapter)),
            save=lambda piece: run(self._store.save_piece(fingerprint, piece)),
            forget=lambda chapter, count: run(self._store.forget_pieces(fingerprint, chapter, count)),
        )
        source = f"{path.name} ({transcriber.model_id})"
        media = await asyncio.to_thread(Media.of, audiobook.playable, cover)
        made = partial(  # the interim versions and the whole book: one recording, one cover
            prepare_book,
            request,
            audio_ms=audiobook.duration_ms,
            audio_path=audiobook.playable,
            cover_path=cover,
            media=media,
            embedding_model=embedding_model,
        )

        def transcribed(done: Mapping[int, ChapterTranscript]) -> None:
            interim = interim_of(audiobook, done, source) if publish_interim is not None else None
            if publish_interim is None or interim is None:
                return
            with clock.stage("interim"):
                book = replace(interim.book, title=title, author=author)
                prepared = made(
                    book, pending=interim.pending, silent=interim.silent, transcript=interim.coverage
                )
                asyncio.run_coroutine_threadsafe(publish_interim(prepared), loop).result()

        await asyncio.to_thread(transcribed, stored)  # playable (and what is stored, searchable) now
        with clock.stage("transcribe"):
            transcripts = await asyncio.to_thread(
                transcribe_audiobook,
                audiobook,
                transcriber,
                stored,
                save=save,
                progress=transcription,
                should_stop=should_stop,
                transcribed=transcribed,
                pieces=piece_log,
            )
        alignment = None
        notes = audiobook.cut_short
        silent: tuple[ChapterInfo, ...] = ()  # an e-book's chapters are its own, each with words
        if ebook is None:
            book = transcribed_book(audiobook, transcripts, source)
            silent = silent_chapters(audiobook, transcripts)
            notes += unheard_notes(audiobook, transcripts)
        else:
            with clock.stage("align"):
                progress("align", 0, 1, Path(request.text_path or "").name)
                book, report = await asyncio.to_thread(align_book, ebook, audiobook, transcripts, source)
                alignment = summary_of(report)
                progress("align", 1, 1, f"{report.matched_share:.0%} of sentences matched")
        prepared = made(
            replace(book, title=title, author=author), silent=silent, progress=progress, clock=clock
        )
        return replace(prepared, alignment=alignment, notes=notes)


def summary_of(report: AlignmentReport) -> AlignmentSummary:
    return AlignmentSummary(
        sentences=report.sentences,
        matched=report.matched,
        interpolated=report.interpolated,
        left_out=report.left_out,
        matched_share=round(report.matched_share, 4),
        recording_share=round(min(1.0, report.recording_share), 4),
        fallback=report.fallback,
    )
