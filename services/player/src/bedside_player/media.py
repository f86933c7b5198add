"""A book's recording and cover, from the media bucket when ingest's disk is not this one.

Beside ingest (``bedside up``) the player serves the files where ingest keeps them. A copy on
another machine fetches a file from the bucket the first time a device asks for it, into its own
data directory, and serves that copy from then on (Range requests and all). Devices asking while
it is fetched wait for the one fetch.
"""

import asyncio
import uuid
from pathlib import Path

from bedside_contracts import subjects
from bedside_runtime.bus import Broker
from bedside_runtime.errors import NotFound
from nats.js.errors import BucketNotFoundError, ObjectNotFoundError


class MediaCopies:
    def __init__(self, broker: Broker, folder: Path) -> None:
        self._broker = broker
        self._folder = folder
        self._fetching: dict[str, asyncio.Task[Path]] = {}

    async def path_of(self, name: str) -> Path:
        """This machine's copy of the bucket's file ``name`` (a content hash: it never changes)."""
        path = self._folder / name
        if await asyncio.to_thread(path.is_file):
            return path
        return await asyncio.shield(self._fetched(name, path))  # one device going away stops no other

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
            fetching = asyncio.create_task(self._fetch(name, path))
            self._fetching[name] = fetching
            fetching.add_done_callback(lambda done: self._ended(name, done))
        return fetching

    def _ended(self, name: str, fetch: "asyncio.Task[Path]") -> None:
        self._fetching.pop(name, None)
        if not fetch.cancelled():
            fetch.exception()  # a fetch only warming fails again, and is said, when a device asks

    async def _fetch(self, name: str, path: Path) -> Path:
        try:
            bucket = await self._broker.connection.jetstream().object_store(subjects.MEDIA_BUCKET)
        except BucketNotFoundError:
            raise NotFound("no book's media is stored yet") from None
        await asyncio.to_thread(self._folder.mkdir, parents=True, exist_ok=True)
        partial = path.with_name(f".{name}.{uuid.uuid4().hex}.part")
        try:
            with partial.open("wb") as out:
                await bucket.get(name, writeinto=out)
            partial.replace(path)  # whole or not at all: a fetch cut short leaves no copy behind
        except ObjectNotFoundError:
            raise NotFound(f"the media bucket has no {name}") from None
        finally:
            partial.unlink(missing_ok=True)
        return path
