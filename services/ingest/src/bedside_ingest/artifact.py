"""The book as stored: its content hash (the version), its vectors, and the artifact itself."""

import base64
import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from bedside_contracts.ingest import EMBEDDING_DIMENSIONS, BookArtifact, BookIngested
from bedside_contracts.search import ChapterInfo, TimesFrom, TranscriptCoverage
from bedside_guard import Passage

VERSION_CHARS = 16


def content_version(fields: dict[str, Any]) -> str:
    """A hash of everything a book is made of (except its vectors, which follow from it and the
    model named among the fields), so the same content always has the same version.
    """
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:VERSION_CHARS]


def encode_vectors(vectors: npt.NDArray[np.float32]) -> str:
    if vectors.ndim != 2 or vectors.shape[1] != EMBEDDING_DIMENSIONS:
        raise ValueError(f"vectors of shape {vectors.shape}, expected (n, {EMBEDDING_DIMENSIONS})")
    return base64.b64encode(np.ascontiguousarray(vectors, dtype="<f4").tobytes()).decode("ascii")


def decode_vectors(artifact: BookArtifact) -> npt.NDArray[np.float32]:
    """The artifact's vectors, one row per passage (for readers of the artifact, and tests)."""
    raw = np.frombuffer(base64.b64decode(artifact.vectors_b64), dtype="<f4")
    return raw.reshape(len(artifact.passages), EMBEDDING_DIMENSIONS).astype(np.float32)


def artifact_fields(
    *,
    book: str,
    title: str,
    author: str,
    estimated: bool,
    duration_ms: int,
    audio_path: str | None,
    source: str,
    chapters: Sequence[ChapterInfo],
    passages: Sequence[Passage],
    embedding_model: str,
    narrator: str = "",
    cover_path: str | None = None,
    transcript: TranscriptCoverage | None = None,
    silent_chapters: Sequence[int] = (),
    times_from: TimesFrom = "file",
    audio_object: str | None = None,
    cover_object: str | None = None,
) -> dict[str, Any]:
    """The artifact's fields other than version and vectors, as JSON-ready data."""
    # A narrator, a cover, media in the bucket, an interim's coverage, chapters in which nothing was
    # heard and times from a recording are named only when there is one, so other books keep their versions.
    named: dict[str, Any] = {"narrator": narrator} if narrator else {}
    if times_from != "file":
        named["times_from"] = times_from
    if cover_path:
        named["cover_path"] = cover_path
    if audio_object:
        named["audio_object"] = audio_object
    if cover_object:
        named["cover_object"] = cover_object
    if transcript is not None:
        named["transcript"] = transcript.model_dump(mode="json")
    if silent_chapters:
        named["silent_chapters"] = list(silent_chapters)
    return named | {
        "book": book,
        "title": title,
        "author": author,
        "estimated": estimated,
        "duration_ms": duration_ms,
        "audio_path": audio_path,
        "source": source,
        "chapters": [c.model_dump(mode="json") for c in chapters],
        "passages": [p.model_dump(mode="json") for p in passages],
        "embedding_model": embedding_model,
    }


def object_name(book: str, version: str) -> str:
    return f"{book}/{version}"


def message_id(book: str, version: str, superseding: int | None = None) -> str:
    """The Nats-Msg-Id of a BookIngested: ``book:version``, so a retried announcement is stored
    once. One after another announcement of the book (another version, or this one withdrawn and
    made again) names that announcement's sequence, or the stream would drop it as a duplicate.
    """
    return f"{book}:{version}" if superseding is None else f"{book}:{version}:after-{superseding}"


def announced_as_it_is(newest: BookIngested | None, version: str) -> bool:
    """Whether ``version`` is what the book's newest announcement says, so announcing it again would
    say nothing new. Not after another version, a removal, or an announcement from before books said
    what they are made from (said again, with it)."""
    return (
        newest is not None
        and newest.version == version
        and not newest.withdrawn
        and newest.made_from is not None
    )


def serves_a_whole_version(newest: BookIngested | None) -> bool:
    """Whether the book's newest announcement is a whole book (no interim version replaces it)."""
    return newest is not None and newest.transcript is None and not newest.withdrawn


def interim_artifacts(announced: Iterable[BookIngested], whole: str) -> set[str]:
    """The artifacts of a book's interim versions, once ``whole`` (a whole version's artifact) is
    announced: nothing will serve them again, and a long book makes one per chapter, each the size of
    the book so far. Whole versions stay (adr/0050)."""
    return {event.object_name for event in announced if event.transcript is not None} - {whole}
