"""A device adding a book over the player's HTTP API, as the page does: the files sent, the book
asked for, the job followed to its end."""

import asyncio
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import nats
from bedside_player.listeners import Listeners
from bedside_runtime.nats_server import free_port
from bedside_testing import RunningSystem


async def send_file(http: httpx.AsyncClient, filename: str, data: bytes) -> dict[str, Any]:
    reply = await http.post("/api/uploads", params={"filename": filename}, content=data)
    assert reply.status_code == 201, reply.text
    sent: dict[str, Any] = reply.json()
    return sent


async def followed_to_the_end(http: httpx.AsyncClient, job: str, timeout_s: float = 300) -> dict[str, Any]:
    """The job as the page sees it once it has ended (a book made: once it is served, as the page
    waits for it), and every state seen on the way (``seen``)."""
    deadline = time.monotonic() + timeout_s
    seen: list[str] = []
    while time.monotonic() < deadline:
        reply = await http.get(f"/api/books/added/{job}")
        assert reply.status_code == 200, reply.text
        adding: dict[str, Any] = reply.json()
        if not seen or seen[-1] != adding["state"]:
            seen.append(adding["state"])
        if adding["state"] in ("failed", "cancelled") or (adding["state"] == "done" and adding["served"]):
            return {**adding, "seen": seen}
        await asyncio.sleep(0.5)
    raise AssertionError(f"job {job} still {seen} after {timeout_s} s")


async def bucket_objects(nats_url: str, name: str) -> list[str]:
    client = await nats.connect(nats_url)
    try:
        bucket = await client.jetstream().object_store(name)
        try:
            return [info.name for info in await bucket.list() if not info.deleted]
        except nats.js.errors.NotFoundError:  # nats-py's word for an empty bucket
            return []
    finally:
        await client.close()


async def device(system: RunningSystem, name: str) -> httpx.AsyncClient:
    client = await nats.connect(system.nats_url)
    try:
        token = await (await Listeners.open(client.jetstream())).create(name)
    finally:
        await client.close()
    return httpx.AsyncClient(
        base_url=system.http_url, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )


@dataclass
class SplitHouse:
    """Ingest and search on one data directory, the player on another."""

    back: RunningSystem
    player: RunningSystem

    def stop(self) -> None:
        self.player.stop()
        self.back.stop()


def split_house(nats_url: str, back: tuple[str, ...] = ("ingest", "search")) -> SplitHouse:
    def own(services: tuple[str, ...], port: int) -> RunningSystem:
        return RunningSystem(nats_url, Path(tempfile.mkdtemp(prefix="bedside-data-")), services, port)

    house = SplitHouse(own(back, free_port()), own(("player",), free_port()))
    try:
        house.back.start()
        house.player.start()
    except BaseException:
        house.stop()
        raise
    return house
