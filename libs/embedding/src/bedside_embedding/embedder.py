"""The interface every embedding model of Bedside meets."""

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Dense text embeddings: float32, L2-normalised, so a dot product is the cosine."""

    @property
    def model_id(self) -> str:
        """Names the vector space: vectors from different ids must never be compared."""
        ...

    @property
    def dimensions(self) -> int: ...

    def embed_query(self, text: str) -> Vectors:
        """One vector of shape (dimensions,)."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """One row per text, in the order given, shape (len(texts), dimensions)."""
        ...
