"""Asking services whether they are up, from outside any service (the CLI, tests)."""

import asyncio
import time

import nats
from bedside_contracts import subjects
from bedside_contracts.common import Health, HealthCheck
from nats.aio.client import Client

from bedside_runtime.bus import call
from bedside_runtime.errors import CallFailed


async def check(client: Client, service: str, timeout_s: float = 1.0) -> Health | None:
    """The health of one copy of ``service``, or None when none answers in time."""
    try:
        return await call(
            client, subjects.HEALTH.format(service=service), HealthCheck(), Health, timeout_s=timeout_s
        )
    except CallFailed:
        return None


async def wait_until_healthy(
    servers: list[str], services: tuple[str, ...], timeout_s: float
) -> dict[str, Health | None]:
    """Poll every service until all answer ready, or the time is up; return what was seen last."""
    client = await nats.connect(servers, connect_timeout=2, max_reconnect_attempts=3)
    seen: dict[str, Health | None] = dict.fromkeys(services)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            for service in services:
                health = seen[service]
                if health is None or not health.ready:
                    seen[service] = await check(client, service)
            if all(h is not None and h.ready for h in seen.values()):
                break
            await asyncio.sleep(0.2)
    finally:
        await client.close()
    return seen
