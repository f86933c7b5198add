"""Transcribing an audiobook chapter by chapter: decode one chapter, recognise it, hand its
transcript to ``save`` before the next begins. Chapters in ``stored`` (saved by an earlier run
that was stopped) are not decoded again: a restarted job continues at the next chapter.
"""

import hashlib
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from bedside_contracts.ingest import ChapterTranscript, TranscriptionProgress
from bedside_speech import Transcriber, TranscriptionStopped

from bedside_ingest.audiobook import Audiobook
from bedside_ingest.errors import JobCancelled
from bedside_ingest.media import decode_span
from bedside_ingest.transcription import TranscriptionMeter, chapter_transcript

FINGERPRINT_BYTES = 1 << 16
FINGERPRINT_CHARS = 24


def audio_fingerprint(audiobook: Audiobook, model_id: str) -> str:
    """Names the stored transcripts of this recording by this model: the files' names, sizes and
    first and last 64 KiB, and the chapter layout (reading whole gigabytes to hash them would cost
    more than a chapter's transcription)."""
    digest = hashlib.sha256(model_id.encode())
    for name in audiobook.files:
        path = Path(name)
        size = path.stat().st_size
        digest.update(f"{path.name}\0{size}\0".encode())
        with path.open("rb") as file:
            digest.update(file.read(FINGERPRINT_BYTES))
            file.seek(max(0, size - FINGERPRINT_BYTES))
            digest.update(file.read(FINGERPRINT_BYTES))
    for chapter in audiobook.chapters:
        digest.update(f"{chapter.n}:{chapter.file_start_ms}:{chapter.file_end_ms}\0".encode())
    return digest.hexdigest()[:FINGERPRINT_CHARS]


def transcribe_audiobook(
    audiobook: Audiobook,
    transcriber: Transcriber,
    stored: Mapping[int, ChapterTranscript],
    *,
    save: Callable[[ChapterTranscript], None],
    progress: Callable[[TranscriptionProgress], None],
    should_stop: Callable[[], bool] = lambda: False,
    transcribed: Callable[[Mapping[int, ChapterTranscript]], None] = lambda done: None,
) -> dict[int, ChapterTranscript]:
    """Raises ``JobCancelled`` as soon as ``should_stop`` says so (checked as speech is decoded).
    ``transcribed`` is given the chapters done so far after each chapter this run transcribed."""
    meter = TranscriptionMeter(chapters=len(audiobook.chapters), audio_total_ms=audiobook.duration_ms)
    progress(meter.progress())
    transcripts: dict[int, ChapterTranscript] = {}
    for chapter in audiobook.chapters:
        before = stored.get(chapter.n)
        if before is not None:
            transcripts[chapter.n] = before
            progress(meter.add(before, stored_before=True))
            continue
        if should_stop():
            raise JobCancelled
        started = time.perf_counter()
        samples = decode_span(Path(chapter.path), chapter.file_start_ms, chapter.file_end_ms)
        try:
            words = transcriber.transcribe(samples, should_stop)
        except TranscriptionStopped:
            raise JobCancelled from None
        transcript = chapter_transcript(
            chapter.n, transcriber.model_id, chapter.duration_ms, time.perf_counter() - started, words
        )
        del samples
        save(transcript)
        transcripts[chapter.n] = transcript
        progress(meter.add(transcript, stored_before=False))
        transcribed(dict(transcripts))
    return transcripts
