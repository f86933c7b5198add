"""Which vector store this process uses: a Qdrant server when one is named, else Qdrant Edge."""

from pathlib import Path

from bedside_search.edge_store import EdgeStore
from bedside_search.store import VectorStore


async def open_store(*, path: Path | None = None, url: str | None = None) -> VectorStore:
    """A Qdrant server when ``url`` is given, else Qdrant's engine embedded under ``path``."""
    if url:
        # qdrant-client takes two seconds of CPU to import; the embedded store never needs it
        from bedside_search.server_store import ServerStore  # noqa: PLC0415

        return await ServerStore.open(url=url)
    if path is None:
        raise ValueError("the embedded store needs a directory")
    return EdgeStore.open(path)
