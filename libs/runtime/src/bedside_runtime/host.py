"""Running one service process: logging, the broker, health, and a clean stop on a signal."""

import asyncio
import signal
from collections.abc import Awaitable, Callable
from importlib.metadata import version as package_version

from bedside_runtime.bus import Broker, new_broker, serve_health
from bedside_runtime.logging import configure_logging
from bedside_runtime.settings import Settings


def version_of(distribution: str) -> str:
    return package_version(distribution)


async def wait_for_stop_signal() -> None:
    """Return on SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def run_bus_service(
    service: str,
    settings: Settings,
    register: Callable[[Broker, Settings], Awaitable[Callable[[], Awaitable[None]]]],
    *,
    ready: Callable[[], bool] = lambda: True,
    detail: Callable[[], str] = lambda: "",
) -> None:
    """Run a service whose whole surface is the bus until a stop signal.

    ``register`` subscribes the service's handlers, may do startup work that needs a
    connected broker, and returns a coroutine function that releases what it opened.
    ``ready`` and ``detail`` feed the health reply (e.g. "model loaded", "books: 3").
    """
    log = configure_logging(service, settings.log_format, settings.log_level)
    broker = new_broker(settings, service)
    await broker.connect()
    close = await register(broker, settings)
    await serve_health(broker, service, version_of(f"bedside-{service}"), ready, detail)
    log.info("service started", servers=settings.servers)
    try:
        await wait_for_stop_signal()
    finally:
        log.info("service stopping")
        # the service's own consumers first: a pull fetch still waiting holds up the
        # broker's drain until its timeout
        await close()
        await broker.stop()
