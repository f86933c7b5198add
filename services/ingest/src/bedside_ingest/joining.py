"""The rules of joining a folder's tracks into the one recording the player serves, without
I/O (adr/0021): copy the tracks' packets into one file when they share a codec a single file
can hold, else transcode them to AAC; and place the chapters on the joined file's clock.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bedside_ingest.audiobook import Audiobook

COPIED = {"mp3": ("mp3", ".mp3"), "aac": ("ipod", ".m4a")}
"""Codecs whose packets are copied as they are, and the container (FFmpeg's name) and suffix."""
TRANSCODED = ("ipod", ".m4a")
TRANSCODED_CODEC = "aac"
TRANSCODED_CHANNELS = 1
TRANSCODED_BIT_RATE = 64_000
"""A narration in mono AAC at 64 kb/s is clear, and mono encodes in half the time of stereo
(bench/ingest_folder_join.py); every browser plays AAC in an .m4a."""


@dataclass(frozen=True)
class TrackFormat:
    codec: str
    rate: int
    channels: int


@dataclass(frozen=True)
class JoinPlan:
    container: str
    suffix: str
    copy: bool
    rate: int
    channels: int


def join_plan(formats: Sequence[TrackFormat]) -> JoinPlan:
    """Copy when every track has the same codec, rate and channels and the codec is one that
    is copied; otherwise transcode every track to mono at the first one's rate."""
    first = formats[0]
    alike = all(f == first for f in formats)
    if alike and first.codec in COPIED:
        container, suffix = COPIED[first.codec]
        return JoinPlan(container, suffix, True, first.rate, first.channels)
    container, suffix = TRANSCODED
    return JoinPlan(container, suffix, False, first.rate, TRANSCODED_CHANNELS)


def on_joined_clock(audiobook: Audiobook, joined: str, starts_ms: Sequence[int]) -> Audiobook:
    """The audiobook with its chapters placed where each track begins in the joined file, which
    becomes the recording the player serves; chapters are still decoded from their own tracks.

    The joined file's clock is the packets' own (a track's encoder delay and padding included),
    so chapters after many tracks do not drift from the sum of probed lengths."""
    if len(starts_ms) != len(audiobook.files):
        raise ValueError(f"{len(starts_ms)} track starts for {len(audiobook.files)} tracks")
    start_of = dict(zip(audiobook.files, starts_ms, strict=True))
    chapters = tuple(
        replace(chapter, book_start_ms=start_of[chapter.path] + chapter.file_start_ms)
        for chapter in audiobook.chapters
    )
    return replace(audiobook, chapters=chapters, joined=joined)
