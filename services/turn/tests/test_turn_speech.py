"""What the keyless router says, as words on the screen; and what the model reads of a move."""

from bedside_contracts.player import OfferOutcome
from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_guard import Candidate
from bedside_turn.domain import speech
from bedside_turn.domain.rules import MayOffer
from bedside_turn.domain.tool_results import outcome_lines


def heard(words: str) -> Candidate:
    return Candidate(
        start_ms=1_000, ahead=False, passage_id=3, chapter=1, chapter_title="The House", words=words
    )


def test_dialogue_quoted_from_the_book_nests_in_single_quotes() -> None:
    said = speech.quoting(heard('"That is Pudding," said Grandpa. "She steals spoons."'), "who is Pudding?")
    assert said == (
        "In chapter 1, \"The House\", you heard: \"'That is Pudding,' said Grandpa. 'She steals spoons.'\""
    )
    assert '""' not in said
    curly = speech.quoting(heard("\u201cThat is Pudding,\u201d said Grandpa."), "who is Pudding?")
    assert "\u201c" not in curly.split("you heard: ")[1]


PUDDING = (
    '"That is Pudding," said Grandpa. "She has one and a half ears and no manners at all. '
    'She steals things. Spoons, mostly. Anything that shines." Pudding opened one eye …'
)


def test_the_quote_is_the_sentence_that_answers_not_the_one_that_only_names_whom_it_is_about() -> None:
    said = speech.quoting(heard(PUDDING), "what does Pudding steal?")
    assert said.endswith('you heard: "She steals things. Spoons, mostly."')
    assert speech.quoting(heard(PUDDING), "who is Pudding?").endswith(
        "you heard: \"'That is Pudding,' said Grandpa. 'She has one and a half ears and no manners at all.'\""
    )


def test_a_word_asked_meets_the_form_the_book_has_it_in() -> None:
    words = 'She had a compass, too. She said it always pointed home." "Where is it now?"'
    said = speech.quoting(heard(words), "why does the compass point home?")
    assert "you heard: \"'She said it always pointed home.' 'Where is it now?'\"" in said


def test_the_piece_an_excerpt_cut_off_is_not_quoted_as_a_sentence() -> None:
    words = (
        'A woman in a yellow raincoat came bumping down the path with letters and a pie. "Hettie Bramble," …'
    )
    said = speech.quoting(heard(words), "who is Mrs Bramble?")
    assert said.endswith(
        'you heard: "A woman in a yellow raincoat came bumping down the path with letters and a pie."'
    )


def test_a_line_shown_from_where_someone_is_named_is_quoted_without_its_cut_mark() -> None:
    words = '… "Hettie Bramble," said the woman. "Post lady, pie lady, and the only person who knows."'
    said = speech.quoting(heard(words), "who is Hettie Bramble?")
    quote = "'Hettie Bramble,' said the woman. 'Post lady, pie lady, and the only person who knows.'"
    assert said.endswith(f'you heard: "{quote}"')


def test_a_short_sentence_is_not_eked_out_with_the_piece_an_excerpt_cut_off() -> None:
    words = "Grandpa lit the stove. She had a little brass compass on a chain, and it always …"
    said = speech.quoting(heard(words), "what did Grandpa light?")
    assert said.endswith('you heard: "Grandpa lit the stove."')


def test_a_sentence_the_line_cuts_short_is_not_quoted_as_if_it_were_whole() -> None:
    words = "Grandpa lit the stove and sat down by the window with his pipe. All night the wind shook the"
    said = speech.quoting(heard(words), "what did the wind do all night?")
    assert said.endswith('you heard: "Grandpa lit the stove and sat down by the window with his pipe."')
    quoted = speech.quoting(heard('"She said it always pointed'), "where did it point?")
    assert quoted.endswith("you heard: \"'She said it always pointed'\"")  # nothing whole is left


def test_the_words_a_question_is_asked_with_do_not_choose_the_quote() -> None:
    words = (
        "Grandpa lit the stove and sat down by the window with his old pipe and a book. "
        "Grandpa was tired. At the top, where the lamp was, the wind howled all night long over the sea."
    )
    said = speech.quoting(heard(words), "where is Grandpa?")
    assert said.endswith(
        'you heard: "Grandpa lit the stove and sat down by the window with his old pipe and a book."'
    )


def test_a_sentence_taken_from_a_quotation_keeps_its_marks_on_both_sides() -> None:
    words = (
        '"She had a compass, too, your Grandma Iris. A little brass one, on a chain. '
        'She said it did not point north at all. She said it always pointed home." "Where is it now?"'
    )
    said = speech.quoting(heard(words), "did the compass point north?")
    assert said.endswith(
        "you heard: \"'She said it did not point north at all. She said it always pointed home.'\""
    )


def test_dialogue_and_the_words_that_say_who_spoke_are_one_sentence() -> None:
    words = '"What is that one for?" asked Wren. Grandpa smiled at the old lantern on the shelf.'
    said = speech.quoting(heard(words), "what did Wren ask?")
    assert said.endswith(
        "you heard: \"'What is that one for?' asked Wren. Grandpa smiled at the old lantern on the shelf.\""
    )


def test_the_chapter_heading_read_out_is_not_quoted_as_the_story() -> None:
    words = (
        "Chapter Four: The Night of the Storm. "
        "The storm came on Thursday night, a whole day earlier than the knees had said."
    )
    said = speech.quoting(heard(words), "what happened on the night of the storm?")
    assert said.endswith(
        'you heard: "The storm came on Thursday night, a whole day earlier than the knees had said."'
    )
    alone = speech.quoting(heard("Chapter Four: The Night of the Storm."), "the storm?")
    assert alone.endswith('you heard: "Chapter Four: The Night of the Storm."')


COTTAGE = (
    "There was a stove in the kitchen with a kettle that sang, a window seat with a view of the whole "
    'bay, and a round orange cat asleep in a basket of clean washing. "That is Pudding," said Grandpa. '
    '"She has one and a half ears and no manners at all.'
)
SHINGLE = (
    "It was while they were sitting there that Wren noticed Pudding. The orange cat was picking her way "
    "across the shingle below the cottage, with her tail held high and something in her mouth."
)


def test_a_question_asking_a_name_is_quoted_with_the_sentence_beside_that_names_it() -> None:
    """The sentence about the cat is long and names no one; the name is in the next sentence (or the
    one before), and a quote of the cat alone did not answer "what's the cat called?"."""
    assert speech.best_sentences(COTTAGE, "what's the cat called?") == (
        "There was a stove in the kitchen with a kettle that sang, a window seat with a view of the whole "
        'bay, and a round orange cat asleep in a basket of clean washing. "That is Pudding," said Grandpa.'
    )
    assert speech.best_sentences(SHINGLE, "what is the name of the cat?").startswith(
        "It was while they were sitting there that Wren noticed Pudding. The orange cat"
    )
    assert "Pudding" not in speech.best_sentences(COTTAGE, "where does the cat sleep?")  # no name asked


def test_a_name_told_a_few_sentences_on_is_quoted_after_the_sentence_asked_about() -> None:
    pony = (
        "In the stall next to mine stood a little fat gray pony, with a thick mane and tail. I put my head "
        "up to the manger rail and said, 'How do you do? What is your name?' He turned round and said, "
        "'My name is Merrylegs.' He was a great favorite with the children."
    )
    said = speech.best_sentences(pony, "what's the pony called?")
    assert said.startswith("In the stall next to mine stood a little fat gray pony"), said
    assert said.endswith("'My name is Merrylegs.'"), said


MILL = (
    "Marguerite Vale kept the mill at the edge of the marsh. She ground barley for the farms on the hill "
    "and oats for the inn at the crossroads, and in the evenings she mended the sails by lamplight while "
    "her dog, a small black terrier called Pepper, slept against her feet."
)


def test_a_long_sentence_is_quoted_up_to_the_name_it_was_chosen_for() -> None:
    """A listener session: "who is Pepper?" was answered with the sentence cut at thirty words,
    "...while her dog, ...", just before "a small black terrier called Pepper"."""
    for question in ("who is Pepper?", "what's the dog called?", "whos pepper"):
        said = speech.best_sentences(MILL, question)
        assert "terrier called Pepper, slept against her feet." in said, (question, said)
        assert said.startswith("… "), said
        assert len(said.split()) <= speech.QUOTE_WORDS + 1, said
    # (the review) a name told early and the asked word again late: the first thirty words hold it
    early = (
        "Her dog, a black terrier called Pepper, followed her down the lane past the church and the green "
        "and the well and the forge and the long barn to the old inn at the crossroads called the Crown."
    )
    said = speech.best_sentences(early, "what's the dog called?")
    assert said.startswith("Her dog, a black terrier called Pepper"), said
    # (the second review) an early "called" names someone else; the dog's name is the late one
    meg = (
        "Marguerite Vale, called Meg by the farmers, ground barley for the farms on the hill and oats for "
        "the inn at the crossroads, and in the evenings she mended the sails by lamplight while her dog, "
        "a small black terrier called Pepper, slept against her feet."
    )
    assert "terrier called Pepper" in speech.best_sentences(meg, "what's the dog called?")
    said = speech.best_sentences(MILL, "what about the barley?")  # what was asked is in the first thirty
    assert said.startswith("She ground barley"), said
    assert said.endswith("…"), said


def test_two_cut_sentences_quoted_together_meet_at_one_mark() -> None:
    """(The second review) "... called Merrylegs … … past the green ...": each piece was marked cut."""
    assert speech._joined("the pony stood …", "… and his name was Merrylegs.") == (
        "the pony stood … and his name was Merrylegs."
    )
    assert speech._joined("the pony stood.", "… his name") == "the pony stood. … his name"


def test_names_not_come_up_are_said_as_a_list() -> None:
    assert speech.not_yet(["Squire Gordon"], asks_later=False) == (
        "Squire Gordon hasn't come up yet at this point in the book."
    )
    assert speech.not_yet(["Ginger", "Merrylegs", "Rob Roy"], asks_later=True) == (
        "Ginger, Merrylegs and Rob Roy haven't come up yet at this point in the book."
    )


def _book_of(titles: list[str]) -> BookInfo:
    chapters = [
        ChapterInfo(n=n, title=title, start_ms=(n - 1) * 60_000, end_ms=n * 60_000)
        for n, title in enumerate(titles, start=1)
    ]
    return BookInfo(
        id="b", title="B", duration_ms=len(titles) * 60_000, estimated=True, passages=1, chapters=chapters
    )


def test_a_spoken_chapter_list_names_the_latest_begun_and_no_title_ahead() -> None:
    book = _book_of(["Dawn", "The Mill", "Rain", "The Ford", "Snow", "The Fair", "Home"])
    said = speech.chapter_titles(book, 4 * 60_000 + 5_000)  # in chapter 5
    assert said == (
        'The book has 7 chapters. The latest you have begun: chapter 2, "The Mill"; chapter 3, "Rain"; '
        'chapter 4, "The Ford"; and chapter 5, "Snow", the one playing.'
    )
    assert "Fair" not in said
    assert "Home" not in said


def test_a_spoken_chapter_list_at_a_chapters_first_moment_names_it_playing_by_its_number() -> None:
    """At chapter 5's first millisecond "list the chapters" called chapter 4 "the one playing" where
    "what chapter am I in?" said chapter 5 (a red team of the line)."""
    book = _book_of(["Dawn", "The Mill", "Rain", "The Ford", "Snow", "The Fair", "Home"])
    said = speech.chapter_titles(book, 4 * 60_000)
    assert said == (
        'The book has 7 chapters. The latest you have begun: chapter 2, "The Mill"; chapter 3, "Rain"; '
        'chapter 4, "The Ford"; and chapter 5, the one playing.'
    )
    assert "Snow" not in said
    assert speech.chapter_titles(_book_of(["Chapter 1", "CHAPTER II", ""]), 60_000).endswith(
        "you're in chapter 2."
    )


def test_a_chapter_list_without_titles_says_so_once() -> None:
    said = speech.chapter_titles(_book_of(["Chapter 1", "CHAPTER II", ""]), 70_000)
    assert said == "The book has 3 chapters, numbered without titles; you're in chapter 2."


def test_a_time_past_a_chapters_end_names_the_chapter_as_every_answer_does() -> None:
    """The stretch before the first chapter was "Chapter 0", which means nothing to a listener."""
    assert speech.past_the_chapter_end(0, 90_000).startswith("The opening is only 0:01:30 long")
    assert speech.past_the_chapter_end(3, 90_000).startswith("Chapter 3 is only 0:01:30 long")
    assert speech.past_the_chapter_end(None, 90_000).startswith("This chapter is only")


def test_a_move_told_without_its_place_reads_to_the_model_as_a_move_not_an_empty_list() -> None:
    """The player tells a request heard on two devices as the first's move, without its place when
    search could not read it (ADR 77): the model is told the book moved, with no rows to press."""
    moved = OfferOutcome(outcome="moved", moved_from_ms=1_000_000)
    lines, places = outcome_lines(moved, MayOffer(may_move=True), preview=False)
    assert lines == ["Moved: the book now plays from the place asked for."]
    assert places == []
