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
from bedside_turn.domain.routing import needs_the_books_names

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
    """Whether the turn reads what was heard as it reads what was said: the same request, or for one
    that may name someone (``routing.needs_the_books_names``: a search, a question, a title, words read
    as nothing, a move and a search together) the same kind."""
    meant, understood = intents.read(written), intents.read(heard)
    if needs_the_books_names(written):  # its words are the book's: the word error rate judges them
        return type(understood) is type(meant)
    return understood == meant


def spoken(text: str, folder: Path) -> bytes:
    out = folder / "question.wav"
    subprocess.run(["espeak-ng", "-s", str(SPEECH_WPM), "-w", str(out), text], check=True)
    return out.read_bytes()


WAYS = ("no hints", "hints always", "hints when needed")
"""Heard plainly; with the names as hints every time; the turn's way: plainly, then again with the
names only when the plain words may name someone (``routing.needs_the_books_names``)."""


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
    errors = dict.fromkeys(WAYS, 0)
    names_heard = dict.fromkeys(WAYS, 0)
    read_as_meant = dict.fromkeys(WAYS, 0)
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    said_words = names_said = heard_twice = 0
    durations: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for question in questions:
            samples = samples_from_wav(spoken(question, Path(folder)))
            durations.append(len(samples) / 16_000)
            said = words(question)
            said_words += len(said)
            said_names = [w for w in said if w in name_set]
            names_said += len(said_names)
            heard: dict[str, tuple[str, float]] = {}
            for way, expected in (("no hints", None), ("hints always", hints)):
                started = time.perf_counter()
                text = transcriber.hear(samples, expected)
                heard[way] = (text, (time.perf_counter() - started) * 1000)
            (plain, plain_ms), (hinted, hinted_ms) = heard["no hints"], heard["hints always"]
            again = needs_the_books_names(plain)
            heard_twice += again
            heard["hints when needed"] = (hinted, plain_ms + hinted_ms) if again else (plain, plain_ms)
            for way, (text, ms) in heard.items():
                times[way].append(ms)
                errors[way] += edit_distance(said, words(text))
                names_heard[way] += sum(1 for w in said_names if w in words(text))
                read_as_meant[way] += read_alike(question, text)
    print(f"{len(questions)} requests, {said_words} words, {names_said} of them the book's names")
    print(
        f"clips {min(durations):.1f}-{max(durations):.1f} s (median {percentile(durations, 50):.1f} s); "
        f"hints: {len(names)} names; heard again with them when needed: {heard_twice} of {len(questions)}"
    )
    shares = {
        way: {
            "word error rate": 100 * errors[way] / said_words,
            "names heard right": 100 * names_heard[way] / max(1, names_said),
            "requests read as written": 100 * read_as_meant[way] / len(questions),
        }
        for way in WAYS
    }
    figures: list[Figure] = []
    for way in WAYS:
        for figure, value in shares[way].items():
            if figure == "names heard right" and not names_said:
                continue
            floor = None if way == "no hints" else shares["no hints"][figure]
            figures.append(Figure(f"speech {figure}, {way}", value, "%", floor=floor))
        figures += latency_figures(f"speech model time a request, {way}", times[way], times["no hints"])
    report(figures)


if __name__ == "__main__":
    main()
