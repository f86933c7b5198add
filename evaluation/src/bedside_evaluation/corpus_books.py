"""Corpus books as BookArtifacts, built in process for the evaluation, tests and benchmarks.

Chapters become passages through ingest's own chunker (bedside_ingest), so what is
measured is what ingest would hand over. Embedding a whole book takes minutes on a busy
2-core machine, so passage vectors are cached on disk by the hash of the model and the
texts: a cache entry can only ever hold the vectors of exactly those texts.
"""

import base64
import hashlib
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from bedside_contracts.ingest import BookArtifact
from bedside_contracts.search import ChapterInfo
from bedside_embedding import Embedder
from bedside_embedding.cache import vectors_through_cache
from bedside_guard import Passage
from bedside_ingest.chunking import chapter_infos, chunk_book, load_json_book
from bedside_ingest.reader import read_book
from bedside_ingest.sample import SAMPLE_TRANSCRIPT


def default_cache() -> Path:
    """Asked when used, not at import: a test run points the temporary folder at its own, which is
    removed after it, once its configuration has been read (after the support modules are imported)."""
    return Path(tempfile.gettempdir()) / "bedside-search-vectors"


def cached_vectors(
    embedder: Embedder, texts: Sequence[str], cache_dir: Path | None = None
) -> npt.NDArray[np.float32]:
    return vectors_through_cache(
        embedder.model_id, texts, embedder.embed_passages, cache_dir or default_cache(), embedder.dimensions
    )


def artifact_of(
    book: str,
    title: str,
    passages: Sequence[Passage],
    chapters: Sequence[ChapterInfo],
    embedder: Embedder,
    *,
    vectors: npt.NDArray[np.float32] | None = None,
    estimated: bool = True,
) -> BookArtifact:
    """An artifact as ingest would store it; the version is a hash of the content."""
    if vectors is None:
        vectors = embedder.embed_passages([p.text for p in passages])
    digest = hashlib.sha256(embedder.model_id.encode())
    for passage in passages:
        digest.update(passage.model_dump_json().encode())
    return BookArtifact(
        book=book,
        version=digest.hexdigest()[:16],
        title=title,
        estimated=estimated,
        duration_ms=max(p.end_ms for p in passages),
        source=f"{book} (built in process)",
        chapters=list(chapters),
        passages=list(passages),
        embedding_model=embedder.model_id,
        vectors_b64=base64.b64encode(np.ascontiguousarray(vectors, dtype="<f4").tobytes()).decode(),
    )


def corpus_artifact(path: Path, embedder: Embedder, cache_dir: Path | None = None) -> BookArtifact:
    """A corpus JSON book chunked by ingest's chunker and embedded (through the cache)."""
    book = load_json_book(path)
    passages = chunk_book(book)
    vectors = cached_vectors(embedder, [p.text for p in passages], cache_dir)
    return artifact_of(
        path.stem,
        book.title,
        passages,
        chapter_infos(book, passages),
        embedder,
        vectors=vectors,
        estimated=True,
    )


def sample_artifact(embedder: Embedder, cache_dir: Path | None = None) -> BookArtifact:
    """The repository's own sample book, from its narration's transcript (real times)."""
    book = read_book(SAMPLE_TRANSCRIPT)
    passages = chunk_book(book)
    vectors = cached_vectors(embedder, [p.text for p in passages], cache_dir)
    infos = chapter_infos(book, passages)
    return artifact_of("sample", book.title, passages, infos, embedder, vectors=vectors, estimated=False)
