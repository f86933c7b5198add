"""The real MiniLM model: shapes, norms, meaning, and the pinned files."""

import shutil
from pathlib import Path

import numpy as np
import pytest
from bedside_embedding import IntegrityError, MiniLMEmbedder, load_minilm
from bedside_embedding.minilm import MODEL_FILE, TOKENIZER_FILE, installed_file


def test_query_vector_has_the_model_shape_and_unit_norm() -> None:
    embedder = load_minilm()
    vector = embedder.embed_query("where the horse was frightened by the storm")
    assert vector.shape == (embedder.dimensions,) == (384,)
    assert vector.dtype == np.float32
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_passages_keep_their_order_through_length_batching() -> None:
    embedder = load_minilm()
    texts = [f"sentence number {i} " + "word " * (i % 7) * 10 for i in range(37)]
    batch = embedder.embed_passages(texts)
    assert batch.shape == (37, 384)
    assert batch.dtype == np.float32
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    for i in (0, 5, 36):
        assert float(batch[i] @ embedder.embed_query(texts[i])) > 0.999


def test_similar_texts_are_closer_than_unrelated_ones() -> None:
    embedder = load_minilm()
    anchor = embedder.embed_query("the carriage overturned on the icy road")
    similar, unrelated = embedder.embed_passages(
        ["the coach tipped over where the road was frozen", "she baked bread for the harvest festival"]
    )
    assert float(anchor @ similar) > float(anchor @ unrelated) + 0.2


def test_an_empty_list_of_passages_gives_no_rows() -> None:
    assert load_minilm().embed_passages([]).shape == (0, 384)


def test_loading_is_done_once() -> None:
    assert load_minilm() is load_minilm()


def test_a_tampered_model_file_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "model.onnx"
    shutil.copyfile(installed_file(*MODEL_FILE), model)
    with model.open("r+b") as handle:
        handle.seek(1000)
        byte = handle.read(1)
        handle.seek(1000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(IntegrityError, match="sha256"):
        MiniLMEmbedder(model, installed_file(*TOKENIZER_FILE))


def test_a_tampered_tokenizer_is_refused(tmp_path: Path) -> None:
    tokenizer = tmp_path / "tokenizer.json"
    tokenizer.write_bytes(installed_file(*TOKENIZER_FILE).read_bytes() + b" ")
    with pytest.raises(IntegrityError, match="sha256"):
        MiniLMEmbedder(installed_file(*MODEL_FILE), tokenizer)


def test_a_missing_distribution_is_a_clear_error() -> None:
    with pytest.raises(IntegrityError, match="not installed"):
        installed_file("no-such-distribution-here", "x.onnx")
