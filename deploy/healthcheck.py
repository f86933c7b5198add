"""A container's healthcheck: does this service answer its health subject over NATS?

Run inside the service image as ``python3 /opt/bedside/healthcheck.py``; the service is
named by BEDSIDE_SERVICE (or the first argument). Exits 0 when a copy answers ready.
"""

import asyncio
import os
import sys

from bedside_runtime.bus import connected
from bedside_runtime.health import check
from bedside_runtime.settings import Settings


async def healthy(service: str) -> bool:
    # ``connected`` gives up on an unreachable bus; nats-py's max_reconnect_attempts=0 never does
    async with connected(Settings().servers) as client:
        health = await check(client, service, timeout_s=2.0)
    return health is not None and health.ready


def main() -> int:
    service = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BEDSIDE_SERVICE", "")
    if not service:
        print("name the service: BEDSIDE_SERVICE or the first argument", file=sys.stderr)
        return 2
    try:
        return 0 if asyncio.run(healthy(service)) else 1
    except Exception as error:  # any failure to reach the bus is "unhealthy", with why
        print(f"{service}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
