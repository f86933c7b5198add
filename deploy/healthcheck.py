"""A container's healthcheck: does this service answer its health subject over NATS?

Run inside the service image as ``python3 /opt/bedside/healthcheck.py``; the service is
named by BEDSIDE_SERVICE (or the first argument). Exits 0 when a copy answers ready.
"""

import asyncio
import os
import sys

import nats
from bedside_runtime.health import check
from bedside_runtime.settings import Settings


async def healthy(service: str) -> bool:
    client = await nats.connect(Settings().servers, connect_timeout=2, max_reconnect_attempts=0)
    try:
        health = await check(client, service, timeout_s=2.0)
    finally:
        await client.close()
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
