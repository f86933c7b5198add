"""'Where am I?' with a model: plain code answers it, as the model is never told where the listener is.

Its own module: a turn service with a model and one without would share the ask subject.
"""

import json
import random
from collections.abc import AsyncIterator

import pytest
from bedside_guard import clock
from bedside_turn.domain import history, speech
from bedside_turn_testing.book import BOOK_ID, PASSAGE_MS, book_info
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.leaks import remembered_replies, tells_position
from bedside_turn_testing.scripted import Reply, Say, ScriptedModel, Use, overloaded

IN_CHAPTER_3 = 6 * PASSAGE_MS + 40_000


@pytest.fixture(scope="module")
async def model_rig(nats_url: str) -> AsyncIterator[Rig]:
    rig = await start_rig(nats_url, with_model=True)
    try:
        yield rig
    finally:
        await rig.broker.stop()


async def test_with_a_model_where_am_i_is_answered_by_plain_code_and_the_model_is_not_told_the_position(
    model_rig: Rig,
) -> None:
    """The model is never told where the listener is (the design's rule 4), so it could not answer:
    the turn does not ask it."""
    assert model_rig.slot is not None
    model: ScriptedModel = model_rig.slot.load([[Say("You're somewhere in the book.")]])
    listener = model_rig.listener_at(IN_CHAPTER_3)
    reply = await model_rig.ask(listener, "where am I?")
    assert reply.mode == "keyless"
    assert reply.speech.startswith('You\'re in chapter 3, "The Cellar Door", 40 seconds in')
    assert model.requests == []


async def test_a_model_jumping_back_from_the_very_start_reads_nothing_is_before_it(model_rig: Rig) -> None:
    """Search refuses the jump (nothing lies behind the line), so no row 'further on' goes up."""
    assert model_rig.slot is not None
    model: ScriptedModel = model_rig.slot.load(
        [[Use("offer_positions", {"offset_ms": -300_000})], [Say("You're at the very start already.")]]
    )
    listener = model_rig.listener_at(0)
    reply = await model_rig.ask(listener, "back five minutes")
    assert (reply.outcome, reply.rows) == ("refused", [])
    assert model_rig.player.positions[(listener, "lamplight")] == 0
    assert any("nothing before the start of the book" in result for result in model.last_tool_results())
    # Searching again cannot help, so the model is not told to (before: "Search again with find_passage
    # and offer ids taken from its lines" and "Check the ids against the lines you were given").
    assert not [r for r in model.last_tool_results() if "find_passage" in r or "ids" in r]
    assert any("Tell them so" in result for result in model.last_tool_results())


def remembered(model: ScriptedModel) -> list[str]:
    """The earlier replies every request to the model held."""
    return [said for request in model.requests for said in remembered_replies(request["messages"])]


async def test_with_a_model_how_long_is_left_is_answered_by_plain_code_from_the_books_times(
    model_rig: Rig,
) -> None:
    """Before, the model was asked, and it is never told the position: it could only guess."""
    assert model_rig.slot is not None
    model: ScriptedModel = model_rig.slot.load([[Say("Quite a while yet.")]])
    listener = model_rig.listener_at(IN_CHAPTER_3)
    reply = await model_rig.ask(listener, "how long is left?")
    assert (reply.mode, reply.outcome) == ("keyless", "answered")
    assert reply.speech == "There's about 1 minute left of this chapter, and about 2 minutes of the book."
    assert model.requests == []


async def test_an_answer_saying_where_the_listener_is_is_remembered_for_the_model_without_it(
    model_rig: Rig,
) -> None:
    """Before, a later model turn read "I said: You're in chapter 3, "The Cellar Door", 40 seconds in;
    about 4 minutes into the book, with about 2 minutes to go." (the design's rule 4 broken)."""
    assert model_rig.slot is not None
    listener = model_rig.listener_at(IN_CHAPTER_3)
    where = await model_rig.ask(listener, "where am I?")
    left = await model_rig.ask(listener, "how long is left?")
    assert where.speech.startswith("You're in chapter 3")
    assert left.speech.startswith("There's about")
    model: ScriptedModel = model_rig.slot.load([[Say("Wren keeps the lamp.")]])
    await model_rig.ask(listener, "who is Wren?")
    earlier = model.requests[0]["messages"]
    assert [m["content"] for m in earlier if m["role"] == "user"][:2] == ["where am I?", "how long is left?"]
    assert remembered(model) == [history.Told.WHERE.value, history.Told.TIME_LEFT.value]
    assert tells_position(earlier) == []


async def test_an_undo_saying_where_the_book_is_now_is_remembered_for_the_model_without_it(
    model_rig: Rig,
) -> None:
    """Review: "Done: you're back where you were, at 0:02:15, in chapter 2." was kept word for word,
    and the undo's recorded call said the time too."""
    assert model_rig.slot is not None
    listener = model_rig.listener_at(IN_CHAPTER_3)
    model: ScriptedModel = model_rig.slot.load([[Use("offer_positions", {"chapter": 1})], [Say("There.")]])
    await model_rig.ask(listener, "take me to chapter one")
    undone = await model_rig.ask(listener, "undo")
    assert undone.speech.startswith("Done: you're back where you were, at ")
    model = model_rig.slot.load([[Say("Wren keeps the lamp.")]])
    await model_rig.ask(listener, "who is Wren?")
    earlier = model.requests[0]["messages"]
    assert history.Told.UNDONE.value in remembered(model)
    assert tells_position(earlier) == []
    assert clock(IN_CHAPTER_3) not in json.dumps(earlier)


async def test_a_move_said_with_its_time_is_remembered_for_the_model_without_it(model_rig: Rig) -> None:
    """A review: "There you are: chapter 1, "The Harbour Bell", at 0:00:40." was kept word for word,
    and a model turn after the listener played on read where they had been."""
    assert model_rig.slot is not None
    listener = model_rig.listener_at(340_000)
    moved = await model_rig.ask(listener, "go back a while")
    assert moved.speech.endswith(", at 0:00:40.")
    model_rig.player.positions[(listener, BOOK_ID)] = 400_000  # listened on past where they asked
    model: ScriptedModel = model_rig.slot.load([[Say("Wren keeps the lamp.")]])
    await model_rig.ask(listener, "who is Wren?")
    assert history.Told.MOVED.value in remembered(model)
    assert "0:00:40" not in json.dumps(model.requests[0]["messages"])


@pytest.mark.parametrize(
    "after_the_move",
    [[[Say("")]], [overloaded()] * 3],
    ids=["the model says nothing of it", "the model cannot be reached"],
)
async def test_a_move_plain_code_tells_for_the_model_is_remembered_without_its_time(
    model_rig: Rig, after_the_move: list[Reply]
) -> None:
    """A code review: when the model moved the book and then said nothing, or could not be reached,
    plain code said where the book came to ("There you are: chapter 1, at 0:00:00.") and that was kept
    word for word for the next model turn."""
    assert model_rig.slot is not None
    listener = model_rig.listener_at(IN_CHAPTER_3)
    model_rig.slot.load([[Use("offer_positions", {"chapter": 1})], *after_the_move])
    moved = await model_rig.ask(listener, "take me to chapter one")
    assert "There you are: chapter 1" in moved.speech
    model_rig.player.positions[(listener, BOOK_ID)] = IN_CHAPTER_3 + 1000  # listened on since
    model: ScriptedModel = model_rig.slot.load([[Say("Wren keeps the lamp.")]])
    await model_rig.ask(listener, "who is Wren?")
    assert history.Told.MOVED.value in remembered(model)
    assert tells_position(model.requests[0]["messages"]) == []


async def test_no_remembered_exchange_holds_the_listeners_position_from_anywhere(model_rig: Rig) -> None:
    """From thirty random positions (the book's start, its end and chapter starts among them), every
    answer plain code gives that says where the listener is, then a model turn: nothing the model
    reads of the earlier turns says where they are (how far in, how much is left, the chapter and
    how far into it)."""
    assert model_rig.slot is not None
    rng = random.Random(20261202)
    duration = book_info().duration_ms
    asked = [
        "where am I?",
        "how long is left?",
        "which chapter am I in?",
        "how far through am I?",
        "how many chapters are left?",
        "how many chapters are there?",
    ]
    positions = [0, duration, 3 * PASSAGE_MS, *(rng.randrange(0, duration) for _ in range(27))]
    for here in positions:
        listener = model_rig.listener_at(here)
        said = [(await model_rig.ask(listener, utterance)).speech for utterance in rng.sample(asked, 2)]
        model: ScriptedModel = model_rig.slot.load([[Say("Something.")]])
        await model_rig.ask(listener, "what is the lamp for?")
        read = remembered(model)
        assert len(read) == 2, read  # both earlier turns are there
        assert not set(said) & set(read), (here, said)
        assert tells_position(model.requests[0]["messages"]) == [], here
        assert speech.AT_BOOK_START not in read


async def test_with_a_model_goodnight_is_answered_by_plain_code_that_knows_the_timer(model_rig: Rig) -> None:
    """The model is not told the player's sleep timer: its "Goodnight!" left out the timer the keyless
    reply names, and "thanks" needs no model either."""
    assert model_rig.slot is not None
    model: ScriptedModel = model_rig.slot.load([[Say("Goodnight! Sleep well.")]])
    listener = model_rig.listener_at(IN_CHAPTER_3)
    reply = await model_rig.ask(listener, "goodnight")
    assert (reply.mode, reply.speech) == ("keyless", speech.COURTESY["goodnight"])
    thanks = await model_rig.ask(listener, "thank you")
    assert (thanks.mode, thanks.speech) == ("keyless", speech.COURTESY["thanks"])
    assert model.requests == []
