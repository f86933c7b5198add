"""A device adding a book over the player's HTTP API, as the page does: the files sent, the book
asked for, the job followed to its end."""

import asyncio
import time
from typing import Any

import httpx


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
