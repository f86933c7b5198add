"""The vector store behind one interface, with two Qdrant engines behind it.

- Embedded (the default): Qdrant's own engine in this process (``qdrant-edge``), one shard
  per book version on disk under the data directory. A search there costs well under a
  millisecond, where qdrant-client's local mode (a Python re-implementation) cost 15-40 ms
  for the same 733 passages (measured in adr/0011).
- A Qdrant server when ``QDRANT_URL`` is set (several search copies can share it), through
  qdrant-client.

Both keep each version of a book in its own collection with the passage in each point's
payload, and a catalog that names the current version of each book; switching to a new
version is one atomic write, done only after its collection is complete.
"""

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

import numpy as np
import numpy.typing as npt
from bedside_contracts.search import BookInfo
from bedside_guard import Passage

from bedside_search.domain.fusion import Scored
from bedside_search.domain.terms import SparseTerms

DENSE = "dense"
SPARSE = "sparse"
BOOK_PREFIX = "bedside-book-"
UPSERT_BATCH = 64
"""Points per upsert; between batches the event loop serves requests."""


@dataclass(frozen=True)
class CatalogEntry:
    info: BookInfo
    collection: str


def collection_for(book: str, version: str) -> str:
    return f"{BOOK_PREFIX}{book}-{version}"


class VectorStore(Protocol):
    """The search service's only door to its vectors."""

    exclusive: bool
    """Whether this process alone uses the store: only then is a collection no catalog entry names
    a leftover, and not one another copy is building."""

    async def close(self) -> None: ...

    async def create_book_collection(self, name: str, dimensions: int) -> None:
        """An empty collection (a leftover of the same name from an interrupted indexing is replaced)."""
        ...

    async def add_passages(
        self,
        name: str,
        passages: Sequence[Passage],
        dense: npt.NDArray[np.float32],
        sparse: Sequence[SparseTerms],
    ) -> None: ...

    async def search(
        self,
        name: str,
        dense: npt.NDArray[np.float32],
        sparse: SparseTerms,
        depth: int,
        below_ms: int | None = None,
    ) -> tuple[list[Scored], list[Scored]]:
        """The dense and the sparse ranking, each bounded to ``start_ms < below_ms`` in the engine."""
        ...

    async def make_current(self, info: BookInfo, collection: str) -> None:
        """Serve ``collection`` for the book from now on, atomically."""
        ...

    async def forget(self, book: str) -> None:
        """Serve nothing for the book any more (its collection is dropped by the caller)."""
        ...

    async def catalog(self) -> list[CatalogEntry]: ...

    async def passages(self, name: str) -> list[Passage]: ...

    async def book_collections(self) -> list[str]: ...

    async def drop(self, name: str) -> None: ...


@dataclass(frozen=True)
class PassagePoint:
    """One passage as a point, before it takes an engine's own point type."""

    id: int
    dense: list[float]
    sparse: SparseTerms
    payload: dict[str, object]
    """``start_ms`` for the bound's filter, the passage itself for restarts."""


def point_batches(
    passages: Sequence[Passage], dense: npt.NDArray[np.float32], sparse: Sequence[SparseTerms]
) -> Iterator[list[PassagePoint]]:
    """The passages as points, ``UPSERT_BATCH`` at a time."""
    for begin in range(0, len(passages), UPSERT_BATCH):
        yield [
            PassagePoint(
                id=passages[i].id,
                dense=dense[i].tolist(),
                sparse=sparse[i],
                payload={"start_ms": passages[i].start_ms, "passage": passages[i].model_dump(mode="json")},
            )
            for i in range(begin, min(begin + UPSERT_BATCH, len(passages)))
        ]


class ScoredPoint(Protocol):
    """A point an engine returned: both Qdrant Edge's and qdrant-client's have these."""

    @property
    def id(self) -> int | str | UUID: ...

    @property
    def score(self) -> float: ...


TIE_MARGIN = 8
"""How many more hits than ``depth`` an adapter asks for, so that passages tied with the
last one kept are all seen and the cut between them is made by id, not by the engine."""


def dense_and_sparse(
    answers: Sequence[Iterable[ScoredPoint]], depth: int
) -> tuple[list[Scored], list[Scored]]:
    """An engine's answers to [dense] or [dense, sparse] as the two rankings, ``depth`` each.

    A query with no content terms asks for no sparse ranking; it is then empty. Equal scores
    are common on the sparse side (one shared term in passages of one length) and the engine
    returns them in no fixed order; fusion reads ranks, so ties are put in id order here.
    """
    rankings = [
        sorted((Scored(int(p.id), float(p.score)) for p in answer), key=lambda s: (-s.score, s.passage_id))[
            :depth
        ]
        for answer in answers
    ]
    return rankings[0], rankings[1] if len(rankings) > 1 else []


def passage_from_payload(payload: Mapping[str, object] | None) -> Passage:
    return Passage.model_validate((payload or {})["passage"])
