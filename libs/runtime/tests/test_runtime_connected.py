"""A command that waits long on its own connection rides out a restart of the bus."""

import asyncio

from bedside_runtime.bus import connected
from bedside_testing import start_test_nats
from nats.aio.msg import Msg


async def test_a_waiting_command_keeps_its_connection_across_a_bus_restart() -> None:
    """A household's check: `bedside ingest` of a recording, the bus killed and started again by
    `up` within a second, ended in a traceback ("nats: connection closed") while the job went on."""
    server = start_test_nats("runtime-connected")
    try:
        async with connected([server.url], waits_long=True) as waiting:
            server.kill()
            await asyncio.sleep(2)  # `up` waits a moment before it starts a dead bus again
            await asyncio.to_thread(server.start)  # the same port and store
            async with connected([server.url]) as answering:

                async def echo(msg: Msg) -> None:
                    await msg.respond(msg.data)

                await answering.subscribe("bedside.test.echo", cb=echo)
                await answering.flush()
                reply = await waiting.request("bedside.test.echo", b"still here", timeout=10)
        assert reply.data == b"still here"
    finally:
        server.stop()
