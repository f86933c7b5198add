"""What a recall question is about: "who is X?" answered where the book names X, heard titles.

The pure rules on hand-made rankings, the heard names of the small book at every line, and
recall itself on the small book with the real vectors and index.
"""

import asyncio
from collections.abc import Iterator

import pytest
from bedside_contracts.search import Recall
from bedside_embedding import load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_guard import ahead_of, asked_after_by_name, heard_text, written_with_capital
from bedside_search.domain.book import ServedBook
from bedside_search.domain.fusion import Fused
from bedside_search.domain.subject import (
    Introduction,
    Naming,
    introduced_order,
    introduction,
    mentioned_first,
    name_asked_of,
    names_someone_else,
    role_of,
    subject_of,
    tells_name_of,
    thing_of,
    title_nudged,
    title_weights,
    whereabouts_of,
    writes_whole_name,
)
from bedside_search.domain.terms import terms
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_search_testing import PASSAGE_MS, chapters_of, small_info, small_passages
from hypothesis import given
from hypothesis import strategies as st

PASSAGES = small_passages()
END_MS = PASSAGES[-1].end_ms


def test_the_subject_of_who_is_is_its_content_words_in_lower_case() -> None:
    assert subject_of("who is Justice?") == ("justice",)
    assert subject_of("Who was the Captain?") == ("captain",)
    assert subject_of("who's John Clay") == ("john", "clay")
    assert subject_of("who\u2019s John Clay") == ("john", "clay")
    assert subject_of("whos Pepper") == ("pepper",)  # typed half asleep, as the turn reads it too
    assert subject_of("whose is the hat?") == ()
    assert subject_of("who is Mr. Barry?") == ("barry",)  # a title's stop does not end it
    assert subject_of("who is Lord St. Simon? I forget") == ("lord", "simon")
    assert subject_of("who is Gen. Gordon?") == ("gordon",)
    assert subject_of("where is Sgt. Bell?") == ()  # see whereabouts_of
    assert whereabouts_of("where is Sgt. Bell?") == ("bell",)
    assert subject_of("who was the man with the twisted lip?") == ("man", "twisted", "lip")


def test_tell_me_about_or_remind_me_of_someone_asks_who_they_are() -> None:
    assert subject_of("tell me about Iris") == ("iris",)
    assert subject_of("Tell me again about Grandma Iris?") == ("grandma", "iris")
    assert subject_of("remind me who Mrs. Bramble is") == ("bramble",)
    assert subject_of("remind me of Oskar") == ("oskar",)
    assert subject_of("I forgot who Ginger is") == ("ginger",)
    assert subject_of("I can't remember who the Captain was") == ("captain",)
    assert subject_of("I lost track of who Mrs. Bramble is") == ("bramble",)
    assert subject_of("tell me about what happened to the boat in the storm") == ()  # a description


def test_what_is_a_name_asks_after_it_as_who_is_does_and_a_thing_in_lower_case_does_not() -> None:
    assert subject_of("what is the Marigold?") == ("marigold",)
    assert subject_of("What's Gull Point like?") == ("gull", "point")
    assert subject_of("what was the Night of the Storm again") == ("night", "storm")
    assert subject_of("what is the compass?") == ()  # a thing: see thing_of
    assert subject_of("what is Wren doing?") == ()  # not a name asked after
    assert subject_of("what's the Marigold called?") == ()  # a name asked: see name_asked_of
    assert subject_of("what is it?") == ()
    # the review: a recogniser's capitals ask what she does, not who she is
    assert subject_of("What Is Wren Up To?") == ()
    assert subject_of("What Was Wren About To Say?") == ()
    assert subject_of("What Is The Marigold?") == ("marigold",)


@pytest.mark.parametrize(
    "question",
    [
        "who is Tomas?",
        "who is Mr pell again?",
        "who is Oskar anyway",
        "who is Holmes btw",
        "who is Lord St. Simon? I forget",
        "I forgot who Ginger is",
        "remind me who Mrs. Bramble is",
        "tell me again about Zoë",
        "where is Hettie Bramble now",
        "what happened to Tomaz",
        "whatever happened to Mrs. Bramble?",
        "how is Ginger doing?",
        "is Mrs. Bramble all right",
        "what's going on with Ginger",
        "what is the Marigold?",
        "What Is The Marigold?",
        "What Is Wren Up To?",
        "what was the Night of the Storm again",
    ],
)
def test_search_looks_up_as_a_name_whom_the_guard_reads_as_asked_after_by_name(question: str) -> None:
    """One rule for both (adr/0078): "what is the Marigold?" was a name asked after in search and
    none in the guard, "who is Oskar anyway" looked up "anyway" among the book's names (the review)."""
    assert (subject_of(question) or whereabouts_of(question)) == asked_after_by_name(
        question, things_too=True
    )


def test_a_question_not_asking_who_or_describing_at_length_has_no_subject() -> None:
    assert subject_of("what happened to Ginger?") == ()
    assert subject_of("who is the man who sold the old horse at the fair?") == ()
    assert subject_of("who is it?") == ()


def test_where_is_someone_asks_after_them_now_and_where_was_does_not() -> None:
    assert whereabouts_of("where is Grandpa?") == ("grandpa",)
    assert whereabouts_of("Where's Mrs. Bramble") == ("bramble",)
    assert whereabouts_of("where are Oskar and Wren?") == ("oskar", "wren")
    assert whereabouts_of("where was the compass?") == ()
    assert subject_of("where is Grandpa?") == ()


def test_what_happened_to_someone_asks_for_the_last_heard_of_them() -> None:
    assert whereabouts_of("what happened to Ginger?") == ("ginger",)
    assert whereabouts_of("what's happened to Grandpa") == ("grandpa",)
    assert whereabouts_of("whatever happened to Mrs. Bramble?") == ("bramble",)
    assert whereabouts_of("What ever happened to Merrylegs") == ("merrylegs",)  # as Whisper writes it
    assert whereabouts_of("what became of Oskar?") == ("oskar",)
    assert whereabouts_of("what has become of the old pony?") == ("old", "pony")
    assert whereabouts_of("how is Ginger doing?") == ("ginger",)
    assert whereabouts_of("how's Merrylegs getting on") == ("merrylegs",)
    assert whereabouts_of("is Ginger ok?") == ("ginger",)
    assert whereabouts_of("is Mrs. Bramble all right") == ("bramble",)
    assert whereabouts_of("what's going on with Ginger") == ("ginger",)
    assert whereabouts_of("how is it going?") == ()
    assert whereabouts_of("is it ok to skip?") == ()
    assert whereabouts_of("where is Grandpa? I can't remember") == ("grandpa",)


def test_where_is_answers_from_the_latest_heard_passage_naming_them() -> None:
    naming = {"grandpa": [_naming(1, 1), _naming(2, 1), _naming(7, 4)]}
    order = introduced_order(naming, [Fused(2, 0.05, 0.6)], latest=True)
    assert order is not None
    assert [f.passage_id for f in order] == [7, 2, 1]


def test_remind_me_about_a_thing_in_lower_case_asks_after_its_terms() -> None:
    assert thing_of("remind me about the storm") == ("storm",)
    assert thing_of("Tell me again about the old lanterns?") == ("old", "lantern")
    assert thing_of("remind me of the storm and the storm sky") == ("storm", "sky")
    # A capital is the asker naming someone: the names rules decide.
    assert thing_of("tell me about Justice") == ()
    assert thing_of("tell me about what happened at the fair") == ()
    assert thing_of("who is the captain?") == ()
    assert thing_of("remind me about the man who sold the old horse at the fair") == ()


def test_what_is_the_thing_asks_after_its_terms_as_remind_me_about_it_does() -> None:
    """A listener session asked "what are the needle rocks" a minute after "the Needle Rocks" were
    heard, and was told they had not come up: the passage naming them fell below the cosine bar."""
    assert thing_of("what are the needle rocks") == ("needl", "rock")
    assert thing_of("what is a bearing rein?") == ("bear", "rein")
    assert thing_of("what was the horse fair like?") == ("hors", "fair")
    assert thing_of("what's the old ledger again") == ("old", "ledger")
    # No article, no thing named: "what is happening", "what was that" ask after no thing; nor does
    # one word, or a clause (review: these quoted passages that only used the word).
    assert thing_of("what is happening") == ()
    assert thing_of("what was that") == ()
    for asked in ("what was the plan?", "what was the point of that?", "what was the reason she left?"):
        assert thing_of(asked) == (), asked
    assert thing_of("what are the Needle Rocks") == ()  # a capital: the names rules decide
    assert thing_of("what was the man at the fair doing with the old horse") == ()


def test_passages_mentioning_the_thing_come_first_in_ranked_order_then_story_order() -> None:
    ranked = [Fused(9, 0.05, 0.6), Fused(5, 0.04, 0.5), Fused(4, 0.03, 0.4)]
    order = mentioned_first([1, 4, 5], ranked)
    assert [f.passage_id for f in order] == [5, 4, 1, 9]
    assert order[2] == Fused(1, 0.0, None)
    assert mentioned_first([], ranked) == ranked


def _naming(passage_id: int, chapter: int, *, inside: bool = True) -> Naming:
    return Naming(passage_id=passage_id, chapter=chapter, start_ms=passage_id * PASSAGE_MS, inside=inside)


def test_who_is_answers_from_the_chapter_that_names_them_most_then_the_rest() -> None:
    ranked = [Fused(9, 0.05, 0.6), Fused(5, 0.04, 0.5), Fused(4, 0.03, 0.4)]
    naming = {"captain": [_naming(1, 1), _naming(5, 3), _naming(4, 3, inside=False)]}
    order = introduced_order(naming, ranked)
    assert order is not None
    assert [f.passage_id for f in order] == [4, 5, 1, 9]  # chapter 3 in story order, then the rest
    assert order[1] == ranked[1]  # a ranked passage keeps its scores
    assert order[2] == Fused(1, 0.0, None)  # named, but not among the ranked


NAMED, DESCRIBED, NONE = Introduction.NAMED, Introduction.DESCRIBED, Introduction.NONE


@pytest.mark.parametrize(
    ("text", "word", "introduced"),
    [
        ("The name of the coachman was John Manly; he had a wife.", "john", NAMED),
        ("that is why they call her Ginger, and when she was in the loose box", "ginger", NAMED),
        ("a little fat grey pony called Merrylegs.", "merrylegs", NAMED),
        ("a tall, white, rather large-boned animal called \u201cCaptain\u201d.", "captain", NAMED),
        ("\u201cI\u2019m Oskar,\u201d he said.", "oskar", NAMED),
        ('"That is Pudding," said Grandpa.', "pudding", NAMED),
        ("Oskar named him the Admiral.", "admiral", NAMED),
        ("James Howard, the stable boy, was just as gentle.", "james", DESCRIBED),
        ("Mr. James McCarthy, the only son of the deceased, was then called", "mccarthy", DESCRIBED),
        ("the master on Ginger, the mistress on me", "ginger", DESCRIBED),  # a list reads the same
        ("One day she bit James in the arm and made it bleed.", "james", NONE),
        ("I heard the door of John's house open.", "john", NONE),
        ("Two young men came out of a tavern and called Jerry. \u201cHere, cabby!\u201d", "jerry", NONE),
    ],
)
def test_a_passage_introduces_someone_as_books_do(text: str, word: str, introduced: Introduction) -> None:
    assert introduction(text, word) is introduced


def test_who_is_answers_first_from_the_first_passage_that_introduces_them() -> None:
    # "who is James?" quoted a line of chapter 17, which names him most; chapter 5 says who he is
    naming = {
        "james": [
            _naming(2, 4),
            Naming(passage_id=5, chapter=5, start_ms=5 * PASSAGE_MS, inside=True, introduced=DESCRIBED),
            _naming(8, 17),
            _naming(9, 17),
        ]
    }
    order = introduced_order(naming, [])
    assert [f.passage_id for f in order or []] == [5, 8, 9, 2]
    # named outright ("they call her Ginger") before a list that reads as described
    named = Naming(passage_id=1, chapter=4, start_ms=PASSAGE_MS, inside=True, introduced=NAMED)
    order = introduced_order({"james": [*naming["james"], named]}, [])
    assert [f.passage_id for f in order or []] == [1, 5, 2, 8, 9]  # chapter 4 names him twice now


def test_someone_the_opening_chapter_names_is_answered_from_where_it_introduces_them() -> None:
    # A main character is named in every chapter; the one naming them most is no introduction.
    naming = {"wren": [_naming(1, 1), _naming(2, 1), _naming(5, 2), _naming(6, 2), _naming(7, 2)]}
    order = introduced_order(naming, [], opening_chapter=1)
    assert order is not None
    assert [f.passage_id for f in order] == [1, 2, 5, 6, 7]
    assert [f.passage_id for f in introduced_order(naming, [], opening_chapter=0) or []] == [5, 6, 7, 1, 2]
    # Written with a capital in the opening chapter only where a sentence starts: not named there.
    opening_a_sentence = {"captain": [_naming(1, 1, inside=False), _naming(5, 2), _naming(6, 2)]}
    order = introduced_order(opening_a_sentence, [], opening_chapter=1)
    assert [f.passage_id for f in order or []] == [5, 6, 1]


def test_ties_go_to_the_earlier_chapter_and_the_least_named_word_decides() -> None:
    naming = {
        "john": [_naming(1, 1), _naming(2, 1), _naming(7, 4)],
        "clay": [_naming(7, 4), _naming(3, 2)],
    }
    order = introduced_order(naming, [])
    assert order is not None
    assert [f.passage_id for f in order] == [3, 7]


def test_a_subject_word_never_named_inside_a_sentence_leaves_recall_to_the_cosine() -> None:
    ranked = [Fused(9, 0.05, 0.6)]
    assert introduced_order({"justice": [_naming(2, 1, inside=False)]}, ranked) is None
    assert introduced_order({"john": [_naming(1, 1)], "clay": []}, ranked) is None
    assert introduced_order({}, ranked) is None


def test_a_rare_title_word_outweighs_a_common_one() -> None:
    titles = {1: "A Horse Fair", 2: "The Old Hostler", 3: "An Old War Horse", 4: "A London Cab Horse"}
    weights = title_weights("what did the old hostler do before the horse fair?", titles)
    assert max(weights, key=lambda c: weights[c]) == 2
    assert weights[2] == 1.0
    assert all(0 < w <= 1.0 for w in weights.values())
    assert title_weights("why did he gallop all night?", titles) == {}


def test_a_matching_title_raises_its_chapters_passages() -> None:
    ranked = [Fused(1, 0.030, 0.5), Fused(2, 0.025, 0.4)]
    nudged = title_nudged(ranked, {2: 1.0}, {1: 1, 2: 2}, 1.0)
    assert [f.passage_id for f in nudged] == [2, 1]
    assert title_nudged(ranked, {}, {1: 1, 2: 2}, 1.0) == ranked


@given(here_ms=st.integers(min_value=0, max_value=END_MS + PASSAGE_MS))
def test_heard_naming_reads_no_word_past_the_line(here_ms: int) -> None:
    book = ServedBook.of(small_info(), PASSAGES, "small")
    for word in ("marigold", "pepper", "oswin", "the"):
        for named in book.heard_naming(word, here_ms):
            passage = book.passage(named.passage_id)
            assert passage is not None
            assert not ahead_of(passage.start_ms, here_ms)
            assert word in written_with_capital(heard_text(passage, here_ms))


@given(here_ms=st.integers(min_value=0, max_value=END_MS + PASSAGE_MS))
def test_heard_mentioning_is_every_passage_whose_heard_words_hold_the_words_asked(here_ms: int) -> None:
    """Read from the heard words alone, and all of them: a check of what was found only passed for a
    rule that found nothing (the review). A chapter's title is heard with its first passage's words."""
    book = ServedBook.of(small_info(), PASSAGES, "small")
    openings = {p.chapter: p.id for p in reversed(PASSAGES)}
    for asked in (("terrier",), ("amber", "lamp"), ("lantern",), ("lantern", "maker"), ("maker",)):
        holding = [
            passage_id
            for passage_id, passage in enumerate(PASSAGES)
            if not ahead_of(passage.start_ms, here_ms)
            and (heard := terms(heard_text(passage, here_ms)))
            and set(asked)
            <= {*heard, *(terms(passage.chapter_title) if openings[passage.chapter] == passage_id else [])}
        ]
        assert sorted(book.heard_mentioning(asked, here_ms)) == holding
    assert book.heard_mentioning(("lantern",), END_MS)  # the book does mention it
    assert book.heard_mentioning(("maker",), END_MS) == [0]  # only its first chapter's title does


class Recaller:
    def __init__(self, loop: asyncio.AbstractEventLoop, engine: SearchEngine) -> None:
        self.loop = loop
        self.engine = engine

    def chapters(self, question: str, here_ms: int) -> list[int] | None:
        recalled = self.loop.run_until_complete(
            self.engine.recall(Recall(book="small", here_ms=here_ms, question=question))
        )
        return [hit.chapter for hit in recalled.hits] if recalled.come_up else None


@pytest.fixture(scope="module")
def recall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recaller]:
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(open_store(path=tmp_path_factory.mktemp("subject")))
    engine = SearchEngine(store, load_minilm())
    artifact = artifact_of("small", "small", PASSAGES, chapters_of(PASSAGES), load_minilm())
    loop.run_until_complete(engine.index(artifact))
    try:
        yield Recaller(loop, engine)
    finally:
        loop.run_until_complete(store.close())
        loop.close()


def test_who_is_is_answered_where_the_book_first_names_them_when_chapters_tie(recall: Recaller) -> None:
    chapter_four = 9 * PASSAGE_MS  # Marigold is named once in each of chapters 1 to 3
    answered = recall.chapters("who is Marigold?", chapter_four)
    assert answered is not None
    assert answered[0] == 1


def test_who_is_someone_not_named_yet_has_not_come_up(recall: Recaller) -> None:
    assert recall.chapters("who is Marigold?", 2 * PASSAGE_MS) is None


def test_remind_me_about_a_thing_not_mentioned_yet_has_not_come_up(recall: Recaller) -> None:
    assert recall.chapters("remind me about the terrier", 3 * PASSAGE_MS) is None
    answered = recall.chapters("remind me about the terrier", 6 * PASSAGE_MS)
    assert answered is not None
    assert answered[0] == 2


def test_the_rest_of_a_name_is_told_where_the_two_are_written_together() -> None:
    names = {"james", "howard", "flora"}
    assert tells_name_of("James Howard, the stable boy, was gentle.", ("james",), names)
    assert not tells_name_of("One day she bit James, and Miss Flora cried.", ("james",), names)
    assert tells_name_of("The stable boy was called James.", ("stable", "boy"), names)


def test_a_chapter_title_asked_about_is_told_the_name_of_by_the_chapters_first_sentences() -> None:
    """ "What is the apprentice's name?" after the chapter "The Apprentice": the title is heard just
    before "A thin boy named Tobin Creel ...", though the chapter's words never say "apprentice"."""
    names = {"tobin", "creel", "odile"}
    text = "A thin boy named Tobin Creel knocked on her door. He had walked from the salt marshes."
    assert not tells_name_of(text, ("apprentice",), names)
    assert tells_name_of(text, ("apprentice",), names, title="The Apprentice")
    assert not tells_name_of(text, ("apprentice",), names, title="The Tower")
    far = "The wind blew. The rain fell. The sea rose. The night was long. A boy named Tobin Creel came."
    assert not tells_name_of(far, ("apprentice",), names, title="The Apprentice")  # too far from the title


def test_a_name_asked_is_read_for_what_it_is_asked_of() -> None:
    assert name_asked_of("what's the pony called?") == ("pony",)
    assert name_asked_of("what is the name of the coachman") == ("coachman",)
    assert name_asked_of("what was the groom's name again?") == ("groom",)
    assert name_asked_of("what did they call the old horse") == ("old", "horse")
    assert name_asked_of("the lady at the big house, what's her name?") == ("lady", "big", "house")
    assert name_asked_of("what's the cat doing?") == ()
    assert name_asked_of("what's Wren's dog called?") == ()  # a capital: a name the asker knows
    assert name_asked_of("who called the doctor?") == ()
    assert name_asked_of("what's the stable boy's surname?") == ("stable", "boy")
    # the rest of a name heard: where the book writes James beside another name ("James Howard")
    assert name_asked_of("what's James's surname?") == ("james",)
    assert name_asked_of("what is the last name of James") == ("james",)


@pytest.mark.parametrize(
    ("text", "word", "subject", "someone_else"),
    [
        (
            "One night John had to give me a draught; Thomas Green came in to help him.",
            "green",
            ("joe", "green"),
            True,
        ),
        ("Then Tom Green said in a low voice that he wished it.", "green", ("joe", "green"), True),
        ('"Little Joe Green at the lodge," said John.', "green", ("joe", "green"), False),
        ("Green came in with the lantern.", "green", ("joe", "green"), False),  # the name alone
        ("Then Green came in with the lantern.", "green", ("joe", "green"), False),
        (
            "Mr. Green came in, and Thomas Green after him.",
            "green",
            ("joe", "green"),
            False,
        ),  # a title: theirs
        ("Thomas Green came in, and Joe Green after him.", "green", ("joe", "green"), False),
        ("One night Thomas Green came in.", "green", ("green",), False),  # one word asked: any Green
    ],
)
def test_a_name_written_only_as_part_of_another_persons_name_is_someone_else(
    text: str, word: str, subject: tuple[str, ...], someone_else: bool
) -> None:
    assert names_someone_else(text, word, subject) is someone_else


def test_who_is_leaves_out_the_passages_that_name_someone_else_of_the_same_surname() -> None:
    # "who is Joe Green?" quoted "Thomas Green came in to help him": his father's chapter names Green most
    naming = {
        "green": [
            _naming(3, 17),
            Naming(passage_id=7, chapter=19, start_ms=7 * PASSAGE_MS, inside=True, someone_else=True),
            Naming(passage_id=8, chapter=19, start_ms=8 * PASSAGE_MS, inside=True, someone_else=True),
            _naming(9, 20),
        ]
    }
    assert [f.passage_id for f in introduced_order(naming, []) or []] == [3, 9]
    # only someone else of that name heard: they are still the ones the book has named so
    everyone_else = {"green": [naming["green"][1], naming["green"][2]]}
    assert [f.passage_id for f in introduced_order(everyone_else, []) or []] == [7, 8]


def test_someone_asked_after_by_what_they_are_is_a_role_said_in_the_books_words() -> None:
    assert role_of("who's the keeper") == ("keeper",)
    assert role_of("Who is the new lighthouse keeper?") == ("new", "lighthous", "keeper")
    assert role_of("who is the Captain?") == ()  # a capital: the names rules decide
    assert role_of("who is Hettie?") == ()
    assert role_of("who was the man who sold the old horse at the fair?") == ()
    assert role_of("who's the other one?") == ()  # review: "one" is in everything heard
    assert role_of("who is the best?") == ()


def test_who_is_with_a_whole_name_answers_from_where_it_is_written_whole() -> None:
    # "who is John Turner?" in the Holmes stories quoted the opening story's "Mrs. Turner" (the
    # landlady): a name the opening chapter writes is taken for a main character's
    assert writes_whole_name("John Turner was the largest landowner about there.", ("john", "turner"))
    assert not writes_whole_name("When Mrs. Turner has brought in the tray", ("john", "turner"))
    assert not writes_whole_name("Turner came in.", ("turner",))  # one word asked: nothing to join
    naming = {
        "turner": [
            Naming(passage_id=1, chapter=1, start_ms=PASSAGE_MS, inside=True, introduced=DESCRIBED),
            Naming(passage_id=5, chapter=4, start_ms=5 * PASSAGE_MS, inside=True, whole_name=True),
            _naming(6, 4),
        ]
    }
    assert [f.passage_id for f in introduced_order(naming, [], opening_chapter=1) or []] == [5, 6]
    never_whole = {"turner": [naming["turner"][0], naming["turner"][2]]}  # as before
    assert [f.passage_id for f in introduced_order(never_whole, [], opening_chapter=1) or []] == [1, 6]
