"""Where books go: the BOOKS stream (declared here and nowhere else) and the artifacts bucket."""

from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookIngested
from bedside_runtime.streams import declare_stream, object_bucket
from nats.js.api import StorageType, StreamConfig
from nats.js.client import JetStreamContext
from nats.js.errors import NotFoundError, ObjectNotFoundError
from nats.js.object_store import ObjectStore

BOOKS_DUPLICATE_WINDOW_S = 300.0
"""A retried BookIngested (same book and version) within five minutes is stored once."""


def books_stream(replicas: int) -> StreamConfig:
    return StreamConfig(
        name=subjects.BOOKS_STREAM,
        subjects=[subjects.BOOKS_SUBJECTS],
        storage=StorageType.FILE,
        num_replicas=replicas,
        duplicate_window=BOOKS_DUPLICATE_WINDOW_S,
        deny_delete=True,
    )


class BookStore:
    """The artifacts bucket and the BOOKS stream, as ingest uses them."""

    def __init__(self, js: JetStreamContext, artifacts: ObjectStore) -> None:
        self._js = js
        self._artifacts = artifacts

    @classmethod
    async def declare(cls, js: JetStreamContext, replicas: int) -> "BookStore":
        """Declare the BOOKS stream and the artifacts bucket (only ingest does), and open them."""
        config = books_stream(replicas)
        await declare_stream(js, config)
        artifacts = await object_bucket(
            js, subjects.BOOK_ARTIFACTS_BUCKET, "Bedside books: one artifact per book and version", replicas
        )
        return cls(js, artifacts)

    async def has(self, name: str) -> bool:
        try:
            info = await self._artifacts.get_info(name)
        except ObjectNotFoundError:
            return False
        return not info.deleted

    async def put(self, name: str, data: bytes) -> None:
        await self._artifacts.put(name, data)

    async def get(self, name: str) -> BookArtifact:
        result = await self._artifacts.get(name)
        return BookArtifact.model_validate_json(result.data or b"")

    async def newest(self, book: str) -> tuple[BookIngested, int] | None:
        """The newest BookIngested for ``book`` and its stream sequence, if any."""
        try:
            message = await self._js.get_last_msg(
                subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=book)
            )
        except NotFoundError:
            return None
        return BookIngested.model_validate_json(message.data or b""), message.seq or 0

    async def versions(self, book: str) -> list[BookIngested]:
        """Every BookIngested for ``book``, oldest first (interim, whole, withdrawn alike)."""
        found: list[BookIngested] = []
        seq = 1
        while True:
            try:
                message = await self._js.get_msg(
                    subjects.BOOKS_STREAM, seq, subject=subjects.BOOK_INGESTED.format(book=book), next=True
                )
            except NotFoundError:
                return found
            found.append(BookIngested.model_validate_json(message.data or b""))
            seq = (message.seq or seq) + 1

    async def every_book(self) -> list[BookIngested]:
        """The newest BookIngested of every book, withdrawn ones too."""
        info = await self._js.stream_info(
            subjects.BOOKS_STREAM, subjects_filter=subjects.BOOK_INGESTED.format(book="*")
        )
        newest: list[BookIngested] = []
        for subject in info.state.subjects or {}:
            try:
                message = await self._js.get_last_msg(subjects.BOOKS_STREAM, subject)
            except NotFoundError:  # purged since the stream was asked
                continue
            newest.append(BookIngested.model_validate_json(message.data or b""))
        return newest

    async def other_books(self, book: str) -> list[BookIngested]:
        """The newest BookIngested of every book but ``book``, withdrawn ones too."""
        return [event for event in await self.every_book() if event.book != book]

    async def stored(self, name: str) -> BookArtifact | None:
        """The artifact stored as ``name``; None when it was deleted."""
        return await self.get(name) if await self.has(name) else None

    async def delete(self, name: str) -> int:
        """Delete the artifact ``name``; the bytes it held (0 when it was not there)."""
        return await deleted_object(self._artifacts, name)


async def deleted_object(bucket: ObjectStore, name: str) -> int:
    """Delete ``name`` from ``bucket``; the bytes it held, 0 when it was not there."""
    try:
        info = await bucket.get_info(name)
    except ObjectNotFoundError:
        return 0
    if info.deleted:
        return 0
    await bucket.delete(name)
    return info.size or 0
