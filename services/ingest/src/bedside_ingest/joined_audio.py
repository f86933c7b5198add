"""A thin adapter over PyAV: a folder's tracks joined into one file under ingest's data
directory, by copying packets or by transcoding (the choice is ``joining.join_plan``).

The file is named by the recording's fingerprint and written under a temporary name, then
renamed, with the tracks' starts beside it: a job resumed after a kill joins again only if
the join itself did not finish.
"""

import json
import os
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import av
from bedside_runtime.errors import NoRoom
from bedside_runtime.room import ensure_room, written_or_no_room

from bedside_ingest.audiobook import Audiobook
from bedside_ingest.errors import BadInput
from bedside_ingest.joining import (
    TRANSCODED_BIT_RATE,
    TRANSCODED_CODEC,
    JoinPlan,
    TrackFormat,
    join_plan,
    on_joined_clock,
)
from bedside_ingest.transcribe import audio_fingerprint

JOINED = "the recording's tracks joined as one"
"""How a refusal for want of room names the file this module writes."""
JOINED_KEY = "joined tracks on one clock"
"""What the fingerprint of a joined file is taken with (in place of a model's name); changed when a
file joined before must not be taken again."""


def track_format(path: Path) -> TrackFormat:
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        codec = stream.codec_context.codec.canonical_name  # "mp3", not the decoder's "mp3float"
        return TrackFormat(codec, stream.rate or 0, stream.channels or 1)


def _copy(paths: Sequence[Path], out: Path, plan: JoinPlan) -> list[int]:
    """Each track's packets after the last one's, on one clock: the starts in ms."""
    starts: list[int] = []
    with av.open(str(out), "w", format=plan.container) as joined:
        stream = None
        offset = Fraction(0)  # seconds
        for path in paths:
            with av.open(str(path)) as track:
                source = track.streams.audio[0]
                if stream is None:
                    stream = joined.add_stream_from_template(source)
                starts.append(round(offset * 1000))
                base: int | None = None
                end = Fraction(0)
                for packet in track.demux(source):
                    if packet.pts is None or packet.time_base is None:
                        continue  # the demuxer's flush packet
                    base = packet.pts if base is None else base
                    at = (packet.pts - base) * packet.time_base
                    end = max(end, at + (packet.duration or 0) * packet.time_base)
                    packet.pts = packet.dts = round((offset + at) / packet.time_base)
                    packet.stream = stream
                    joined.mux(packet)
                offset += end
    return starts


def _transcode(paths: Sequence[Path], out: Path, plan: JoinPlan) -> list[int]:
    """Each track decoded and encoded after the last one: the starts in ms, counted in samples."""
    layout = "mono" if plan.channels == 1 else "stereo"
    starts: list[int] = []
    with av.open(str(out), "w", format=plan.container) as joined:
        stream = joined.add_stream(TRANSCODED_CODEC, rate=plan.rate, layout=layout)
        assert isinstance(stream, av.AudioStream)
        stream.bit_rate = TRANSCODED_BIT_RATE
        resampler = av.AudioResampler(format="fltp", layout=layout, rate=plan.rate, frame_size=1024)
        written = 0
        for path in paths:
            starts.append(round(written * 1000 / plan.rate))
            with av.open(str(path)) as track:
                frames = [*track.decode(track.streams.audio[0]), None]
                for frame in frames:
                    for piece in resampler.resample(frame):
                        # counted in samples on the joined clock, not its track's time base
                        piece.pts, piece.time_base = written, Fraction(1, plan.rate)
                        written += piece.samples
                        for packet in stream.encode(piece):
                            joined.mux(packet)
            resampler = av.AudioResampler(format="fltp", layout=layout, rate=plan.rate, frame_size=1024)
        for packet in stream.encode(None):
            joined.mux(packet)
    return starts


def join_tracks(paths: Sequence[Path], out: Path) -> tuple[Path, list[int]]:
    """The tracks as one file at ``out`` (its suffix the plan's); and where each track starts."""
    plan = join_plan([track_format(p) for p in paths])
    if plan.copy:  # the tracks' packets, laid end to end: their size again (a transcoding is far less)
        ensure_room(out.parent, JOINED, sum(p.stat().st_size for p in paths))
    final = out.with_suffix(plan.suffix)
    partial = final.with_name(final.name + ".partial")
    try:
        with written_or_no_room(JOINED):
            starts = (_copy if plan.copy else _transcode)(paths, partial, plan)
    except NoRoom:
        partial.unlink(missing_ok=True)
        raise
    except av.FFmpegError as error:
        partial.unlink(missing_ok=True)
        raise BadInput(paths[0].parent, f"its tracks cannot be joined into one recording: {error}") from None
    os.replace(partial, final)
    return final, starts


def keep_joined(audiobook: Audiobook, folder: Path) -> Audiobook:
    """A folder's audiobook with its tracks joined once under ``folder`` (a single file as it is)."""
    if len(audiobook.files) == 1:
        return audiobook
    name = folder / audio_fingerprint(audiobook, JOINED_KEY)
    starts_file = name.with_suffix(".starts.json")
    if starts_file.exists():
        kept = json.loads(starts_file.read_text())
        if Path(kept["path"]).exists():
            return on_joined_clock(audiobook, kept["path"], kept["starts_ms"])
    folder.mkdir(parents=True, exist_ok=True)
    joined, starts = join_tracks([Path(f) for f in audiobook.files], name)
    partial = starts_file.with_name(starts_file.name + ".partial")
    partial.write_text(json.dumps({"path": str(joined), "starts_ms": starts}))
    os.replace(partial, starts_file)
    return on_joined_clock(audiobook, str(joined), starts)
