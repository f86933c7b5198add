"""Spoken requests to text: word accuracy with and without the book's names as hints.

Fifty questions about Black Beauty (``bench/data/black_beauty_spoken.json``), or with
``--bedtime`` fifty bedtime requests that name no one (``bench/data/bedtime_spoken.json``), are
spoken by espeak-ng and heard by the pinned Whisper tiny.en in this process (``hear``, as a
spoken turn calls it: text without word times), once plainly and once with Black Beauty's names
as hotwords, chosen by the rule a real turn uses (``bedside_guard.heard_names`` over ingest's
passages of the book, the line at its end: every name heard). The figures: word error rate, the
share of the book's names in the requests that are heard right, the share of requests the turn
reads as it reads the written words (``read_alike``), and the model's time per clip; each
hinted figure beside the unhinted one of the same run.

    .venv/bin/python -m bench.speech_questions [NAMES] [--bedtime]   # hint with the NAMES most frequent (40)
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bedside_guard import HINT_LIMIT, book_names, heard_names
from bedside_ingest.chunking import chunk_book, load_json_book
from bedside_speech import WhisperTranscriber, hint_text, samples_from_wav
from bedside_turn.domain import intents

from bench.report import Figure, latency_figures, percentile, report

BOOK = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "black_beauty.json"
DATA = Path(__file__).resolve().parent / "data"
SPEECH_WPM = 150


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def edit_distance(said: list[str], heard: list[str]) -> int:
    row = list(range(len(heard) + 1))
    for i, word in enumerate(said, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(heard, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
    return row[-1]


def read_alike(written: str, heard: str) -> bool:
    """Whether the turn reads what was heard as it reads what was said: the same request, or for a
    search or a question of the book the same kind (its words are the word error rate's)."""
    meant, understood = intents.read(written), intents.read(heard)
    if isinstance(meant, intents.FindPlace | intents.Question):
        return type(understood) is type(meant)
    return understood == meant


def spoken(text: str, folder: Path) -> bytes:
    out = folder / "question.wav"
    subprocess.run(["espeak-ng", "-s", str(SPEECH_WPM), "-w", str(out), text], check=True)
    return out.read_bytes()


def main() -> None:
    if shutil.which("espeak-ng") is None:
        sys.exit("espeak-ng is not installed (bash scripts/install-system audio)")
    passages = chunk_book(load_json_book(BOOK))
    arguments = [a for a in sys.argv[1:] if a != "--bedtime"]
    limit = int(arguments[0]) if arguments else HINT_LIMIT
    asked = DATA / ("bedtime_spoken.json" if "--bedtime" in sys.argv else "black_beauty_spoken.json")
    names = heard_names(book_names(passages), max(p.end_ms for p in passages), limit)
    hints = hint_text(names)
    name_set = {n.lower() for n in names}
    questions: list[str] = json.loads(asked.read_text())["questions"]
    transcriber = WhisperTranscriber()
    errors = {False: 0, True: 0}
    names_heard = {False: 0, True: 0}
    read_as_meant = {False: 0, True: 0}
    times: dict[bool, list[float]] = {False: [], True: []}
    said_words = names_said = 0
    durations: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for question in questions:
            samples = samples_from_wav(spoken(question, Path(folder)))
            durations.append(len(samples) / 16_000)
            said = words(question)
            said_words += len(said)
            said_names = [w for w in said if w in name_set]
            names_said += len(said_names)
            for hinted in (False, True):
                started = time.perf_counter()
                heard_text = transcriber.hear(samples, hints if hinted else None)
                times[hinted].append((time.perf_counter() - started) * 1000)
                heard = words(heard_text)
                errors[hinted] += edit_distance(said, heard)
                names_heard[hinted] += sum(1 for w in said_names if w in heard)
                read_as_meant[hinted] += read_alike(question, heard_text)
    print(f"{len(questions)} questions, {said_words} words, {names_said} of them the book's names")
    print(
        f"clips {min(durations):.1f}-{max(durations):.1f} s (median {percentile(durations, 50):.1f} s); "
        f"hints: {len(names)} names"
    )
    wer = {h: 100 * errors[h] / said_words for h in (False, True)}
    heard_share = {h: 100 * names_heard[h] / max(1, names_said) for h in (False, True)}
    alike = {h: 100 * read_as_meant[h] / len(questions) for h in (False, True)}
    report(
        [
            Figure("speech word error rate, no hints", wer[False], "%"),
            Figure("speech word error rate, book's names as hints", wer[True], "%", floor=wer[False]),
            Figure("speech names heard right, no hints", heard_share[False], "%"),
            Figure("speech names heard right, with hints", heard_share[True], "%", floor=heard_share[False]),
            Figure("speech requests read as written, no hints", alike[False], "%"),
            Figure("speech requests read as written, with hints", alike[True], "%", floor=alike[False]),
            *latency_figures("speech model time a clip, no hints", times[False], times[False]),
            *latency_figures("speech model time a clip, with hints", times[True], times[False]),
        ]
    )


if __name__ == "__main__":
    main()
