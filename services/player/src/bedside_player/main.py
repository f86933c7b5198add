"""Composition root of the player service: the broker and the HTTP API in one process.

FastAPI stays plain: its lifespan connects the broker, replays the stream into the
projections, then starts answering on the bus and sets what it built aside from the garbage
collector; uvicorn serves HTTP on the same loop.
"""

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import uvicorn
import uvloop
from bedside_runtime.bus import new_broker, serve_health
from bedside_runtime.host import version_of
from bedside_runtime.logging import configure_logging
from bedside_runtime.settings import Settings
from fastapi import FastAPI

from bedside_player.bus_api import BusApi
from bedside_player.connections import HeadInTime
from bedside_player.domain.playing import REPORT_EVERY_MS
from bedside_player.http_api import build_api
from bedside_player.service import Service

loop_factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
"""The loop ``bedside serve player`` runs on: the player is a loop of small socket reads and
writes, which libuv does with less CPU than asyncio's own loop (ADR 38)."""

KEPT_OPEN_MS = 4 * REPORT_EVERY_MS
"""How long an idle device connection stays open: through a few reports a page was late with."""

YOUNG_PASS_AT = 10_000
"""Python's default, 700 more live objects than at the last young pass, is less than fifty
requests in flight hold: at saturation nearly every young pass found nothing to free."""


def settle_the_heap() -> None:
    """What exists once the stream is replayed (modules, schemas, the projections) lives as
    long as the process: frozen, the collector's full passes no longer walk it again."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_PASS_AT, *gc.get_threshold()[1:])


def build_app(settings: Settings, http_listening: Callable[[], bool] = lambda: True) -> FastAPI:
    """The app; health says ready once the stream is replayed and ``http_listening()``."""
    broker = new_broker(settings, "player")
    service = Service(broker, settings)
    bus_api = BusApi(broker, service)
    app = build_api(service)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await broker.connect()
        await service.start()
        await serve_health(
            broker,
            "player",
            version_of("bedside-player"),
            ready=lambda: service.is_ready() and http_listening(),
            detail=service.detail,
        )
        await bus_api.start()
        settle_the_heap()
        try:
            yield
        finally:
            await bus_api.stop()
            await service.stop()
            await broker.stop()

    app.router.lifespan_context = lifespan
    return app


def http_config(app: FastAPI, settings: Settings) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=settings.http_host,
        port=settings.http_port,
        log_config=None,
        access_log=False,
        # httptools, the C parser (1.36 against 1.57 ms of CPU a report: NOTES.md), with a deadline
        # for a request's head
        http=HeadInTime,
        timeout_graceful_shutdown=2,
        # uvicorn's default, 5 s, closed a playing device's connection before its next report:
        # each report opened a new one, and a request sent as an idle one closed was lost.
        timeout_keep_alive=KEPT_OPEN_MS // 1000,
        ssl_certfile=settings.tls_certfile,
        ssl_keyfile=settings.tls_keyfile,
    )


async def serve(settings: Settings) -> None:
    log = configure_logging("player", settings.log_format, settings.log_level)
    listening: list[uvicorn.Server] = []
    app = build_app(settings, lambda: bool(listening) and listening[0].started)
    log.info("player starting", http=settings.page_base_url, servers=settings.servers)
    server = uvicorn.Server(http_config(app, settings))
    listening.append(server)
    await server.serve()
