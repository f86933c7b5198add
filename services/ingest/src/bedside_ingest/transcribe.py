"""Transcribing an audiobook chapter by chapter: decode a chapter piece by piece (``pieces``),
recognise each piece and hand it to the ``PieceLog``, hand the chapter's transcript to ``save``
before the next chapter begins. Chapters in ``stored`` (saved by an earlier run that was stopped)
are not decoded again, and a chapter's pieces an earlier run heard are not heard again: a
restarted job continues at the first piece not yet heard.
"""

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path

from bedside_contracts.ingest import ChapterTranscript, PieceTranscript, TranscriptionProgress
from bedside_speech import SpokenWord, Transcriber, TranscriptionStopped

from bedside_ingest.audiobook import Audiobook
from bedside_ingest.errors import JobCancelled
from bedside_ingest.fingerprint import add_files
from bedside_ingest.media import SAMPLE_RATE, decode_pieces
from bedside_ingest.pieces import PIECE_S
from bedside_ingest.transcription import TranscriptionMeter, chapter_transcript, spoken_words, timed_words

FINGERPRINT_CHARS = 24


def audio_fingerprint(audiobook: Audiobook, model_id: str) -> str:
    """Names the stored transcripts of this recording by this model: its files as ``add_files``
    knows them, and the chapter layout."""
    digest = hashlib.sha256(model_id.encode())
    add_files(digest, map(Path, audiobook.files))
    for chapter in audiobook.chapters:
        digest.update(f"{chapter.n}:{chapter.file_start_ms}:{chapter.file_end_ms}\0".encode())
    return digest.hexdigest()[:FINGERPRINT_CHARS]


@dataclass(frozen=True)
class PieceLog:
    """Where a run keeps each piece it hears, and finds the pieces an earlier run heard."""

    heard_before: Callable[[int], Sequence[PieceTranscript]]
    """A chapter's stored pieces, in order."""
    save: Callable[[PieceTranscript], None]
    forget: Callable[[int, int], None]
    """A chapter's first ``count`` pieces, once the chapter's own transcript is saved."""


NO_PIECE_LOG = PieceLog(lambda chapter: (), lambda piece: None, lambda chapter, count: None)


def _piece_ms(samples: Sized) -> int:
    return len(samples) * 1000 // SAMPLE_RATE


def transcribe_audiobook(
    audiobook: Audiobook,
    transcriber: Transcriber,
    stored: Mapping[int, ChapterTranscript],
    *,
    save: Callable[[ChapterTranscript], None],
    progress: Callable[[TranscriptionProgress], None],
    should_stop: Callable[[], bool] = lambda: False,
    transcribed: Callable[[Mapping[int, ChapterTranscript]], None] = lambda done: None,
    piece_s: float = PIECE_S,
    pieces: PieceLog = NO_PIECE_LOG,
) -> dict[int, ChapterTranscript]:
    """Raises ``JobCancelled`` as soon as ``should_stop`` says so (checked as speech is decoded).
    ``transcribed`` is given the chapters done so far after each chapter this run transcribed;
    the recogniser hears at most ``piece_s`` of audio at a time."""
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
        heard_before = list(pieces.heard_before(chapter.n))
        stored_pieces = len(heard_before)
        compute_before = 0.0
        words: list[SpokenWord] = []
        count = 0
        cut = decode_pieces(Path(chapter.path), chapter.file_start_ms, chapter.file_end_ms, piece_s)
        for index, piece in enumerate(cut):
            count = index + 1
            kept = heard_before[index] if index < len(heard_before) else None
            if kept is not None and (kept.offset, kept.samples) == (piece.offset, len(piece.samples)):
                if should_stop():  # decoding hours of pieces heard before takes a while too
                    raise JobCancelled
                words += spoken_words(kept.words)
                compute_before += kept.compute_s
                progress(meter.add_piece(_piece_ms(piece.samples), None))
                continue
            heard_before = []  # cut elsewhere than before (another piece length): hear the rest
            piece_started = time.perf_counter()
            try:
                heard = transcriber.transcribe(piece.samples, should_stop)
            except TranscriptionStopped:
                raise JobCancelled from None
            shift = piece.offset / SAMPLE_RATE
            shifted = [SpokenWord(w.text, w.start_s + shift, w.end_s + shift) for w in heard]
            words += shifted
            piece_compute_s = round(time.perf_counter() - piece_started, 3)
            pieces.save(
                PieceTranscript(
                    chapter=chapter.n,
                    piece=index,
                    offset=piece.offset,
                    samples=len(piece.samples),
                    compute_s=piece_compute_s,
                    words=timed_words(shifted, chapter.duration_ms),
                )
            )
            progress(meter.add_piece(_piece_ms(piece.samples), piece_compute_s))
        compute_s = compute_before + time.perf_counter() - started
        transcript = chapter_transcript(
            chapter.n, transcriber.model_id, chapter.duration_ms, compute_s, words
        )
        save(transcript)
        pieces.forget(chapter.n, max(count, stored_pieces))  # an earlier cut may have had more
        transcripts[chapter.n] = transcript
        progress(meter.add(transcript, stored_before=False))
        transcribed(dict(transcripts))
    return transcripts
