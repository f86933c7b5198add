"""Two player copies (``bedside serve player``) share the partitions on one bus, and whichever copy a
request lands on, the listener gets the same answer.

- An offer that lands on the copy that does not own the listener's partition is sent on to the
  owner, which resolves its places with search. With search stalled, the owner answers that search
  failed; the copy in the middle must wait for that answer and pass it on, not give up first.
- A listener removed through one copy has their token refused by the other copy too, although it
  had remembered the token from an earlier request.

Search is the small fake on the bus; the turn's side is its own bus adapter.
"""

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.player import ListenerRemoved, OfferPositions, RemoveListener
from bedside_contracts.search import Target
from bedside_player.listeners import Listeners
from bedside_player_copies import BOOK, PlayerCopies, settled
from bedside_player_testing import FakeSearch, SyntheticBook
from bedside_runtime.bus import Broker, call
from bedside_runtime.errors import CallFailed, RemoteFailure
from bedside_runtime.nats_server import NatsServer, free_port
from bedside_testing import start_test_nats
from bedside_turn.backends import BusBackends
from bedside_turn.domain import speech
from nats.aio.client import Client
from nats.aio.msg import Msg

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

TIMEOUT_S = 1.0
COPIES = ("a", "b")
MOST_TRIES = 24
"""Offers for fresh listeners until one lands on the copy that does not own its partition (the
queue group picks a copy at random: each lands there half the time)."""


@pytest.fixture(scope="module")
def server() -> Iterator[NatsServer]:
    running = start_test_nats(f"copies-{free_port()}")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
async def client(server: NatsServer) -> AsyncIterator[Client]:
    connection = await nats.connect(server.url)
    try:
        yield connection
    finally:
        await connection.close()


@pytest.fixture(scope="module")
async def search(client: Client) -> AsyncIterator[FakeSearch]:
    running = await FakeSearch(client, [SyntheticBook(BOOK)]).start()
    try:
        yield running
    finally:
        await running.stop()


@pytest.fixture(scope="module")
async def copies(server: NatsServer, client: Client, search: FakeSearch) -> AsyncIterator[PlayerCopies]:
    running = PlayerCopies(server.url, env={"BEDSIDE_REQUEST_TIMEOUT_S": str(TIMEOUT_S)})
    try:
        for name in COPIES:
            running.start(name)
            await running.wait_serving(name)
        await settled(client, [copy.process.pid for copy in running.copies.values()])
        yield running
    finally:
        running.stop()


@pytest.fixture
async def turn_broker(server: NatsServer) -> AsyncIterator[Broker]:
    broker = Broker([server.url], "copies-turn")
    await broker.connect()
    try:
        yield broker
    finally:
        await broker.connection.close()


async def test_an_offer_sent_on_to_the_owner_brings_back_the_owners_answer(
    copies: PlayerCopies, client: Client, search: FakeSearch, turn_broker: Broker
) -> None:
    """Before, the copy in the middle waited one timeout for the owner, and the owner waited one
    timeout for search, started a moment later: the middle gave up first and answered that the
    player failed, and the listener heard "Something went wrong" instead of search failing."""
    sent_on: list[str] = []

    async def seen(msg: Msg) -> None:
        sent_on.append(OfferPositions.model_validate_json(msg.data).listener)

    spy = await client.subscribe(
        subjects.PLAYER_PARTITION_REQUEST.format(partition="*", copy="*", operation="offer"), cb=seen
    )
    search.stalled = True
    try:
        for n in range(MOST_TRIES):
            listener = f"asks-{n}"
            turn = BusBackends(turn_broker, TIMEOUT_S).for_one_turn()
            request = OfferPositions(
                listener=listener, book=BOOK, turn_id=f"t-{n}", targets=[Target(chapter=2)]
            )
            with pytest.raises(CallFailed):
                await turn.offer(request)
            await client.flush()
            if listener not in sent_on:
                continue  # the owner took it itself
            assert turn.let_down_by == {"search"}
            assert turn.out_of_reach == set()
            assert speech.unavailable(turn.let_down_by, turn.out_of_reach) == speech.SEARCH_UNAVAILABLE
            return
        raise AssertionError(f"none of {MOST_TRIES} offers landed on the copy that does not own it")
    finally:
        search.stalled = False
        await spy.unsubscribe()


async def token_answers(copy_url: str, token: str) -> int:
    async with httpx.AsyncClient(base_url=copy_url, timeout=10) as http:
        reply = await http.get("/api/books", headers={"Authorization": f"Bearer {token}"})
        return reply.status_code


async def test_a_removed_listeners_token_is_refused_by_every_copy(
    copies: PlayerCopies, client: Client
) -> None:
    """Before, the copy the removal did not run on kept the token it had remembered, and kept
    answering it until it restarted."""
    registry = await Listeners.open(client.jetstream())
    await registry.create("stays")
    token = await registry.create("leaves")
    urls = [copy.http_url for copy in copies.copies.values()]
    assert [await token_answers(url, token) for url in urls] == [200, 200]  # each remembers it now

    removed = await call(
        client, subjects.PLAYER_REMOVE_LISTENER, RemoveListener(listener="leaves"), ListenerRemoved
    )
    assert removed.listener == "leaves"

    answers: list[int] = []
    deadline = time.monotonic() + 30  # not a timing asserted: how long to wait for it at all
    while time.monotonic() < deadline:
        answers = [await token_answers(url, token) for url in urls]
        if answers == [401, 401]:
            break
        await asyncio.sleep(0.1)
    assert answers == [401, 401]


async def test_a_listener_removed_twice_at_once_is_removed_once_and_the_other_is_told_so(
    copies: PlayerCopies, client: Client
) -> None:
    """Before, both removals could find the listener: then either both said they removed it, or
    the one that came second to the listeners bucket failed inside the player ("the service
    failed to answer", which the bus fuzz counts as a crash) instead of saying there was no
    such listener any more."""
    registry = await Listeners.open(client.jetstream())
    await registry.create("stays-too")  # the last listener is never removed
    await registry.create("twice")

    async def remove() -> str:
        try:
            await call(
                client, subjects.PLAYER_REMOVE_LISTENER, RemoveListener(listener="twice"), ListenerRemoved
            )
        except RemoteFailure as failure:
            return failure.failure.code
        return "removed"

    assert sorted(await asyncio.gather(remove(), remove())) == ["not_found", "removed"]
