"""The book's clock: checking the times a transcript gives, and estimating them where it gives none."""

from dataclasses import replace
from pathlib import Path

from bedside_guard import clock

from bedside_ingest.book import Book, Chapter, Transcript, Unit
from bedside_ingest.errors import BadInput
from bedside_ingest.text import word_count
from bedside_ingest.timecodes import BadTime

OVERLAP_TOLERANCE_MS = 5
"""Seconds written as floats round to milliseconds either way; a touch this small is not an overlap."""
DEFAULT_WPM = 155


def _stamp(ms: int) -> str:
    return f"{clock(ms)}.{ms % 1000:03d}"


def check_times(path: Path, transcript: Transcript) -> Transcript:
    """Refuse times that run backwards or overlap; clamp touches within the tolerance."""
    if not transcript.units:
        raise BadInput(path, "there is no timed text in it")
    checked: list[Unit] = []
    for unit in transcript.units:
        start, end = unit.start_ms, unit.end_ms
        if start is None or end is None:
            raise BadInput(path, "has no time", unit.where)
        if end < start:
            raise BadInput(path, f"ends ({_stamp(end)}) before it starts ({_stamp(start)})", unit.where)
        if checked:
            before = checked[-1]
            before_start, before_end = before.start_ms or 0, before.end_ms or 0
            if start < before_start:
                raise BadInput(
                    path,
                    f"time goes backwards: starts at {_stamp(start)}, "
                    f"before the previous one ({before.where}) at {_stamp(before_start)}",
                    unit.where,
                )
            if start < before_end - OVERLAP_TOLERANCE_MS:
                raise BadInput(
                    path,
                    f"overlaps the previous one ({before.where}): starts at {_stamp(start)}, "
                    f"before it ends at {_stamp(before_end)}",
                    unit.where,
                )
            start = max(start, before_end)
            end = max(end, start)
        checked.append(replace(unit, start_ms=start, end_ms=end))
    return replace(transcript, units=tuple(checked))


def estimate_times(book: Book, wpm: int = DEFAULT_WPM) -> Book:
    """Give every unit of an untimed book a time at a steady narration rate, back to back."""
    if book.timed:
        return book
    if wpm <= 0:
        raise BadTime(f"a narration rate must be positive, not {wpm}")
    ms_per_word = 60_000 / wpm
    elapsed = 0.0
    chapters: list[Chapter] = []
    for chapter in book.chapters:
        units = []
        for unit in chapter.units:
            start = round(elapsed)
            elapsed += max(1, word_count(unit.text)) * ms_per_word
            units.append(replace(unit, start_ms=start, end_ms=round(elapsed)))
        chapters.append(replace(chapter, units=tuple(units), start_ms=units[0].start_ms if units else None))
    return replace(book, chapters=tuple(chapters))
