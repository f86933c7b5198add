"""The floor under the player's HTTP: uvicorn as the player runs it (httptools, uvloop, no access
log) serving an ASGI app that reads the body and answers a fixed JSON reply of a report's size.

Started as its own process by ``BareHttp``, so its CPU is read from /proc like the player's.
"""

import asyncio
import subprocess
import sys
from typing import Any

import uvicorn
from bedside_contracts.player import Accepted, ListenerState
from bedside_player.main import loop_factory

REPLY = (
    Accepted(
        seq=123456,
        state=ListenerState(
            listener="bench1", book="b1", position_ms=1000, playing=True, seq=123456, last_move_seq=0
        ),
    )
    .model_dump_json()
    .encode()
)
"""An accepted report's answer as the contract writes it."""


async def fixed_reply(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    headers = [(b"content-length", str(len(REPLY)).encode()), (b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": REPLY})


def serve(port: int) -> None:
    config = uvicorn.Config(
        fixed_reply,
        host="127.0.0.1",
        port=port,
        log_config=None,
        access_log=False,
        http="httptools",
        lifespan="off",
    )
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(uvicorn.Server(config).serve())


def spawn(port: int) -> "subprocess.Popen[bytes]":
    code = f"from bench.bare_http import serve; serve({port})"
    return subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
