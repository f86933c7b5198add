"""How long a browser waits to play a book first opened on a player away from ingest.

``.venv/bin/python -m bench.player_first_play_browser [MINUTES]``

An m4b of noise (320 kbit/s AAC, 30 minutes unless given) written by PyAV as ffmpeg writes one
by default: its index (``moov``) after the audio, so a browser must read the file's end before it
can play. The recording is only in the media bucket, as on a machine other than ingest's. Debian's
chromium opens the audio route in an ``<audio>`` element and the time to its ``canplay`` event is
measured, three rounds, each on a book not yet fetched; beside it, in the same run, the same
element on the same file once the player has it whole (the floor: what a copy on disk gives).
"""

import statistics
import sys
import tempfile
from hashlib import sha256
from pathlib import Path

import av
import numpy as np
from bedside_ingest.media_bucket import MediaBucket
from bedside_lan_testing import CHROMIUM, CHROMIUM_ARGS
from bedside_player_testing import SyntheticBook
from bedside_testing import until
from playwright.async_api import Page, async_playwright

from bench.player_common import Bench
from bench.report import Figure, report, run

MINUTES = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
ROUNDS = 3
RATE = 44_100
CAN_PLAY = """(url) => new Promise((resolve, reject) => {
  const started = performance.now();
  const audio = new Audio();
  audio.preload = "auto";
  audio.oncanplay = () => resolve(performance.now() - started);
  audio.onerror = () => reject(new Error(`the audio element failed: ${audio.error && audio.error.code}`));
  audio.src = url;
})"""


def noise_m4b(path: Path, minutes: float, seed: int) -> Path:
    """Noise as an AAC m4b with its index at the end (PyAV's mp4 muxer, no faststart)."""
    noise = np.random.default_rng(seed)
    with av.open(str(path), "w", format="mp4") as out:
        stream = out.add_stream("aac", rate=RATE, layout="stereo")
        stream.bit_rate = 320_000
        samples = round(minutes * 60 * RATE)
        for start in range(0, samples, RATE):
            block = (noise.standard_normal((2, min(RATE, samples - start))) * 0.1).astype(np.float32)
            frame = av.AudioFrame.from_ndarray(block, format="fltp", layout="stereo")
            frame.sample_rate = RATE
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    with path.open("rb") as written:
        head = written.read(64)
    assert b"moov" not in head, "the index must come after the audio"
    return path


async def can_play_ms(page: Page, url: str) -> float:
    waited: float = await page.evaluate(CAN_PLAY, url)
    return waited


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bedside-bench-m4b-"))
    recordings = [noise_m4b(folder / f"book{k}.m4b", MINUTES, k) for k in range(ROUNDS)]
    names = [f"{sha256(path.read_bytes()).hexdigest()[:32]}.m4b" for path in recordings]
    megabytes = statistics.fmean(path.stat().st_size for path in recordings) / 1e6
    books = [SyntheticBook("b1")] + [
        SyntheticBook(f"m{k}", audio_path="/elsewhere/book.m4b", audio_object=name)
        for k, name in enumerate(names)
    ]
    bench = await Bench(books=books).start()
    try:
        media = await MediaBucket.declare(bench.nc.jetstream(), 1)
        for name, path in zip(names, recordings, strict=True):
            await media.ensure(name, path)
        ((_, token),) = await bench.listeners(1, "browser")
        first_ms: list[float] = []
        whole_ms: list[float] = []
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            context = await browser.new_context(extra_http_headers={"Authorization": f"Bearer {token}"})
            for book in books[1:]:
                url = f"{bench.url}/api/books/{book.id}/audio"
                page = await context.new_page()
                await page.goto(f"{bench.url}/icon.svg")  # a page of the player's own origin
                first_ms.append(await can_play_ms(page, url))
                await page.close()
                copy = bench.data_dir / "media" / str(book.audio_object)
                await until(copy.exists, timeout_s=300)  # the fetch the first play started, ended
                page = await context.new_page()
                await page.goto(f"{bench.url}/icon.svg")
                whole_ms.append(await can_play_ms(page, url))
                await page.close()
            await browser.close()
        rounded = [[round(ms) for ms in each] for each in (first_ms, whole_ms)]
        print(
            f"{megabytes:.0f} MB m4b, index at the end, canplay: first {rounded[0]} ms, whole {rounded[1]} ms"
        )
        report(
            [
                Figure(
                    f"canplay of a {megabytes:.0f} MB m4b indexed at its end, first opened away from ingest",
                    statistics.median(first_ms),
                    "ms",
                    floor=statistics.median(whole_ms),
                    floor_unit="ms",
                )
            ]
        )
    finally:
        await bench.stop()


if __name__ == "__main__":
    run(main())
