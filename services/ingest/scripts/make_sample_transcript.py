"""Write the sample book's WebVTT transcript and chapters file from its text.

The timings are what a calm narrator would plausibly take: words at a steady pace that
drifts a little from sentence to sentence, a short breath after each sentence, a longer
one between paragraphs, and a pause around each chapter heading; about 155 words a minute
overall. Run it after editing story.txt:

    .venv/bin/python services/ingest/scripts/make_sample_transcript.py
"""

import json
import math
from pathlib import Path

from bedside_ingest.formats.plaintext import read_plain_text
from bedside_ingest.text import word_count

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "bedside_ingest" / "sample"
SPEAKING_WPM = 174.0
SENTENCE_PAUSE_MS = 300
PARAGRAPH_PAUSE_MS = 700
HEADING_PAUSE_MS = 1500
CHAPTER_GAP_MS = 2500
LEAD_IN_MS = 1000
NUMBERS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")


def stamp(ms: int) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def spoken_ms(text: str, index: int) -> int:
    """Narration time of one cue; the pace drifts +-6% so cues are not mechanically even."""
    pace = SPEAKING_WPM * (1 + 0.06 * math.sin(index * 1.7))
    return round(max(1, word_count(text)) * 60_000 / pace)


def main() -> None:
    story = SAMPLE / "story.txt"
    book = read_plain_text(story, story.read_text(encoding="utf-8"))
    cues: list[tuple[int, int, str]] = []
    chapters: list[dict[str, object]] = []
    now = LEAD_IN_MS
    for chapter in book.chapters:
        if chapters:
            now += CHAPTER_GAP_MS
        heading = f"Chapter {NUMBERS[chapter.n - 1]}: {chapter.title}."
        chapters.append({"title": chapter.title, "start": now / 1000})
        end = now + spoken_ms(heading, len(cues))
        cues.append((now, end, heading))
        now = end + HEADING_PAUSE_MS
        paragraph = chapter.units[0].where
        for unit in chapter.units:
            if unit.where != paragraph:
                now += PARAGRAPH_PAUSE_MS - SENTENCE_PAUSE_MS
                paragraph = unit.where
            end = now + spoken_ms(unit.text, len(cues))
            cues.append((now, end, unit.text))
            now = end + SENTENCE_PAUSE_MS
    lines = ["WEBVTT", "", f"NOTE {book.title}: an original story, the sample book of Bedside.", ""]
    for number, (start, end, text) in enumerate(cues, start=1):
        lines += [str(number), f"{stamp(start)} --> {stamp(end)}", text, ""]
    (SAMPLE / "sample.vtt").write_text("\n".join(lines), encoding="utf-8")
    document = {"title": book.title, "author": book.author, "chapters": chapters}
    (SAMPLE / "chapters.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    words = sum(word_count(text) for _, _, text in cues)
    print(f"{len(cues)} cues, {words} words, {now / 60_000:.1f} min, {words / (now / 60_000):.0f} wpm")


if __name__ == "__main__":
    main()
