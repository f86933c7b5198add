"""A turn a service lets down: the listener hears soon, in plain words, what failed, and what the
turn did (a move, a timer) is still said; the outcome agrees with what is said.

The rig is this module's own, on a nats-server of its own, with a short request timeout so a
stalled search costs the tests little. Its turn service has a scripted model; the keyless tests
take it away for their turn.
"""

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
from bedside_contracts.search import CatalogRequest, CheckAnswer
from bedside_runtime.nats_server import NatsServer
from bedside_testing import start_test_nats
from bedside_turn.claude import ModelClient
from bedside_turn.domain import speech
from bedside_turn_testing.book import BOOK_ID
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.scripted import Say, ScriptedModel, Use

HERE = 135_000


@pytest.fixture(scope="module")
def own_server() -> Iterator[NatsServer]:
    server = start_test_nats("turn-failures")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
async def rig(own_server: NatsServer) -> AsyncIterator[Rig]:
    rig = await start_rig(own_server.url, with_model=True, request_timeout_s=0.5)
    try:
        yield rig
    finally:
        await rig.broker.stop()


@pytest.fixture
def keyless(rig: Rig) -> Iterator[None]:
    client: ModelClient | None = rig.service.client
    rig.service.client = None
    try:
        yield
    finally:
        rig.service.client = client


@pytest.fixture
def stalled_search(rig: Rig) -> Iterator[None]:
    released = asyncio.Event()
    rig.search.stalled = released
    try:
        yield
    finally:
        released.set()
        rig.search.stalled = None


@pytest.fixture
def broken_search(rig: Rig) -> Iterator[None]:
    rig.search.down = True
    try:
        yield
    finally:
        rig.search.down = False


def script(rig: Rig, *replies: object) -> ScriptedModel:
    assert rig.slot is not None
    return rig.slot.load(list(replies))


@pytest.mark.usefixtures("keyless", "stalled_search")
async def test_a_stalled_search_is_waited_for_once_and_the_listener_hears_that_search_failed(
    rig: Rig,
) -> None:
    """Before, the find waited its full timeout and then the answer check waited another on the same
    stalled search (20 s with the default 10 s each), to say "Something went wrong"."""
    listener = rig.listener_at(HERE)
    before = len(rig.search.requests)
    reply = await rig.ask(listener, "take me back to where Wren gave Tamsin barley soup")
    asked = rig.search.requests[before:]
    # the first request (the chapters, whose titles a moment may name) is not asked again, nor is a find
    assert [type(r) for r in asked] == [CatalogRequest]
    assert (reply.speech, reply.outcome) == (speech.SEARCH_UNAVAILABLE, "failed")


@pytest.mark.usefixtures("keyless", "broken_search")
async def test_a_move_made_before_the_answer_check_failed_is_said_by_its_chapter(rig: Rig) -> None:
    """The move happened (the player double resolves without search); the answer naming the
    chapter's title cannot be checked, so the listener hears where the book went without the title."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "back 2 minutes")  # a chapter's start is first looked up in search
    assert (reply.speech, reply.outcome) == ("There you are: chapter 1, at 0:00:15.", "moved")
    assert rig.player.positions[(listener, BOOK_ID)] == HERE - 120_000


@pytest.mark.usefixtures("keyless", "broken_search")
async def test_a_move_said_with_a_question_search_cannot_answer_is_still_said(rig: Rig) -> None:
    """The move is made before the question fails; saying only that search failed left the listener to
    ask again, and move back another 2 minutes."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "back 2 minutes and who is Wren?")
    assert (reply.speech, reply.outcome) == ("There you are: chapter 1, at 0:00:15.", "moved")
    assert rig.player.positions[(listener, BOOK_ID)] == HERE - 120_000


@pytest.mark.usefixtures("keyless", "broken_search")
async def test_a_question_search_cannot_answer_is_a_failed_turn_said_as_such(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "who is Wren?")
    assert (reply.speech, reply.outcome) == (speech.SEARCH_UNAVAILABLE, "failed")


@pytest.mark.usefixtures("stalled_search")
async def test_a_model_turn_that_moved_says_so_when_its_answer_cannot_be_checked(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    script(
        rig,
        [Use("offer_positions", {"offset_ms": -HERE})],  # a chapter's start is first looked up in search
        [Use("playback", {"action": "sleep_timer", "minutes": 2})],
        [Say("You're back at the start of chapter 1, \"The Harbour Bell\", and I'll stop in 2 minutes.")],
    )
    before = len(rig.search.requests)
    # (a start again with no start named, "back to the very start", is plain code's with a timer too)
    reply = await rig.ask(listener, "back to the start of the book and sleep in two minutes")
    assert (reply.speech, reply.outcome) == (
        "There you are: chapter 1, at 0:00:00. I'll stop in 2 minutes.",
        "moved",
    )
    assert rig.player.positions[(listener, BOOK_ID)] == 0
    assert [type(r) for r in rig.search.requests[before:]] == [CheckAnswer]


@pytest.mark.usefixtures("stalled_search")
async def test_a_model_turn_that_set_the_timer_says_so_when_its_answer_cannot_be_checked(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    script(
        rig,
        [Use("playback", {"action": "sleep_timer", "minutes": 2})],
        [Say("Sleep well, I'll stop in 2 minutes.")],
    )
    reply = await rig.ask(listener, "sleep in two minutes please")
    assert (reply.speech, reply.outcome) == ("I'll stop in 2 minutes.", "answered")


@pytest.mark.usefixtures("keyless")
async def test_a_player_that_answers_it_failed_is_not_said_to_be_out_of_reach(rig: Rig) -> None:
    """With search absent the player answers an offer "unavailable" (it cannot resolve the places):
    the player answered, so "I can't reach the player" would send the listener looking for the
    wrong fault."""
    listener = rig.listener_at(HERE)
    rig.player.search_gone = True
    try:
        reply = await rig.ask(listener, "chapter 3")
    finally:
        rig.player.search_gone = False
    assert (reply.speech, reply.outcome) == (speech.TROUBLE, "failed")
