"""Where a long stretch of a recording is cut before the recogniser hears it, without I/O.

The recogniser's voice detector and feature extractor each pass over the whole audio they are
given at once, so its memory grows with the length of what it hears, and a file without chapter
markers is one chapter however long it is (adr/0020). A chapter is therefore heard in pieces of
a bounded length, each cut where the speech is quietest near the bound, so no word is split
between two pieces.
"""

import numpy as np
import numpy.typing as npt

PIECE_S = 180
"""The longest piece the recogniser is given."""
SEARCH_S = 20
"""A piece ends at the quietest moment of its last twenty seconds (of its second half, when it
is shorter than forty: a piece cut in a pause must not end in that same pause again)."""
FRAME_S = 0.1
"""Quietness is judged over frames this long (a pause between words lasts longer)."""


def cut_index(samples: npt.NDArray[np.float32], rate: int, longest: int) -> int:
    """How many of ``samples`` the next piece takes: all of them when there are ``longest`` or
    fewer, else up to the middle of the quietest frame in the last ``SEARCH_S`` before ``longest``
    (so every piece but the last is at least half of ``longest``)."""
    if longest < 2:
        raise ValueError(f"a piece must be longer than {longest} samples")
    if len(samples) <= longest:
        return len(samples)
    frame = max(1, round(FRAME_S * rate))
    search_start = longest - min(round(SEARCH_S * rate), longest // 2)
    frames = (longest - search_start) // frame
    if frames == 0:
        return longest
    window = samples[search_start : search_start + frames * frame].reshape(frames, frame)
    energy = np.square(window, dtype=np.float64).mean(axis=1)
    quietest = int(np.argmin(energy))
    return search_start + quietest * frame + frame // 2
