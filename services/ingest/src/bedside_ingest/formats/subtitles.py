"""WebVTT and SRT: numbered or named cues, each a time range and a few lines of text."""

import html
import re
from pathlib import Path

from bedside_ingest.book import Transcript, Unit
from bedside_ingest.errors import BadInput
from bedside_ingest.text import clean
from bedside_ingest.timecodes import BadTime, clock_ms

_ARROW = "-->"
_TAG = re.compile(r"<[^>]*>")
_SSA_TAG = re.compile(r"\{\\[^}]*\}")
_VTT_SKIP_BLOCKS = ("NOTE", "STYLE", "REGION")


def _blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Blank-line separated blocks with the 1-based number of their first line."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    first = 0
    for number, line in enumerate(lines, start=1):
        if line.strip():
            if not current:
                first = number
            current.append(line.rstrip())
        elif current:
            blocks.append((first, current))
            current = []
    if current:
        blocks.append((first, current))
    return blocks


def _payload_text(lines: list[str]) -> str:
    text = " ".join(lines)
    text = _SSA_TAG.sub("", _TAG.sub("", text))
    return clean(html.unescape(text))


def _cue(path: Path, first_line: int, block: list[str], index: int) -> Unit | None:
    timing_at = next((i for i, line in enumerate(block[:2]) if _ARROW in line), None)
    label = block[0].strip() if timing_at == 1 else str(index)
    where = f"line {first_line + (timing_at or 0)} (cue {label})"
    if timing_at is None:
        raise BadInput(
            path,
            f"expected a timing line like 00:00:01.000 --> 00:00:04.000, got {block[0]!r}",
            f"line {first_line}",
        )
    start_text, _, rest = block[timing_at].partition(_ARROW)
    end_text = rest.strip().split()[0] if rest.strip() else ""
    try:
        start_ms, end_ms = clock_ms(start_text), clock_ms(end_text)
    except BadTime as error:
        raise BadInput(path, str(error), where) from None
    text = _payload_text(block[timing_at + 1 :])
    if not text:
        return None  # an empty cue carries no narration
    return Unit(text=text, where=where, start_ms=start_ms, end_ms=end_ms)


def read_webvtt(path: Path, content: str) -> Transcript:
    lines = content.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].startswith("WEBVTT"):
        raise BadInput(path, "a WebVTT file must start with the line WEBVTT", "line 1")
    units: list[Unit] = []
    for index, (first_line, block) in enumerate(_blocks(lines[1:]), start=1):
        if first_line == 1 or block[0].split(" ", 1)[0] in _VTT_SKIP_BLOCKS:
            continue  # the rest of the header, or a comment / style / region block
        unit = _cue(path, first_line + 1, block, index)
        if unit is not None:
            units.append(unit)
    return Transcript(units=tuple(units), format="webvtt")


def read_srt(path: Path, content: str) -> Transcript:
    lines = content.lstrip("\ufeff").splitlines()
    units: list[Unit] = []
    for index, (first_line, block) in enumerate(_blocks(lines), start=1):
        unit = _cue(path, first_line, block, index)
        if unit is not None:
            units.append(unit)
    return Transcript(units=tuple(units), format="srt")


def looks_like_srt(content: str) -> bool:
    head = [line.strip() for line in content.lstrip("\ufeff").splitlines()[:3]]
    return len(head) >= 2 and head[0].isdigit() and _ARROW in head[1] and "," in head[1]
