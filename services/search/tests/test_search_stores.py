"""Both vector stores meet one contract: Qdrant Edge (embedded) and qdrant-client (server).

The server adapter runs here against qdrant-client's local mode, the same client code
without a server. The two must rank alike, bound alike and switch versions alike.
"""

from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from bedside_embedding import load_minilm
from bedside_guard import Passage
from bedside_search.domain.fusion import Scored
from bedside_search.domain.terms import average_length, encode_document, encode_query
from bedside_search.edge_store import EdgeStore
from bedside_search.server_store import ServerStore
from bedside_search.store import VectorStore, collection_for
from bedside_search_testing import small_info, small_passages

DIMENSIONS = 384
QUERIES = ("lighthouse in the fog", "the ferry and the harbour", "a storm at night", "xyzzy")


async def open_kind(kind: str, path: Path) -> VectorStore:
    if kind == "edge":
        return EdgeStore.open(path)
    return await ServerStore.open(path=str(path))


@pytest.fixture(params=["edge", "server"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[VectorStore]:
    opened = await open_kind(str(request.param), tmp_path / "store")
    yield opened
    await opened.close()


async def fill(store: VectorStore, name: str, passages: list[Passage]) -> None:
    vectors = load_minilm().embed_passages([p.text for p in passages])
    average = average_length([p.text for p in passages])
    await store.create_book_collection(name, DIMENSIONS)
    await store.add_passages(name, passages, vectors, [encode_document(p.text, average) for p in passages])


async def rankings(
    store: VectorStore, name: str, query: str, below_ms: int | None = None
) -> tuple[list[Scored], list[Scored]]:
    vector: npt.NDArray[np.float32] = load_minilm().embed_query(query)
    return await store.search(name, vector, encode_query(query), 8, below_ms)


async def test_the_two_stores_rank_alike(tmp_path: Path) -> None:
    passages = small_passages()
    opened = [await open_kind(kind, tmp_path / kind) for kind in ("edge", "server")]
    try:
        for one in opened:
            await fill(one, "bedside-book-small-v1", passages)
        for query in QUERIES:
            edge, server = [await rankings(one, "bedside-book-small-v1", query) for one in opened]
            for edge_ranking, server_ranking in zip(edge, server, strict=True):
                assert [s.passage_id for s in edge_ranking] == [s.passage_id for s in server_ranking], query
                assert [s.score for s in edge_ranking] == pytest.approx(
                    [s.score for s in server_ranking], abs=1e-4
                )
    finally:
        for one in opened:
            await one.close()


async def test_the_bound_is_kept_inside_both_rankings(store: VectorStore) -> None:
    passages = small_passages()
    await fill(store, "bedside-book-small-v1", passages)
    start_of = {p.id: p.start_ms for p in passages}
    for below_ms in [0, *sorted({p.start_ms + 1 for p in passages})]:
        for query in QUERIES:
            dense, sparse = await rankings(store, "bedside-book-small-v1", query, below_ms)
            assert all(start_of[s.passage_id] < below_ms for s in [*dense, *sparse]), (below_ms, query)
            if below_ms <= min(start_of.values()):
                assert dense == sparse == []


async def test_a_catalog_switch_and_a_drop_survive_a_reopen(tmp_path: Path) -> None:
    for kind in ("edge", "server"):
        path = tmp_path / kind
        first = await open_kind(kind, path)
        old, new = collection_for("small", "v1"), collection_for("small", "v2")
        await fill(first, old, small_passages())
        await first.make_current(small_info("v1"), old)
        await fill(first, new, small_passages())
        assert [e.collection for e in await first.catalog()] == [old], "not current before the switch"
        await first.make_current(small_info("v2"), new)
        await first.drop(old)
        await first.close()

        reopened = await open_kind(kind, path)
        try:
            assert [(e.info, e.collection) for e in await reopened.catalog()] == [(small_info("v2"), new)], (
                kind
            )
            assert await reopened.book_collections() == [new], kind
            restored = sorted(await reopened.passages(new), key=lambda p: p.id)
            assert restored == sorted(small_passages(), key=lambda p: p.id), kind
        finally:
            await reopened.close()


async def test_creating_a_collection_again_replaces_a_leftover(store: VectorStore) -> None:
    passages = small_passages()
    await fill(store, "bedside-book-small-v1", passages)
    await fill(store, "bedside-book-small-v1", passages[:2])
    assert len(await store.passages("bedside-book-small-v1")) == 2


async def test_tied_scores_are_cut_and_ordered_by_id(store: VectorStore) -> None:
    """Twelve passages alike score alike; the engine's order among them is not fixed, ours is."""
    passages = [
        Passage(
            id=pid, start_ms=i * 1000, end_ms=(i + 1) * 1000, chapter=1, chapter_title="t", text="a red fox"
        )
        for i, pid in enumerate([11, 3, 7, 12, 1, 9, 5, 2, 10, 4, 8, 6])
    ]
    await fill(store, "bedside-book-ties-v1", passages)
    dense, sparse = await rankings(store, "bedside-book-ties-v1", "the red fox")
    assert [s.passage_id for s in sparse] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [s.passage_id for s in dense] == [1, 2, 3, 4, 5, 6, 7, 8]
