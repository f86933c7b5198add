"""A file sent by a device, put into the uploads bucket: refused in words when the bus has no room
for it, leaving nothing behind, and the bus goes on storing what fits.

The bus is a real nats-server whose store is on a small real disk (a tmpfs of 16 MiB): JetStream
sets its limit from that disk when it starts, and refuses a message past it.
"""

from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from bedside_contracts import subjects
from bedside_disks import small_disk
from bedside_player.uploads import store_upload
from bedside_runtime.errors import NoRoom
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from bedside_runtime.streams import object_bucket

MB = 1024**2


async def body_of(size: int) -> AsyncIterator[bytes]:
    for _ in range(size // MB):
        yield bytes(MB)


async def test_a_file_the_bus_has_no_room_for_is_refused_and_the_bus_stores_on(tmp_path: Path) -> None:
    with small_disk(tmp_path / "bus", 16):
        config = NatsServerConfig(
            store_dir=tmp_path / "bus" / "store", port=free_port(), monitor_port=free_port(), name="full"
        )
        server = NatsServer(config).start()
        try:
            client = await nats.connect(f"nats://127.0.0.1:{config.port}")
            js = client.jetstream()
            bucket = await object_bucket(js, subjects.UPLOADS_BUCKET, "test", 1)
            spool = tmp_path / "spool"
            with pytest.raises(NoRoom) as refused:
                await store_upload(js, spool, "Big.mp3", body_of(30 * MB), 30 * MB)
            assert refused.value.message == (
                "there is not room for this file where Bedside keeps its books: the bus's store is full"
            )
            with pytest.raises(nats.js.errors.NotFoundError):  # nats-py's word for an empty bucket
                await bucket.list()
            sent = await store_upload(js, spool, "Small.mp3", body_of(4 * MB), 4 * MB)
            assert (await bucket.get(sent.upload)).data == bytes(4 * MB)
            await client.close()
        finally:
            server.stop()
