"""The corpus vector cache: an entry holds exactly its texts, and is embedded once however many ask."""

import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from bedside_embedding.embedder import Vectors
from bedside_evaluation.corpus_books import cached_vectors


class SlowCountingEmbedder:
    model_id = "counting"
    dimensions = 2

    def __init__(self) -> None:
        self.embedded: list[int] = []

    def embed_query(self, text: str) -> Vectors:
        return np.ones(self.dimensions, dtype=np.float32)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        self.embedded.append(len(texts))
        time.sleep(0.3)  # long enough for the other asker to arrive meanwhile
        return np.full((len(texts), self.dimensions), len(texts), dtype=np.float32)


def test_two_askers_at_once_embed_the_texts_once(tmp_path: Path) -> None:
    embedder = SlowCountingEmbedder()
    texts = ["a horse", "a field", "a gate"]
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda _: cached_vectors(embedder, texts, tmp_path), range(2)))
    assert embedder.embedded == [3]
    assert all(vectors.shape == (3, 2) for vectors in got)


def test_other_texts_are_another_entry(tmp_path: Path) -> None:
    embedder = SlowCountingEmbedder()
    cached_vectors(embedder, ["a horse"], tmp_path)
    assert cached_vectors(embedder, ["a horse", "a cart"], tmp_path).shape == (2, 2)
    assert cached_vectors(embedder, ["a horse"], tmp_path).shape == (1, 2)
    assert embedder.embedded == [1, 2]


def test_the_same_texts_in_another_order_are_the_same_entry_and_come_back_in_the_order_asked(
    tmp_path: Path,
) -> None:
    embedder = SlowCountingEmbedder()
    first = cached_vectors(embedder, ["a horse", "a cart", "a gate"], tmp_path)
    again = cached_vectors(embedder, ["a gate", "a horse", "a cart", "a horse"], tmp_path)
    assert embedder.embedded == [3]
    assert np.array_equal(again, first[[2, 0, 1, 0]])


def test_texts_that_run_together_alike_are_other_entries(tmp_path: Path) -> None:
    """The review: hashed end to end, ["a\\0b", "c"] and ["a", "b\\0c"] were one entry."""
    embedder = SlowCountingEmbedder()
    cached_vectors(embedder, ["a\x00b", "c"], tmp_path)
    cached_vectors(embedder, ["a", "b\x00c"], tmp_path)
    assert embedder.embedded == [2, 2]


def test_an_entry_cut_short_or_of_another_shape_is_embedded_again(tmp_path: Path) -> None:
    embedder = SlowCountingEmbedder()
    cached_vectors(embedder, ["a horse", "a cart"], tmp_path)
    (entry,) = tmp_path.glob("*[0-9a-f].npy")
    entry.write_bytes(entry.read_bytes()[:40])  # a machine that stopped as it wrote
    assert cached_vectors(embedder, ["a horse", "a cart"], tmp_path).shape == (2, 2)
    np.save(entry, np.ones((2, 3), dtype=np.float32))  # another model's width
    assert cached_vectors(embedder, ["a horse", "a cart"], tmp_path).shape == (2, 2)
    assert embedder.embedded == [2, 2, 2]


def test_the_cache_is_in_the_temporary_folder_of_when_it_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review: fixed when the module was imported, a test run's cache outlived the run, in /tmp."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    cached_vectors(SlowCountingEmbedder(), ["a horse"])
    assert list((tmp_path / "bedside-search-vectors").glob("*.npy"))
