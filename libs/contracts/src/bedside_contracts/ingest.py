"""The book as ingest hands it over, and the events that announce it."""

from typing import Annotated

from bedside_guard import Passage
from pydantic import Field

from bedside_contracts.common import Contract, Millis, Name
from bedside_contracts.search import ChapterInfo

EMBEDDING_DIMENSIONS = 384


class BookArtifact(Contract):
    """Everything search needs to serve a book, stored whole in the JetStream object store.

    ``vectors_b64`` holds one float32 (little-endian) dense vector per passage, in the
    order of ``passages``, base64-encoded: compact and exact.
    """

    book: Name
    version: Annotated[str, Field(min_length=8, max_length=64)]
    title: str
    author: str = ""
    estimated: bool
    duration_ms: Millis
    audio_path: str | None = None
    source: str
    chapters: list[ChapterInfo]
    passages: list[Passage]
    embedding_model: str
    vectors_b64: str


class BookIngested(Contract):
    """A new version of a book is in the object store under ``object_name``."""

    book: Name
    version: str
    object_name: str
    title: str


class BookReady(Contract):
    """Search has indexed ``version`` of ``book`` and serves it from now on."""

    book: Name
    version: str
    passages: int
