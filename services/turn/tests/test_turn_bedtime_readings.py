"""Bedtime requests the keyless router misread, found by a probe of 150 questions and by a review
(plain code); each case's comment says what it was."""

import pytest
from bedside_contracts.search import ChapterInfo
from bedside_contracts.turn import RecapArgs
from bedside_turn.domain import intents
from bedside_turn.domain.intents import (
    BothAsked,
    CancelSleepTimer,
    Earlier,
    FindPlace,
    Jump,
    Question,
    SleepTimer,
    TimeLeft,
    TimerAdded,
    TwoQuestions,
    WhereAmI,
)
from bedside_turn.domain.recap import RecapAsked, choose_span

SINCE_ASLEEP = RecapAsked(RecapArgs(span="since_asleep"))
LAST_CHAPTER = RecapAsked(RecapArgs(span="last_chapter"))
WHERE_ASLEEP = Earlier(fell_asleep=True, show_only=True)
HOW_LONG_ASLEEP = Earlier(fell_asleep=True, show_only=True, how_long=True)


@pytest.mark.parametrize(
    "utterance",
    [
        "i lost track. what happened",  # was Other: "sorry, I didn't follow"
        "ive lost track",
        "i lost track of the story, what did they say",
    ],
)
def test_losing_track_asks_for_what_went_by(utterance: str) -> None:
    assert intents.read(utterance) == SINCE_ASLEEP


@pytest.mark.parametrize(
    "utterance",
    [
        "how long is left of the book",  # was a question of the story: "that hasn't come up yet"
        "how much is left of this chapter",
        "how much time is left in the book",
    ],
)
def test_time_left_of_the_book_or_the_chapter(utterance: str) -> None:
    assert intents.read(utterance) == TimeLeft()


@pytest.mark.parametrize(
    "utterance",
    [
        "are we near the end",  # was a question: "that hasn't come up yet" sounds like "no"
        "am i close to the end",
        "what part is this",  # was a question
        "what bit is this",
        "what section is this",
    ],
)
def test_where_the_book_is_asked_briefly(utterance: str) -> None:
    assert intents.read(utterance) == WhereAmI()


@pytest.mark.parametrize(
    ("utterance", "span"),
    [
        ("what's been happening", RecapArgs(span="last_minutes", minutes=5)),  # was a question
        ("what has been happening", RecapArgs(span="last_minutes", minutes=5)),
        # quoted one sentence; asked just after a chapter ends it is that chapter (the review)
        ("what was that chapter about", RecapArgs(span="last_chapter")),
        ("what was the chapter about", RecapArgs(span="last_chapter")),
        ("what is the chapter about", RecapArgs(span="this_chapter")),
    ],
)
def test_recaps_asked_in_other_words(utterance: str, span: RecapArgs) -> None:
    assert intents.read(utterance) == RecapAsked(span)


@pytest.mark.parametrize(
    ("utterance", "query"),
    [
        ("go back to where he said ten not five minutes", "he said ten not five minutes"),
        ("take me to where he counted one not two", "he counted one not two"),
    ],
)
def test_an_amount_refused_inside_a_moment_described_is_the_moments_words(utterance: str, query: str) -> None:
    """(The review) "10 not 5 minutes" said after a way or a timer is the 10; inside a moment's words it
    is what the book says, and the search was for "he said ten minutes"."""
    read = intents.read(utterance)
    assert isinstance(read, FindPlace)
    assert read.query == query


@pytest.mark.parametrize(
    ("utterance", "intent"),
    [
        ("go back 10 not 5 minutes", Jump(-600_000)),
        ("skip ahead 2 not 3 minutes", Jump(120_000)),
        ("rewind 30 not 20 seconds", Jump(-30_000)),
        ("sleep in 20 not 30 minutes", SleepTimer(after=20)),
        ("set a timer for 20 not 30 minutes", SleepTimer(after=20)),
        # (the second review) each lost when the rule read only straight after a way or a timer
        ("ff 10 not 5 minutes", Jump(600_000)),
        ("go back about 10 not 5 minutes", Jump(-600_000)),
        ("go back maybe 10 not 5 minutes", Jump(-600_000)),
    ],
)
def test_an_amount_refused_after_a_way_or_a_timer_is_the_one_meant(
    utterance: str, intent: intents.Intent
) -> None:
    assert intents.read(utterance) == intent


@pytest.mark.parametrize(
    ("utterance", "first", "second"),
    [
        # each was the recap alone, the other ask dropped without a word
        ("who is oskar and what did i miss", Question("who is oskar"), SINCE_ASLEEP),
        ("where are we and what did i miss", WhereAmI(), SINCE_ASLEEP),
        ("what did i miss and how long is left", SINCE_ASLEEP, TimeLeft()),
        ("what did i miss, and who's Oskar?", SINCE_ASLEEP, Question("who's Oskar")),
        ("who is oskar and how long is left", Question("who is oskar"), TimeLeft()),  # was the time left
        ("oskar who is he, and what did i miss", Question("oskar who is he"), SINCE_ASLEEP),
        # each was the recap or the question alone, the timer dropped, or the timer alone
        ("what did i miss and sleep in 20 minutes", SINCE_ASLEEP, SleepTimer(20)),
        ("sleep in 20 minutes and what did i miss", SleepTimer(20), SINCE_ASLEEP),
        ("what did i miss? add ten minutes to the timer", SINCE_ASLEEP, TimerAdded(10)),
        ("recap the last chapter and sleep in 30", LAST_CHAPTER, SleepTimer(30)),
        ("who is oskar and sleep in 20", Question("who is oskar"), SleepTimer(20)),
        ("what did i miss and cancel the timer", SINCE_ASLEEP, CancelSleepTimer()),
        # each was the recap alone, or the place alone: a place of the history asked about is shown
        ("what did i miss. how long was i out", SINCE_ASLEEP, HOW_LONG_ASLEEP),
        ("how long was i asleep and what did i miss", HOW_LONG_ASLEEP, SINCE_ASLEEP),
        ("where did i fall asleep and what did i miss", WHERE_ASLEEP, SINCE_ASLEEP),
        (
            "who is oskar and where was i last night",
            Question("who is oskar"),
            Earlier(left_off=True, show_only=True),
        ),
    ],
)
def test_a_recap_or_a_question_asked_with_another_ask_is_answered_with_it(
    utterance: str, first: intents.Intent, second: intents.Intent
) -> None:
    assert intents.read(utterance) == BothAsked(first, second)


@pytest.mark.parametrize(
    ("utterance", "asked"),
    [
        # was the recap and one question of "who is oskar and sleep in 20", the timer never set
        (
            "what did i miss, who is oskar and sleep in 20",
            [SINCE_ASLEEP, Question("who is oskar"), SleepTimer(20)],
        ),
        # each was two of them, the timer dropped
        (
            "who is oskar, what did i miss and sleep in 20",
            [Question("who is oskar"), SINCE_ASLEEP, SleepTimer(20)],
        ),
        (
            "sleep in 20, what did i miss and who is Oskar",
            [SleepTimer(20), SINCE_ASLEEP, Question("who is Oskar")],
        ),
        (
            "what did i miss, who is oskar and how long was i out",
            [SINCE_ASLEEP, Question("who is oskar"), HOW_LONG_ASLEEP],
        ),
        # was where they are and the time left, when it stops dropped
        (
            "where am i, how long is left and when will it stop",
            [WhereAmI(), TimeLeft(), intents.TimerAsked()],
        ),
    ],
)
def test_three_requests_with_no_move_are_all_done_in_the_order_asked(
    utterance: str, asked: list[intents.Intent]
) -> None:
    assert intents.each_asked(intents.read(utterance)) == asked


@pytest.mark.parametrize(
    ("utterance", "move", "question"),
    [
        # each was one question of all the words, or the move alone
        ("who is oskar and go back 5 minutes", Jump(-300_000), "who is oskar"),
        ("go back 5 minutes and who is oskar", Jump(-300_000), "who is oskar"),
        ("Go back 5 minutes. Who is Oskar?", Jump(-300_000), "who is Oskar"),
        ("who is Wren, go to chapter 2", intents.Chapter(2), "who is Wren"),
        ("who is tamsin and next chapter", intents.NextChapter(1), "who is tamsin"),
    ],
)
def test_a_question_asked_with_a_move_is_both(utterance: str, move: intents.Intent, question: str) -> None:
    assert intents.read(utterance) == intents.Together(move, Question(question))


BACK_TO_THE_DOZE = Earlier(fell_asleep=True)


@pytest.mark.parametrize(
    ("utterance", "move", "then"),
    [
        # was where they fell asleep shown, the recap dropped
        ("what did i miss and take me back to where i fell asleep", BACK_TO_THE_DOZE, SINCE_ASLEEP),
        # was the move alone
        ("take me back to where i fell asleep and tell me what i missed", BACK_TO_THE_DOZE, SINCE_ASLEEP),
        # was the move alone: a jump plays again none of a chapter asked about
        (
            "go back a minute and what happens in chapter 1",
            Jump(-60_000),
            RecapAsked(RecapArgs(span="chapter", chapter=1)),
        ),
        ("what happened in the last chapter, go to chapter 2", intents.Chapter(2), LAST_CHAPTER),
    ],
)
def test_a_recap_asked_with_a_move_is_both(utterance: str, move: intents.Intent, then: RecapAsked) -> None:
    assert intents.read(utterance) == intents.Together(move, then)


@pytest.mark.parametrize(
    ("utterance", "move", "first", "second"),
    [
        # was the question and the timer, the move dropped
        (
            "who is oskar, go back 5 minutes and sleep in 20",
            Jump(-300_000),
            Question("who is oskar"),
            SleepTimer(20),
        ),
        # was the move and one question of "who is oskar and sleep in 20 minutes"
        (
            "go back 5 minutes, who is oskar and sleep in 20 minutes",
            Jump(-300_000),
            Question("who is oskar"),
            SleepTimer(20),
        ),
        (
            "sleep in 20, who is Oskar and go back 5 minutes",
            Jump(-300_000),
            SleepTimer(20),
            Question("who is Oskar"),
        ),
        (
            "what did i miss, sleep in 20 and take me back to where i fell asleep",
            BACK_TO_THE_DOZE,
            SINCE_ASLEEP,
            SleepTimer(20),
        ),
    ],
)
def test_three_requests_with_a_move_are_all_done_the_move_first(
    utterance: str, move: intents.Intent, first: intents.Intent, second: intents.Intent
) -> None:
    assert intents.read(utterance) == intents.Together(move, BothAsked(first, second))


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        # the review of 30e59a01: each question was cut at its first "and" ("who are ginger"), the half
        # after it ("merrylegs and sleep in 20") read as the timer its last words said
        (
            "go back 5 minutes, who are ginger and merrylegs and sleep in 20",
            intents.Together(
                Jump(-300_000), BothAsked(Question("who are ginger and merrylegs"), SleepTimer(20))
            ),
        ),
        (
            "go back 5 minutes, what did ginger and merrylegs talk about and sleep in 20",
            intents.Together(
                Jump(-300_000),
                BothAsked(Question("what did ginger and merrylegs talk about"), SleepTimer(20)),
            ),
        ),
        (
            "who are ginger and merrylegs and sleep in 20",
            BothAsked(Question("who are ginger and merrylegs"), SleepTimer(20)),
        ),
        (
            "what did ginger and merrylegs talk about and sleep in 20",
            BothAsked(Question("what did ginger and merrylegs talk about"), SleepTimer(20)),
        ),
    ],
)
def test_a_question_holding_and_keeps_its_words_beside_a_request_after_it(
    utterance: str, read_as: intents.Intent
) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        # each was the timer alone, where they are not told; or Other; or the length alone
        ("where am i and sleep in 20", BothAsked(WhereAmI(), SleepTimer(20))),
        ("sleep in 20 and where am i", BothAsked(SleepTimer(20), WhereAmI())),
        ("how long is left and sleep in 20", BothAsked(TimeLeft(), SleepTimer(20))),
        ("where am i and cancel the timer", BothAsked(WhereAmI(), CancelSleepTimer())),
        ("where am i and add 10 minutes to the timer", BothAsked(WhereAmI(), TimerAdded(10))),
    ],
)
def test_where_they_are_and_the_timer_set_are_both_done(utterance: str, read_as: BothAsked) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "then"),
    [
        # each was the jump alone, the question or the timer dropped with the recap
        ("go back 5 minutes, what did i miss and who is oskar", Question("who is oskar")),
        ("go back 5 minutes, who is oskar and what did i miss", Question("who is oskar")),
        ("what did i miss and who is oskar, go back 5 minutes", Question("who is oskar")),
        ("go back 5 minutes, what did i miss and sleep in 20", SleepTimer(20)),
        ("sleep in 20, go back 5 minutes and what did i miss", SleepTimer(20)),
    ],
)
def test_a_jump_back_drops_the_recap_it_plays_again_never_what_is_asked_beside_them(
    utterance: str, then: Question | SleepTimer
) -> None:
    """The jump plays again the stretch "what did I miss" asks for, so the recap may go; a question or a
    timer said with the two is asked of its own and is done after the move."""
    assert intents.read(utterance) == intents.Together(Jump(-300_000), then)


@pytest.mark.parametrize(
    ("utterance", "asked"),
    [
        # was the recap alone, the question dropped
        ("take me back, who is oskar and what did i miss", BothAsked(Question("who is oskar"), SINCE_ASLEEP)),
        # was a move back and a question of "tell me what", read before "i missed and ..." said why
        (
            "go back and tell me what i missed and who is oskar",
            BothAsked(SINCE_ASLEEP, Question("who is oskar")),
        ),
        ("take me back, what did i miss and sleep in 20", BothAsked(SINCE_ASLEEP, SleepTimer(20))),
        ("go back, what did i miss and who is oskar", BothAsked(SINCE_ASLEEP, Question("who is oskar"))),
    ],
)
def test_a_jump_back_that_asks_for_the_doze_is_its_recap_beside_what_else_is_asked(
    utterance: str, asked: BothAsked
) -> None:
    """A jump of no amount said before "what I missed" asks for the doze, as said alone; a third request
    said with them is answered with the recap."""
    assert intents.read(utterance) == asked


@pytest.mark.parametrize(
    "utterance",
    [
        # the review of 30e59a01: each was the jump and the timer, the pause dropped, while "pause, go
        # back 5 minutes and sleep in 20" did all three
        "go back 1 minute, pause and sleep in 3",
        "go back 1 minute and pause and sleep in 3",
        "pause and sleep in 3, go back 1 minute",
    ],
)
def test_a_pause_and_a_timer_beside_a_move_are_both_done_after_it(utterance: str) -> None:
    assert intents.read(utterance) == intents.Together(
        Jump(-60_000), BothAsked(intents.Pause(), SleepTimer(3))
    )


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        # as before: a jump back with a recap of the minutes it plays again is one ask, the jump
        ("go back 5 minutes and what did i miss", Jump(-300_000)),
        ("go back 30 seconds, what just happened", Jump(-30_000)),
        ("go back and tell me what i missed", SINCE_ASLEEP),
        ("go back five minutes and stop in ten", intents.Together(Jump(-300_000), SleepTimer(10))),
        # a doze told says why: no recap of it beside a move and a timer
        (
            "i fell asleep, go back to chapter 3 and sleep in 20",
            intents.Together(intents.Chapter(3), SleepTimer(20)),
        ),
    ],
)
def test_what_stays_as_it_was_beside_a_move(utterance: str, read_as: intents.Intent) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        # the review of 30e59a01: was the jump and the timer, "next chapter" dropped unsaid
        (
            "go back 5 minutes, next chapter and sleep in 20",
            intents.Together(Jump(-300_000), BothAsked(intents.NextChapter(1), SleepTimer(20))),
        ),
        (
            "next chapter and sleep in 20, go back 5 minutes",
            intents.Together(intents.NextChapter(1), BothAsked(Jump(-300_000), SleepTimer(20))),
        ),
    ],
)
def test_two_moves_and_a_timer_keep_the_second_move_to_be_told_it_was_not_made(
    utterance: str, read_as: intents.Intent
) -> None:
    """A turn moves the book once: the move said first is made, and the second is kept in the reading
    so the listener is told it was not (``speech.MOVED_ONCE_ALREADY``), not dropped without a word."""
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        # as before: a question that asks of what the move plays again, or a move inside a question
        ("go back 30 seconds, what did he say?", Jump(-30_000)),
        ("take me back to the storm and who was there", FindPlace("the storm and who was there", "back")),
        ("who was the man who went back 5 minutes", Question("who was the man who went back 5 minutes")),
        # a moment's words may hold a question, or go on as one would ("and was heard")
        (
            "go back to where the keeper hides and who finds him",
            FindPlace("the keeper hides and who finds him", "back"),
        ),
        ("go back 5 minutes and was it raining", Jump(-300_000)),
    ],
)
def test_a_question_of_the_move_or_holding_one_is_no_second_ask(
    utterance: str, read_as: intents.Intent
) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        ("i fell asleep and what did i miss", SINCE_ASLEEP),  # the doze told, and the one recap asked
        ("i dozed off, what happened", SINCE_ASLEEP),
        ("what did i miss and what happened", SINCE_ASLEEP),
        ("who is ginger and what happened to her", Question("who is ginger and what happened to her")),
        ("who is jack and jill's mother", Question("who is jack and jill's mother")),  # one person
        ("who is wren and who is his mother", Question("who is wren and who is his mother")),
        # each was the question and a recap of the last two minutes: "where is he" asks of Oskar
        ("who is oskar and where is he", Question("who is oskar and where is he")),
        ("who is oskar and where is he now", Question("who is oskar and where is he now")),
        ("who is wren and where is she", Question("who is wren and where is she")),
        ("who is oskar and who is he", Question("who is oskar and who is he")),
        ("who is oskar and what is he doing", Question("who is oskar and what is he doing")),
        ("who is wren and who is that", Question("who is wren and who is that")),
        # the doze told, not asked about: "i fell asleep" says why the timer is wanted
        ("i fell asleep, sleep in 20", SleepTimer(20)),
    ],
)
def test_one_ask_said_in_two_parts_stays_one(utterance: str, read_as: intents.Intent) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "first", "second"),
    [
        # each was one question, and one answer about one of them
        ("who is grandma iris and who is wren", "who is grandma iris?", "who is wren?"),
        ("who are john manly and james", "who is john manly?", "who is james?"),
        ("who's squire gordon. and who's john", "who is squire gordon?", "who is john?"),
        ("who are the old man and mrs bramble again", "who is the old man?", "who is mrs bramble?"),
    ],
)
def test_two_who_questions_of_names_of_two_words(utterance: str, first: str, second: str) -> None:
    assert intents.read(utterance) == TwoQuestions(first, second)


@pytest.mark.parametrize(
    "utterance",
    [
        "oskar who is he",  # was Other: "sorry, I didn't follow"
        "merrylegs whos that",
        "wren who is she again",
        "Mrs Bramble, who's she?",
        "the coachman whats his name",  # was a moment to find, its places listed, some further on
        "the cat whats her name again",
        "the old man whats his name",
        "oskar, what's he called",
    ],
)
def test_someone_said_before_the_question_of_who_they_are(utterance: str) -> None:
    assert intents.read(utterance) == Question(utterance)


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        ("wait who is he", RecapAsked(RecapArgs(span="last_minutes", minutes=2))),  # whoever was just heard
        ("sorry who's that", RecapAsked(RecapArgs(span="last_minutes", minutes=2))),
        # each was a question of who "right" (the filler) is
        ("right who is he", RecapAsked(RecapArgs(span="last_minutes", minutes=2))),
        ("anyway who is he", RecapAsked(RecapArgs(span="last_minutes", minutes=2))),
        ("huh who is he", RecapAsked(RecapArgs(span="last_minutes", minutes=2))),
        ("the bit where she asks who is he", intents.FindPlace("she asks who is he")),
    ],
)
def test_words_before_a_pronoun_question_that_name_no_one(utterance: str, read_as: intents.Intent) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "back"),
    [
        ("what happened two chapters ago", 2),  # was a question of the story
        ("recap two chapters back", 2),
        ("what happened a chapter ago", 1),
    ],
)
def test_a_chapter_counted_back_asked_about_is_its_recap(utterance: str, back: int) -> None:
    assert intents.read(utterance) == RecapAsked(RecapArgs(span="chapters_ago", chapters_back=back))


def test_a_question_of_something_chapters_ago_stays_a_question() -> None:
    """Was the whole chapter recapped, the dog dropped."""
    utterance = "what happened to the dog two chapters ago"
    assert intents.read(utterance) == Question(utterance)


FIVE_CHAPTERS = [
    ChapterInfo(n=n, title=f"C{n}", start_ms=(n - 1) * 100_000, end_ms=n * 100_000) for n in range(1, 6)
]


@pytest.mark.parametrize(("back", "told"), [(1, 4), (2, 3)])
def test_chapters_ago_count_from_the_chapter_playing_however_far_into_it(back: int, told: int) -> None:
    """80% into chapter 5 "a chapter ago" told chapter 5, "two chapters ago" chapter 4: the shift
    "the last chapter" makes once the one playing is well heard."""
    chosen = choose_span(RecapArgs(span="chapters_ago", chapters_back=back), 480_000, FIVE_CHAPTERS, None)
    assert chosen.chapter == told


@pytest.mark.parametrize(
    "utterance",
    ["the book what is it called", "the author whats his name", "the chapter whats it called"],
)
def test_the_book_named_first_is_no_one_in_the_story(utterance: str) -> None:
    """Each was a question of the story, as "Oskar, who is he?" is: the book, its chapter or its author
    asked of is about the book, never someone in it."""
    assert not isinstance(intents.read(utterance), Question)


NOTHING_DONE = intents.Courtesy("never_mind")
"""A request withdrawn reads as "never mind" does: "All right.", and nothing moved."""


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        ("next chapter, wait, don't go to the next chapter", NOTHING_DONE),  # was next chapter + pause
        ("go to chapter 3, actually don't go to chapter 3", NOTHING_DONE),  # was chapter 3
        ("go back 5 minutes, no wait, don't go back 5 minutes", NOTHING_DONE),
        ("pause not yet", intents.Other()),  # was a pause: "not yet" refuses nothing it names
        # as before: another request refused after the one asked for
        ("go to chapter 3, don't go to the next chapter", intents.Chapter(3)),
        ("go to chapter 3, wait, don't go to the next chapter", intents.Chapter(3)),
    ],
)
def test_a_request_refused_just_after_it_is_withdrawn(utterance: str, read_as: intents.Intent) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    "utterance",
    [
        "next chapter, actually never mind",  # was the next chapter
        "go back 5 minutes, actually don't",  # was the move back
        "go back 5 minutes actually don't",
        "sleep in 20 minutes. never mind",
        "go back 5 minutes and sleep in 20, forget it",
        "chapter 3... scratch that",
        "chapter 3, don't",
        # a moment or a question withdrawn after its sentence has ended
        "take me back to the storm. never mind",
        "who is oskar? never mind",
        # an ask told, or a recap, holds no one's words: withdrawn after a pause
        "where am i, never mind",
        "what did i miss, never mind",
        # (review) a moment or a question withdrawn after a pause or an opener, its words ending in no
        # one's speech: each was searched or asked with the withdrawal in it
        "take me back to the storm, actually never mind",
        "find the bit where the storm starts, scratch that",
        "go back to the storm, cancel that",
        "who is Tamsin, actually never mind",
        "who is Tamsin, cancel that",
        "Who is Tamsin? No, never mind.",
        "Who is Tamsin? Oh, never mind.",
        "take me back to the storm, no, never mind",
        "where am i and when will the timer stop, never mind",  # was both asked, the question kept
        # (review) a line read, written, sung or gone has no one it is said to: the words after are the
        # listener's, and "go" is no one's line
        "where do they go, never mind",
        "where does she go, oh never mind",
        "take me back to where she reads the letter, never mind",
        "find where she writes to her mother, never mind",
        "go back to where he goes into the cave, never mind",
        "who asked for the key to the garden, never mind",
    ],
)
def test_a_withdrawal_said_at_the_end_of_the_breath_withdraws_the_request(utterance: str) -> None:
    assert intents.read(utterance) == NOTHING_DONE


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        # a moment's words may end in the very words, said with no pause
        ("take me back to where she says never mind", FindPlace("she says never mind", "back")),
        ("go back to where he says i don't", FindPlace("he says i don't", "back")),
        ("never mind", NOTHING_DONE),
        ("pause, don't stop the timer", intents.Pause()),
        ("go back to where he says, i don't", FindPlace("he says i don't", "back")),
        # (review) a moment or a question ending in what someone says, after a comma or a "no", "oh" or
        # "well": each was thrown away as "never mind"
        ("go back to when he said no don't", FindPlace("he said no don't", "back")),
        ("play the bit where she says oh never mind", FindPlace("she says oh never mind")),
        ("who shouted no, don't", Question("who shouted no, don't")),
        ("go back to when she said well never mind", FindPlace("she said well never mind", "back")),
        ("go back to where she says, never mind", FindPlace("she says never mind", "back")),
        ("why did she say, never mind", Question("why did she say, never mind")),
        ("go back to when she said to him, never mind", FindPlace("she said to him never mind", "back")),
        ("go back to where he shouted, oh, forget it", FindPlace("he shouted oh forget it", "back")),
        # (review) the line's openers count apart from the words said to whom, and a sign reads, a letter
        # is written, a song sung, and someone "goes" a line: each was thrown away as "never mind"
        (
            "go back to where she tells the children, oh never mind",
            FindPlace("she tells the children oh never mind", "back"),
        ),
        ("go back to where he says to her, oh never mind", FindPlace("he says to her oh never mind", "back")),
        ("where she says no no no never mind", FindPlace("where she says no no no never mind")),
        ("find where the sign reads, never mind", FindPlace("the sign reads never mind")),
        ("find where she writes, never mind", FindPlace("she writes never mind")),
        ("go back to where mum goes, oh never mind", FindPlace("mum goes oh never mind", "back")),
        ("play the bit where she sings, oh never mind", FindPlace("she sings oh never mind")),
    ],
)
def test_words_of_withdrawing_inside_a_request_withdraw_nothing(
    utterance: str, read_as: intents.Intent
) -> None:
    assert intents.read(utterance) == read_as


@pytest.mark.parametrize(
    ("utterance", "read_as"),
    [
        ("i missed that chapter", RecapAsked(RecapArgs(span="last_chapter"))),  # was where am I
        ("i missed the end of that chapter", RecapAsked(RecapArgs(span="last_chapter"))),  # was where am I
        ("i didn't catch that chapter", RecapAsked(RecapArgs(span="last_chapter"))),
        ("wait chapter", intents.Other()),  # was where am I: a lone "chapter" after an opener asks nothing
        ("i missed it chapter", intents.Other()),
        # as before: what was just missed, and a request after an opener
        ("i missed that bit", Jump(offset_ms=-intents.A_BIT_MS)),
        ("wait pause", intents.Pause()),
        ("wait next", intents.NextChapter(step=1)),
        ("chapter", WhereAmI()),
    ],
)
def test_a_chapter_said_to_be_missed_is_its_recap(utterance: str, read_as: intents.Intent) -> None:
    """The chapter that just ended, or early in the next one, as "the last chapter" counts them."""
    assert intents.read(utterance) == read_as
