"""Whisper JSON transcripts written for ingest's tests: sentences said at a steady pace."""

import json
from pathlib import Path
from typing import Any

WORD_S = 0.3
PAUSE_S = 0.5


def words_json(folder: Path, words: list[dict[str, Any]], name: str = "lantern.json") -> Path:
    """A Whisper JSON transcript of timed words, as whisper writes it with word times."""
    segment = {"start": words[0]["start"], "end": words[-1]["end"], "text": "", "words": words}
    path = folder / name
    path.write_text(json.dumps({"segments": [segment]}), encoding="utf-8")
    return path


def whisper_json(folder: Path, sentences: list[str], name: str = "lantern.json") -> Path:
    """``sentences`` said at a steady pace, a word every ``WORD_S``, a pause after each."""
    words, at = [], 0.0
    for sentence in sentences:
        for word in sentence.split():
            words.append({"word": f" {word}", "start": round(at, 2), "end": round(at + WORD_S, 2)})
            at += WORD_S
        at += PAUSE_S
    return words_json(folder, words, name)
