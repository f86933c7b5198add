"""Test audiobooks spoken by espeak-ng, with the offset of every sentence as ground truth.

Each sentence is spoken on its own and the pieces are joined with a short silence, so
where each sentence starts is known exactly. The audio is muxed by PyAV (no ffmpeg
binary): an m4b with chapter markers, an mp3 with ID3 chapters, or a folder of tracks.
"""

import fractions
import re
import shutil
import subprocess
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import av
import numpy as np
import numpy.typing as npt
import pytest
from bedside_ingest.sample import SAMPLE_TEXT
from bedside_ingest.text import split_sentences
from mutagen.id3 import APIC, ID3
from mutagen.mp4 import MP4, MP4Cover

SPEECH_WPM = 170
GAP_S = 0.35
FRAME_SAMPLES = 1024


@dataclass(frozen=True)
class SpokenSentence:
    chapter: int
    text: str
    start_s: float
    end_s: float


@dataclass(frozen=True)
class SpokenChapter:
    title: str
    start_s: float
    end_s: float


@dataclass(frozen=True)
class Speech:
    """Joined speech: 16-bit mono samples, and where every chapter and sentence lies in them."""

    samples: npt.NDArray[np.int16]
    rate: int
    chapters: list[SpokenChapter]
    sentences: list[SpokenSentence]

    def chapter_samples(self, index: int) -> npt.NDArray[np.int16]:
        chapter = self.chapters[index]
        return self.samples[round(chapter.start_s * self.rate) : round(chapter.end_s * self.rate)]


def silent_wav(path: Path, seconds: int) -> Path:
    """A mono 8 kHz WAV of silence: a recording for tests that only need its length."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\0\0" * 8000 * seconds)
    return path


def need_espeak() -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (`bash scripts/install-system audio` installs it as root)")


def spoken_wav(text: str) -> bytes:
    """``text`` as espeak-ng's own WAV file: what a device's recording would upload."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "s.wav"
        subprocess.run(["espeak-ng", "-s", str(SPEECH_WPM), "-w", str(out), text], check=True)
        return out.read_bytes()


def speak(text: str) -> tuple[npt.NDArray[np.int16], int]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "s.wav"
        subprocess.run(["espeak-ng", "-s", str(SPEECH_WPM), "-w", str(out), text], check=True)
        with wave.open(str(out)) as spoken:
            rate = spoken.getframerate()
            samples = np.frombuffer(spoken.readframes(spoken.getnframes()), dtype=np.int16)
    return samples, rate


def speak_book(chapters: list[tuple[str, list[str]]]) -> Speech:
    """Speak each chapter's title then its sentences, a short silence after each."""
    pieces: list[npt.NDArray[np.int16]] = []
    spoken_chapters: list[SpokenChapter] = []
    sentences: list[SpokenSentence] = []
    rate, position = 22_050, 0
    for number, (title, lines) in enumerate(chapters, start=1):
        chapter_start = position
        for line in [f"{title}.", *lines]:
            samples, rate = speak(line)
            gap = np.zeros(round(GAP_S * rate), dtype=np.int16)
            sentences.append(SpokenSentence(number, line, position / rate, (position + len(samples)) / rate))
            pieces += [samples, gap]
            position += len(samples) + len(gap)
        spoken_chapters.append(SpokenChapter(title, chapter_start / rate, position / rate))
    return Speech(np.concatenate(pieces), rate, spoken_chapters, sentences)


def sample_chapters(chapters: int = 3, sentences: int = 3) -> list[tuple[str, list[str]]]:
    """The first sentences of the first chapters of the repo's sample story."""
    text = SAMPLE_TEXT.read_text()
    parts = re.split(r"^(Chapter [A-Za-z]+: .+)$", text, flags=re.MULTILINE)
    book: list[tuple[str, list[str]]] = []
    for k in range(1, len(parts), 2):
        body = " ".join(parts[k + 1].split())
        lines = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"])", body) if s][:sentences]
        book.append((parts[k].split(": ", 1)[1], lines))
    return book[:chapters]


def _encode(
    container: av.container.OutputContainer, codec: str, speech_samples: npt.NDArray[np.int16], rate: int
) -> None:
    stream = container.add_stream(codec, rate=rate, layout="mono")
    assert isinstance(stream, av.AudioStream)
    time_base = fractions.Fraction(1, rate)
    for begin in range(0, len(speech_samples), FRAME_SAMPLES):
        chunk = speech_samples[begin : begin + FRAME_SAMPLES]
        frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate, frame.pts, frame.time_base = rate, begin, time_base
        for packet in stream.encode(frame):
            container.mux(packet)
    for packet in stream.encode(None):
        container.mux(packet)


def write_audiobook(
    path: Path,
    speech: Speech,
    *,
    tags: dict[str, str] | None = None,
    chapters: bool = True,
) -> Path:
    """An .m4b (AAC, Nero chapters) or .mp3 (ID3 CHAP) of ``speech``, with tags."""
    container_format, codec = {".m4b": ("ipod", "aac"), ".m4a": ("ipod", "aac"), ".mp3": ("mp3", "mp3")}[
        path.suffix
    ]
    with av.open(str(path), "w", format=container_format) as container:
        for key, value in (tags or {}).items():
            container.metadata[key] = value
        if chapters:
            millis = fractions.Fraction(1, 1000)
            container.set_chapters(
                [
                    {
                        "id": k + 1,
                        "start": round(c.start_s * 1000),
                        "end": round(c.end_s * 1000),
                        "time_base": millis,
                        "metadata": {"title": c.title},
                    }
                    for k, c in enumerate(speech.chapters)
                ]
            )
        _encode(container, codec, speech.samples, speech.rate)
    return path


PLAIN_AUDIO = {
    ".m4a": ("ipod", "aac", 1),
    ".ogg": ("ogg", "vorbis", 2),  # FFmpeg's own Vorbis encoder: stereo only, "experimental"
    ".opus": ("ogg", "libopus", 1),
    ".flac": ("flac", "flac", 1),
    ".wav": ("wav", "pcm_s16le", 1),
    ".aac": ("adts", "aac", 1),
}


def write_plain_audio(path: Path, speech: Speech, title: str) -> Path:
    """``speech`` in one file of the kind its suffix names, with a title tag and no markers:
    the kinds ``write_audiobook`` does not make (an Ogg file keeps its tags on the stream)."""
    container_format, codec, channels = PLAIN_AUDIO[path.suffix]
    samples, rate = speech.samples.astype(np.float32) / 32768, speech.rate
    if codec == "libopus":  # Opus takes 48 kHz only
        picks = (np.arange(len(samples) * 48_000 // rate) * rate // 48_000).astype(np.int64)
        samples, rate = samples[picks], 48_000
    layout = "stereo" if channels == 2 else "mono"
    with av.open(str(path), "w", format=container_format) as container:
        container.metadata["title"] = title
        stream = container.add_stream(codec, rate=rate, layout=layout)
        assert isinstance(stream, av.AudioStream)
        stream.codec_context.options = {"strict": "experimental"}
        time_base = fractions.Fraction(1, rate)
        for begin in range(0, len(samples), FRAME_SAMPLES):
            chunk = np.ascontiguousarray(np.tile(samples[begin : begin + FRAME_SAMPLES], (channels, 1)))
            frame = av.AudioFrame.from_ndarray(chunk, format="fltp", layout=layout)
            frame.sample_rate, frame.pts, frame.time_base = rate, begin, time_base
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return path


def write_tracks(folder: Path, speech: Speech, suffix: str = ".mp3", album: str = "") -> list[Path]:
    """One file per chapter, tagged with its title and track number and named by its title, so
    that the order of the names is not the order of the tracks."""
    folder.mkdir(parents=True, exist_ok=True)
    codec, container_format = {
        ".mp3": ("mp3", "mp3"),
        ".flac": ("flac", "flac"),
        ".wav": ("pcm_s16le", "wav"),
    }[suffix]
    paths = []
    for k, chapter in enumerate(speech.chapters):
        path = folder / f"{chapter.title}{suffix}"
        with av.open(str(path), "w", format=container_format) as container:
            container.metadata.update({"title": chapter.title, "track": str(k + 1), "album": album})
            _encode(container, codec, speech.chapter_samples(k), speech.rate)
        paths.append(path)
    return paths


def book_chapters(book: dict[str, Any], first: int, last: int) -> list[tuple[str, list[str]]]:
    """Chapters ``first``..``last`` of a JSON book (``{chapters: [{n, title, text}]}``) as sentences."""
    chapters = []
    for chapter in book["chapters"]:
        if first <= chapter["n"] <= last:
            paragraphs = [p for p in chapter["text"].split("\n") if p.strip()]
            lines = [s for p in paragraphs for s in split_sentences(p)]
            chapters.append((f"Chapter {chapter['n']}. {chapter['title']}", lines))
    return chapters


def tag_cover(path: Path, data: bytes, png: bool) -> None:
    """Put a cover picture in an m4b's (covr) or an mp3's (APIC) tags, as a tagger would."""
    if path.suffix == ".mp3":
        id3 = ID3(str(path))  # type: ignore[no-untyped-call]
        mime = "image/png" if png else "image/jpeg"
        id3.add(APIC(mime=mime, type=3, desc="cover", data=data))  # type: ignore[no-untyped-call]
        id3.save()
        return
    tagged = MP4(str(path))  # type: ignore[no-untyped-call]
    kind = MP4Cover.FORMAT_PNG if png else MP4Cover.FORMAT_JPEG
    tagged["covr"] = [MP4Cover(data, imageformat=kind)]  # type: ignore[no-untyped-call]
    tagged.save()  # type: ignore[no-untyped-call]
