"""What the device cookie costs a page's request, beside a bearer token on the same request.

A token is remembered by the player once seen; a device credential is read from the
listeners bucket on every request so that a revoked one stops at once (ADR 22). Both kinds
of request (GET .../state) alternate one by one on one connection each, so they meet the
same load. The KV get a credential costs is measured beside them from this process.
``.venv/bin/python -m bench.player_auth``
"""

import asyncio
import time

import httpx
from bedside_player.listeners import Listeners, token_hash

from bench.player_common import Bench, summary
from bench.report import Figure, latency_figures, report

REQUESTS = 1000


async def timed(client: httpx.AsyncClient, path: str) -> float:
    started = time.perf_counter()
    response = await client.get(path)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.text
    return elapsed


async def main() -> None:
    bench = await Bench().start()
    figures: list[Figure] = []
    try:
        ((name, token),) = await bench.listeners(1, "auth")
        path = f"/api/listeners/{name}/books/b1/state"
        bearer = httpx.AsyncClient(base_url=bench.url, headers={"Authorization": f"Bearer {token}"})
        page = httpx.AsyncClient(base_url=bench.url)
        traded = await page.post("/api/session", headers={"Authorization": f"Bearer {token}"})
        assert traded.status_code == 200, traded.text
        credential = page.cookies["bedside_device"]
        kv = (await Listeners.open(bench.nc.jetstream())).kv
        with_token, with_cookie, kv_get = [], [], []
        for _ in range(20):  # warm both paths
            await timed(bearer, path)
            await timed(page, path)
        for _ in range(REQUESTS):
            with_token.append(await timed(bearer, path))
            with_cookie.append(await timed(page, path))
            started = time.perf_counter()
            await kv.get(f"device.{token_hash(credential)}")
            kv_get.append((time.perf_counter() - started) * 1000)
        print(f"GET state, bearer token (remembered)   {summary(with_token)}")
        print(f"GET state, device cookie (read each)   {summary(with_cookie)}")
        print(f"KV get of the credential, from here     {summary(kv_get)}")
        figures += latency_figures(
            "GET state with the device cookie", with_cookie, with_token, " (floor: bearer)"
        )
        figures += latency_figures("KV get of a device credential", kv_get, with_token, " (floor: bearer)")
        await bearer.aclose()
        await page.aclose()
    finally:
        await bench.stop()
    report(figures)


if __name__ == "__main__":
    asyncio.run(main())
