"""'Where am I?' with a model: plain code answers it, as the model is never told where the listener is.

Its own module: a turn service with a model and one without would share the ask subject.
"""

from collections.abc import AsyncIterator

import pytest
from bedside_turn_testing.book import PASSAGE_MS
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.scripted import Say, ScriptedModel, Use

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
