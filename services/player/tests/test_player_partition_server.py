"""The partition request subjects follow what the copy serves, even when a withdrawal comes while a
subscription is still being made (one handler, with a stand-in connection)."""

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bedside_player.partition_server import PartitionServer


@dataclass
class SlowSubscription:
    subject: str
    unsubscribed: bool = False

    async def unsubscribe(self) -> None:
        self.unsubscribed = True


@dataclass
class SlowConnection:
    """A connection whose subscriptions are made once ``made`` is set."""

    made: asyncio.Event = field(default_factory=asyncio.Event)
    subscriptions: list[SlowSubscription] = field(default_factory=list)

    async def subscribe(self, subject: str, cb: Any) -> SlowSubscription:
        await self.made.wait()
        subscription = SlowSubscription(subject)
        self.subscriptions.append(subscription)
        return subscription

    async def flush(self) -> None:
        return None


@dataclass
class Follower:
    serving: frozenset[int] = frozenset()


class Player:
    async def offer(self, request: Any) -> Any: ...
    async def history(self, request: Any) -> Any: ...
    async def locate(self, request: Any) -> Any: ...
    async def listening(self, request: Any) -> Any: ...


@dataclass
class Service:
    follower: Follower
    copy_id: str = "p1-test"
    player: Player = field(default_factory=Player)

    async def retire_here(self, request: Any) -> Any: ...


@dataclass
class Broker:
    connection: SlowConnection


async def test_a_partition_withdrawn_while_its_subjects_are_subscribed_is_not_answered_for() -> None:
    connection = SlowConnection()
    follower = Follower(serving=frozenset({3}))
    server = PartitionServer(Broker(connection), Service(follower))  # type: ignore[arg-type]
    gaining = asyncio.create_task(server.serve(frozenset({3}), frozenset()))
    await asyncio.sleep(0)
    follower.serving = frozenset()  # the trust in its lease ran out meanwhile
    await server.serve(frozenset(), frozenset({3}))
    connection.made.set()
    await gaining
    assert 3 not in server.subs
    assert all(subscription.unsubscribed for subscription in connection.subscriptions)
