"""A connection has the keep-alive time to send a request's whole head, or it is closed.

uvicorn starts its idle clock only once a response is sent: a connection opened and left
silent (a phone asleep straight after connecting), or one sending its head a byte at a time,
held one of the player's file descriptors for as long as it stayed open.
"""

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeadInTime(HttpToolsProtocol):
    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_clock()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_deadline is None:
            self._start_head_clock()

    def on_headers_complete(self) -> None:
        self._stop_head_clock()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_clock()
        super().connection_lost(exc)

    def _start_head_clock(self) -> None:
        self._head_deadline = self.loop.call_later(self.timeout_keep_alive, self._head_too_late)

    def _stop_head_clock(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_late(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
