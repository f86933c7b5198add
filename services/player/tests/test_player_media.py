"""A player's copies of the media bucket's files: one fetch each, whole, kept within a budget
(``media.MediaCopies``, ``media.overflow``), on the test's real nats-server."""

import asyncio
import io
import uuid
from pathlib import Path

import pytest
from bedside_contracts import subjects
from bedside_player.media import MediaCopies, overflow
from bedside_runtime.bus import Broker
from bedside_runtime.errors import NotFound
from bedside_runtime.streams import object_bucket


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
        paths = await asyncio.gather(*(copies.path_of(names["a"]) for _ in range(5)))
        assert set(paths) == {folder / names["a"]}
        assert paths[0].read_bytes() == b"a" * 100
        assert [p.name for p in folder.iterdir()] == [names["a"]]  # no part left behind

        await copies.path_of(names["b"])
        await asyncio.sleep(0.01)
        await copies.path_of(names["a"])  # played again: now b was played longest ago
        await copies.path_of(names["c"])
        assert sorted(p.name for p in folder.iterdir()) == sorted([names["a"], names["c"]])

        assert (await copies.path_of(names["b"])).read_bytes() == b"b" * 100  # fetched again
        with pytest.raises(NotFound):
            await copies.path_of(f"{uuid.uuid4().hex}.mp3")
        assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    finally:
        await broker.connection.close()
