"""Speech to text for Bedside, offline: one Whisper model, loaded and checked in one place,
shared by ingest (whole books) and the turn service (a listener's spoken question)."""

from bedside_speech.audio import NotAWav, samples_from_wav
from bedside_speech.hints import hint_text
from bedside_speech.whisper import (
    ASR_THREADS,
    LISTEN_RATE,
    TINY_EN_MODEL_ID,
    Hearer,
    SpokenWord,
    Transcriber,
    TranscriptionStopped,
    WhisperTranscriber,
    model_folder,
)

__all__ = [
    "ASR_THREADS",
    "LISTEN_RATE",
    "TINY_EN_MODEL_ID",
    "Hearer",
    "NotAWav",
    "SpokenWord",
    "Transcriber",
    "TranscriptionStopped",
    "WhisperTranscriber",
    "hint_text",
    "model_folder",
    "samples_from_wav",
]
