"""Composition root of the turn service."""

from collections.abc import Awaitable, Callable

from bedside_runtime.host import run_bus_service
from bedside_runtime.settings import Settings
from faststream.nats import NatsBroker


async def register(broker: NatsBroker, settings: Settings) -> Callable[[], Awaitable[None]]:
    async def close() -> None:
        return None

    return close


async def serve(settings: Settings) -> None:
    await run_bus_service("turn", settings, register)
