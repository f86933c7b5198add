"""A book there is no room for: refused with the sizes before its bytes are sent, and, when it is
sent all the same, where it reaches the room the first disk keeps free, with nothing of it left
half-written. Made
room for, the same upload is taken.

The player's spool and ingest's uploads folder are each a small real disk (a tmpfs), filled for real.
"""

import asyncio
import shutil
from collections.abc import AsyncIterator

import pytest
from bedside_adding import bucket_objects, device, send_file, split_house
from bedside_contracts import subjects
from bedside_disks import grow, small_disk
from bedside_runtime.nats_server import NatsServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

MB = 10**6
NO_ROOM = "there is not room for the recording where Bedside keeps its books: it is"


async def in_chunks(data: bytes, chunk: int = MB) -> AsyncIterator[bytes]:
    """A body without a Content-Length: its size is known only once it has all arrived."""
    for start in range(0, len(data), chunk):
        yield data[start : start + chunk]


async def test_a_book_there_is_no_room_for_is_refused_with_the_sizes_and_taken_once_there_is(
    own_nats: NatsServer,
) -> None:
    nats_url = own_nats.url  # its own: other tests' uploads share the run's bus, and this counts the bucket
    house = await asyncio.to_thread(split_house, nats_url, ("ingest",))
    spool, taken = house.player.data_dir / "incoming", house.back.data_dir / "uploads"
    try:
        with (
            small_disk(spool, 24),
            small_disk(taken, 12),
        ):  # MiB: 25.2 MB and 12.6 MB, a twentieth of each kept free
            async with await device(house.player, "full") as http:
                # Asked by size, before anything is sent: the player's disk, then ingest's.
                checks = {
                    30 * MB: (507, f"{NO_ROOM} 30 MB"),
                    16 * MB: (507, f"{NO_ROOM} 16 MB"),
                    8 * MB: (200, ""),
                }
                for size, (status, said) in checks.items():
                    checked = await http.post(
                        "/api/uploads/check", json={"recording": "Book.m4b", "recording_bytes": size}
                    )
                    detail = checked.json().get("detail", "")
                    assert (checked.status_code, detail[: len(said)]) == (status, said), checked.text
                both = {
                    "recording": "Book.m4b",
                    "recording_bytes": 8 * MB,
                    "ebook": "Book.epub",
                    "ebook_bytes": 4 * MB,
                }
                too_big = {"recording": "Book.m4b", "recording_bytes": 5 * 10**9}
                checked = await http.post("/api/uploads/check", json=too_big)
                assert (checked.status_code, checked.json()["detail"]) == (
                    422,
                    "the recording is 5.0 GB; Bedside takes files of up to 4.3 GB",
                )
                checked = await http.post("/api/uploads/check", json=both)
                assert checked.status_code == 507, checked.text
                assert checked.json()["detail"].startswith(
                    NO_ROOM.replace("the recording", "the recording and its e-book") + " 12 MB"
                )

                # Sent anyway, with its size: refused before the body is read.
                big = bytes(30 * MB)
                refused = await http.post("/api/uploads", params={"filename": "Big.mp3"}, content=big)
                assert refused.status_code == 507, refused.text
                assert "it is 30 MB" in refused.json()["detail"]
                # Sent without one: stopped where it would eat into the room kept free, not when the
                # disk has filled (the bus, writing there too, stops at a full disk); the half-written
                # file goes.
                refused = await http.post(
                    "/api/uploads", params={"filename": "Big.mp3"}, content=in_chunks(big)
                )
                assert refused.status_code == 507, refused.text
                detail = refused.json()["detail"]
                assert detail.startswith(
                    "there is not room for this file where Bedside keeps its books: it is more than the"
                ), detail
                assert detail.endswith(" MB free there"), detail
                assert shutil.disk_usage(spool).used < MB  # the spool file is unnamed: its room is the sign
                assert await bucket_objects(nats_url, subjects.UPLOADS_BUCKET) == []

                # Room at the player, none at ingest for the recording and its e-book together:
                # both wait in the bucket for room, and nothing of them is taken.
                sent = {
                    "recording": await send_file(http, "Noise.mp3", bytes(range(256)) * (32 * 1024)),
                    "ebook": await send_file(http, "Noise.txt", b"Words. " * 1_200_000),
                }
                uploads = sorted(sent[part]["upload"] for part in sent)
                refused = await http.post("/api/books/added", json=sent)
                assert refused.status_code == 507, refused.text
                assert refused.json()["detail"] == (
                    "there is not room for the recording and its e-book where Bedside keeps its books:"
                    " it is 17 MB and 12 MB is free there"  # 8,388,608 + 8,400,000 bytes
                )
                assert list(taken.iterdir()) == []
                assert sorted(await bucket_objects(nats_url, subjects.UPLOADS_BUCKET)) == uploads

                grow(taken, 64)
                started = await http.post("/api/books/added", json=sent)
                assert started.status_code == 202, started.text
                assert await bucket_objects(nats_url, subjects.UPLOADS_BUCKET) == []
                job = await http.get(f"/api/books/added/{started.json()['job']}")
                assert job.status_code == 200, job.text
    finally:
        await asyncio.to_thread(house.stop)
