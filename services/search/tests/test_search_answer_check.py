"""The answer check as search serves it, on the small book with the real vectors and index.

A sentence that tells what lies ahead in other words is cut however it is worded; the same
sentence is kept once it has been heard; heard text, the passage holding the line included,
is kept.
"""

import asyncio
from collections.abc import Iterator

import pytest
from bedside_contracts.search import CheckAnswer
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_guard import STOP_THERE, CheckedAnswer, Passage, ahead_of
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_search_testing import PASSAGE_MS, chapters_of, small_passages
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PASSAGES = small_passages()
END_MS = PASSAGES[-1].end_ms
ICE = 4 * PASSAGE_MS  # "Near the old mill the ice groaned and split open. Pepper plunged ..."


class Checker:
    def __init__(self, loop: asyncio.AbstractEventLoop, engine: SearchEngine) -> None:
        self.loop = loop
        self.engine = engine

    def __call__(self, answer: str, here_ms: int, *, from_model: bool = True) -> CheckedAnswer:
        request = CheckAnswer(
            book="small", here_ms=here_ms, question="tell me", answer=answer, from_model=from_model
        )
        return self.loop.run_until_complete(self.engine.check(request))


@pytest.fixture(scope="module")
def check(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Checker]:
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(open_store(path=tmp_path_factory.mktemp("check")))
    engine = SearchEngine(store, load_minilm())
    artifact = artifact_of("small", "small", PASSAGES, chapters_of(PASSAGES), load_minilm())
    loop.run_until_complete(engine.index(artifact))
    try:
        yield Checker(loop, engine)
    finally:
        loop.run_until_complete(store.close())
        loop.close()


SPOILERS = (
    "Later the little dog crashes through the ice by the mill and has to be dragged out.",
    "Eventually a mechanical bird she builds flies over the fair and gets stuck on a roof.",
    "In the end the old craftsman sails away on the last boat into the fog.",
)


@pytest.mark.parametrize("spoiler", SPOILERS)
def test_a_spoiler_in_other_words_is_cut_before_it_happens_and_kept_after(
    check: Checker, spoiler: str
) -> None:
    assert check(spoiler, 0) == CheckedAnswer(speech=STOP_THERE, cut=1)
    assert (
        check(f"Oswin mends lanterns. {spoiler}", PASSAGE_MS).speech == f"Oswin mends lanterns. {STOP_THERE}"
    )
    assert check(spoiler, END_MS).cut == 0
    assert check(spoiler, 0, from_model=False).cut == 0  # plain code's own words: the names rule only


def test_a_chapter_title_ahead_is_cut_until_the_chapter_begins(check: Checker) -> None:
    """A spoiler hunt's model said "The next chapter is called The Lamplighter.", a title ahead it
    could know of a famous book from elsewhere, and it was spoken whole."""
    said = "The next chapter is called The Clockwork Heron."
    assert check(said, 0) == CheckedAnswer(speech=STOP_THERE, cut=1)
    assert check(said, 0, from_model=False).cut == 1
    assert check(said, 180_001, from_model=False).cut == 0  # the chapter has begun: its title is heard


def heard_sentences(here_ms: int) -> list[str]:
    return [cue.text for p in PASSAGES for cue in p.cues if not ahead_of(cue.end_ms - 1, here_ms)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_answer_made_of_heard_sentences_is_never_cut(check: Checker, data: st.DataObject) -> None:
    here_ms = data.draw(st.integers(min_value=0, max_value=END_MS), label="here_ms")
    heard = heard_sentences(here_ms)
    if not heard:
        return
    picked = data.draw(st.lists(st.sampled_from(heard), min_size=1, max_size=3, unique=True), label="picked")
    answer = " ".join(picked)
    assert check(answer, here_ms) == CheckedAnswer(speech=answer, cut=0)


def test_what_was_just_heard_of_the_passage_holding_the_line_is_kept(check: Checker) -> None:
    holding: Passage = PASSAGES[ICE // PASSAGE_MS]
    here_ms = holding.cues[1].start_ms  # "Near the old mill the ice groaned and split open." heard
    assert check(holding.cues[0].text, here_ms).cut == 0
    assert check("By the old mill the ice creaked and cracked apart.", here_ms).cut == 0
    rescue = "Afterwards a boatman pulls the soaked dog onto the path and they wrap it in a blanket."
    assert check(rescue, here_ms).cut == 1  # the next passage, ahead


def test_what_is_still_unheard_of_the_passage_holding_the_line_is_cut(check: Checker) -> None:
    """Inside a passage, its own sentence not heard yet was kept word for word, while the same
    sentence was cut once the whole passage lay ahead (a red team of the line)."""
    holding: Passage = PASSAGES[ICE // PASSAGE_MS]
    here_ms = holding.cues[1].start_ms  # the ice heard; the dog's plunge not yet
    plunge = "The little dog plunged into the black freezing water of the canal by the mill."
    assert check(plunge, holding.start_ms).cut == 1  # the whole passage ahead: cut, as ever
    assert check(plunge, here_ms).cut == 1
    assert check(plunge, holding.cues[2].start_ms).cut == 0  # heard by then
