"""An offer the player cannot resolve because search stalls is told as search failing.

The player resolves an offer's places with search, waiting for it as long as the turn waits for
any service (both ``request_timeout_s``). The turn's call to the player used to time out at the
same moment, so the listener heard "I can't reach the player" for a player that was up; now the
turn waits longer for an offer, and the player answers a failure naming search.

The player is the real process (``bedside serve player``); search is the small fake on the bus,
stalled on resolve; the turn's side is its own bus adapter and its own words for a failure.
"""

import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from bedside_contracts.player import OfferPositions
from bedside_contracts.search import Target
from bedside_player_testing import FakeSearch, SyntheticBook
from bedside_runtime.bus import Broker
from bedside_runtime.errors import CallFailed
from bedside_runtime.nats_server import free_port
from bedside_testing import RunningSystem
from bedside_turn.backends import BusBackends
from bedside_turn.domain import speech

TIMEOUT_S = 1.0


@pytest.fixture(scope="module")
def system(nats_url: str) -> Iterator[RunningSystem]:
    running = RunningSystem(
        nats_url, Path(tempfile.mkdtemp(prefix="bedside-stall-")), ("player",), free_port()
    )
    running.env["BEDSIDE_REQUEST_TIMEOUT_S"] = str(TIMEOUT_S)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def search(system: RunningSystem) -> AsyncIterator[FakeSearch]:
    broker = Broker([system.nats_url], "stall-search")
    running = await FakeSearch(await broker.connect(), [SyntheticBook("stall")]).start()
    try:
        yield running
    finally:
        await running.stop()
        await broker.connection.close()


@pytest.fixture
async def turn_side(system: RunningSystem) -> AsyncIterator[BusBackends]:
    broker = Broker([system.nats_url], "stall-turn")
    await broker.connect()
    try:
        yield BusBackends(broker, TIMEOUT_S).for_one_turn()  # as the turn service holds it
    finally:
        await broker.connection.close()


def offer(listener: str, turn: int = 0) -> OfferPositions:
    return OfferPositions(
        listener=listener, book="stall", turn_id=f"t-{listener}-{turn}", targets=[Target(chapter=2)]
    )


async def test_an_offer_search_cannot_resolve_is_told_as_search_failing_not_the_player(
    search: FakeSearch, turn_side: BusBackends
) -> None:
    # The player and search are up, and the listener's state is made (a first offer on a loaded
    # machine took longer than the turn waits, and search was never asked: seen in CI).
    assert (await turn_side.offer(offer("stalled"))).outcome == "listed"
    search.stalled = True
    resolves = search.resolves
    with pytest.raises(CallFailed):
        await turn_side.offer(offer("stalled", turn=1))
    assert search.resolves > resolves  # the player did ask search, which never answered
    assert turn_side.let_down_by == {"search"}
    assert turn_side.out_of_reach == set()  # the player answered
    assert speech.unavailable(turn_side.let_down_by, turn_side.out_of_reach) == speech.SEARCH_UNAVAILABLE
