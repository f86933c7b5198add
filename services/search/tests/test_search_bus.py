"""The search handlers over a real nats-server, on a small book, with embedded Qdrant and the real model."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bedside_contracts import subjects
from bedside_contracts.common import Failure
from bedside_contracts.ingest import BookArtifact
from bedside_contracts.search import (
    Catalog,
    CatalogRequest,
    FindPassage,
    FoundPassages,
    HeardNames,
    NameHints,
    Recall,
    Recalled,
    Resolve,
    Resolved,
    Target,
)
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_guard import NOT_TOLD, Candidate
from bedside_runtime.bus import Broker, call
from bedside_runtime.errors import RemoteFailure
from bedside_search.engine import SearchEngine
from bedside_search.handlers import serve_search
from bedside_search.open_store import open_store
from bedside_search_testing import PASSAGE_MS, chapters_of, leaks, small_passages


def small_artifact(text_suffix: str = "") -> BookArtifact:
    passages = small_passages()
    if text_suffix:
        passages = [p.model_copy(update={"text": p.text + text_suffix}) for p in passages]
    return artifact_of(
        "small", "The Harbour Lamps", passages, chapters_of(passages), load_minilm(), estimated=False
    )


@pytest.fixture(scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SearchEngine]:
    store = await open_store(path=tmp_path_factory.mktemp("qdrant"))
    engine = SearchEngine(store, load_minilm())
    await engine.index(small_artifact())
    yield engine
    await store.close()


@pytest.fixture(scope="module")
async def broker(nats_url: str, engine: SearchEngine) -> AsyncIterator[Broker]:
    broker = Broker([nats_url])
    await broker.connect()
    await serve_search(broker, engine)
    yield broker
    await broker.stop()


async def test_find_covers_the_whole_book_and_every_line_is_the_guards(
    broker: Broker, engine: SearchEngine
) -> None:
    request = FindPassage(book="small", here_ms=0, query="the little dog fell through the ice")
    found = await call(broker.connection, subjects.SEARCH_FIND, request, FoundPassages)
    assert found.hits[0].chapter == 2
    book = engine.book("small")
    expected = [Candidate.hit(p, 0) for h in found.hits if (p := book.passage(h.passage_id)) is not None]
    assert found.places == expected
    lines = [place.line() for place in found.places]
    assert all(NOT_TOLD in line and "Pepper" not in line for line in lines)
    assert all("Pepper" not in place.model_dump_json() for place in found.places)
    assert len(found.places) == 8
    # Served order: each chapter's best passage first (best first), then the rest (best first).
    chapters = [h.chapter for h in found.hits]
    firsts = len(set(chapters))
    assert len(set(chapters[:firsts])) == firsts
    for part in (found.hits[:firsts], found.hits[firsts:]):
        assert [h.score for h in part] == sorted((h.score for h in part), reverse=True)
    assert found.hits[0].score == max(h.score for h in found.hits)


async def test_find_behind_the_line_shows_chapter_and_words(broker: Broker) -> None:
    request = FindPassage(
        book="small", here_ms=12 * PASSAGE_MS, query="the little dog fell through the ice", limit=2
    )
    found = await call(broker.connection, subjects.SEARCH_FIND, request, FoundPassages)
    assert len(found.places) == 2
    assert 'chapter 2, "The Frozen Canal"' in found.places[0].line()
    assert "Pepper" in found.places[0].line()


async def test_find_heard_only_ranks_the_passages_behind_the_line_among_themselves(broker: Broker) -> None:
    here = 3 * PASSAGE_MS  # chapter 1 heard; the dog on the ice is in chapter 2
    query = "the little dog fell through the ice"
    whole = FindPassage(book="small", here_ms=here, query=query)
    heard = whole.model_copy(update={"heard_only": True})
    over_the_book = await call(broker.connection, subjects.SEARCH_FIND, whole, FoundPassages)
    behind = await call(broker.connection, subjects.SEARCH_FIND, heard, FoundPassages)
    assert over_the_book.hits[0].chapter == 2
    assert behind.hits
    assert all(h.start_ms < here for h in behind.hits)
    assert behind.hits[0].score > next(h.score for h in over_the_book.hits if h.start_ms < here)


async def test_recall_reads_only_behind_the_line(broker: Broker) -> None:
    here = 6 * PASSAGE_MS  # chapters 1 and 2 heard
    asked = Recall(book="small", here_ms=here, question="what happened to the terrier on the frozen canal")
    recalled = await call(broker.connection, subjects.SEARCH_RECALL, asked, Recalled)
    assert recalled.come_up
    assert recalled.hits[0].chapter == 2
    assert recalled.hits[1].chapter == 1  # each chapter's best passage before a second of one
    assert all(h.start_ms < here for h in recalled.hits)
    about_ahead = Recall(
        book="small", here_ms=here, question="the clockwork heron with copper feathers", limit=8
    )
    reply = await call(broker.connection, subjects.SEARCH_RECALL, about_ahead, Recalled)
    assert all(h.start_ms < here for h in reply.hits)
    assert all("heron" not in place.line() for place in reply.places)


async def test_recall_says_it_has_not_come_up_when_nothing_behind_is_relevant(broker: Broker) -> None:
    asked = Recall(book="small", here_ms=PASSAGE_MS, question="the mechanical bird caught on the weathervane")
    recalled = await call(broker.connection, subjects.SEARCH_RECALL, asked, Recalled)
    assert recalled == Recalled(come_up=False, places=[], hits=[])
    at_start = await call(
        broker.connection, subjects.SEARCH_RECALL, asked.model_copy(update={"here_ms": 0}), Recalled
    )
    assert not at_start.come_up


async def test_recall_in_the_holding_passage_counts_only_heard_cues(broker: Broker) -> None:
    here = PASSAGE_MS + 15_000  # inside passage 1: its first two cues started, the third has not
    asked = Recall(
        book="small", here_ms=here, question="a lantern that never blew out, soldering all night", limit=8
    )
    recalled = await call(broker.connection, subjects.SEARCH_RECALL, asked, Recalled)
    assert recalled.come_up
    holding = next(place.line() for place in recalled.places if place.passage_id == 1)
    assert "fisherman" in holding
    assert "amber" not in holding
    assert all(not leaks(place.line(), small_passages(), here) for place in recalled.places)


async def test_find_judges_the_passage_holding_the_line_by_its_heard_words_only(tmp_path: Path) -> None:
    """The lamp glows amber in passage 1's unheard last cue: "back to where the lamp glowed amber"
    found passage 1 first, behind the line, and the keyless turn moved there at once (a review). A
    find at the line ranks as over a book whose holding passage ends at the line."""
    here = PASSAGE_MS + 15_000  # inside passage 1: the amber lamp is its third cue, not begun
    passages = small_passages()
    heard_cues = passages[1].cues[:2]
    passages[1] = passages[1].model_copy(
        update={"cues": heard_cues, "text": " ".join(cue.text for cue in heard_cues)}
    )
    store = await open_store(path=tmp_path)
    engine = SearchEngine(store, load_minilm())
    await engine.index(small_artifact())
    await engine.index(
        artifact_of("small-cut", "The Harbour Lamps", passages, chapters_of(passages), load_minilm())
    )
    for heard_only in (True, False):
        asked = FindPassage(
            book="small",
            here_ms=here,
            query="where the lamp glowed amber and steady at dawn",
            heard_only=heard_only,
        )
        found = await engine.find(asked)
        cut = await engine.find(asked.model_copy(update={"book": "small-cut"}))
        assert [(h.passage_id, round(h.score, 6)) for h in found.hits] == [
            (h.passage_id, round(h.score, 6)) for h in cut.hits
        ], heard_only
    await store.close()


async def test_the_recogniser_is_hinted_only_with_names_heard_before_the_line(broker: Broker) -> None:
    async def hinted(here_ms: int) -> list[str]:
        asked = NameHints(book="small", here_ms=here_ms)
        return (await call(broker.connection, subjects.SEARCH_HINTS, asked, HeardNames)).names

    assert await hinted(0) == []
    early = await hinted(3 * PASSAGE_MS)  # chapter 1 heard: Pepper the terrier is in chapter 2
    assert "Marigold" in early
    assert "Pepper" not in early
    assert "Pepper" in await hinted(6 * PASSAGE_MS)


async def test_resolve_reports_each_target_in_order(broker: Broker) -> None:
    targets = [
        Target(passage_id=4),
        Target(chapter=3),
        Target(chapter=12),
        Target(position_ms=95_000),
        Target(offset_ms=-60_000),
        Target(passage_id=1000),
    ]
    resolved = await call(
        broker.connection,
        subjects.SEARCH_RESOLVE,
        Resolve(book="small", here_ms=200_000, targets=targets),
        Resolved,
    )
    places = [(r.passage.id if r.passage else None, r.at_ms, r.named) for r in resolved.resolutions]
    assert places == [
        (4, 120_000, "passage"),
        (6, 180_000, "chapter"),
        (None, None, "chapter"),
        (3, 95_000, "time"),
        (4, 140_000, "time"),
        (None, None, "passage"),
    ]
    assert resolved.resolutions[2].reason == "the book has no chapter 12 (chapters 1 to 4)"


async def test_the_catalog_lists_the_book(broker: Broker) -> None:
    catalog = await call(broker.connection, subjects.SEARCH_CATALOG, CatalogRequest(), Catalog)
    assert [b.id for b in catalog.books] == ["small"]
    assert [c.n for c in catalog.books[0].chapters] == [1, 2, 3, 4]
    assert catalog.books[0].passages == 12


async def test_an_unknown_book_is_a_not_found_reply(broker: Broker) -> None:
    for subject, request, model in (
        (subjects.SEARCH_FIND, FindPassage(book="nope", here_ms=0, query="x"), FoundPassages),
        (subjects.SEARCH_RECALL, Recall(book="nope", here_ms=0, question="x"), Recalled),
        (subjects.SEARCH_RESOLVE, Resolve(book="nope", here_ms=0, targets=[]), Resolved),
        (subjects.SEARCH_CATALOG, CatalogRequest(book="nope"), Catalog),
    ):
        with pytest.raises(RemoteFailure) as raised:
            await call(broker.connection, subject, request, model)
        assert raised.value.failure.code == "not_found"
        assert "no book 'nope' is indexed" in raised.value.failure.error


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b'{"book": "small"}',
        b'{"book": "small", "here_ms": -1, "query": "x"}',
        b'{"book": "a.b", "here_ms": 0, "query": "x"}',
    ],
)
async def test_a_malformed_request_gets_a_failure_reply(broker: Broker, body: bytes) -> None:
    reply = await broker.connection.request(subjects.SEARCH_FIND, body, timeout=5)
    failure = Failure.model_validate_json(reply.data)
    assert failure.code == "invalid"


async def test_a_limit_over_eight_is_refused(broker: Broker) -> None:
    reply = await broker.connection.request(
        subjects.SEARCH_FIND, b'{"book": "small", "here_ms": 0, "query": "x", "limit": 9}', timeout=5
    )
    assert Failure.model_validate_json(reply.data).code == "invalid"


async def test_same_version_is_a_no_op_and_a_new_version_replaces_the_old(tmp_path: Path) -> None:
    store = await open_store(path=tmp_path / "q")
    engine = SearchEngine(store, load_minilm())
    try:
        first = small_artifact()
        await engine.index(first)
        old = engine.book("small").collection
        await engine.index(first)
        assert engine.book("small").collection == old
        second = small_artifact(" The ferryman hummed a shanty.")
        ready = await engine.index(second)
        assert ready.version == second.version != first.version
        served = engine.book("small")
        assert served.version == second.version
        assert await store.book_collections() == [served.collection]
        found = await engine.find(FindPassage(book="small", here_ms=10**7, query="ferryman shanty", limit=1))
        assert "shanty" in found.places[0].line()
    finally:
        await store.close()


async def test_a_restart_serves_the_same_books(tmp_path: Path) -> None:
    path = tmp_path / "q"
    request = FindPassage(book="small", here_ms=0, query="lighthouse in the fog")
    store = await open_store(path=path)
    engine = SearchEngine(store, load_minilm())
    await engine.index(small_artifact())
    before = engine.book("small")
    hits_before = (await engine.find(request)).hits
    await store.close()
    reopened = await open_store(path=path)
    try:
        restarted = SearchEngine(reopened, load_minilm())
        await restarted.restore()
        after = restarted.book("small")
        assert after.info == before.info
        assert after.passages == before.passages
        assert (await restarted.find(request)).hits == hits_before
    finally:
        await reopened.close()
