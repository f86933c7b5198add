"""Removing a listener on a real bus: nothing left by a removal stopped half way, or made while it
ran, acts for them."""

import asyncio
import secrets
from typing import Any

import bedside_player.listeners
import nats
import pytest
from bedside_contracts import subjects
from bedside_player.listeners import ListenerExists, Listeners
from bedside_runtime.streams import live_keys
from nats.js import JetStreamContext


class Crash(Exception):
    """The process ending in the middle of a removal."""


async def test_a_removal_stopped_half_way_leaves_nothing_that_acts_for_them(
    nats_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = await nats.connect(nats_url)
    try:
        listeners = await Listeners.open(client.jetstream())
        await listeners.follow_revocations()
        name = f"half-{secrets.token_hex(3)}"
        token = await listeners.create(name)
        device = await listeners.issue_device(name)
        deleting = listeners.kv.delete

        async def crash_on_devices(key: str, *args: Any, **kwargs: Any) -> bool:
            if key.startswith("device."):
                raise Crash(key)
            return await deleting(key, *args, **kwargs)

        monkeypatch.setattr(listeners.kv, "delete", crash_on_devices)
        with pytest.raises(Crash):
            await listeners.retire(name)
        monkeypatch.setattr(listeners.kv, "delete", deleting)

        assert name not in await listeners.names()
        assert await listeners.listener_for(token) is None
        assert await until_refused(listeners, device)  # its credential outlived the crash, refused
    finally:
        await listeners.stop()
        await client.close()


async def test_a_listener_whose_making_stopped_half_way_can_be_made_again_and_their_token_works(
    nats_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review: the record was written before the token's index, so a crash or a bus timing out
    between them left a listener no token opened, whom making again refused as existing already."""
    client = await nats.connect(nats_url)
    try:
        listeners = await Listeners.open(client.jetstream())
        name = f"made-{secrets.token_hex(3)}"
        writes = {"put": listeners.kv.put, "create": listeners.kv.create}

        def crashing_on_the_token(write: Any) -> Any:
            async def written(key: str, *args: Any, **kwargs: Any) -> int:
                if key.startswith("token."):
                    raise Crash(key)
                return int(await write(key, *args, **kwargs))

            return written

        for method, write in writes.items():
            monkeypatch.setattr(listeners.kv, method, crashing_on_the_token(write))
        with pytest.raises(Crash):
            await listeners.create(name)
        for method, write in writes.items():
            monkeypatch.setattr(listeners.kv, method, write)

        token = await listeners.create(name)
        assert await listeners.listener_for(token) == name
        tokens = set(await live_keys(client.jetstream(), subjects.LISTENERS_BUCKET, under="token."))
        with pytest.raises(ListenerExists):
            await listeners.create(name)
        # the index written for the refused one is taken back: no token of theirs but the first
        assert set(await live_keys(client.jetstream(), subjects.LISTENERS_BUCKET, under="token.")) == tokens
    finally:
        await client.close()


async def test_nothing_made_for_a_listener_while_they_are_removed_acts_for_them(
    nats_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A household session: a device paired while the removal swept (its code made after the sweep
    had listed the keys) kept a working login for a listener no longer listed."""
    client = await nats.connect(nats_url)
    try:
        listeners = await Listeners.open(client.jetstream())
        await listeners.follow_revocations()
        name = f"late-{secrets.token_hex(3)}"
        await listeners.create(name)
        late: dict[str, str] = {}

        async def listed_then_paired(js: JetStreamContext, bucket: str, under: str = "") -> list[str]:
            keys = await live_keys(js, bucket, under)
            late["code"], _ = await listeners.create_pairing(name)
            late["device"] = await listeners.issue_device(name)
            return keys

        monkeypatch.setattr(bedside_player.listeners, "live_keys", listed_then_paired)
        await listeners.retire(name)
        monkeypatch.undo()

        assert await listeners.redeem_pairing(late["code"]) is None
        assert await until_refused(listeners, late["device"])
    finally:
        await listeners.stop()
        await client.close()


async def until_refused(listeners: Listeners, device: str) -> bool:
    """Whether the device credential stops acting for anyone within five seconds (the removal
    reaches this process as its record's update does)."""
    for _ in range(100):
        if await listeners.listener_for_device(device) is None:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_every_copy_refuses_a_removed_listener_and_one_started_after_too(nats_url: str) -> None:
    """The removal runs on one player copy; the others learn it from the records they watch."""
    clients = [await nats.connect(nats_url) for _ in range(3)]
    copies: list[Listeners] = []
    try:
        remover, other = [await Listeners.open(c.jetstream()) for c in clients[:2]]
        copies += [remover, other]
        for copy in copies:
            await copy.follow_revocations()
        name = f"gone-{secrets.token_hex(3)}"
        await remover.create(name)
        kept = await other.issue_device(name)
        deleting = remover.kv.delete

        async def keep_devices(key: str, *args: Any, **kwargs: Any) -> bool:
            return True if key.startswith("device.") else await deleting(key, *args, **kwargs)

        remover.kv.delete = keep_devices  # type: ignore[method-assign]  # its sweep misses the device
        await remover.retire(name)
        assert await until_refused(other, kept)
        later = await Listeners.open(clients[2].jetstream())
        copies.append(later)
        await later.follow_revocations()
        assert await later.listener_for_device(kept) is None
    finally:
        for copy in copies:
            await copy.stop()
        for client in clients:
            await client.close()
