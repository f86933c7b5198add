"""Text to vectors for Bedside, behind one small interface so a better model can replace it."""

from bedside_embedding.embedder import Embedder
from bedside_embedding.minilm import (
    MINILM_MODEL_ID,
    MODEL_SHA256,
    TOKENIZER_SHA256,
    IntegrityError,
    MiniLMEmbedder,
    load_minilm,
)

__all__ = [
    "MINILM_MODEL_ID",
    "MODEL_SHA256",
    "TOKENIZER_SHA256",
    "Embedder",
    "IntegrityError",
    "MiniLMEmbedder",
    "load_minilm",
]
