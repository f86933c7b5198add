"""The answer check as properties: what names or means the unheard is cut, heard text is kept."""

from bedside_guard import (
    STOP_THERE,
    Match,
    Passage,
    SentenceMatches,
    ahead_of,
    book_names,
    check_answer,
    meaning_lies_ahead,
    sentences_of,
    words_of,
)
from bedside_guard.check import ABOUT_THE_BOOK, CLOSEST, TELLS_SOMETHING
from hypothesis import given
from hypothesis import strategies as st

BOOK = [
    "Ada walked to the harbour with her dog. Ada had a lantern. The night was dark.",
    "Tomas met Ada by the wall. Tomas spoke of the storm, and the dog barked.",
    "At Kettleby the bells rang. Tomas rode to Kettleby and found the ginger cat.",
    "Years later Ada sailed away. Ada never saw Tomas again.",
]
PASSAGES = [
    Passage(id=i, start_ms=i * 30_000, end_ms=(i + 1) * 30_000, chapter=i + 1, chapter_title=f"C{i}", text=t)
    for i, t in enumerate(BOOK)
]
NAMES = book_names(PASSAGES)
END_MS = PASSAGES[-1].end_ms


def match(passage: Passage, score: float) -> Match:
    return Match(passage_id=passage.id, start_ms=passage.start_ms, end_ms=passage.end_ms, score=score)


scores = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)


@st.composite
def rankings(draw: st.DrawFn, first: Passage | None = None) -> SentenceMatches:
    """Random rankings of the book's passages, ``first`` (when given) best in each."""

    def ranking() -> tuple[Match, ...]:
        others = draw(st.permutations([p for p in PASSAGES if p is not first]))
        values = sorted(draw(st.lists(scores, min_size=len(others), max_size=len(others))), reverse=True)
        ranked = [match(p, v) for p, v in zip(others, values, strict=True)]
        if first is not None:
            ranked.insert(0, match(first, max([1.0, *values])))
        return tuple(ranked)

    terms = draw(st.integers(min_value=0, max_value=12))
    return SentenceMatches(terms=terms, dense=ranking(), sparse=ranking(), closest=ranking())


@given(data=st.data(), here_ms=st.integers(min_value=0, max_value=END_MS + 1_000))
def test_a_sentence_naming_a_name_first_heard_ahead_is_always_cut(data: st.DataObject, here_ms: int) -> None:
    ahead = [name for name, first in NAMES.first_ms.items() if ahead_of(first, here_ms)]
    name = data.draw(st.sampled_from(ahead or ["—"]), label="name")
    answer = f"They say {name.title()} was there."
    matches = data.draw(rankings(), label="matches")
    checked = check_answer(answer, "tell me", NAMES, here_ms, [matches])
    assert checked.cut == (1 if ahead else 0)
    if ahead:
        assert checked.speech == STOP_THERE


@given(data=st.data(), here_ms=st.integers(min_value=0, max_value=END_MS + 1_000))
def test_an_answer_made_only_of_heard_passage_text_is_never_cut(data: st.DataObject, here_ms: int) -> None:
    """Heard text (its own passage closest in every ranking, as search finds it) is kept word for word."""
    heard = [p for p in PASSAGES if not ahead_of(p.end_ms - 1, here_ms)]
    if not heard:
        return
    picked = data.draw(st.lists(st.sampled_from(heard), min_size=1, max_size=3), label="picked")
    sentences = [
        (p, s)
        for p in picked
        for s in data.draw(st.lists(st.sampled_from(sentences_of(p.text)), min_size=1, max_size=2))
    ]
    answer = " ".join(s for _, s in sentences)
    matches = [data.draw(rankings(first=p), label="matches") for p, _ in sentences]
    assert check_answer(answer, "tell me", NAMES, here_ms, matches).speech == answer


@given(data=st.data(), here_ms=st.integers(min_value=0, max_value=END_MS + 1_000))
def test_the_stop_sentence_carries_nothing_and_is_never_cut(data: st.DataObject, here_ms: int) -> None:
    assert not set(words_of(STOP_THERE)) & set(NAMES.first_ms)
    matches = data.draw(rankings(), label="matches")
    assert check_answer(STOP_THERE, "tell me", NAMES, here_ms, [matches]).cut == 0
    many = " ".join(BOOK)
    each = [data.draw(rankings()) for _ in sentences_of(many)]
    checked = check_answer(many, "tell me", NAMES, here_ms, each)
    assert checked.speech.count(STOP_THERE) == (1 if checked.cut else 0)
    assert (checked.cut == 0) == (checked.speech == many)


def test_a_sentence_whose_closest_passages_are_all_ahead_is_cut_unless_it_says_too_little() -> None:
    here_ms = PASSAGES[1].start_ms  # the first passage heard, the rest ahead
    ahead = [match(p, ABOUT_THE_BOOK + 0.1) for p in PASSAGES[1:]]
    heard = match(PASSAGES[0], ABOUT_THE_BOOK + 0.1)
    spoiling = SentenceMatches(
        terms=TELLS_SOMETHING, dense=(*ahead, heard), sparse=(heard, *ahead), closest=tuple(ahead)
    )
    assert len(spoiling.closest) == CLOSEST
    assert meaning_lies_ahead(spoiling, here_ms)
    assert not meaning_lies_ahead(spoiling.model_copy(update={"terms": TELLS_SOMETHING - 1}), here_ms)
    far = tuple(m.model_copy(update={"score": ABOUT_THE_BOOK - 0.01}) for m in spoiling.dense)
    assert not meaning_lies_ahead(spoiling.model_copy(update={"dense": far}), here_ms)
    answer = "The dog ran along the harbour wall."
    assert check_answer(answer, "tell me", NAMES, here_ms, [spoiling]).cut == 1
    assert check_answer(answer, "tell me", NAMES, here_ms).cut == 0  # the names rule alone


def test_the_holding_passage_vouches_only_for_what_was_heard_of_it() -> None:
    holding = PASSAGES[1]
    here_ms = holding.start_ms + 10_000
    assert not match(holding, 0.9).heard(here_ms)  # its words past the line are not heard
    heard_part = Match(passage_id=holding.id, start_ms=holding.start_ms, end_ms=here_ms, score=0.9)
    assert heard_part.heard(here_ms)


def test_matches_must_be_given_for_every_sentence() -> None:
    try:
        check_answer("One sentence. Two sentences.", "tell me", NAMES, 0, [])
    except ValueError:
        return
    raise AssertionError("a check with matches missing for some sentences went through")
