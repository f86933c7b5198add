"""A connection that never finishes a request's head is closed: it must not hold a socket for ever.

A phone that opened a connection and went to sleep before sending, or a client sending its
headers a byte at a time, kept a descriptor of the player's until it ran out of them (a security
review of the HTTP edge). The player's own HTTP configuration is served here, with its idle
time shortened.
"""

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import uvicorn
from bedside_player.main import http_config
from bedside_runtime.settings import Settings
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse

IDLE_S = 1


@pytest.fixture
async def served() -> AsyncIterator[int]:
    app = FastAPI()
    app.get("/")(lambda: PlainTextResponse("here"))
    config = http_config(app, Settings())
    config.timeout_keep_alive = IDLE_S
    server = uvicorn.Server(config)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        task = asyncio.create_task(server.serve(sockets=[listening]))
        yield listening.getsockname()[1]
        server.should_exit = True
        await task


@asynccontextmanager
async def connected(port: int) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        yield reader, writer
    finally:
        writer.close()


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    try:
        rest = await asyncio.wait_for(reader.read(), seconds)
    except TimeoutError:
        return False
    return rest == b""


async def test_a_connection_that_sends_nothing_is_closed_after_the_idle_time(served: int) -> None:
    async with connected(served) as (reader, _):
        assert await closed_within(reader, IDLE_S + 2)


async def test_a_request_head_sent_a_little_at_a_time_is_cut_off(served: int) -> None:
    async with connected(served) as (reader, writer):
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        sent_for_s = 0.0
        while not await closed_within(reader, IDLE_S / 4):
            sent_for_s += IDLE_S / 4
            assert sent_for_s < IDLE_S + 2, "still open"
            writer.write(b"X-Slow: 1\r\n")
        assert sent_for_s >= IDLE_S / 2


async def test_requests_sent_in_time_are_answered_on_one_connection(served: int) -> None:
    async with connected(served) as (reader, writer):
        for _ in range(3):
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200")
            await reader.readexactly(len(b"here"))
            await asyncio.sleep(IDLE_S * 0.6)
