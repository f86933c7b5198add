"""The vector store on a Qdrant server, through qdrant-client (used when QDRANT_URL is set).

The catalog is a collection of its own, one point per book naming the current collection;
switching versions is one upsert of that point. Opened on a path instead of a URL, the same
code runs against qdrant-client's local mode: the tests use that to exercise this adapter
without a server.
"""

import asyncio
import uuid
import warnings
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from bedside_contracts.search import BookInfo
from bedside_guard import Passage
from qdrant_client import AsyncQdrantClient, models

from bedside_search.domain.fusion import Scored
from bedside_search.domain.terms import SparseTerms
from bedside_search.store import (
    BOOK_PREFIX,
    DENSE,
    SPARSE,
    TIE_MARGIN,
    CatalogEntry,
    dense_and_sparse,
    passage_from_payload,
    point_batches,
)

CATALOG = "bedside-catalog"

_NAMESPACE = uuid.UUID("6f1f6c3e-2b9a-4a53-9d0e-5f0a8f3b7c21")


def _sparse(terms: SparseTerms) -> models.SparseVector:
    return models.SparseVector(indices=terms.indices, values=terms.values)


def _below(here_ms: int | None) -> models.Filter | None:
    if here_ms is None:
        return None
    return models.Filter(must=[models.FieldCondition(key="start_ms", range=models.Range(lt=here_ms))])


class ServerStore:
    """A ``VectorStore`` on a Qdrant server (or, for tests, qdrant-client's local mode)."""

    def __init__(self, client: AsyncQdrantClient, *, exclusive: bool) -> None:
        self._client = client
        self.exclusive = exclusive

    @classmethod
    async def open(cls, *, url: str | None = None, path: str | None = None) -> "ServerStore":
        """On a server (``url``) the store is shared with every other search copy."""
        client = AsyncQdrantClient(url=url) if url else AsyncQdrantClient(path=path)
        store = cls(client, exclusive=not url)
        if not await client.collection_exists(CATALOG):
            await client.create_collection(CATALOG, vectors_config={})
        return store

    async def close(self) -> None:
        await self._client.close()

    async def create_book_collection(self, name: str, dimensions: int) -> None:
        if await self._client.collection_exists(name):
            await self._client.delete_collection(name)  # a leftover of an interrupted indexing
        await self._client.create_collection(
            name,
            vectors_config={DENSE: models.VectorParams(size=dimensions, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )
        with warnings.catch_warnings():
            # Embedded Qdrant warns that it has no payload indexes; a server uses this one.
            warnings.simplefilter("ignore", UserWarning)
            await self._client.create_payload_index(
                name, "start_ms", field_schema=models.PayloadSchemaType.INTEGER
            )

    async def add_passages(
        self,
        name: str,
        passages: Sequence[Passage],
        dense: npt.NDArray[np.float32],
        sparse: Sequence[SparseTerms],
    ) -> None:
        for batch in point_batches(passages, dense, sparse):
            points = [
                models.PointStruct(
                    id=p.id, vector={DENSE: p.dense, SPARSE: _sparse(p.sparse)}, payload=p.payload
                )
                for p in batch
            ]
            await self._client.upsert(name, points, wait=True)
            await asyncio.sleep(0)

    async def search(
        self,
        name: str,
        dense: npt.NDArray[np.float32],
        sparse: SparseTerms,
        depth: int,
        below_ms: int | None = None,
    ) -> tuple[list[Scored], list[Scored]]:
        """The dense and the sparse ranking, each bounded to ``start_ms < below_ms`` in the engine."""
        bound = _below(below_ms)
        requests = [
            models.QueryRequest(query=dense.tolist(), using=DENSE, filter=bound, limit=depth + TIE_MARGIN)
        ]
        if sparse.indices:
            requests.append(
                models.QueryRequest(
                    query=_sparse(sparse), using=SPARSE, filter=bound, limit=depth + TIE_MARGIN
                )
            )
        answers = await self._client.query_batch_points(name, requests)
        return dense_and_sparse([answer.points for answer in answers], depth)

    async def make_current(self, info: BookInfo, collection: str) -> None:
        """Serve ``collection`` for the book from now on (one point: atomic)."""
        point = models.PointStruct(
            id=str(uuid.uuid5(_NAMESPACE, info.id)),
            vector={},
            payload={"collection": collection, "info": info.model_dump(mode="json")},
        )
        await self._client.upsert(CATALOG, [point], wait=True)

    async def forget(self, book: str) -> None:
        selector = models.PointIdsList(points=[str(uuid.uuid5(_NAMESPACE, book))])
        await self._client.delete(CATALOG, points_selector=selector, wait=True)

    async def catalog(self) -> list[CatalogEntry]:
        entries: list[CatalogEntry] = []
        offset: models.ExtendedPointId | None = None
        while True:
            records, offset = await self._client.scroll(CATALOG, limit=256, offset=offset, with_payload=True)
            for record in records:
                payload = record.payload or {}
                entries.append(
                    CatalogEntry(BookInfo.model_validate(payload["info"]), str(payload["collection"]))
                )
            if offset is None:
                return entries

    async def passages(self, name: str) -> list[Passage]:
        found: list[Passage] = []
        offset: models.ExtendedPointId | None = None
        while True:
            records, offset = await self._client.scroll(name, limit=512, offset=offset, with_payload=True)
            found.extend(passage_from_payload(r.payload) for r in records)
            if offset is None:
                return found

    async def book_collections(self) -> list[str]:
        answer = await self._client.get_collections()
        return [c.name for c in answer.collections if c.name.startswith(BOOK_PREFIX)]

    async def drop(self, name: str) -> None:
        if await self._client.collection_exists(name):
            await self._client.delete_collection(name)
