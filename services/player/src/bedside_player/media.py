"""A book's recording and cover, from the media bucket when ingest's disk is not this one.

Beside ingest (``bedside up``) the player serves the files where ingest keeps them. A copy on
another machine fetches a file from the bucket the first time a device asks for it, into its own
data directory, and serves that copy from then on (Range requests and all). Devices asking while
it is fetched are served from the one fetch as its bytes arrive (``arriving.Arriving``), so a
recording of hundreds of megabytes starts playing at once. The copies are kept within a budget
(``BEDSIDE_MEDIA_COPIES_GB``): past it, those played longest ago go, and come again if asked for.
"""

import asyncio
import os
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import structlog
from bedside_contracts import subjects
from bedside_runtime.bus import Broker
from bedside_runtime.errors import NotFound
from nats.js.errors import BucketNotFoundError, ObjectNotFoundError

from bedside_player.arriving import Arriving, ChunkReads, CountingWriter

log = structlog.get_logger("bedside.player.media")


def overflow(copies: Sequence[tuple[str, int, float]], budget_bytes: int, keep: str) -> list[str]:
    """The copies to drop, played longest ago first, for the rest to fit ``budget_bytes``:
    ``copies`` are (name, bytes, last played); the one just fetched (``keep``) always stays."""
    total = sum(size for _, size, _ in copies)
    dropped: list[str] = []
    for name, size, _ in sorted(copies, key=lambda copy: copy[2]):
        if total <= budget_bytes:
            break
        if name != keep:
            dropped.append(name)
            total -= size
    return dropped


class MediaCopies:
    def __init__(self, broker: Broker, folder: Path, budget_bytes: int) -> None:
        self._broker = broker
        self._folder = folder
        self._budget = budget_bytes
        self._fetching: dict[str, asyncio.Task[Path]] = {}
        self._arriving: dict[str, asyncio.Future[Arriving]] = {}

    async def copy_of(self, name: str) -> Path | Arriving:
        """This machine's copy of the bucket's file ``name`` (a content hash: it never changes):
        whole, or being fetched and served as it arrives. A device going away stops no fetch."""
        path = self._folder / name
        if await asyncio.to_thread(_played, path):
            return path
        fetch = self._fetched(name, path)
        arriving = self._arriving[name]
        either: list[asyncio.Future[Any]] = [fetch, arriving]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if fetch.done():
            return fetch.result()
        return arriving.result()

    def warm(self, name: str) -> None:
        """Start fetching ``name`` unless this machine has it: a page that opens a book plays it
        next, and a recording of hundreds of megabytes takes seconds to come."""
        path = self._folder / name
        if not path.is_file():
            self._fetched(name, path)

    def _fetched(self, name: str, path: Path) -> "asyncio.Task[Path]":
        """The one fetch of ``name`` under way, started if none is."""
        fetching = self._fetching.get(name)
        if fetching is None:
            arriving = asyncio.get_running_loop().create_future()
            arriving.add_done_callback(_seen)
            self._arriving[name] = arriving
            fetching = asyncio.create_task(self._fetch(name, path, arriving))
            self._fetching[name] = fetching
            fetching.add_done_callback(lambda done: self._ended(name, done))
        return fetching

    def _ended(self, name: str, fetch: "asyncio.Task[Path]") -> None:
        self._fetching.pop(name, None)
        self._arriving.pop(name, None)
        _seen(fetch)  # a fetch only warming fails again, and is said, when a device asks

    async def _fetch(self, name: str, path: Path, announce: "asyncio.Future[Arriving]") -> Path:
        js = self._broker.connection.jetstream()
        try:
            bucket = await js.object_store(subjects.MEDIA_BUCKET)
            info = await bucket.get_info(name)
        except BucketNotFoundError:
            raise NotFound("no book's media is stored yet") from None
        except ObjectNotFoundError:
            raise NotFound(f"the media bucket has no {name}") from None
        await asyncio.to_thread(self._folder.mkdir, parents=True, exist_ok=True)
        partial = path.with_name(f".{name}.{uuid.uuid4().hex}.part")
        arriving = Arriving(
            partial, path, info.size or 0, await ChunkReads.of(js, subjects.MEDIA_BUCKET, info)
        )
        try:
            with partial.open("wb") as out:
                announce.set_result(arriving)
                await bucket.get(name, writeinto=CountingWriter(out, arriving, asyncio.get_running_loop()))  # type: ignore[arg-type]
            if arriving.arrived != arriving.size:
                raise NotFound(
                    f"the media bucket gave {arriving.arrived} bytes of {name}, not {arriving.size}"
                )
            partial.replace(path)  # whole or not at all: a fetch cut short leaves no copy behind
            await asyncio.to_thread(self._make_room, name)
        except BaseException as error:
            log.warning("media fetch failed", name=name, arrived=arriving.arrived, error=repr(error))
            raise
        finally:
            arriving.end()
            partial.unlink(missing_ok=True)
        return path

    def _make_room(self, fetched: str) -> None:
        """Past the budget, the copies played longest ago go (one being served stays readable to
        its reader: the file is unlinked, not truncated)."""
        copies = [
            (entry.name, (seen := entry.stat()).st_size, seen.st_mtime)
            for entry in self._folder.iterdir()
            if entry.is_file() and not entry.name.startswith(".")
        ]
        for name in overflow(copies, self._budget, fetched):
            (self._folder / name).unlink(missing_ok=True)


def _seen(done: "asyncio.Future[Any]") -> None:
    """Marks an ended future's exception as seen: whoever waits on it is told it anyway."""
    if not done.cancelled():
        done.exception()


def _played(path: Path) -> bool:
    """Whether this machine has the copy; if so it is marked played now, for the budget's order."""
    try:
        os.utime(path)
    except FileNotFoundError:
        return False
    return path.is_file()
