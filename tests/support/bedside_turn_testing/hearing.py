"""The real recogniser, noting the hints each transcription was given."""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from bedside_speech import SpokenWord, WhisperTranscriber


@dataclass
class HintsNoted:
    """``WhisperTranscriber`` as it is, and every ``hints`` it was asked to expect."""

    inner: WhisperTranscriber = field(default_factory=WhisperTranscriber)
    hints: list[str | None] = field(default_factory=list)
    model_id: str = field(init=False)

    def __post_init__(self) -> None:
        self.model_id = self.inner.model_id

    def transcribe(
        self,
        samples: npt.NDArray[np.float32],
        should_stop: Callable[[], bool] = lambda: False,
        hints: str | None = None,
    ) -> list[SpokenWord]:
        self.hints.append(hints)
        return self.inner.transcribe(samples, should_stop, hints)
