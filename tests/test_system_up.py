"""The four services start as real processes on a real bus and answer health."""

import asyncio

import nats
from bedside_contracts.subjects import SERVICES
from bedside_runtime.health import check
from bedside_testing import start_system

HEALTH_PATIENCE_S = 15.0


def test_every_service_answers_health_over_nats(nats_url: str) -> None:
    system = start_system(nats_url)
    try:

        async def ask() -> list[str]:
            client = await nats.connect(nats_url)
            try:
                # each within the run's patience, not check's one second: on a loaded machine a copy
                # just made ready may take longer to answer, and this asks whether it answers at all
                replies = [await check(client, name, timeout_s=HEALTH_PATIENCE_S) for name in SERVICES]
            finally:
                await client.close()
            return [reply.service for reply in replies if reply is not None]

        assert asyncio.run(ask()) == list(SERVICES)
    finally:
        system.stop()
    assert not [name for name, child in system.processes.children.items() if child.poll() is None]
