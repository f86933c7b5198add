"""Removing a listener on a real bus: a removal stopped half way can be asked for again."""

import secrets
from typing import Any

import nats
import pytest
from bedside_player.listeners import Listeners


class Crash(Exception):
    """The process ending in the middle of a removal."""


async def test_a_removal_stopped_half_way_is_finished_by_asking_again(
    nats_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = await nats.connect(nats_url)
    try:
        listeners = await Listeners.open(client.jetstream())
        name = f"half-{secrets.token_hex(3)}"
        token = await listeners.create(name)
        await listeners.issue_device(name)
        deleting = listeners.kv.delete

        async def crash_on_devices(key: str, *args: Any, **kwargs: Any) -> bool:
            if key.startswith("device."):
                raise Crash(key)
            return await deleting(key, *args, **kwargs)

        monkeypatch.setattr(listeners.kv, "delete", crash_on_devices)
        with pytest.raises(Crash):
            await listeners.retire(name)
        monkeypatch.setattr(listeners.kv, "delete", deleting)

        assert name in await listeners.names()  # still there to be removed again
        assert await listeners.retire(name) == 1  # its device's credential, revoked this time
        assert name not in await listeners.names()
        assert await listeners.listener_for(token) is None
    finally:
        await client.close()
