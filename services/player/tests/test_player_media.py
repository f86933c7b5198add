"""A player's copies of the media bucket's files: one fetch each, whole, kept within a budget,
read as they arrive and ahead of the fetch (``media``, ``arriving``), on the test's real nats-server."""

import asyncio
import io
import os
import uuid
from pathlib import Path

import httpx
import pytest
from bedside_contracts import subjects
from bedside_player.arriving import AHEAD_BYTES, Arriving, ChunkReads, FetchFailed
from bedside_player.media import MediaCopies, overflow
from bedside_player.routes.served_media import media_response
from bedside_runtime.bus import Broker
from bedside_runtime.errors import NotFound
from bedside_runtime.streams import object_bucket
from bedside_testing import until
from fastapi import FastAPI, Request, Response


async def whole(copies: MediaCopies, name: str) -> Path:
    """The copy of ``name`` once it is whole on disk."""
    served = await copies.copy_of(name)
    if isinstance(served, Path):
        return served
    await until(served.path.is_file)
    return served.path


def test_the_copies_played_longest_ago_go_first_and_the_one_fetched_stays() -> None:
    copies = [("a", 100, 3.0), ("b", 100, 1.0), ("c", 100, 2.0), ("new", 100, 0.5)]
    assert overflow(copies, 400, "new") == []
    assert overflow(copies, 250, "new") == ["b", "c"]  # "new" is oldest by its time, yet stays
    assert overflow(copies, 50, "new") == ["b", "c", "a"]  # alone and still over: it stays anyway
    assert overflow([], 0, "new") == []


async def test_a_file_is_fetched_once_whole_and_the_budget_keeps_what_was_played_last(
    nats_url: str, tmp_path: Path
) -> None:
    broker = Broker([nats_url], "media-test")
    await broker.connect()
    try:
        bucket = await object_bucket(broker.connection.jetstream(), subjects.MEDIA_BUCKET, "test", 1)
        names = {key: f"{uuid.uuid4().hex}.mp3" for key in "abc"}
        for key, name in names.items():
            await bucket.put(name, io.BytesIO(key.encode() * 100))
        folder = tmp_path / "media"
        copies = MediaCopies(broker, folder, budget_bytes=250)

        # Many devices asking at once: one fetch, one copy.
        served = await asyncio.gather(*(copies.copy_of(names["a"]) for _ in range(5)))
        assert len({id(each) for each in served}) == 1
        path = await whole(copies, names["a"])
        assert path == folder / names["a"]
        assert path.read_bytes() == b"a" * 100
        assert [p.name for p in folder.iterdir()] == [names["a"]]  # no part left behind
        assert await copies.copy_of(names["a"]) == path  # whole now: the file itself

        await whole(copies, names["b"])
        await asyncio.sleep(0.01)
        await whole(copies, names["a"])  # played again: now b was played longest ago
        await whole(copies, names["c"])
        await until(lambda: len(list(folder.iterdir())) == 2)
        assert sorted(p.name for p in folder.iterdir()) == sorted([names["a"], names["c"]])

        assert (await whole(copies, names["b"])).read_bytes() == b"b" * 100  # fetched again
        with pytest.raises(NotFound):
            await copies.copy_of(f"{uuid.uuid4().hex}.mp3")
        assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    finally:
        await broker.connection.close()


async def test_a_file_is_read_as_it_arrives(nats_url: str, tmp_path: Path) -> None:
    """A recording of hundreds of megabytes plays before its fetch ends: a reader of the copy
    gets each byte once it is on disk, and the bytes are the file's."""
    broker = Broker([nats_url], "media-test")
    await broker.connect()
    try:
        bucket = await object_bucket(broker.connection.jetstream(), subjects.MEDIA_BUCKET, "test", 1)
        name = f"{uuid.uuid4().hex}.m4b"
        sent = os.urandom(48 * 1024 * 1024)
        await bucket.put(name, io.BytesIO(sent))
        copies = MediaCopies(broker, tmp_path / "media", budget_bytes=10**9)

        served = await copies.copy_of(name)
        assert isinstance(served, Arriving)
        assert served.size == len(sent)
        with served.open() as source:
            first = await served.read(source, 0, len(sent))
            assert 0 < len(first) < len(sent)  # what is on disk, before the rest is
            read = [first]
            while (at := sum(map(len, read))) < len(sent):
                read.append(await served.read(source, at, len(sent) - at))
        assert b"".join(read) == sent
        assert (await whole(copies, name)).read_bytes() == sent
    finally:
        await broker.connection.close()


async def answers_of(served: Path | Arriving) -> dict[str, httpx.Response]:
    """What a device gets from ``served``: the file, a range of it, its tail, and past its end."""
    app = FastAPI()

    @app.get("/audio")
    async def audio(request: Request) -> Response:
        return await media_response(served, request.headers, "audio/mp4")

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://player") as http:
        asked = {"tail": "bytes=-1000", "part": "bytes=1000-1999", "whole": None}
        answers = await asyncio.gather(
            *(http.get("/audio", headers={"Range": header} if header else {}) for header in asked.values())
        )
        past = await http.get("/audio", headers={"Range": f"bytes={SIZE}-"})
    return {**dict(zip(asked, answers, strict=True)), "past": past}


def assert_served_as_a_device_reads_it(answers: dict[str, httpx.Response], sent: bytes) -> None:
    whole, part, tail, past = (answers[k] for k in ("whole", "part", "tail", "past"))
    assert (whole.status_code, whole.content) == (200, sent)
    assert whole.headers["content-length"] == str(len(sent))
    assert whole.headers["accept-ranges"] == "bytes"
    assert whole.headers["content-type"] == "audio/mp4"
    assert (part.status_code, part.content) == (206, sent[1000:2000])
    assert part.headers["content-range"] == f"bytes 1000-1999/{len(sent)}"
    assert (tail.status_code, tail.content) == (206, sent[-1000:])
    assert (past.status_code, past.headers["content-range"]) == (416, f"bytes */{len(sent)}")


SIZE = 24 * 1024 * 1024 + 123


async def test_a_file_arriving_is_served_whole_or_by_range(nats_url: str, tmp_path: Path) -> None:
    """What a device gets while the fetch is under way: the file, a range of it, its tail, and
    416 past its end, each with the headers an audio element reads."""
    broker = Broker([nats_url], "media-test")
    await broker.connect()
    try:
        bucket = await object_bucket(broker.connection.jetstream(), subjects.MEDIA_BUCKET, "test", 1)
        name = f"{uuid.uuid4().hex}.m4b"
        sent = os.urandom(SIZE)
        await bucket.put(name, io.BytesIO(sent))
        served = await MediaCopies(broker, tmp_path / "media", budget_bytes=10**9).copy_of(name)
        assert isinstance(served, Arriving)
        assert_served_as_a_device_reads_it(await answers_of(served), sent)
    finally:
        await broker.connection.close()


async def test_a_whole_file_is_served_the_same_way(tmp_path: Path) -> None:
    sent = os.urandom(SIZE)
    (whole := tmp_path / "book.m4b").write_bytes(sent)
    assert_served_as_a_device_reads_it(await answers_of(whole), sent)


@pytest.mark.parametrize("tag", ['"0123456789abcdef0123456789abcdef.m4b"', None])
async def test_a_device_keeps_its_copy_while_it_is_the_books_and_never_joins_two_recordings(
    tmp_path: Path, tag: str | None
) -> None:
    """A cover or recording already on the device is answered 304; a range asked "if it is still
    the file I hold" is sent only when it is, else the whole file (the book's address stays when
    it is ingested again with another recording). A file on disk without a media name is tagged
    weakly, which never joins ranges."""
    sent = os.urandom(4096)
    (whole := tmp_path / "book.m4b").write_bytes(sent)
    app = FastAPI()

    @app.get("/audio")
    async def audio(request: Request) -> Response:
        return await media_response(whole, request.headers, "audio/mp4", tag)

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://player") as http:
        first = await http.get("/audio")
        held = first.headers["etag"]
        again = await http.get("/audio", headers={"If-None-Match": held})
        same = await http.get("/audio", headers={"Range": "bytes=100-199", "If-Range": held})
        other = await http.get("/audio", headers={"Range": "bytes=100-199", "If-Range": '"another"'})
    assert (first.status_code, first.headers["cache-control"]) == (200, "no-cache")
    assert held == tag or (tag is None and held.startswith('W/"'))
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", held)
    assert (other.status_code, other.content) == (200, sent)
    if tag is None:
        assert (same.status_code, same.content) == (200, sent)
    else:
        assert (same.status_code, same.content) == (206, sent[100:200])


async def test_bytes_far_ahead_of_the_fetch_are_read_from_the_bucket(nats_url: str, tmp_path: Path) -> None:
    """A seek far ahead, or the index an m4b keeps at its end, is served at once from the chunk
    that holds it, where the object's chunks lie together; near bytes wait for the fetch."""
    broker = Broker([nats_url], "media-test")
    await broker.connect()
    try:
        js = broker.connection.jetstream()
        bucket = await object_bucket(js, subjects.MEDIA_BUCKET, "test", 1)
        name = f"{uuid.uuid4().hex}.m4b"
        sent = os.urandom(AHEAD_BYTES + 3 * 128 * 1024 + 77)
        await bucket.put(name, io.BytesIO(sent))
        chunks = await ChunkReads.of(js, subjects.MEDIA_BUCKET, await bucket.get_info(name))
        assert chunks is not None
        partial = tmp_path / "copy.part"
        partial.touch()
        arriving = Arriving(partial, tmp_path / "copy", len(sent), chunks)  # no fetch: nothing arrives
        with arriving.open() as source:
            for offset, most in [(len(sent) - 77, 1000), (AHEAD_BYTES + 5, 300_000), (len(sent) - 1, 1)]:
                data = await arriving.read(source, offset, most)
                assert data == sent[offset : offset + len(data)]
                assert data  # no further than its chunk's end, and never nothing
            near = asyncio.create_task(arriving.read(source, 10, 100))
            await asyncio.sleep(0.05)
            assert not near.done()  # the fetch brings these
            arriving.end()
            with pytest.raises(FetchFailed):
                await near

        # A read ahead that fails leaves the bytes to the fetch.
        elsewhere = ChunkReads(js, f"OBJ_{subjects.MEDIA_BUCKET}", "$O.elsewhere", 1, 128 * 1024)
        waiting = Arriving(partial, tmp_path / "copy", len(sent), elsewhere)
        with waiting.open() as source:
            tail = asyncio.create_task(waiting.read(source, len(sent) - 1, 1))
            await asyncio.sleep(0.05)
            assert not tail.done()
            waiting.end()
            with pytest.raises(FetchFailed):
                await tail

        # Two objects put at once interleave their chunks: no reads ahead of the fetch for them.
        names = [f"{uuid.uuid4().hex}.mp3" for _ in range(2)]
        await asyncio.gather(*(bucket.put(n, io.BytesIO(os.urandom(2 * 1024 * 1024))) for n in names))
        interleaved = [
            await ChunkReads.of(js, subjects.MEDIA_BUCKET, await bucket.get_info(n)) for n in names
        ]
        assert interleaved == [None, None]
    finally:
        await broker.connection.close()
