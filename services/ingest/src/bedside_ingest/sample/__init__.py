"""The sample book shipped with Bedside: an original story, its WebVTT transcript and chapters.

``story.txt`` is the text; ``sample.vtt`` and ``chapters.json`` were written from it by
``services/ingest/scripts/make_sample_transcript.py`` and are shipped as they are.
"""

from pathlib import Path

SAMPLE_BOOK_ID = "sample"
SAMPLE_TITLE = "The Lantern at Gull Point"
SAMPLE_DIR = Path(__file__).resolve().parent
SAMPLE_TRANSCRIPT = SAMPLE_DIR / "sample.vtt"
SAMPLE_CHAPTERS = SAMPLE_DIR / "chapters.json"
SAMPLE_TEXT = SAMPLE_DIR / "story.txt"

__all__ = [
    "SAMPLE_BOOK_ID",
    "SAMPLE_CHAPTERS",
    "SAMPLE_DIR",
    "SAMPLE_TEXT",
    "SAMPLE_TITLE",
    "SAMPLE_TRANSCRIPT",
]
