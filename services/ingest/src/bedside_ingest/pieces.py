"""Where a long stretch of a recording is cut before the recogniser hears it, without I/O.

The recogniser's voice detector and feature extractor each pass over the whole audio they are
given at once, so its memory grows with the length of what it hears: a chapter of ten minutes
took about 300 MB more at its peak than the model at rest, and a file without chapter markers is
one chapter however long it is. A chapter is therefore heard in pieces of a bounded length, each
cut where the speech is quietest near the bound, so no word is split between two pieces.
"""

import numpy as np
import numpy.typing as npt

PIECE_S = 180
"""The longest piece the recogniser is given."""
SEARCH_S = 20
"""A piece ends at the quietest moment of its last twenty seconds."""
FRAME_S = 0.1
"""Quietness is judged over frames this long (a pause between words lasts longer)."""


def cut_index(samples: npt.NDArray[np.float32], rate: int, longest: int) -> int:
    """How many of ``samples`` the next piece takes: all of them when there are ``longest`` or
    fewer, else up to the middle of the quietest frame in the last ``SEARCH_S`` before ``longest``."""
    if len(samples) <= longest:
        return len(samples)
    frame = max(1, round(FRAME_S * rate))
    search_start = max(0, longest - round(SEARCH_S * rate))
    frames = (longest - search_start) // frame
    if frames == 0:
        return longest
    window = samples[search_start : search_start + frames * frame].reshape(frames, frame)
    energy = np.square(window, dtype=np.float64).mean(axis=1)
    quietest = int(np.argmin(energy))
    return search_start + quietest * frame + frame // 2
