"""Timed JSON transcripts: Whisper (segments, optionally words), echogarden timelines, aeneas
sync maps (fragments), and plain word lists. Times are seconds (numbers or numeric strings).
"""

from pathlib import Path
from typing import Any

from bedside_ingest.book import Transcript, Unit
from bedside_ingest.errors import BadInput
from bedside_ingest.text import clean
from bedside_ingest.timecodes import BadTime, seconds_ms


def json_transcript_kind(data: Any) -> str | None:
    """Which timed JSON this is, by its shape; None when it is none of them."""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("segments"), list):
        return "whisper"
    if isinstance(data.get("timeline"), list):
        return "echogarden"
    if isinstance(data.get("fragments"), list):
        return "aeneas"
    if isinstance(data.get("words"), list):
        return "words"
    return None


def _time(path: Path, entry: dict[str, Any], keys: tuple[str, ...], where: str) -> int:
    for key in keys:
        if key in entry:
            try:
                return seconds_ms(entry[key])
            except BadTime as error:
                raise BadInput(path, f"{key}: {error}", where) from None
    raise BadInput(path, f"has no {' or '.join(keys)} time", where)


def _unit(path: Path, entry: Any, where: str, text: str) -> Unit:
    if not isinstance(entry, dict):
        raise BadInput(path, "expected an object with a start and an end", where)
    start = _time(path, entry, ("start", "begin", "startTime"), where)
    end = _time(path, entry, ("end", "endTime"), where)
    return Unit(text=clean(text), where=where, start_ms=start, end_ms=end)


def _attach_punctuation(units: list[Unit]) -> list[Unit]:
    """ASR word lists give punctuation as words of its own; it belongs to the word before."""
    out: list[Unit] = []
    for unit in units:
        if out and not any(ch.isalnum() for ch in unit.text):
            last = out[-1]
            out[-1] = Unit(
                last.text + unit.text, last.where, last.start_ms, max(last.end_ms or 0, unit.end_ms or 0)
            )
        elif unit.text:
            out.append(unit)
    return out


def _whisper(path: Path, data: dict[str, Any]) -> list[Unit]:
    segments: list[Any] = data["segments"]
    with_words = bool(segments) and all(isinstance(s, dict) and s.get("words") for s in segments)
    units: list[Unit] = []
    for number, segment in enumerate(segments, start=1):
        where = f"segment {number}"
        if not with_words:
            text = segment.get("text", "") if isinstance(segment, dict) else ""
            units.append(_unit(path, segment, where, str(text)))
            continue
        for index, word in enumerate(segment["words"], start=1):
            text = word.get("word", word.get("text", "")) if isinstance(word, dict) else ""
            units.append(_unit(path, word, f"{where}, word {index}", str(text)))
    return units


def _words_of_timeline(entries: list[Any]) -> list[Any]:
    """The word entries of an echogarden timeline, which may nest segment > sentence > word."""
    words: list[Any] = []
    for entry in entries:
        if (
            isinstance(entry, dict)
            and entry.get("type") != "word"
            and isinstance(entry.get("timeline"), list)
        ):
            words += _words_of_timeline(entry["timeline"])
        else:
            words.append(entry)
    return words


def _echogarden(path: Path, data: dict[str, Any]) -> list[Unit]:
    entries = _words_of_timeline(data["timeline"])
    return [
        _unit(
            path,
            entry,
            f"timeline entry {number}",
            str(entry.get("text", "")) if isinstance(entry, dict) else "",
        )
        for number, entry in enumerate(entries, start=1)
    ]


def _fragment_text(entry: Any) -> str:
    if not isinstance(entry, dict):
        return ""
    lines = entry.get("lines")
    if isinstance(lines, list):
        return " ".join(str(line) for line in lines)
    return str(entry.get("text", ""))


def _listed(path: Path, data: dict[str, Any], key: str, noun: str) -> list[Unit]:
    return [
        _unit(path, entry, f"{noun} {number}", _fragment_text(entry) or str(entry.get("word", "")))
        for number, entry in enumerate(data[key], start=1)
    ]


def read_timed_json(path: Path, data: dict[str, Any], kind: str) -> Transcript:
    if kind == "whisper":
        units = _whisper(path, data)
    elif kind == "echogarden":
        units = _echogarden(path, data)
    elif kind == "aeneas":
        units = _listed(path, data, "fragments", "fragment")
    else:
        units = _listed(path, data, "words", "word")
    title = data.get("title")
    author = data.get("author")
    return Transcript(
        units=tuple(_attach_punctuation(units)),
        format=f"{kind}-json",
        title=title if isinstance(title, str) else "",
        author=author if isinstance(author, str) else "",
    )
