"""A thin adapter over PyAV (FFmpeg's libraries, bundled in its wheel): probing audio files for
length, chapter markers and tags, and decoding one stretch of a file to 16 kHz mono floats.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import av
import mutagen
import numpy as np
import numpy.typing as npt
import structlog
from av.audio.frame import AudioFrame
from av.audio.stream import AudioStream
from av.container import InputContainer
from bedside_guard import clock

from bedside_ingest.accepted import is_audio_name, refuse_unreadable_audio
from bedside_ingest.audiobook import (
    IMAGE_TYPES,
    Audiobook,
    Marker,
    TrackInfo,
    audiobook_of,
    cover_file,
)
from bedside_ingest.errors import BadInput
from bedside_ingest.folders import files_in
from bedside_ingest.pieces import PIECE_S, cut_index

log = structlog.get_logger("bedside.ingest")

SAMPLE_RATE = 16_000
"""What Whisper listens at."""
LAST_MOMENT_MS = 1_500
"""How far before the end its header gives a track's audio is read to find where it really ends."""
CUT_SHORT_MS = 2_000
"""Audio that ends this much before the length its file says is cut short (encoders pad less)."""
STORED_END_STEP_MS = 250
"""How near the end of the audio a file holds is found when its index names more."""


def _open(path: Path) -> InputContainer:
    try:
        container = av.open(str(path), "r")
    except OSError as error:  # the system's words are the listener's to act on: "Permission denied"
        raise BadInput(path, f"cannot be read as audio: {error.strerror or error}") from None
    except (av.FFmpegError, UnicodeDecodeError) as error:
        # FFmpeg's words ("Invalid data found when processing input") tell a listener nothing.
        log.info("unreadable audio", path=str(path), error=str(error))
        raise BadInput(path, "cannot be read as audio: it is damaged, cut short, or not audio") from None
    if not container.streams.audio:
        container.close()
        raise BadInput(path, "has no audio stream")
    return container


def probe(path: Path) -> TrackInfo:
    with _open(path) as container:
        stream = container.streams.audio[0]
        duration_us = container.duration
        if duration_us is None and stream.duration is not None and stream.time_base is not None:
            duration_us = round(float(stream.duration * stream.time_base) * 1_000_000)
        markers = tuple(
            Marker(
                str(chapter["metadata"].get("title", "")),
                round(float(chapter["start"] * (chapter["time_base"] or 1)) * 1000),
                round(float(chapter["end"] * (chapter["time_base"] or 1)) * 1000),
            )
            for chapter in container.chapters()
        )
        # Ogg (Vorbis, Opus) keeps its tags on the stream, not the container; the container's win.
        tags = {key.lower(): str(value) for key, value in (stream.metadata | container.metadata).items()}
        said_ms = round((duration_us or 0) / 1000)
        heard_ms = _audio_end_ms(container, stream, said_ms, path.stat().st_size)
    if heard_ms < said_ms - CUT_SHORT_MS:
        return TrackInfo(str(path), heard_ms, markers, tags, said_ms=said_ms)
    return TrackInfo(str(path), said_ms, markers, tags)


def _audio_end_ms(container: InputContainer, stream: AudioStream, said_ms: int, file_bytes: int) -> int:
    """Where the audio ends, read from a moment before the end the header says: an mp3's header
    gives the whole file's length, and a download that stopped keeps it."""
    end_s: float | None = None
    try:
        container.seek(max(0, said_ms - LAST_MOMENT_MS) * 1000)  # in microseconds
        for frame in container.decode(stream):
            if frame.time is not None:
                end_s = frame.time + frame.samples / frame.sample_rate
            if end_s is not None and end_s * 1000 > said_ms + CUT_SHORT_MS:
                break  # runs on past what it says: not cut short, whatever else it is
    except av.FFmpegError:
        end_s = None
    return _stored_end_ms(container, stream, said_ms, file_bytes) if end_s is None else round(end_s * 1000)


def _stored_end_ms(container: InputContainer, stream: AudioStream, said_ms: int, file_bytes: int) -> int:
    """Where the audio stored in the file ends, when its end cannot be decoded: an m4b indexed at its
    start (written to play while it downloads) keeps the whole index when a download stops, so the
    index names packets past the file's end. The last moment whose packet is in the file is found by
    halving; a file whose every packet is there (damaged, not cut) is as long as it says."""

    def stored(at_ms: int) -> float | None:
        """The start (s) of the packet found at ``at_ms`` if the file holds it (its audio is decoded
        only with the packet after it, which the file may not hold)."""
        try:
            container.seek(at_ms * 1000)
            packet = next(container.demux(stream), None)
        except av.FFmpegError:
            return None
        if packet is None or packet.pos is None or packet.pos < 0 or packet.pos + packet.size > file_bytes:
            return None
        if packet.pts is None or packet.time_base is None:
            return None
        return float(packet.pts * packet.time_base)

    if stored(max(0, said_ms - LAST_MOMENT_MS)) is not None:
        return said_ms
    low, high, end_s = 0, said_ms, 0.0
    while high - low > STORED_END_STEP_MS:
        middle = (low + high) // 2
        found = stored(middle)
        if found is None:
            high = middle
        else:
            low, end_s = middle, found
    return round(end_s * 1000)


def read_audiobook(path: Path) -> Audiobook:
    """An audio file or a folder of tracks as an audiobook; ``BadInput`` on anything unreadable."""
    if not path.exists():
        raise BadInput(path, "does not exist")
    if path.is_dir():
        entries = files_in(path)
        for entry in entries:
            refuse_unreadable_audio(entry)
        return audiobook_of([probe(p) for p in entries if is_audio_name(p)], path)
    refuse_unreadable_audio(path)
    return audiobook_of([probe(path)], path)


def _blocks(path: Path, start_ms: int, end_ms: int) -> Iterator[npt.NDArray[np.float32]]:
    with _open(path) as container:
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        if start_ms > 0:
            container.seek(start_ms * 1000, backward=True, any_frame=False)  # AV_TIME_BASE: microseconds
        first = round(start_ms * SAMPLE_RATE / 1000)
        last = round(end_ms * SAMPLE_RATE / 1000)
        position: int | None = None
        for frame in _up_to(container.decode(stream), end_ms):
            if position is None:
                if frame is None:
                    return
                position = round((frame.time or 0.0) * SAMPLE_RATE)
            for out in resampler.resample(frame):
                samples = out.to_ndarray().reshape(-1).astype(np.float32, copy=False)
                begin, position = position, position + len(samples)
                if position <= first:
                    continue
                yield samples[max(0, first - begin) : max(0, last - begin)]
            if position is not None and position >= last:
                return


def _up_to(frames: Iterator[AudioFrame], end_ms: int) -> Iterator[AudioFrame | None]:
    """The frames until one reaches ``end_ms``, then None (the resampler gives what it holds): no
    packet past it is decoded, which a file cut short there would not hold."""
    for frame in frames:
        yield frame
        if frame.time is not None and (frame.time + frame.samples / frame.sample_rate) * 1000 >= end_ms:
            break
    yield None


def _decoded_blocks(path: Path, start_ms: int, end_ms: int) -> Iterator[npt.NDArray[np.float32]]:
    decoded = 0  # samples
    try:
        for block in _blocks(path, start_ms, end_ms):
            if len(block):
                decoded += len(block)
                yield block
    except av.FFmpegError as error:
        # FFmpeg's words ("avcodec_send_packet()") tell a listener nothing; where it stopped does.
        log.info("undecodable audio", path=str(path), error=str(error))
        at = clock(start_ms + decoded * 1000 // SAMPLE_RATE)
        raise BadInput(path, f"cannot be decoded after {at}: it is damaged there, or cut short") from None


def decode_span(path: Path, start_ms: int, end_ms: int) -> npt.NDArray[np.float32]:
    """The audio of ``path`` from ``start_ms`` to ``end_ms`` as 16 kHz mono float32."""
    blocks = list(_decoded_blocks(path, start_ms, end_ms))
    return np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)


@dataclass(frozen=True)
class AudioPiece:
    """A piece of a stretch of audio (16 kHz mono) and where it starts in that stretch, in samples."""

    offset: int
    samples: npt.NDArray[np.float32]


def decode_pieces(path: Path, start_ms: int, end_ms: int, longest_s: float = PIECE_S) -> Iterator[AudioPiece]:
    """``decode_span``'s audio in pieces of at most ``longest_s``, each cut at a quiet moment
    (``pieces.cut_index``), decoded as they are needed: only about one piece is held at a time."""
    longest = round(longest_s * SAMPLE_RATE)
    held: list[npt.NDArray[np.float32]] = []
    size = offset = 0
    for block in _decoded_blocks(path, start_ms, end_ms):
        held.append(block)
        size += len(block)
        while size > longest:
            audio = np.concatenate(held)
            cut = cut_index(audio, SAMPLE_RATE, longest)
            yield AudioPiece(offset, audio[:cut])
            held, size, offset = [audio[cut:].copy()], len(audio) - cut, offset + cut
    if size:
        yield AudioPiece(offset, np.concatenate(held))


def _embedded_cover(path: Path) -> tuple[bytes, str] | None:
    """The picture in a file's tags (MP4 covr, ID3 APIC, FLAC picture) and its type, if any."""
    try:
        tagged = mutagen.File(str(path))
    except Exception:  # mutagen raises format-specific errors; no cover is not an error
        return None
    if tagged is None:
        return None
    pictures = list(getattr(tagged, "pictures", []) or [])  # FLAC
    tags = tagged.tags
    if tags is not None and hasattr(tags, "getall"):
        pictures += tags.getall("APIC")  # ID3
    if pictures:
        return bytes(pictures[0].data), "png" if "png" in str(pictures[0].mime) else "jpg"
    covers = tags.get("covr") if tags is not None and hasattr(tags, "get") else None
    if covers:  # MP4: imageformat 14 is PNG, 13 JPEG
        return bytes(covers[0]), "png" if getattr(covers[0], "imageformat", 13) == 14 else "jpg"
    return None


def read_cover(audiobook: Audiobook, where: Path) -> tuple[bytes, str] | None:
    """The recording's cover: the first track's embedded picture, else a folder's cover image."""
    for name in audiobook.files:
        found = _embedded_cover(Path(name))
        if found is not None:
            return found
    if where.is_dir():
        image = cover_file(files_in(where))
        if image is not None:
            return image.read_bytes(), IMAGE_TYPES[image.suffix.lower()]
    return None
