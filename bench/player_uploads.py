"""A book's file crossing machines through the bus, each way beside nats-py's object store alone.

``.venv/bin/python -m bench.player_uploads [MEGABYTES]``

One player on its own bus (Bedside's nats-server config: fsync before every ack), on a data
directory where no book's recording is, as on a machine other than ingest's. Files of random
bytes (64 MB unless given), three rounds, each time alternating with its floor:
- in: a file sent to ``POST /api/uploads`` from one client on a keep-alive connection, beside
  the same bytes put into the same bucket from this process (the upload's extra is the spool,
  the body written to the player's disk and read back, and HTTP);
- out: the first ``GET /api/books/{book}/audio`` of a book whose recording is only in the media
  bucket (served as it is fetched to the player's disk), beside the same reads from this
  process: its last megabyte asked for first (what a browser reads of an m4b indexed at its
  end; direct gets of its chunks), then the whole file to its first bytes (what a listener
  waits before it plays) and to its last (a get into a file).
"""

import io
import os
import statistics
import sys
import tempfile
import time
import uuid
from hashlib import sha256
from pathlib import Path
from typing import NamedTuple

import httpx
from bedside_contracts import subjects
from bedside_ingest.media_bucket import MediaBucket
from bedside_ingest.uploads import Uploads
from bedside_player.arriving import ChunkReads
from bedside_player_testing import SyntheticBook

from bench.player_common import Bench
from bench.report import Figure, report, run

MEGABYTES = int(sys.argv[1]) if len(sys.argv) > 1 else 64
ROUNDS = 3
TAIL_BYTES = 1_000_000


class FirstWriteTimed:
    """A file the bucket writes into, noting when its first bytes came."""

    def __init__(self, out: io.BufferedWriter) -> None:
        self.out = out
        self.first: float | None = None

    def write(self, data: bytes) -> int:
        self.first = self.first or time.perf_counter()
        return self.out.write(data)


class Timings(NamedTuple):
    tail: float  # the last megabyte, asked for first, as a browser reads an m4b indexed at its end
    first: float  # the first bytes of the whole file
    last: float  # the last bytes of the whole file


def median_of(rounds: list[Timings]) -> Timings:
    return Timings(*(statistics.median(getattr(each, field) for each in rounds) for field in Timings._fields))


async def first_plays(
    bench: Bench, http: httpx.AsyncClient, recordings: list[bytes]
) -> tuple[Timings, Timings]:
    """Median seconds of a book's first play from the media bucket, and of the same reads of it
    from this process (direct gets of the tail's chunks, then a bare get)."""
    js = bench.nc.jetstream()
    media = await MediaBucket.declare(js, 1)
    bucket = await js.object_store(subjects.MEDIA_BUCKET)
    played: list[Timings] = []
    got: list[Timings] = []
    with tempfile.TemporaryDirectory() as folder:
        for book, data in zip(bench.books[1:], recordings, strict=True):
            assert book.audio_object is not None
            kept = Path(folder) / book.audio_object
            kept.write_bytes(data)
            await media.ensure(book.audio_object, kept)
            audio = f"/api/books/{book.id}/audio"
            started = time.perf_counter()
            tail = await http.get(audio, headers={"Range": f"bytes=-{TAIL_BYTES}"})
            tail_s = time.perf_counter() - started
            assert (tail.status_code, tail.content) == (206, data[-TAIL_BYTES:])
            started = time.perf_counter()
            first: float | None = None
            received = 0
            async with http.stream("GET", audio) as whole:
                assert whole.status_code == 200
                async for part in whole.aiter_raw():
                    first = first or time.perf_counter()
                    received += len(part)
            assert first is not None
            assert received == len(data)
            played.append(Timings(tail_s, first - started, time.perf_counter() - started))

            started = time.perf_counter()
            chunks = await ChunkReads.of(js, subjects.MEDIA_BUCKET, await bucket.get_info(book.audio_object))
            assert chunks is not None
            at = len(data) - TAIL_BYTES
            while at < len(data):
                at += len(await chunks.read(at, len(data) - at))
            tail_s = time.perf_counter() - started
            started = time.perf_counter()
            with (Path(folder) / "got").open("wb") as out:
                timed = FirstWriteTimed(out)
                await bucket.get(book.audio_object, writeinto=timed)  # type: ignore[arg-type]
            assert timed.first is not None
            got.append(Timings(tail_s, timed.first - started, time.perf_counter() - started))
    for what, times in (("first play", played), ("from this process", got)):
        print(
            f"{MEGABYTES} MB {what}: "
            + ", ".join(f"{k} {[round(getattr(t, k), 3) for t in times]} s" for k in Timings._fields)
        )
    return median_of(played), median_of(got)


async def main() -> None:
    recordings = [os.urandom(MEGABYTES * 1_000_000) for _ in range(ROUNDS)]
    books = [SyntheticBook("b1")] + [
        SyntheticBook(
            f"m{k}", audio_path="/elsewhere/book.m4b", audio_object=f"{sha256(data).hexdigest()[:32]}.m4b"
        )
        for k, data in enumerate(recordings)
    ]
    bench = await Bench(books=books).start()
    try:
        await Uploads.declare(bench.nc.jetstream(), 1, bench.data_dir / "ingest-uploads")
        bucket = await bench.nc.jetstream().object_store(subjects.UPLOADS_BUCKET)
        ((_, token),) = await bench.listeners(1, "uploader")
        data = os.urandom(MEGABYTES * 1_000_000)
        sent_s: list[float] = []
        put_s: list[float] = []
        async with httpx.AsyncClient(
            base_url=bench.url, headers={"Authorization": f"Bearer {token}"}, timeout=600
        ) as http:
            for _ in range(ROUNDS):
                started = time.perf_counter()
                reply = await http.post("/api/uploads", params={"filename": "book.m4b"}, content=data)
                sent_s.append(time.perf_counter() - started)
                assert reply.status_code == 201, reply.text
                await bucket.delete(reply.json()["upload"])
                started = time.perf_counter()
                await bucket.put(uuid.uuid4().hex, io.BytesIO(data))
                put_s.append(time.perf_counter() - started)
            played, got = await first_plays(bench, http, recordings)
        sent, put = statistics.median(sent_s), statistics.median(put_s)
        rounded = [[round(s, 2) for s in times] for times in (sent_s, put_s)]
        print(f"{MEGABYTES} MB: upload over HTTP {rounded[0]} s, put {rounded[1]} s")
        report(
            [
                Figure(
                    f"upload of {MEGABYTES} MB over HTTP, median of {ROUNDS}",
                    sent,
                    "s",
                    floor=put,
                    floor_unit="s",
                ),
                Figure(
                    "upload rate over HTTP",
                    MEGABYTES / sent,
                    "MB/s",
                    floor=MEGABYTES / put,
                    floor_unit="MB/s",
                ),
                *(
                    Figure(
                        f"first play of {MEGABYTES} MB from the media bucket: {what}",
                        getattr(played, field),
                        "s",
                        floor=getattr(got, field),
                        floor_unit="s",
                    )
                    for field, what in (
                        ("tail", "its last MB asked for first"),
                        ("first", "its first bytes"),
                        ("last", "its last bytes"),
                    )
                ),
            ]
        )
    finally:
        await bench.stop()


if __name__ == "__main__":
    run(main())
