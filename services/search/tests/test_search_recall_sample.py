"""Recall on the sample book, "The Lantern at Gull Point", asked as a listener asks it.

Questions a colleague asked the keyless turn (`bedside ask --book sample --at T`): what has come
up must be answered from the place that answers it, and what has not must still say so. The book
is chunked as ingest chunks it and indexed with the real vectors (adr/0025, amended).
"""

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from bedside_contracts.search import Recall, Recalled
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of, cached_vectors
from bedside_guard import Passage, heard_text, without_headings
from bedside_ingest.chunking import chunk_book
from bedside_ingest.reader import read_book
from bedside_ingest.sample import SAMPLE_TRANSCRIPT
from bedside_search.domain.terms import encode_query
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_search_testing import chapters_of


def at(clock: str) -> int:
    minutes, seconds = clock.split(":")
    return (int(minutes) * 60 + int(seconds)) * 1000


@dataclass
class Sample:
    loop: asyncio.AbstractEventLoop
    engine: SearchEngine
    passages: dict[int, Passage]

    def recall(self, question: str, clock: str) -> Recalled:
        request = Recall(book="sample", here_ms=at(clock), question=question)
        return self.loop.run_until_complete(self.engine.recall(request))

    def first(self, question: str, clock: str) -> Passage | None:
        """The passage recall answers from first (the one the keyless turn quotes), or None."""
        recalled = self.recall(question, clock)
        return self.passages[recalled.hits[0].passage_id] if recalled.come_up else None


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sample]:
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(open_store(path=tmp_path_factory.mktemp("recall-sample")))
    engine = SearchEngine(store, load_minilm())
    passages = chunk_book(read_book(SAMPLE_TRANSCRIPT))
    # the run's cache of the book's vectors: embedding it took half a minute on a loaded machine
    vectors = cached_vectors(load_minilm(), [passage.text for passage in passages])
    artifact = artifact_of(
        "sample", "sample", passages, chapters_of(passages), load_minilm(), vectors=vectors
    )
    loop.run_until_complete(engine.index(artifact))
    try:
        yield Sample(loop, engine, {p.id: p for p in passages})
    finally:
        loop.run_until_complete(store.close())
        loop.close()


@pytest.mark.parametrize("clock", ["12:30", "14:00", "19:00"])
def test_why_the_lighthouse_stopped_is_answered_from_the_night_of_the_storm(
    sample: Sample, clock: str
) -> None:
    # Chapter 1 speaks of the lighthouse more often; only chapter 4 tells of its beam stopping.
    first = sample.first("why did the lighthouse stop?", clock)
    assert first is not None
    assert first.chapter == 4, first.text


@pytest.mark.parametrize("clock", ["20:30", "21:00", "22:00"])
def test_who_the_boy_on_the_rocks_was_is_answered_where_grandpa_tells_it(sample: Sample, clock: str) -> None:
    first = sample.first("who was the boy on the rocks?", clock)
    assert first is not None
    assert first.chapter == 6
    assert '"I was," said Grandpa' in first.text or "Needle Rocks" in first.text or "Iris" in first.text, (
        first.text
    )


@pytest.mark.parametrize("clock", ["5:00", "21:00"])
def test_who_hettie_is_is_answered_once_she_has_introduced_herself(sample: Sample, clock: str) -> None:
    # The book names her once, at the start of a sentence: "Hettie Bramble," said the woman.
    first = sample.first("who is Hettie?", clock)
    assert first is not None
    assert "Hettie Bramble" in first.text


def test_who_hettie_is_has_not_come_up_before_she_is_named(sample: Sample) -> None:
    assert sample.first("who is Hettie?", "3:30") is None


@pytest.mark.parametrize(
    ("ahead", "never"),
    [
        ("what did hettie say to wren?", "what did zelda say to wren?"),
        ("who is hettie?", "who is zelda?"),
        ("where is hettie bramble now", "where is zelda bramble now"),
        ("who is hetty?", "who is zelda?"),  # one spelling from Hettie, not heard yet
        ("who's oscar?", "who's zelda?"),
    ],
)
def test_a_name_in_lower_case_is_answered_alike_whether_the_book_has_it_further_on_or_never(
    sample: Sample, ahead: str, never: str
) -> None:
    """A spoiler hunt at 0:02:00: "what did hettie say to wren?" was told it had not come up and
    "what did zelda say to wren?" was answered from what was heard, so the answer (and its speed)
    told that the book has a Hettie further on (met at 0:04:03)."""
    told = [sample.recall(asked, "2:00") for asked in (ahead, never)]
    assert len({(said.come_up, len(said.unheard_names), len(said.places)) for said in told}) == 1


@pytest.mark.parametrize(
    "asked", ["what happened to hettie", "tell me about hettie", "who is mrs. hettie bramble?"]
)
def test_someone_asked_after_by_name_in_other_words_has_not_come_up_as_who_is_has_not(
    sample: Sample, asked: str
) -> None:
    """ "who is tomaz?" was told Tomaz had not come up where "what happened to tomaz" searched the book
    as a moment: the guard respelled both as names asked after, search read only the first so."""
    said = sample.recall(asked, "2:00")
    assert not said.come_up
    assert said.unheard_names[0] == "hettie"


def test_tell_me_about_a_thing_in_ordinary_words_is_searched_as_a_thing(sample: Sample) -> None:
    """ "tell me about cats" was told cats had not come up, with Pudding the cat heard (the review)."""
    said = sample.recall("tell me about cats", "2:00")
    assert (said.come_up, said.unheard_names) == (True, [])


def test_hettie_is_among_the_books_names_though_she_is_named_only_opening_her_own_words(
    sample: Sample,
) -> None:
    # '"Hettie Bramble," said the woman': the names the answer check and recall read know her.
    assert sample.recall("who is Hettie?", "3:30").unheard_names == ["hettie"]
    assert sample.recall("who is Hettie?", "5:00").unheard_names == []


def test_a_name_in_the_books_title_has_come_up_from_the_start(sample: Sample) -> None:
    # the listener chose the book by its title: "who is Hettie?" names no one unheard in a book
    # called after her, as "does Black Beauty die?" before the foal is named
    passages = list(sample.passages.values())
    vectors = cached_vectors(load_minilm(), [p.text for p in passages])
    titled = artifact_of(
        "hettie", "Hettie Bramble's Lantern", passages, chapters_of(passages), load_minilm(), vectors=vectors
    )
    sample.loop.run_until_complete(sample.engine.index(titled))
    asked = Recall(book="hettie", here_ms=at("3:30"), question="who is Hettie?")
    assert sample.loop.run_until_complete(sample.engine.recall(asked)).unheard_names == []


def test_remind_me_about_the_storm_is_answered_from_its_forecast_once_that_is_heard(sample: Sample) -> None:
    # The storm is only forecast by 6:30, one sentence among the village's news.
    first = sample.first("remind me about the storm", "6:30")
    assert first is not None
    assert "a storm was coming" in first.text
    later = sample.first("remind me about the storm", "13:00")
    assert later is not None
    assert later.chapter == 4  # "The Night of the Storm"


def test_remind_me_about_the_storm_before_it_is_mentioned_has_not_come_up(sample: Sample) -> None:
    assert sample.first("remind me about the storm", "3:00") is None


@pytest.mark.parametrize("clock", ["12:45", "13:00"])
def test_where_grandpa_is_is_answered_from_the_last_heard_of_him(sample: Sample, clock: str) -> None:
    # He has just slipped on the lighthouse stairs; chapter 1, where he climbs them, names him more.
    first = sample.first("where is Grandpa?", clock)
    assert first is not None
    assert first.chapter == 4, first.text


@pytest.mark.parametrize("question", ["what happened to Grandpa?", "what became of Grandpa?"])
def test_what_happened_to_grandpa_is_answered_from_the_last_heard_of_him(
    sample: Sample, question: str
) -> None:
    first = sample.first(question, "13:00")
    assert first is not None
    assert first.chapter == 4, first.text


def test_a_sentence_the_listener_is_in_the_middle_of_is_not_quoted(sample: Sample) -> None:
    """At 0:20:34 "what was her name?" quoted "Her name was Iris, ...", a cue begun at 0:20:33.8:
    the name the chapter turns on, three seconds before it is heard (ADR 60)."""
    told = next(
        cue for p in sample.passages.values() for cue in p.cues if cue.text.startswith("Her name was Iris")
    )
    for here_ms, heard in ((told.start_ms + 200, False), (told.end_ms, True)):
        request = Recall(book="sample", here_ms=here_ms, question="what was her name?")
        recalled = sample.loop.run_until_complete(sample.engine.recall(request))
        quoted = " ".join(place.words or "" for place in recalled.places)
        assert ("Iris" in quoted) is heard, (here_ms, quoted)


def test_a_name_heard_asked_after_one_letter_off_is_answered_as_the_name(sample: Sample) -> None:
    """ "Who is Oscar?" (Oskar) was a name the book never uses: "Oscar hasn't come up yet"."""
    misspelt = sample.recall("who is Oscar?", "20:00")
    assert misspelt.come_up, misspelt
    assert misspelt.hits == sample.recall("who is Oskar?", "20:00").hits


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("who's ren again", "who is Wren?"),  # her name, its silent letter unheard
        ("who is ren", "who is Wren?"),
        ("whos oscar", "who is Oskar?"),
        ("who is grandpa tobius", "who is Grandpa Tobias?"),
        ("who is hetty", "who is Hettie?"),
        ("where's ren", "where is Wren?"),
        ("what happened to oscar", "what happened to Oskar?"),
        ("tell me about ren", "tell me about Wren"),
    ],
)
def test_a_name_heard_as_a_recogniser_writes_it_is_answered_as_the_name(
    sample: Sample, said: str, name: str
) -> None:
    """At 0:12:00 "who is ren" was told "That hasn't come up yet" of Wren, the book's main character."""
    recalled = sample.recall(said, "12:00")
    assert recalled.come_up, recalled
    # the passage the keyless turn quotes; the scores differ as the question's other words do
    assert recalled.hits[0].passage_id == sample.recall(name, "12:00").hits[0].passage_id


KITCHEN_MS = 1_078_804
"""Inside passage 39 (chapter 5), after "...because it seemed only fair.", before its last
sentence, "Then they ran up the garden together to the kitchen door." """


def test_a_word_the_holding_passage_holds_only_past_the_line_does_not_raise_it(sample: Sample) -> None:
    holding = sample.passages[39]
    assert "kitchen" in holding.text
    assert "kitchen" not in heard_text(holding, KITCHEN_MS)
    recalled = sample.loop.run_until_complete(
        sample.engine.recall(Recall(book="sample", here_ms=KITCHEN_MS, question="what was the kitchen?"))
    )
    # Counted by its unheard "kitchen door", passage 39 came first; a kitchen heard of is answered first.
    assert recalled.come_up
    assert recalled.hits[0].passage_id != 39
    assert "kitchen" in sample.passages[recalled.hits[0].passage_id].text


def test_the_heard_words_are_scored_as_the_store_scores_a_passage(sample: Sample) -> None:
    # The holding passage's heard words are scored in memory and ranked among the store's scores.
    book = sample.engine.book("sample")
    query = encode_query("the lantern in the lighthouse at the storm")
    vector = sample.engine.embedder.embed_query("the lantern in the lighthouse at the storm")
    _, sparse = sample.loop.run_until_complete(sample.engine.store.search(book.collection, vector, query, 60))
    assert len(sparse) > 10
    for scored in sparse:
        # the scorer the holding passage's heard words get, given every word, scores as the store does
        assert book.bm25.score(query, sample.passages[scored.passage_id].text) == pytest.approx(
            scored.score, rel=1e-5
        )
        # and holding the line inside its last cue, the passage is scored on its other cues alone
        passage = sample.passages[scored.passage_id]
        here_ms = passage.cues[-1].start_ms + 1
        heard = heard_text(passage, here_ms)
        assert heard != passage.text
        expected = book.bm25.score(query, heard) if heard else 0.0
        assert book.sparse_score(query, heard) == (pytest.approx(expected) if expected > 0 else None)


@pytest.mark.parametrize(
    ("question", "clock", "named"),
    [
        # Chapter two's first passage is where both are named, only past its first sixty words.
        ("who is Hettie Bramble?", "5:00", '"Hettie Bramble," said the woman'),
        ("who is Hettie Bramble?", "20:00", '"Hettie Bramble," said the woman'),
        ("who is Wren?", "10:00", "Wren"),
        ("who is Wren?", "25:00", "Wren"),
    ],
)
def test_who_someone_is_is_answered_with_the_words_that_name_them(
    sample: Sample, question: str, clock: str, named: str
) -> None:
    recalled = sample.recall(question, clock)
    assert recalled.come_up
    words = recalled.places[0].words
    assert words is not None
    assert named in words, words


WHO_IS = [
    # (question, position, the passages that say who X is): written before the opening-chapter rule.
    ("who is Wren?", "2:00", {0}),
    ("who is Wren?", "5:00", {0}),
    ("who is Wren?", "8:00", {0}),
    ("who is Wren?", "15:00", {0}),
    ("who is Wren?", "22:00", {0}),
    ("who is Grandpa?", "5:00", {2}),
    ("who is Grandpa?", "12:00", {2}),
    ("who is Grandpa Tobias?", "20:00", {2}),
    ("who is Pudding?", "3:00", {3}),
    ("who is Pudding?", "12:00", {3}),
    ("who is Pudding?", "18:00", {3}),
    ("who is Hettie Bramble?", "5:00", {8, 9}),
    ("who is Mrs Bramble?", "12:00", {8, 9}),
    ("who is Hettie?", "20:00", {8, 9}),
    ("who is Oskar?", "6:00", {12}),
    ("who is Oskar?", "10:00", {12}),  # chapter 3 names him more; chapter 2 has "I'm Oskar"
    ("who is Oskar?", "18:00", {12}),
    ("who is Grandma Iris?", "4:00", {6}),
    ("who is Iris?", "12:00", {6}),
    ("who is the Admiral?", "9:00", {18}),
    ("who is the Admiral?", "15:00", {18}),
]


@pytest.mark.parametrize(("question", "clock", "introducing"), WHO_IS)
def test_who_someone_is_is_answered_from_the_passage_that_introduces_them(
    sample: Sample, question: str, clock: str, introducing: set[int]
) -> None:
    # Wren, Grandpa Tobias and Pudding are named in more passages of a later chapter than of the
    # opening one, which introduces them ("The bus left Wren Calloway...", "That is Pudding").
    first = sample.first(question, clock)
    assert first is not None
    assert first.id in introducing, first.text


@pytest.mark.parametrize("clock", ["18:00", "25:00"])
def test_who_pudding_is_is_not_answered_from_a_chapter_heading_that_names_her(
    sample: Sample, clock: str
) -> None:
    # "Chapter Five: What Pudding Kept." is a title read out: the passage it opens says nothing of
    # her, and counted as naming her it came first, its line about the morning after the storm.
    naming = sample.engine.book("sample").heard_naming("pudding", at(clock))
    assert 32 not in {n.passage_id for n in naming}  # chapter 5's first passage, the title only
    recalled = sample.recall("who is Pudding?", clock)
    assert recalled.come_up
    words = recalled.places[0].words
    assert words is not None
    assert "Pudding" in without_headings(words), words


@pytest.mark.parametrize(
    "question", ["what is the name of the cat?", "what's the cat called?", "what's the cat's name again"]
)
def test_a_name_asked_is_answered_where_the_book_first_tells_it(sample: Sample, question: str) -> None:
    """Chapter 1 tells it: the round orange cat, and "That is Pudding," said Grandpa. Chapter 3 has
    the cat and Pudding too, and ranked first for some of these."""
    recalled = sample.recall(question, "13:00")
    first = sample.passages[recalled.hits[0].passage_id]
    assert first.chapter == 1, first.text
    assert "That is Pudding" in first.text
    assert "That is Pudding" in (recalled.places[0].words or "")


def test_a_name_asked_of_something_not_heard_has_not_come_up(sample: Sample) -> None:
    assert sample.first("what's the name of the giraffe?", "13:00") is None


@pytest.mark.parametrize(
    "question", ["who's the keeper", "who is the new keeper?", "who is the lighthouse keeper?"]
)
def test_who_someone_the_book_calls_by_what_they_are_is_answered_where_it_says_so(
    sample: Sample, question: str
) -> None:
    # "the keeper" is never a name: it had "not come up" a minute after "the new lighthouse keeper"
    first = sample.first(question, "2:00")
    assert first is not None
    assert "the new lighthouse keeper" in first.text


def test_who_someone_is_by_what_they_are_has_not_come_up_before_the_book_says_it(sample: Sample) -> None:
    assert sample.first("who's the keeper", "0:50") is None


@pytest.mark.parametrize(
    ("question", "clock", "told"),
    [
        ("what is the Marigold?", "6:30", "My dad has the Marigold"),
        ("what's the Marigold", "6:30", "My dad has the Marigold"),
        ("what is the Marigold like?", "6:30", "My dad has the Marigold"),
        ("what is Marigold again?", "6:30", "My dad has the Marigold"),
        ("what is the Kettle?", "12:30", "a star called the Kettle"),
    ],
)
def test_what_a_heard_name_is_is_answered_where_the_book_names_it(
    sample: Sample, question: str, clock: str, told: str
) -> None:
    """ "what is the Marigold?" a minute after "My dad has the Marigold" was told it had not come up:
    a thing asked after by its name was left to the cosine, as "who is the Marigold?" was not."""
    first = sample.first(question, clock)
    assert first is not None
    assert told in first.text, first.text


def test_what_a_name_not_heard_yet_is_has_not_come_up(sample: Sample) -> None:
    said = sample.recall("what is the Marigold?", "4:00")
    assert (said.come_up, said.unheard_names) == (False, ["marigold"])
