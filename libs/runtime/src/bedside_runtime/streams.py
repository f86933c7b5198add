"""Declaring a JetStream stream: what its owner does at start, and only its owner."""

from nats.js.api import StreamConfig
from nats.js.client import JetStreamContext
from nats.js.errors import BadRequestError


async def declare_stream(js: JetStreamContext, config: StreamConfig) -> None:
    """Create the stream, or bring an existing one's configuration up to ``config``."""
    try:
        await js.add_stream(config)
    except BadRequestError:
        await js.update_stream(config)
