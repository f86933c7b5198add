"""Asking for a book as the bus comes back from a restart, before the ingest service is back on it."""

import asyncio

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.ingest import IngestBook, IngestReport
from bedside_ingest.client import request_ingest
from bedside_runtime.bus import connected
from bedside_runtime.errors import NoService
from bedside_testing import start_test_nats, until
from nats.aio.msg import Msg

REPORT = IngestReport(
    book="restarted",
    version="0123456789abcdef",
    object_name="restarted/0123456789abcdef",
    title="Restarted",
    chapters=1,
    passages=1,
    duration_ms=1_000,
    estimated=False,
    unchanged=False,
    seconds=0.1,
)
ASKED = IngestBook(path="/books/restarted.txt", book="restarted")


async def _asked_after_a_restart(ingest_back_after_s: float | None) -> IngestReport:
    server = start_test_nats("ingest-asked-on-restart")
    try:
        async with connected([server.url], waits_long=True) as client:
            server.kill()
            server.start()
            await until(lambda: client.is_connected and client.stats["reconnects"] > 0, timeout_s=30)
            ingest = await nats.connect(server.url)

            async def answer(message: Msg) -> None:
                await message.respond(REPORT.model_dump_json().encode())

            async def back_later(after_s: float) -> None:
                await asyncio.sleep(after_s)
                await ingest.subscribe(subjects.INGEST_BOOK, cb=answer)

            back = asyncio.create_task(back_later(ingest_back_after_s)) if ingest_back_after_s else None
            try:
                return await request_ingest(client, ASKED, timeout_s=30)
            finally:
                if back is not None:
                    await back
                await ingest.close()
    finally:
        server.stop()


async def test_a_book_asked_for_as_the_bus_comes_back_is_made_once_ingest_is_back() -> None:
    """CI under load: `bedside ingest` asked as a restarted bus came back, before the ingest service
    had subscribed again, and ended "the ingest service is not running" though it was."""
    assert await _asked_after_a_restart(ingest_back_after_s=2.0) == REPORT


async def test_an_ingest_service_that_does_not_come_back_is_told_as_not_running() -> None:
    with pytest.raises(NoService):
        await _asked_after_a_restart(ingest_back_after_s=None)
