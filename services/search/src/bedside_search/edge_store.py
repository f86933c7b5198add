"""The embedded vector store: Qdrant's engine in this process (qdrant-edge), on disk.

Layout under the store's directory::

    catalog.json             which collection is current for each book (replaced atomically)
    collections/<name>/      one Edge shard per book version

The catalog is a small file rather than a shard because switching versions must be one
atomic step: the new file is written and synced beside the old one, then renamed over it.
Shard calls are synchronous and short (a search is well under a millisecond), so they run
on the event loop; indexing yields to it between batches.
"""

import asyncio
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import qdrant_edge as edge
from bedside_contracts.search import BookInfo
from bedside_guard import Passage
from pydantic import BaseModel, ConfigDict

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

CATALOG_FILE = "catalog.json"
COLLECTIONS = "collections"
SCROLL_PAGE = 512


class _Current(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    collection: str
    info: BookInfo


class _Catalog(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    books: dict[str, _Current] = {}


def _config(dimensions: int) -> edge.EdgeConfig:
    return edge.EdgeConfig(
        vectors={DENSE: edge.EdgeVectorParams(size=dimensions, distance=edge.Distance.Cosine)},
        sparse_vectors={SPARSE: edge.EdgeSparseVectorParams(modifier=edge.Modifier.Idf)},
    )


def _sparse(terms: SparseTerms) -> edge.SparseVector:
    return edge.SparseVector(indices=terms.indices, values=terms.values)


def _below(here_ms: int | None) -> edge.Filter | None:
    if here_ms is None:
        return None
    return edge.Filter(must=[edge.FieldCondition(key="start_ms", range=edge.RangeFloat(lt=here_ms))])


def _write_atomically(path: Path, data: bytes) -> None:
    partial = path.with_suffix(".partial")
    with partial.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    partial.replace(path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a crash
    finally:
        os.close(directory)


class EdgeStore:
    """A ``VectorStore`` on Qdrant Edge shards in one directory, owned by this process alone."""

    exclusive = True

    def __init__(self, root: Path) -> None:
        self._root = root
        self._collections = root / COLLECTIONS
        self._shards: dict[str, edge.EdgeShard] = {}

    @classmethod
    def open(cls, root: Path) -> "EdgeStore":
        (root / COLLECTIONS).mkdir(parents=True, exist_ok=True)
        return cls(root)

    async def close(self) -> None:
        for shard in self._shards.values():
            shard.close()
        self._shards.clear()

    def _shard(self, name: str) -> edge.EdgeShard:
        shard = self._shards.get(name)
        if shard is None:
            path = self._collections / name
            if not path.is_dir():
                raise KeyError(f"no collection {name!r} in {self._collections}")
            shard = self._shards[name] = edge.EdgeShard.load(str(path))
        return shard

    async def create_book_collection(self, name: str, dimensions: int) -> None:
        await self.drop(name)  # a leftover of an interrupted indexing
        shard = edge.EdgeShard.create(str(self._collections / name), _config(dimensions))
        shard.update(edge.UpdateOperation.create_field_index("start_ms", edge.PayloadSchemaType.Integer))
        self._shards[name] = shard

    async def add_passages(
        self,
        name: str,
        passages: Sequence[Passage],
        dense: npt.NDArray[np.float32],
        sparse: Sequence[SparseTerms],
    ) -> None:
        shard = self._shard(name)
        for batch in point_batches(passages, dense, sparse):
            points = [
                edge.Point(id=p.id, vector={DENSE: p.dense, SPARSE: _sparse(p.sparse)}, payload=p.payload)
                for p in batch
            ]
            shard.update(edge.UpdateOperation.upsert_points(points))
            await asyncio.sleep(0)
        shard.flush()

    async def search(
        self,
        name: str,
        dense: npt.NDArray[np.float32],
        sparse: SparseTerms,
        depth: int,
        below_ms: int | None = None,
    ) -> tuple[list[Scored], list[Scored]]:
        bound = _below(below_ms)
        requests = [
            edge.QueryRequest(
                limit=depth + TIE_MARGIN, query=edge.Query.Nearest(dense.tolist(), using=DENSE), filter=bound
            )
        ]
        if sparse.indices:
            requests.append(
                edge.QueryRequest(
                    limit=depth + TIE_MARGIN,
                    query=edge.Query.Nearest(_sparse(sparse), using=SPARSE),
                    filter=bound,
                )
            )
        return dense_and_sparse(self._shard(name).query_batch(edge.QueryBatchRequest(requests)), depth)

    def _read_catalog(self) -> _Catalog:
        path = self._root / CATALOG_FILE
        return _Catalog.model_validate_json(path.read_bytes()) if path.exists() else _Catalog()

    async def make_current(self, info: BookInfo, collection: str) -> None:
        self._shard(collection).flush()
        books = {**self._read_catalog().books, info.id: _Current(collection=collection, info=info)}
        _write_atomically(self._root / CATALOG_FILE, _Catalog(books=books).model_dump_json().encode())

    async def forget(self, book: str) -> None:
        books = {k: v for k, v in self._read_catalog().books.items() if k != book}
        _write_atomically(self._root / CATALOG_FILE, _Catalog(books=books).model_dump_json().encode())

    async def catalog(self) -> list[CatalogEntry]:
        return [CatalogEntry(c.info, c.collection) for c in self._read_catalog().books.values()]

    async def passages(self, name: str) -> list[Passage]:
        shard = self._shard(name)
        found: list[Passage] = []
        offset: edge.PointId | None = None
        while True:
            records, offset = shard.scroll(
                edge.ScrollRequest(offset=offset, limit=SCROLL_PAGE, with_payload=True)
            )
            found.extend(passage_from_payload(r.payload) for r in records)
            if offset is None:
                return found

    async def book_collections(self) -> list[str]:
        return sorted(p.name for p in self._collections.iterdir() if p.name.startswith(BOOK_PREFIX))

    async def drop(self, name: str) -> None:
        shard = self._shards.pop(name, None)
        if shard is not None:
            shard.close()
        shutil.rmtree(self._collections / name, ignore_errors=True)
