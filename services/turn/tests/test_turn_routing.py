"""Which found places the keyless router offers (``routing.plausible_ids``, ``other_places``): plain code."""

import pytest
from bedside_contracts.search import ChapterInfo, Hit
from bedside_contracts.turn import AskedBack, Direction, Exchange, PlaceRef, ToolCallRecord
from bedside_guard import Candidate, ahead_of
from bedside_turn.domain import history, intents
from bedside_turn.domain.routing import (
    ANSWERED_WITHIN_MS,
    MIN_SCORE,
    MOVED_AGAIN_WITHIN_MS,
    SAID_AGAIN_WITHIN_MS,
    answer_to_say_again,
    asked_afresh,
    asked_how_long,
    cancelled_by_that,
    chapters_called,
    may_answer_the_turn_before,
    meant_after,
    model_may_answer,
    moved_by_just_now,
    needs_the_books_names,
    other_places,
    places_named,
    plausible_ids,
    request_key,
    rows_not_pressed,
    said_as_chapters,
    searches_for,
    way_said,
)

HERE = 600_000
STRONG = MIN_SCORE * 1.5


def hit(passage_id: int, start_ms: int, score: float = STRONG) -> Hit:
    return Hit(passage_id=passage_id, start_ms=start_ms, chapter=1, score=score)


BOTH_SIDES = [hit(1, 900_000), hit(2, 100_000), hit(3, 1_200_000), hit(4, 300_000)]


@pytest.mark.parametrize(
    ("direction", "offered"), [(None, [1, 2, 3, 4]), ("back", [2, 4]), ("forward", [1, 3])]
)
def test_a_direction_said_keeps_the_places_on_its_side_of_the_line_best_first(
    direction: Direction | None, offered: list[int]
) -> None:
    assert plausible_ids(BOTH_SIDES, HERE, direction) == offered


def test_a_direction_with_no_place_on_its_side_keeps_the_others() -> None:
    """ "Go back to ..." for a moment only ahead (misremembered, or heard on another copy): the covered
    rows are still the honest answer, better than nothing found."""
    ahead_only = [hit(1, 900_000), hit(3, 1_200_000)]
    assert plausible_ids(ahead_only, HERE, "back") == [1, 3]


def test_the_place_holding_the_line_counts_as_ahead() -> None:
    assert plausible_ids([hit(1, HERE), hit(2, HERE - 1)], HERE, "back") == [2]


def test_weak_places_are_not_offered_whatever_the_direction() -> None:
    weak = [hit(1, 100_000, MIN_SCORE / 2), hit(2, 900_000)]
    assert plausible_ids(weak, HERE, "back") == [2]


def searched(way: Direction | None, found: list[Candidate], offered: list[int]) -> Exchange:
    find = ToolCallRecord(
        name="find_passage",
        arguments={"query": "the storm"},
        lines=[],
        places=[PlaceRef(line=i, place=place, kind="line") for i, place in enumerate(found)],
        ms=1,
    )
    offer = ToolCallRecord(name="offer_positions", arguments={"ids": offered}, lines=[], ms=1)
    return Exchange(
        turn_id="t1",
        utterance="",
        speech="",
        outcome="moved",
        calls=[find, offer],
        guarded_at_ms=HERE,
        direction=way,
    )


def place(passage_id: int, start_ms: int) -> Candidate:
    return Candidate(start_ms=start_ms, ahead=ahead_of(start_ms, HERE), passage_id=passage_id)


FOUND = [place(1, 100_000), place(2, 900_000), place(3, 300_000), place(4, 1_200_000)]


@pytest.mark.parametrize(("way", "others"), [(None, [2, 3, 4]), ("back", [3]), ("forward", [2, 4])])
def test_the_other_one_keeps_the_way_the_search_was_asked(way: Direction | None, others: list[int]) -> None:
    """ "No, that's wrong" after "go back to the fire" listed a covered place ahead among the others."""
    assert other_places([searched(way, FOUND, offered=[1])], HERE) == others


def test_the_other_one_with_none_left_the_way_asked_offers_the_rest() -> None:
    assert other_places([searched("back", FOUND, offered=[1, 3])], HERE) == [2, 4]


@pytest.mark.parametrize(
    ("utterance", "way"),
    [
        ("take me to the storm", None),
        ("go back to the storm", "back"),
        ("skip ahead to the storm", "forward"),
        ("go back to the storm and stop in 10 minutes", "back"),
    ],
)
def test_the_way_a_request_said_is_what_its_exchange_keeps(utterance: str, way: Direction | None) -> None:
    """ "The other one" read the way from the stored words again, and read a move said with a timer as
    no way at all, so it offered a place ahead after "go back to the storm and stop in 10 minutes"."""
    assert way_said(intents.read(utterance)) == way


def recalled(quoted: list[Candidate], refused: bool = False) -> Exchange:
    recall = ToolCallRecord(
        name="recall",
        arguments={"question": "who is Wren?"},
        lines=[],
        places=[PlaceRef(line=i, place=place, kind="line", whole=True) for i, place in enumerate(quoted)],
        ms=1,
        refused=refused,
    )
    return answered_with("who is Wren?", recall)


def answered_with(utterance: str, call: ToolCallRecord, at_ms: int | None = None) -> Exchange:
    return Exchange(
        turn_id="t2",
        utterance=utterance,
        speech="",
        outcome="answered",
        calls=[call],
        guarded_at_ms=HERE,
        answered_at_ms=at_ms,
    )


def test_there_is_the_place_the_last_answer_named() -> None:
    assert places_named([recalled(FOUND[:2])]) == [1]  # the one a recall quoted, its first
    assert places_named([searched(None, FOUND, offered=[1, 3])]) == [1, 3]
    # only the last answer counts: an older quote is no "there" after another question
    assert places_named([recalled(FOUND[:1]), searched(None, [], offered=[])]) == []
    assert places_named([recalled(FOUND[:1], refused=True)]) == []
    assert places_named([]) == []


def test_going_back_searches_what_was_heard_first_and_any_other_way_the_whole_book() -> None:
    assert searches_for("back") == (True, False)
    assert searches_for("forward") == searches_for(None) == (False,)


def listed(rows: list[Candidate], turn_id: str = "t1") -> Exchange:
    offer = ToolCallRecord(
        name="offer_positions",
        arguments={"ids": [row.passage_id for row in rows]},
        lines=[],
        places=[PlaceRef(line=i, place=row, kind="row") for i, row in enumerate(rows)],
        ms=1,
    )
    return Exchange(
        turn_id=turn_id,
        utterance="take me to the storm",
        speech="",
        outcome="listed",
        calls=[offer],
        guarded_at_ms=HERE,
    )


def pressed(row: int) -> Exchange:
    press = ToolCallRecord(name="press_listed", arguments={"row": row}, lines=[], ms=1)
    return Exchange(
        turn_id="t2", utterance="the third one", speech="", outcome="moved", calls=[press], guarded_at_ms=HERE
    )


def test_the_other_one_after_a_row_was_pressed_is_the_rest_of_that_list() -> None:
    """A listener session pressed the third of four rows, then said "no, the other one", and was
    offered places the search had found and never shown."""
    rows = [place(1, 100_000), place(2, 900_000), place(3, 300_000)]
    assert rows_not_pressed([listed(rows), pressed(2)]) == [1, 2]
    assert rows_not_pressed([listed(rows[:2]), pressed(0)]) == [2]
    assert rows_not_pressed([listed(rows)]) == []  # nothing pressed: the search's others, as before
    assert rows_not_pressed([pressed(0)]) == []


def answered(turn_id: str, at_ms: int, asked: AskedBack | None = None) -> Exchange:
    return Exchange(
        turn_id=turn_id,
        utterance="",
        speech="",
        outcome="refused",
        guarded_at_ms=HERE,
        asked=asked,
        answered_at_ms=at_ms,
    )


def test_only_the_turn_straight_after_for_how_long_and_soon_is_its_answer() -> None:
    """A length said alone answers "For how long?" (``intents.timer_length_alone``) in the next turn
    only, and only soon after (a review: left unanswered, it took "the end of the chapter" said the
    next night for a timer); after anything else the same words keep their own reading."""
    asked, where = answered("t1", 0, "timer_length"), answered("t2", 1_000)
    assert asked_how_long([where, asked], 60_000)
    assert not asked_how_long([where, asked], ANSWERED_WITHIN_MS + 1)
    assert not asked_how_long([asked, where], 60_000)
    assert not asked_how_long([], 60_000)
    assert not asked_how_long([asked.model_copy(update={"answered_at_ms": None})], 60_000)  # stored before


def moved_by(offset_ms: int, at_ms: int, *, refused: bool = False) -> Exchange:
    call = ToolCallRecord(
        name="offer_positions", arguments={"offset_ms": offset_ms}, lines=[], ms=1, refused=refused
    )
    return answered("t1", at_ms).model_copy(update={"outcome": "moved", "calls": [call]})


def test_a_step_said_alone_goes_on_with_a_move_by_an_amount_only_just_made() -> None:
    assert moved_by_just_now([moved_by(-60_000, 0)], MOVED_AGAIN_WITHIN_MS) == -60_000
    assert moved_by_just_now([moved_by(30_000, 0)], 1_000) == 30_000
    assert moved_by_just_now([moved_by(-60_000, 0)], MOVED_AGAIN_WITHIN_MS + 1) is None  # played on since
    assert moved_by_just_now([moved_by(-60_000, 0, refused=True)], 1_000) is None
    assert moved_by_just_now([moved_by(-60_000, 0), answered("t2", 500)], 1_000) is None
    chapter = ToolCallRecord(name="offer_positions", arguments={"chapter": 2}, lines=[], ms=1)
    assert moved_by_just_now([moved_by(-60_000, 0).model_copy(update={"calls": [chapter]})], 1_000) is None


def test_what_is_said_alone_after_a_turn_is_read_with_that_turn() -> None:
    asked = answered("t1", 0, "timer_length")
    twenty = intents.read("20 minutes")
    assert meant_after("20 minutes", twenty, [asked], 1_000) == (intents.SleepTimer(after=20), None)
    assert meant_after("20 minutes", twenty, [], 1_000) == (twenty, None)
    another = intents.read("another minute")
    assert meant_after("another minute", another, [moved_by(-60_000, 0)], 1_000) == (
        intents.Jump(-60_000),
        None,
    )
    an_hour = intents.read("another hour")  # far more than a move of 30 s: the timer's, as ever
    assert meant_after("another hour", an_hour, [moved_by(-30_000, 0)], 1_000) == (an_hour, None)
    assert meant_after("another hour", an_hour, [moved_by(-3_600_000, 0)], 1_000) == (
        intents.Jump(-3_600_000),
        None,
    )
    where = answered("t2", 0)
    assert meant_after("another minute", another, [where], 1_000) == (another, None)
    assert meant_after("say that again", intents.read("say that again"), [where], 1_000) == (
        intents.SayAgain(),
        where,
    )
    assert may_answer_the_turn_before("another minute")
    assert not may_answer_the_turn_before("chapter 3")


def test_say_that_again_is_said_of_an_answer_only_just_given_and_still_to_be_read_from_here() -> None:
    where = answered("t1", 1_000)
    assert answer_to_say_again([where], 1_000 + SAID_AGAIN_WITHIN_MS) == where
    assert answer_to_say_again([where], 2_000 + SAID_AGAIN_WITHIN_MS) is None  # the book has played on
    assert answer_to_say_again([], 1_000) is None
    from_further_on = where.model_copy(update={"speech": history.REPLY_LEFT_OUT})
    assert answer_to_say_again([from_further_on], 2_000) is None  # given from further on than here


def told_as(utterance: str, told: history.Told) -> Exchange:
    """An exchange remembered only by what it told."""
    return Exchange(turn_id="t1", utterance=utterance, speech=told.value, outcome="answered", guarded_at_ms=0)


@pytest.mark.parametrize(
    ("utterance", "told", "afresh"),
    [
        # was the timer's half alone
        (
            "where am I and when will the timer stop",
            history.Told.TIMER,
            (intents.WhereAmI(), intents.TimerAsked()),
        ),
        # was where the book is alone; the move and the timer are told, never done again
        ("go back 2 minutes and sleep in 10", history.Told.MOVED, (intents.WhereAmI(), intents.TimerAsked())),
        (
            "who is Tamsin and go back 2 minutes",
            history.Told.MOVED,
            (intents.WhereAmI(), intents.Question("who is Tamsin")),
        ),
        (
            "what chapter is this and how long is left",
            history.Told.TIME_LEFT,
            (intents.WhereAmI(), intents.TimeLeft()),
        ),
        # three parts: the timer set with the move is told, never set again
        (
            "who is Tamsin, go back 2 minutes and sleep in 10",
            history.Told.MOVED,
            (intents.WhereAmI(), intents.BothAsked(intents.Question("who is Tamsin"), intents.TimerAsked())),
        ),
    ],
)
def test_a_two_part_answer_is_given_afresh_whole(
    utterance: str, told: history.Told, afresh: tuple[intents.Intent, intents.Intent]
) -> None:
    assert asked_afresh(told_as(utterance, told)) == intents.BothAsked(*afresh)


def test_a_one_part_answer_is_given_afresh_as_before() -> None:
    assert asked_afresh(told_as("add ten minutes", history.Told.TIMER)) == intents.TimerAsked()
    assert asked_afresh(told_as("back 2 minutes", history.Told.MOVED)) == intents.WhereAmI()
    assert asked_afresh(told_as("how long is left", history.Told.TIME_LEFT)) == intents.TimeLeft()


def test_a_book_whose_chapters_are_called_parts_is_asked_about_by_part() -> None:
    """A tester, in a book of two parts titled "Part 1" and "Part 2": "go to part 2" was not understood
    and "what happened in part 1?" was told it had not come up."""
    parts = [
        ChapterInfo(n=n, title=f"Part {n}", start_ms=n * 60_000, end_ms=(n + 1) * 60_000) for n in (1, 2)
    ]
    assert chapters_called(parts) == "part"
    assert chapters_called([*parts, ChapterInfo(n=3, title="The End", start_ms=0, end_ms=1)]) is None
    assert chapters_called([ChapterInfo(n=1, title="Part 2", start_ms=0, end_ms=1)]) is None  # not its number
    assert (
        chapters_called(
            [
                ChapterInfo(n=n, title=f"BOOK {roman}", start_ms=0, end_ms=1)
                for n, roman in [(1, "I"), (2, "II")]
            ]
        )
        == "book"
    )
    assert said_as_chapters("go to part 2", "part") == "go to chapter 2"
    assert said_as_chapters("what happened in Part Two?", "part") == "what happened in chapter Two?"
    assert (
        said_as_chapters("play the part where the ice cracks", "part") == "play the part where the ice cracks"
    )


def test_two_asks_of_the_position_at_once_are_plain_codes_as_each_alone_is() -> None:
    """The model is never told the position (ADR 75), so it answers neither."""
    both = intents.read("where am I and how long is left")
    assert isinstance(both, intents.BothAsked)
    assert not model_may_answer(both)


def test_two_asks_at_once_are_the_models_only_when_it_may_answer_each() -> None:
    """A question of the story and a recap are both the model's; with the position asked, plain code
    answers both, as the model is never told it (ADR 75)."""
    assert model_may_answer(intents.read("who is Oskar and what did I miss"))
    assert not model_may_answer(intents.read("where am I and what did I miss"))
    assert not model_may_answer(intents.read("who is Oskar and how long is left"))


def test_a_move_said_with_another_request_is_the_models_only_when_it_may_do_each() -> None:
    """The model has no tool to add minutes to the timer, and plain code's rules take a unit not said: a
    move said with either went to the model, which dropped or misdid that part."""
    assert model_may_answer(intents.read("go back 5 minutes and sleep in 20"))
    assert model_may_answer(intents.read("who is Oskar, go back 5 minutes and sleep in 20"))
    assert not model_may_answer(intents.read("go back 5 minutes and add ten minutes to the timer"))
    assert not model_may_answer(intents.read("back 5 and sleep in 20"))


def test_that_one_and_cancel_that_are_plain_codes_even_with_a_model() -> None:
    """(The review) a model read "that one" after a quote as consent to go to the quoted place."""
    assert not model_may_answer(intents.GoThere(row_only=True))
    assert model_may_answer(intents.GoThere())  # "take me there" after a quote: the model reads it
    assert not model_may_answer(intents.CancelThat())
    assert not model_may_answer(intents.ClearList())
    assert not model_may_answer(intents.Earlier(began_last_time=True))  # which sitting: plain arithmetic


def timer_set(call: str = "playback", action: str = "sleep_timer", at_ms: int = 0) -> Exchange:
    setting = ToolCallRecord(name=call, arguments={"action": action, "minutes": 15}, lines=[], ms=1)
    return answered_with("sleep in 15", setting, at_ms)


def test_cancel_that_cancels_what_the_turn_just_before_did() -> None:
    """A listener session: "sleep in 15", then "cancel that", was told "All right." and the timer ran on."""
    assert cancelled_by_that([timer_set()], 60_000) == "timer"
    assert (
        cancelled_by_that([listed([]), pressed(0).model_copy(update={"answered_at_ms": 0})], 1_000) == "move"
    )
    assert cancelled_by_that([timer_set(), answered("t4", 0)], 1_000) is None  # something else came after
    assert cancelled_by_that([timer_set(action="cancel_sleep_timer")], 1_000) is None
    just_listed = listed([]).model_copy(update={"answered_at_ms": 0})
    assert cancelled_by_that([just_listed], 1_000) == "list"  # was None: "All right." and the list stayed
    assert cancelled_by_that([timer_set()], ANSWERED_WITHIN_MS + 1) is None  # last night's: not "that"
    assert cancelled_by_that([], 0) is None
    # (the reviews) a timer that took the place of a running one (minutes added, started again, a new
    # length, a model's words): cancelling would lose the timer before, so it is told and left
    for said in ("add ten minutes", "reset the timer", "make it 20 more minutes", "sleep in 5"):
        changed = timer_set().model_copy(update={"utterance": said, "timer_replaced": True})
        assert cancelled_by_that([changed], 1_000) == "timer_changed", said
    set_with_a_move = timer_set().model_copy(update={"utterance": "go back 30 seconds and sleep in 15"})
    assert cancelled_by_that([set_with_a_move], 1_000) == "timer"


@pytest.mark.parametrize(
    ("heard", "needs"),
    [
        ("Go back five minutes.", False),
        ("Sleep in twenty minutes.", False),
        ("Where did I fall asleep?", False),
        ("Undo.", False),
        ("Who is Merrylegs?", True),
        ("Take me back to where Ginger tells her story.", True),
        ("Go back to the chapter called The Fire.", True),
        ("Go back five minutes and sleep in ten.", False),
        ("Wren did I fall asleep?", True),  # read as nothing or a question: heard again
        ("Who is Merrylegs and what did I miss?", True),  # the question of the two may name someone
        ("Where am I and what did I miss?", False),
        ("Who is Merrylegs and go back five minutes?", True),  # the question beside the move
        ("Go back five minutes, who is Merrylegs and sleep in ten.", True),  # and beside a timer
    ],
)
def test_a_spoken_request_is_heard_again_with_the_names_only_when_it_may_hold_one(
    heard: str, needs: bool
) -> None:
    assert needs_the_books_names(heard) is needs


def key(utterance: str) -> str:
    return request_key(intents.read(utterance), utterance)


def test_one_request_however_a_recogniser_wrote_it_is_one_key_of_one_length_and_none_of_its_words() -> None:
    assert key("go back 2 minutes") == key("Go back two minutes.")
    assert key("go back 2 minutes") != key("go back 3 minutes")
    assert key("undo") != key("cancel that")
    assert key("go back 2 minutes and stop in ten") != key("go back 2 minutes and stop in five")
    mumbled = ("hmm, " + "the lantern and the dog " * 50)[:1000]
    assert key(mumbled) != key(mumbled[:900])
    assert {len(key(said)) for said in ("undo", mumbled)} == {64}
    assert "lantern" not in key(mumbled)
    assert key("recap chapter 3") != key("recap chapter 4")
    # a recogniser's capitals are no other request: two devices' "bookmark this as the storm" made two
    assert key("bookmark this as the storm") == key("Bookmark this as The Storm.")
    assert key("go back to the storm") == key("Go back to The Storm")
    assert key("bookmark this as the storm") != key("bookmark this as the fire")


@pytest.mark.parametrize(
    "utterance",
    [
        "bookmark this as the storm",
        "go to my bookmark",
        "go to the bookmark called the storm",
        "list my bookmarks",
    ],
)
def test_bookmarks_are_plain_codes_with_a_model_too(utterance: str) -> None:
    """Their places are where the listener is and was, which the model never reads (ADR 75, 83)."""
    assert not model_may_answer(intents.read(utterance))
