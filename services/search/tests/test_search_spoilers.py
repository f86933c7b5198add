"""The promise as a property: over random positions and queries, no find_passage line and no
recall line carries a word that only a place ahead holds, nor the title of a chapter ahead.

Run on the small test book and on Black Beauty from the shared corpus (skipped where absent),
through the same engine the handlers call. Queries are drawn from the book's own words
(ahead and behind), which is what would pull a place ahead into the results.
"""

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bedside_contracts.search import FindPassage, Recall
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of, cached_vectors, corpus_artifact
from bedside_guard import Passage, without_words, words_of
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_search_testing import chapters_of, leaks, small_passages, words
from bedside_testing import corpus_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@dataclass
class Served:
    loop: asyncio.AbstractEventLoop
    engine: SearchEngine
    book: str
    passages: list[Passage]
    vocabulary: list[str]
    titles: list[str]

    @property
    def end_ms(self) -> int:
        return max(p.end_ms for p in self.passages)

    def check(self, here_ms: int, query: str) -> None:
        found = self.loop.run_until_complete(
            self.engine.find(FindPassage(book=self.book, here_ms=here_ms, query=query))
        )
        recalled = self.loop.run_until_complete(
            self.engine.recall(Recall(book=self.book, here_ms=here_ms, question=query, limit=8))
        )
        # names not heard yet are left out of the search, whether the book has them or not
        assert set(found.unheard_names) <= set(words_of(query))
        searched = words_of(without_words(query, found.unheard_names))
        assert len(found.places) == (8 if searched else 0)
        for place in [*found.places, *recalled.places]:
            carried = f"{place.chapter_title or ''} {place.words or ''}"  # what the structure itself holds
            for shown in (place.line(), carried):
                assert not leaks(shown, self.passages, here_ms), (here_ms, query, shown)
        assert all(hit.start_ms < here_ms for hit in recalled.hits)
        assert set(recalled.unheard_names) <= set(words_of(query))  # only the asker's own words


def served(tmp: str, book: str, passages: list[Passage], vectors_from: str | None = None) -> Iterator[Served]:
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(open_store(path=Path(tmp)))
    engine = SearchEngine(store, load_minilm())
    if vectors_from is None:
        vectors = cached_vectors(load_minilm(), [p.text for p in passages])
        artifact = artifact_of(book, book, passages, chapters_of(passages), load_minilm(), vectors=vectors)
    else:
        artifact = corpus_artifact(corpus_file(vectors_from), load_minilm())
    loop.run_until_complete(engine.index(artifact))
    passages = list(artifact.passages)
    vocabulary = sorted({w for p in passages for w in words(p.text)})
    titles = sorted({p.chapter_title for p in passages})
    try:
        yield Served(loop, engine, artifact.book, passages, vocabulary, titles)
    finally:
        loop.run_until_complete(store.close())
        loop.close()


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from served(str(tmp_path_factory.mktemp("q-small")), "small", small_passages())


@pytest.fixture(scope="module")
def black_beauty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    corpus_file("black_beauty.json")
    yield from served(
        str(tmp_path_factory.mktemp("q-bb")), "black_beauty", [], vectors_from="black_beauty.json"
    )


queries = st.data()
FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_no_line_on_the_small_book_leaks_what_is_ahead(small: Served, data: st.DataObject) -> None:
    here_ms = data.draw(st.integers(min_value=0, max_value=small.end_ms + 1_000), label="here_ms")
    query = data.draw(query_strategy(small), label="query")
    small.check(here_ms, query)


@pytest.mark.slow
@pytest.mark.timeout(900)  # a cold vector cache embeds the whole book first (minutes on 2 busy cores)
@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_no_line_on_black_beauty_leaks_what_is_ahead(black_beauty: Served, data: st.DataObject) -> None:
    here_ms = data.draw(st.integers(min_value=0, max_value=black_beauty.end_ms + 1_000), label="here_ms")
    query = data.draw(query_strategy(black_beauty), label="query")
    black_beauty.check(here_ms, query)


def query_strategy(book: Served) -> st.SearchStrategy[str]:
    book_words = st.lists(st.sampled_from(book.vocabulary), min_size=1, max_size=8).map(" ".join)
    # "who is X?" takes recall's subject rule, which reads the book's capitals, not the ranking.
    who_is = st.lists(st.sampled_from(book.vocabulary), min_size=1, max_size=3).map(
        lambda picked: f"who is {' '.join(picked).title()}?"
    )
    return st.one_of(book_words, st.sampled_from(book.titles), who_is)


def test_recall_says_a_name_first_heard_ahead_has_not_come_up(small: Served) -> None:
    chapter_two = next(p.start_ms for p in small.passages if p.chapter == 2)
    ask = small.loop.run_until_complete
    before = ask(small.engine.recall(Recall(book=small.book, here_ms=chapter_two, question="who is Pepper?")))
    assert (before.come_up, before.unheard_names, before.places) == (False, ["pepper"], [])
    after = ask(small.engine.recall(Recall(book=small.book, here_ms=small.end_ms, question="who is Pepper?")))
    assert after.come_up
    assert after.unheard_names == []


def test_recall_answers_what_comes_later_from_nothing_ahead(small: Served) -> None:
    question = "what happens to Marigold in the end?"
    later = small.loop.run_until_complete(
        small.engine.recall(Recall(book=small.book, here_ms=small.end_ms // 2, question=question))
    )
    assert (later.come_up, later.asks_later, later.places) == (False, True, [])


def test_at_the_end_of_the_book_what_comes_later_is_what_was_heard(small: Served) -> None:
    """At the end of Black Beauty, "how does it end?" was "further on than you've got": nothing is."""
    question = "what happens to Marigold in the end?"
    at_the_end = small.loop.run_until_complete(
        small.engine.recall(Recall(book=small.book, here_ms=small.end_ms, question=question))
    )
    assert at_the_end.come_up
    assert at_the_end.hits
