"""A broker stopped after its bus went away still closes its connection."""

from bedside_runtime.bus import Broker
from bedside_runtime.nats_server import NatsServer
from bedside_testing import until


async def test_a_broker_whose_bus_is_gone_closes_its_connection_on_stop(own_nats: NatsServer) -> None:
    broker = Broker([own_nats.url])
    client = await broker.connect()
    own_nats.stop()
    await until(lambda: not client.is_connected)  # the client reconnects (for ever, as a service's does)
    await broker.stop()
    assert client.is_closed
