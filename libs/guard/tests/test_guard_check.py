"""The answer check as properties: what names or means the unheard is cut, heard text is kept."""

import pytest
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
    tells_of_later,
    words_of,
)
from bedside_guard.check import ABOUT_THE_BOOK, STORY_MARGIN, STRETCH, TELLS_SOMETHING, best_stretch
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
    return Match(
        passage_id=passage.id,
        chapter=passage.chapter,
        start_ms=passage.start_ms,
        end_ms=passage.end_ms,
        score=score,
    )


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
    return SentenceMatches(terms=terms, dense=ranking(), sparse=ranking())


@given(data=st.data(), here_ms=st.integers(min_value=0, max_value=END_MS + 1_000))
def test_a_sentence_naming_a_name_first_heard_ahead_is_always_cut(data: st.DataObject, here_ms: int) -> None:
    ahead = [name for name, first in NAMES.first_ms.items() if ahead_of(first, here_ms)]
    name = data.draw(st.sampled_from(ahead or ["—"]), label="name")
    answer = f"They say {name.title()} was there."
    matches = data.draw(rankings(), label="matches")
    checked = check_answer(answer, "tell me", NAMES, here_ms, [matches])
    # With no name ahead, the random matches alone decide (the meaning rule).
    assert checked.cut == (1 if ahead or meaning_lies_ahead(matches, here_ms) else 0)
    if ahead:
        assert checked.speech == STOP_THERE


TITLES = {60_000: "Ada", 90_000: "The Lamplighter", 120_000: "Who Took It?", 150_000: "Ginger\u2019s Harbour"}
"""Chapters' own titles by where each chapter starts (the book's passages end at 120 s)."""


@pytest.mark.parametrize(
    "answer",
    [
        "The next chapter is called The Lamplighter.",
        'It is called "The Lamplighter."',
        "It is called \u201cThe Lamplighter,\u201d I think.",
        "Next comes *The Lamplighter*.",
        "The next chapter is The Lamplighter.",
        "Chapter 9: The Lamplighter.",
        "Soon comes a chapter called Who Took It? It is good.",
        "Then comes Ginger's Harbour.",
        "Then comes Gingers Harbour.",  # these two were spoken whole (a review)
        "The one after is Lamplighter, I believe.",
    ],
)
def test_a_chapter_title_ahead_with_a_word_not_heard_is_cut_however_it_is_written(answer: str) -> None:
    """A spoiler hunt's model said "The next chapter is called The Lamplighter.", a title ahead, as a
    model may know one of a famous book from elsewhere, and it was spoken whole."""
    checked = check_answer(answer, "tell me", NAMES, 30_000, titles=TITLES)
    assert checked.speech.startswith(STOP_THERE), checked.speech


@pytest.mark.parametrize(
    "answer",
    [
        "Ada walked to the harbour with her dog.",  # "Ada", a title ahead, is heard: a word like any other
        "The dog barked by the wall.",
    ],
)
def test_a_chapter_title_ahead_whose_words_are_all_heard_is_left_to_the_other_rules(answer: str) -> None:
    """(The second review) "a mare named Ginger", heard, was cut because a chapter ahead is titled
    "Ginger"; so would every "a boy named Bran" in a book whose chapters are named for who tells them."""
    assert check_answer(answer, "tell me", NAMES, 30_000, titles=TITLES).speech == answer


@pytest.mark.parametrize(
    ("title", "answer"),
    [
        ("O'Brien's Farm", "Next comes O'Briens Farm."),
        ("D'Artagnan Rides", "Then D'Artagnan Rides, I think."),
        ("Room 101", "The next is Room 101."),
    ],
)
def test_a_title_ahead_written_with_apostrophes_or_numbers_is_cut(title: str, answer: str) -> None:
    """The second review: the title was split as names are, dropping "O'" and "101"."""
    assert check_answer(answer, "tell me", NAMES, 30_000, titles={150_000: title}).speech == STOP_THERE


@pytest.mark.parametrize(
    ("title", "answer"),
    [
        ("Room 101", "Ada sat in a room by the harbour."),  # the second review: these were cut
        ("Plan B", "Ada had a plan."),
        ("1914", "In 1914 the dog barked."),
        ("Lantern B", "Ada had a lantern B."),
        ("Chapter 3", 'In chapter 3, "Chapter 2", you heard: "The night was dark."'),
        ("Tomas's Storm", "Ada saw Tomas's storm."),
    ],
)
def test_a_title_ahead_of_numbers_letters_or_heard_words_cuts_nothing(title: str, answer: str) -> None:
    """(The third review) digits, a letter, a title numbering another chapter and a possessive of
    heard words were counted as words not heard, and heard quotes were cut."""
    assert check_answer(answer, "tell me", NAMES, 120_000, titles={150_000: title}).speech == answer


def test_a_chapter_title_is_said_freely_once_its_chapter_has_begun_or_the_listener_said_it() -> None:
    said = "The next chapter is called The Lamplighter."
    assert check_answer(said, "tell me", NAMES, 90_001, titles=TITLES).speech == said
    assert check_answer(said, "is the lamplighter next?", NAMES, 30_000, titles=TITLES).speech == said


def test_a_name_ahead_split_by_a_character_no_one_sees_is_still_cut() -> None:
    """A spoiler hunt's model wrote "Cor\u200bvin is a forger.": a zero-width space hid the name ahead
    from the names rule, and the sentence was spoken whole."""
    for hidden in ("\u200b", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u034f", "\ufe0f", "\u3164"):
        answer = f"To{hidden}mas is a forger."
        assert check_answer(answer, "tell me", NAMES, 30_000).speech == STOP_THERE, repr(hidden)


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


def _at(passage_id: int, chapter: int, score: float) -> Match:
    """A match on a passage of a longer book: 10 s passages, chapters of any length."""
    return Match(
        passage_id=passage_id,
        chapter=chapter,
        start_ms=passage_id * 10_000,
        end_ms=(passage_id + 1) * 10_000,
        score=score,
    )


LINE_MS = 50_000
"""Passages 0-4 heard, 5 on ahead."""


def test_a_stretch_ahead_matching_better_than_anything_heard_cuts_unless_the_sentence_says_little() -> None:
    # One heard passage matches the words best, but three of a chapter ahead tell the story.
    sparse = (_at(2, 1, 6.0), _at(6, 2, 5.0), _at(7, 2, 5.0), _at(8, 2, 4.5), _at(3, 1, 1.0))
    dense = (_at(7, 2, 0.6), _at(2, 1, 0.5))
    spoiling = SentenceMatches(terms=TELLS_SOMETHING, dense=dense, sparse=sparse)
    ahead, heard = best_stretch(sparse, False, LINE_MS), best_stretch(sparse, True, LINE_MS)
    assert (ahead, heard) == (14.5 / STRETCH, 7.0 / STRETCH)
    assert ahead - heard >= STORY_MARGIN * ahead
    assert meaning_lies_ahead(spoiling, LINE_MS)
    assert not meaning_lies_ahead(spoiling.model_copy(update={"terms": TELLS_SOMETHING - 1}), LINE_MS)
    far = tuple(m.model_copy(update={"score": ABOUT_THE_BOOK - 0.01}) for m in dense)
    assert not meaning_lies_ahead(spoiling.model_copy(update={"dense": far}), LINE_MS)
    # The heard chapter tells it as fully: kept.
    told = (*sparse, _at(1, 1, 5.0), _at(0, 1, 5.0))
    assert not meaning_lies_ahead(spoiling.model_copy(update={"sparse": told}), LINE_MS)


def test_the_chapter_holding_the_line_is_two_stretches_its_heard_part_and_the_rest() -> None:
    # Chapter 1 runs from passage 3 to 8; the line falls after passage 4.
    sparse = (_at(3, 1, 5.0), _at(4, 1, 5.0), _at(5, 1, 5.0), _at(6, 1, 5.0), _at(7, 1, 5.0))
    assert best_stretch(sparse, True, LINE_MS) == 10.0 / STRETCH
    assert best_stretch(sparse, False, LINE_MS) == 15.0 / STRETCH


def test_a_sentence_whose_closest_passage_by_meaning_and_by_words_is_heard_is_kept() -> None:
    sparse = (_at(2, 1, 6.0), _at(6, 2, 5.9), _at(7, 2, 5.9), _at(8, 2, 5.9))
    dense = (_at(2, 1, 0.7), _at(7, 2, 0.6))
    kept = SentenceMatches(terms=TELLS_SOMETHING + 2, dense=dense, sparse=sparse)
    assert not meaning_lies_ahead(kept, LINE_MS)
    closer_ahead = (_at(2, 1, 0.6), _at(7, 2, 0.7))
    assert meaning_lies_ahead(kept.model_copy(update={"dense": closer_ahead}), LINE_MS)


@given(data=st.data(), here_ms=st.integers(min_value=0, max_value=END_MS + 1_000), told_later=st.booleans())
def test_more_heard_support_never_makes_a_sentence_cut(
    data: st.DataObject, here_ms: int, told_later: bool
) -> None:
    """What was heard only ever vouches for a sentence: adding a heard match cannot cut it."""
    matches = data.draw(rankings(), label="matches")
    heard = [p for p in PASSAGES if not ahead_of(p.end_ms - 1, here_ms)]
    if meaning_lies_ahead(matches, here_ms, told_later=told_later) or not heard:
        return
    passage = data.draw(st.sampled_from(heard), label="heard passage")
    score = data.draw(scores, label="score")
    side = data.draw(st.sampled_from(["dense", "sparse"]), label="side")
    more = matches.model_copy(update={side: (*getattr(matches, side), match(passage, score))})
    assert not meaning_lies_ahead(more, here_ms, told_later=told_later)


@given(data=st.data(), here_ms=st.integers(min_value=0, max_value=END_MS + 1_000))
def test_saying_it_comes_later_only_ever_adds_cuts(data: st.DataObject, here_ms: int) -> None:
    """A sentence cut as it stands is cut when it says "later" too; heard-closest ones never are."""
    matches = data.draw(rankings(), label="matches")
    if meaning_lies_ahead(matches, here_ms):
        assert meaning_lies_ahead(matches, here_ms, told_later=True)
    if matches.dense and max(matches.dense, key=lambda m: m.score).heard(here_ms):
        assert meaning_lies_ahead(matches, here_ms, told_later=True) == meaning_lies_ahead(matches, here_ms)


def test_a_sentence_told_as_later_is_cut_when_its_closest_passage_in_meaning_is_ahead() -> None:
    # The words lean to a heard chapter, so the stretches alone keep it.
    sparse = (_at(2, 1, 6.0), _at(3, 1, 6.0), _at(4, 1, 6.0), _at(7, 2, 5.0))
    dense = (_at(7, 2, 0.55), _at(2, 1, 0.5))
    matches = SentenceMatches(terms=TELLS_SOMETHING, dense=dense, sparse=sparse)
    assert not meaning_lies_ahead(matches, LINE_MS)
    assert meaning_lies_ahead(matches, LINE_MS, told_later=True)
    heard_closer = (_at(2, 1, 0.6), _at(7, 2, 0.55))
    assert not meaning_lies_ahead(
        matches.model_copy(update={"dense": heard_closer}), LINE_MS, told_later=True
    )
    assert not meaning_lies_ahead(
        matches.model_copy(update={"terms": TELLS_SOMETHING - 1}), LINE_MS, told_later=True
    )


def test_sentences_that_place_themselves_later_in_the_story_are_known() -> None:
    for said in (
        "In the end he finds a quiet home.",
        "Years later the mare dies.",
        "His groom turns out to be the boy he knew.",
        "Soon after, the ship is lost.",
        "At last they reached the town.",
        "Sadly not. Ginger is dead by the end.",  # spoken whole by a model (a red team of the line)
    ):
        assert tells_of_later(said), said
    for said in ("He was sold and became a horse for hire.", "Ginger came to hate men.", "She never lied."):
        assert not tells_of_later(said), said


def test_the_holding_passage_vouches_only_for_what_was_heard_of_it() -> None:
    holding = PASSAGES[1]
    here_ms = holding.start_ms + 10_000
    assert not match(holding, 0.9).heard(here_ms)  # its words past the line are not heard
    heard_part = match(holding, 0.9).model_copy(update={"end_ms": here_ms})
    assert heard_part.heard(here_ms)


def test_matches_must_be_given_for_every_sentence() -> None:
    try:
        check_answer("One sentence. Two sentences.", "tell me", NAMES, 0, [])
    except ValueError:
        return
    raise AssertionError("a check with matches missing for some sentences went through")
