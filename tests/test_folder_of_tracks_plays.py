"""A folder of tracks is one playable recording (adr/0021): ingest joins the tracks into one
file, the player serves it with Range requests, its bytes decode, and each chapter starts where
its track's audio is in the joined file, which is the clock the transcript is on.

Ingest, search and the player run as processes on the test's real nats-server; the tracks are
the sample story spoken by espeak-ng, one mp3 per chapter, named so that name order is not
track order.
"""

import asyncio
import io
from pathlib import Path

import av
import httpx
import nats
import numpy as np
import numpy.typing as npt
import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_tracks
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookReady, IngestBook
from bedside_ingest.client import request_ingest
from bedside_ingest.media import SAMPLE_RATE, decode_span
from bedside_player.listeners import Listeners
from bedside_testing import start_system
from nats.aio.msg import Msg

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

BOOK = "folder-lantern"
MATCH_SAMPLES = SAMPLE_RATE * 2
"""Each track's first two seconds are looked for in the joined recording."""
SEARCH_MS = 500


def decoded(data: bytes) -> npt.NDArray[np.float32]:
    """Bytes as served, decoded to 16 kHz mono."""
    with av.open(io.BytesIO(data), "r") as container:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        pieces = [
            out.to_ndarray().reshape(-1)
            for frame in container.decode(container.streams.audio[0])
            for out in resampler.resample(frame)
        ]
    return np.concatenate(pieces).astype(np.float32)


def lag_ms(whole: npt.NDArray[np.float32], own: npt.NDArray[np.float32], start_ms: int) -> float:
    """Where ``own`` best matches ``whole`` near ``start_ms``, relative to it."""
    at = start_ms * SAMPLE_RATE // 1000
    low = max(0, at - SEARCH_MS * SAMPLE_RATE // 1000)
    window = whole[low : at + SEARCH_MS * SAMPLE_RATE // 1000 + len(own)]
    best = int(np.argmax(np.correlate(window, own, mode="valid")))
    return (low + best - at) * 1000 / SAMPLE_RATE


async def test_a_folder_of_mp3_tracks_plays_as_one_recording(nats_url: str, tmp_path: Path) -> None:
    need_espeak()
    speech = speak_book(sample_chapters(chapters=3, sentences=2))
    tracks = write_tracks(tmp_path / "The Lantern at Gull Point", speech, album="The Lantern at Gull Point")
    system = await asyncio.to_thread(start_system, nats_url, ("ingest", "search", "player"))
    client = await nats.connect(nats_url)
    try:
        ready: asyncio.Queue[BookReady] = asyncio.Queue()

        async def on_ready(message: Msg) -> None:
            await ready.put(BookReady.model_validate_json(message.data))

        await client.subscribe(subjects.BOOK_READY.format(book=BOOK), cb=on_ready)
        report = await request_ingest(client, IngestBook(path=str(tracks[0].parent), book=BOOK))
        while (await asyncio.wait_for(ready.get(), 120)).version != report.version:
            pass
        store = await client.jetstream().object_store(subjects.BOOK_ARTIFACTS_BUCKET)
        artifact = BookArtifact.model_validate_json((await store.get(report.object_name)).data or b"")
        assert artifact.audio_path is not None
        joined = Path(artifact.audio_path)
        assert (joined.parent, joined.suffix) == (system.data_dir / "audio", ".mp3")  # packets copied

        token = await (await Listeners.open(client.jetstream())).create(f"folder-{report.version}")
        async with httpx.AsyncClient(
            base_url=system.http_url, headers={"Authorization": f"Bearer {token}"}, timeout=30
        ) as http:
            assert (await http.get(f"/api/books/{BOOK}")).json()["has_audio"]
            part = await http.get(f"/api/books/{BOOK}/audio", headers={"Range": "bytes=100-1099"})
            whole = await http.get(f"/api/books/{BOOK}/audio")
        size = len(await asyncio.to_thread(joined.read_bytes))
        assert (part.status_code, part.headers["content-range"]) == (206, f"bytes 100-1099/{size}")
        assert part.headers["content-type"] == "audio/mpeg"
        assert part.content == whole.content[100:1100]
        assert whole.status_code == 200
        assert len(whole.content) == size

        samples = decoded(whole.content)
        assert len(samples) * 1000 / SAMPLE_RATE == pytest.approx(artifact.duration_ms, abs=100)
        assert [c.title for c in artifact.chapters] == [c.title for c in speech.chapters]
        lags = []
        for chapter, track in zip(artifact.chapters, tracks, strict=True):
            own = decode_span(track, 0, 2_000)[:MATCH_SAMPLES]
            lags.append(lag_ms(samples, own, chapter.start_ms))
        print(
            f"\n[folder of tracks] chapter starts {[c.start_ms for c in artifact.chapters]}, lags {lags} ms"
        )
        assert all(abs(lag) <= 20 for lag in lags), lags
        for passage in artifact.passages:  # the transcript is on the joined clock, within its chapter
            chapter = artifact.chapters[passage.chapter - 1]
            assert chapter.start_ms <= passage.start_ms <= passage.end_ms <= chapter.end_ms + 50
    finally:
        await client.close()
        system.stop()
