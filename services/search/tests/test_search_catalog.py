"""The books there are, as the page's picker and `bedside books` list them."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bedside_contracts.search import CatalogRequest
from bedside_embedding import Embedder, load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_search_testing import chapters_of, small_passages


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[SearchEngine]:
    store = await open_store(path=tmp_path / "vectors")
    try:
        yield SearchEngine(store, load_minilm())
    finally:
        await store.close()


async def test_the_books_are_listed_by_title_not_by_id(engine: SearchEngine) -> None:
    """A listener session: the picker was in id order, so "Dots" was filed under "book", the id a name
    of other letters gets."""
    embedder: Embedder = engine.embedder
    passages = small_passages()[:2]
    for book, title in (("zebra", "a Quiet Harbour"), ("book", "Dots"), ("apple", "Zoo Story")):
        await engine.index(
            artifact_of(book, title, passages, chapters_of(passages), embedder, estimated=False)
        )
    assert [b.id for b in engine.catalog(CatalogRequest()).books] == ["zebra", "book", "apple"]
