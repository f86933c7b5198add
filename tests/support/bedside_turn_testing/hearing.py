"""The real recogniser, noting the hints each question was heard with."""

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from bedside_speech import WhisperTranscriber


@dataclass
class HintsNoted:
    """``WhisperTranscriber.hear`` as it is, and every ``hints`` it was asked to expect."""

    inner: WhisperTranscriber = field(default_factory=WhisperTranscriber)
    hints: list[str | None] = field(default_factory=list)

    def hear(self, samples: npt.NDArray[np.float32], hints: str | None = None) -> str:
        self.hints.append(hints)
        return self.inner.hear(samples, hints)
