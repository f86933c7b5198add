"""Passage vectors kept on disk by the hash of the model and the texts, for processes that embed the
same book again and again (the tests' ingests and search engines, the evaluation, the benchmarks).

An entry holds the vectors of exactly one set of texts: the distinct texts in sorted order, so whoever
asks for the same texts in another order (ingest asks for them sorted, a search test in reading order)
finds the same entry. Computing them is the caller's: its own embedders, batched its own way.
"""

import fcntl
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bedside_embedding.embedder import Vectors


def vectors_through_cache(
    model_id: str,
    texts: Sequence[str],
    compute: Callable[[list[str]], Vectors],
    folder: Path,
    dimensions: int,
) -> Vectors:
    """One row per text of ``texts``, in order: from ``folder`` if an entry holds them, else computed by
    ``compute`` (given the distinct texts, sorted) and kept there."""
    distinct = sorted(set(texts))
    digest = hashlib.sha256(model_id.encode())
    for text in distinct:  # each text's length first: no two lists of texts run together alike
        said = text.encode()
        digest.update(len(said).to_bytes(8, "big") + said)
    path = folder / f"{digest.hexdigest()}.npy"
    folder.mkdir(parents=True, exist_ok=True)
    # Processes asking for the same texts at once (two test workers, two ingests) embed them once: the
    # second waits for the first's entry rather than spending the same minute of CPU beside it.
    with path.with_suffix(".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        vectors = _kept(path, (len(distinct), dimensions))
        if vectors is None:
            vectors = np.asarray(compute(distinct), dtype=np.float32)
            partial = path.with_suffix(".partial.npy")
            np.save(partial, vectors)
            partial.replace(path)
    row = {text: i for i, text in enumerate(distinct)}
    ordered: Vectors = vectors[[row[text] for text in texts]] if texts else vectors[:0]
    return ordered


def _kept(path: Path, shape: tuple[int, int]) -> Vectors | None:
    """The entry at ``path`` when it holds vectors of ``shape``; None when there is none, or one cut
    short or of another shape (computed again and put in its place)."""
    try:
        kept: Vectors = np.load(path).astype(np.float32)
    except (OSError, ValueError, EOFError):
        return None
    return kept if kept.shape == shape else None
