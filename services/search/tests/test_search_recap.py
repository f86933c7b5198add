"""Recap over a span of book time: every sentence inside its span and behind the line.

Properties over random spans and positions on the small book (with cues and without),
through the engine the handler calls (the real embedding model); the last minutes of the
sample book; one request over a real nats-server; Black Beauty from the shared corpus where
it is present.
"""

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bedside_contracts import subjects
from bedside_contracts.search import Recap, Recapped, RecapSentence
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of, cached_vectors, corpus_artifact
from bedside_guard import Cue, Passage, ahead_of, heard_text
from bedside_ingest.chunking import chunk_book
from bedside_ingest.reader import read_book
from bedside_ingest.sample import SAMPLE_TRANSCRIPT
from bedside_runtime.bus import Broker, call
from bedside_search.domain.recap import (
    MAX_SENTENCE_WORDS,
    MIN_WORDS,
    clamp_span,
    recap_candidates,
    span_sentences,
    stretches,
    words_in,
)
from bedside_search.engine import SearchEngine
from bedside_search.handlers import serve_search
from bedside_search.open_store import open_store
from bedside_search_testing import PASSAGE_MS, chapters_of, leaks, small_passages, words
from bedside_testing import corpus_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@dataclass
class Served:
    loop: asyncio.AbstractEventLoop
    engine: SearchEngine
    book: str
    passages: list[Passage]

    @property
    def end_ms(self) -> int:
        return max(p.end_ms for p in self.passages)

    def recap(self, from_ms: int, to_ms: int, here_ms: int, max_words: int = 100) -> Recapped:
        request = Recap(book=self.book, here_ms=here_ms, from_ms=from_ms, to_ms=to_ms, max_words=max_words)
        return self.engine.recap(request)

    def check(self, from_ms: int, to_ms: int, here_ms: int) -> Recapped:
        recapped = self.recap(from_ms, to_ms, here_ms)
        span = clamp_span(from_ms, to_ms, here_ms)
        assert (recapped.from_ms, recapped.to_ms) == (span.from_ms, span.to_ms)
        assert recapped.to_ms <= here_ms
        by_id = {p.id: p for p in self.passages}
        for sentence in recapped.sentences:
            assert from_ms <= sentence.at_ms < min(to_ms, here_ms), (from_ms, to_ms, here_ms, sentence)
            assert not ahead_of(sentence.at_ms, here_ms)
            passage = by_id[sentence.passage_id]
            assert sentence.chapter == passage.chapter
            assert passage.start_ms <= sentence.at_ms < max(passage.end_ms, passage.start_ms + 1)
            assert words(sentence.text) <= words(heard_text(passage, here_ms))
            assert not leaks(sentence.text, self.passages, here_ms)
        assert sum(words_in(s.text) for s in recapped.sentences) <= 100
        latest = stretches(span, 100)[0]
        if any(latest.holds(s.at_ms) for s in recap_candidates(span_sentences(self.passages, span, here_ms))):
            assert any(latest.holds(s.at_ms) for s in recapped.sentences), (from_ms, to_ms, here_ms)
        starts = [s.at_ms for s in recapped.sentences]
        assert starts == sorted(starts)
        for place in recapped.places:
            assert not place.ahead
            assert span.from_ms <= place.start_ms < span.to_ms
            assert not leaks(place.line(), self.passages, here_ms), place.line()
        return recapped


def served(tmp: Path, book: str, passages: list[Passage] | None) -> Iterator[Served]:
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(open_store(path=tmp))
    engine = SearchEngine(store, load_minilm())
    if passages is None:
        artifact = corpus_artifact(corpus_file(f"{book}.json"), load_minilm())
    else:
        vectors = cached_vectors(load_minilm(), [p.text for p in passages])
        artifact = artifact_of(book, book, passages, chapters_of(passages), load_minilm(), vectors=vectors)
    loop.run_until_complete(engine.index(artifact))
    try:
        yield Served(loop, engine, artifact.book, list(artifact.passages))
    finally:
        loop.run_until_complete(store.close())
        loop.close()


@pytest.fixture(scope="module")
def cued(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from served(tmp_path_factory.mktemp("recap-cued"), "cued", small_passages())


@pytest.fixture(scope="module")
def uncued(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from served(tmp_path_factory.mktemp("recap-uncued"), "uncued", small_passages(with_cues=False))


def spans(end_ms: int) -> st.SearchStrategy[tuple[int, int, int]]:
    times = st.integers(min_value=0, max_value=end_ms + 1_000)
    return st.tuples(times, times, times)


@pytest.mark.parametrize("book", ["cued", "uncued"])  # a book with cues, and one without
@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_every_recap_sentence_is_inside_its_span_and_behind_the_line(
    book: str, request: pytest.FixtureRequest, data: st.DataObject
) -> None:
    recapping: Served = request.getfixturevalue(book)
    from_ms, to_ms, here_ms = data.draw(spans(recapping.end_ms), label="from, to, here")
    recapping.check(from_ms, to_ms, here_ms)


def test_a_span_that_asks_past_the_line_is_read_only_up_to_it(cued: Served) -> None:
    here_ms = 4 * PASSAGE_MS + 15_000  # halfway through chapter two's second passage (cues of 10 s)
    recapped = cued.check(0, cued.end_ms, here_ms)
    assert recapped.to_ms == here_ms
    heard = {s.text for s in recapped.sentences}
    assert any("split open" in place.words for place in recapped.places if place.words)  # its heard cues
    assert not any("rope" in text for text in heard)  # the cue at 20 s has not been heard
    assert not any("bargeman" in (place.words or "") for place in recapped.places)


def test_a_span_wholly_ahead_has_nothing(cued: Served) -> None:
    recapped = cued.recap(6 * PASSAGE_MS, 9 * PASSAGE_MS, here_ms=3 * PASSAGE_MS)
    assert (recapped.from_ms, recapped.to_ms) == (3 * PASSAGE_MS, 3 * PASSAGE_MS)
    assert (recapped.places, recapped.sentences) == ([], [])


def test_a_heard_chapter_is_recapped_in_a_few_of_its_own_sentences(cued: Served) -> None:
    chapter = [p for p in cued.passages if p.chapter == 3]
    recapped = cued.check(chapter[0].start_ms, chapter[-1].end_ms, cued.end_ms)
    assert 1 <= len(recapped.sentences) <= 6
    assert {s.chapter for s in recapped.sentences} == {3}
    assert {p.chapter for p in recapped.places} == {3}
    short = cued.recap(chapter[0].start_ms, chapter[-1].end_ms, cued.end_ms, max_words=12)
    assert sum(words_in(s.text) for s in short.sentences) <= 12


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from served(
        tmp_path_factory.mktemp("recap-sample"), "sample", chunk_book(read_book(SAMPLE_TRANSCRIPT))
    )


SPOKEN_WORDS = 70
"""What the turn asks for a spoken recap (``bedside_turn.domain.recap.SPOKEN_WORDS``)."""


@pytest.mark.parametrize("minute", range(5, 23))
def test_the_last_five_minutes_of_the_sample_book_tell_something_of_their_last_minute(
    sample: Served, minute: int
) -> None:
    """What a listener who dozed off with no timer hears: the last five minutes, and above all
    what came just before where the book is now."""
    here_ms = minute * 60_000
    recapped = sample.recap(here_ms - 5 * 60_000, here_ms, here_ms, max_words=SPOKEN_WORDS)
    last_minute = [s.at_ms for s in recapped.sentences if s.at_ms >= here_ms - 60_000]
    assert last_minute, [(s.at_ms, s.text) for s in recapped.sentences]
    assert sum(words_in(s.text) for s in recapped.sentences) <= SPOKEN_WORDS


@pytest.fixture(scope="module")
async def broker(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Broker]:
    store = await open_store(path=tmp_path_factory.mktemp("recap-bus"))
    engine = SearchEngine(store, load_minilm())
    passages = small_passages()
    artifact = artifact_of("recapbus", "The Harbour Lamps", passages, chapters_of(passages), load_minilm())
    await engine.index(artifact)
    broker = Broker([nats_url])
    await broker.connect()
    await serve_search(broker, engine)
    yield broker
    await broker.stop()
    await store.close()


async def test_recap_is_served_over_nats_and_stops_at_the_line(broker: Broker) -> None:
    here_ms = 7 * PASSAGE_MS
    request = Recap(book="recapbus", here_ms=here_ms, from_ms=3 * PASSAGE_MS, to_ms=12 * PASSAGE_MS)
    recapped = await call(broker.connection, subjects.SEARCH_RECAP, request, Recapped, timeout_s=10.0)
    assert (recapped.from_ms, recapped.to_ms) == (3 * PASSAGE_MS, here_ms)
    assert recapped.sentences
    assert all(3 * PASSAGE_MS <= s.at_ms < here_ms for s in recapped.sentences)
    assert {p.chapter for p in recapped.places} == {2, 3}
    assert not any("heron" in (p.words or "").lower() and p.start_ms >= here_ms for p in recapped.places)


@pytest.fixture(scope="module")
def black_beauty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    corpus_file("black_beauty.json")
    yield from served(tmp_path_factory.mktemp("recap-bb"), "black_beauty", None)


@pytest.mark.slow
@pytest.mark.timeout(900)  # a cold vector cache embeds the whole book first
@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_every_recap_sentence_of_black_beauty_is_inside_its_span_and_behind_the_line(
    black_beauty: Served, data: st.DataObject
) -> None:
    end = black_beauty.end_ms
    here_ms = data.draw(st.integers(min_value=0, max_value=end + 1_000), label="here")
    from_ms = data.draw(st.integers(min_value=0, max_value=end), label="from")
    length = data.draw(st.integers(min_value=0, max_value=3_600_000), label="length")
    black_beauty.check(from_ms, from_ms + length, here_ms)


@pytest.mark.parametrize("hours", [1, 2])
def test_the_story_so_far_is_told_from_across_all_of_it_not_only_its_last_minutes(
    black_beauty: Served, hours: int
) -> None:
    """Two long sentences of the last minutes once filled the spoken recap of a whole first hour."""
    here_ms = hours * 3_600_000
    recapped = black_beauty.recap(0, here_ms, here_ms, max_words=70)
    fifths = {s.at_ms * 5 // here_ms for s in recapped.sentences}
    assert len(fifths) >= 4, [(s.at_ms, s.text) for s in recapped.sentences]


def cued_passage(*cues: str, cue_ms: int = 4_000) -> Passage:
    timed = tuple(Cue(start_ms=i * cue_ms, end_ms=(i + 1) * cue_ms, text=text) for i, text in enumerate(cues))
    return Passage(
        id=0,
        start_ms=0,
        end_ms=len(cues) * cue_ms,
        chapter=1,
        chapter_title="The House",
        text=" ".join(cues),
        cues=timed,
    )


def told(passage: Passage, here_ms: int) -> list[tuple[int, str]]:
    return [(s.at_ms, s.text) for s in span_sentences([passage], clamp_span(0, here_ms, here_ms), here_ms)]


def test_a_quotation_over_several_cues_is_told_in_whole_sentences_none_with_a_dangling_mark() -> None:
    passage = cued_passage(
        '"She had a compass, too, your Grandma Iris.',
        "A little brass one, on a chain.",
        'She said it always pointed home."',
        '"What is it for?" asked Wren.',
    )
    assert [text for _, text in told(passage, passage.end_ms)] == [
        '"She had a compass, too, your Grandma Iris."',
        "A little brass one, on a chain.",
        '"She said it always pointed home."',
        '"What is it for?" asked Wren.',
    ]


def test_a_sentence_runs_on_across_a_cue_and_is_timed_where_it_starts() -> None:
    passage = cued_passage(
        "She stood there with her green suitcase and watched",
        "it rattle away until it was only a sound. Then it was gone.",
    )
    assert told(passage, passage.end_ms) == [
        (0, "She stood there with her green suitcase and watched it rattle away until it was only a sound."),
        (4_000 + 4_000 * 42 // 59, "Then it was gone."),
    ]


def test_the_chapter_heading_read_out_is_not_a_sentence_of_a_recap() -> None:
    passage = cued_passage(
        "Chapter Four: The Night of the Storm.", "The storm came on Thursday night, a day early."
    )
    assert [text for _, text in told(passage, passage.end_ms)] == [
        "The storm came on Thursday night, a day early."
    ]


def test_a_sentence_the_line_cuts_short_is_not_said() -> None:
    passage = cued_passage(
        "The storm came on Thursday night, a day early.",
        "All night the wind shook the",
        "shutters of the house.",
    )
    here = 2 * 4_000  # the third cue is ahead
    sentences = span_sentences([passage], clamp_span(0, here, here), here)
    assert [s.text for s in sentences][-1] == "All night the wind shook the"
    assert [s.text for s in recap_candidates(sentences)] == ["The storm came on Thursday night, a day early."]


QUOTE_MARKS = "\"'\u201c\u2018"


def test_a_run_on_sentence_of_a_transcript_is_said_in_its_clauses() -> None:
    """A recogniser's run-on sentence is longer than a sentence a recap says: a chapter of them
    was "I can't pick out anything to tell you from that stretch; it was very short"."""
    run_on = (
        "The squire came down to the stable in the morning, and he looked at every horse in turn, "
        "and he said that the grey one was lame, so the groom led her out into the yard, and they "
        "watched her walk up and down for a long time, and at last the squire said she must rest "
        "for a week before anyone rode her again."
    )
    said = [RecapSentence(passage_id=0, chapter=1, at_ms=1_000, text=run_on)]
    parts = [s.text for s in recap_candidates(said)]
    assert len(parts) >= 2
    assert all(MIN_WORDS <= words_in(part) <= MAX_SENTENCE_WORDS for part in parts)
    assert all(part.endswith(".") for part in parts)
    assert re.findall(r"\w+", " ".join(parts).lower()) == re.findall(
        r"\w+", run_on.lower()
    )  # every word, in order
    assert [s.at_ms for s in recap_candidates(said)] == sorted(s.at_ms for s in recap_candidates(said))
    assert len({s.at_ms for s in recap_candidates(said)}) == len(parts)  # told in the book's order
    quoted = (
        '"I went down to the river in the early morning to look for fish, and the men were already '
        'out on the water with their nets," he said, "and then the whole sky went dark, and I have '
        'never seen such a thing before or since?"'
    )
    quoted_parts = [s.text for s in recap_candidates([said[0].model_copy(update={"text": quoted})])]
    assert quoted_parts
    assert all(part.count('"') % 2 == 0 for part in quoted_parts), quoted_parts
    assert quoted_parts[-1].endswith('?"'), quoted_parts  # its own end kept, nothing added
    lead_in = (
        "The mare had been lame all through the wet spring and the groom walked her each morning "
        "down the lane to the brook under the mill where the water ran cold and clear over the "
        "stones, and one day, when the frost had gone at last, she trotted the whole way home "
        "without a stumble or a sound."
    )
    lead_in_parts = [s.text for s in recap_candidates([said[0].model_copy(update={"text": lead_in})])]
    # a short clause leads into the one after it: cut before it, never after ("and one day.")
    assert lead_in_parts
    assert not any(part.endswith("one day.") for part in lead_in_parts), lead_in_parts
    # each part is said as a sentence: it opens with a capital ("And one day, ..."), unless its first
    # word might be a name ("rose slowly ...", before Rose is named): raising it would make one
    assert all(part.lstrip(QUOTE_MARKS)[0].isupper() for part in lead_in_parts + parts), lead_in_parts
    risen = (
        "The old farmer waited by the gate for hours and hours in the cold and the dark and the rain, " * 2
    )
    rose_parts = [
        s.text
        for s in recap_candidates(
            [
                said[0].model_copy(
                    update={"text": f"{risen}rose slowly from the bench and went home alone along the lane."}
                )
            ]
        )
    ]
    assert any(part.startswith("rose slowly") for part in rose_parts), rose_parts
    long_led = (  # a lead-in before a clause of 38 words: too long to join, and still said
        "The mare had been lame all through the long wet spring and the groom walked her down the lane "
        "each morning, and one day, she trotted the whole way home from the mill by the brook under the old "
        "bridge without a single stumble or a sound and the groom laughed aloud for joy as the farmer came "
        "out to see her."
    )
    assert recap_candidates([said[0].model_copy(update={"text": long_led})])
    no_clauses = "The grey horse walked on" + " and on and on" * 12 + "."
    assert recap_candidates([said[0].model_copy(update={"text": no_clauses})]) == []
