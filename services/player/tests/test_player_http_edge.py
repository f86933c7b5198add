"""The HTTP edge's listener lookup when the bus does not answer: a reply saying so, not a 500."""

import json

from bedside_player.http_edge import Authenticate, Message, Receive, Scope, Send
from nats.errors import TimeoutError as NatsTimeout


class StalledBus:
    """The listeners' store as a stalled bus leaves it: every lookup times out."""

    async def listener_for(self, token: str) -> str | None:
        raise NatsTimeout

    async def listener_for_device(self, credential: str) -> str | None:
        raise NatsTimeout


async def never_reached(scope: Scope, receive: Receive, send: Send) -> None:
    raise AssertionError("no route runs without a listener")


async def test_a_lookup_the_bus_does_not_answer_is_told_as_unavailable_not_as_a_crash() -> None:
    """A nats-server stopped for 15 s: the page's requests, with its device cookie, were answered
    "500 Internal Server Error" and the player logged a traceback (an operations session)."""
    edge = Authenticate(never_reached, StalledBus(), frozenset())
    for header in ((b"cookie", b"bedside_device=abc"), (b"authorization", b"Bearer abc")):
        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)  # noqa: B023 -- each pass's own list, read before the next

        scope: Scope = {"type": "http", "path": "/api/books", "method": "GET", "headers": [header]}
        await edge(scope, None, send)  # type: ignore[arg-type]
        assert sent[0]["status"] == 503
        assert "not answering" in json.loads(sent[1]["body"])["detail"]
