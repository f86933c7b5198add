"""The parse stage: which format a file is (by its content and its name), and reading it into a
``Book`` with times (given, or estimated at a narration rate).
"""

import json
import re
from dataclasses import replace
from pathlib import Path

from bedside_ingest.accepted import (
    AUDIO_EXTENSIONS,
    BY_EXTENSION,
    NOTHING_IN_THE_FOLDER,
    READABLE,
    REFUSED_AUDIO,
    name_without_type,
)
from bedside_ingest.book import Book, Chapter, Transcript
from bedside_ingest.chapters import is_chapters_list, read_chapters_file, split_by_markers, split_by_marks
from bedside_ingest.decoding import UTF16_MARKS, decoded_text
from bedside_ingest.errors import BadInput
from bedside_ingest.folders import files_in, sync_maps
from bedside_ingest.formats.epub import read_epub
from bedside_ingest.formats.jsonbook import is_json_book, read_json_book
from bedside_ingest.formats.overlays import read_overlays
from bedside_ingest.formats.plaintext import read_plain_text
from bedside_ingest.formats.smil import SmilReader, files_beside
from bedside_ingest.formats.subtitles import looks_like_srt, read_srt, read_webvtt
from bedside_ingest.formats.timedjson import json_transcript_kind, read_timed_json
from bedside_ingest.notices import without_recording_notice
from bedside_ingest.text import UNICODE_KNOWN, holds_unknown_characters, word_count
from bedside_ingest.timeline import DEFAULT_WPM, check_times, estimate_times


def sniff(content: bytes) -> str:
    """The format the bytes look like, whatever the file is called."""
    if content.startswith(UTF16_MARKS):  # read as the text it is, not as bytes
        content = content[:4000].decode("utf-16", errors="replace").encode("utf-8")
    if content.startswith(b"%PDF-"):
        return "pdf"
    if content.startswith(b"PK\x03\x04"):
        return "epub" if b"application/epub+zip" in content[:200] else "zip"
    head = content[:2000].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"WEBVTT"):
        return "webvtt"
    if head[:1] in (b"{", b"["):
        return "json"
    if head.startswith(b"<") and b"<smil" in head:
        return "smil"
    if looks_like_srt(head.decode("utf-8", errors="replace")):
        return "srt"
    return "text"


def _read_bytes(path: Path) -> bytes:
    try:
        content = path.read_bytes()
    except OSError as error:
        raise BadInput(path, f"cannot be read: {error.strerror or error}") from None
    if not content.strip():
        raise BadInput(path, "is empty")
    return content


def detect(path: Path, content: bytes) -> str:
    """The format by extension, confirmed by content; any disagreement is an error."""
    suffix = path.suffix.lower()
    if suffix in AUDIO_EXTENSIONS or suffix in REFUSED_AUDIO:
        raise BadInput(path, "is an audio file: an audiobook is transcribed by the ingest service's job")
    expected = BY_EXTENSION.get(suffix)
    if expected is None:
        raise BadInput(
            path, f"unsupported file type {suffix or '(no extension)'!r}; Bedside reads {READABLE}"
        )
    found = sniff(content)
    if found == "pdf":  # the e-book many listeners have: said as what it is, with what to do
        raise BadInput(path, "is a PDF, which Bedside cannot read: save the book as an EPUB or as plain text")
    if found != expected:
        raise BadInput(path, f"is named {suffix} but its content looks like {found}, not {expected}")
    return expected


EBOOK_TEXT_FORMATS = frozenset({"smil", "epub-media-overlay", "aeneas-json"})
"""Timed sources whose text is an e-book's, timed by an aligner, not words heard: no LibriVox
notice is in them, so words like it are the book's."""


def _timed(transcript: Transcript, path: Path, chapters_path: Path | None) -> Book:
    transcript = check_times(path, transcript)
    title, author = transcript.title, transcript.author
    if chapters_path is not None:
        chapters_text = decoded_text(chapters_path, _read_bytes(chapters_path))
        chapters_file = read_chapters_file(chapters_path, chapters_text)
        chapters = split_by_marks(transcript, chapters_file.marks, chapters_path)
        title, author = title or chapters_file.title, author or chapters_file.author
    else:
        chapters = split_by_markers(transcript, title or _title_from(path))
    if transcript.format not in EBOOK_TEXT_FORMATS:
        chapters = tuple(map(_without_notice, chapters))
    return Book(
        title=title or _title_from(path),
        author=author,
        chapters=chapters,
        format=transcript.format,
        timed=True,
    )


def _without_notice(chapter: Chapter) -> Chapter:
    """The chapter without LibriVox's notice, dropped chapter by chapter so that a chapter holding
    only the notice keeps it (``without_recording_notice``), and starting where it did."""
    units = without_recording_notice(chapter.units)
    if units == chapter.units:
        return chapter
    start_ms = chapter.start_ms if chapter.start_ms is not None else chapter.units[0].start_ms
    return replace(chapter, units=units, start_ms=start_ms)


def _title_from(path: Path) -> str:
    stem = name_without_type(path) if path.is_file() else path.name
    return re.sub(r"[_-]+", " ", stem).strip().title() or "Untitled"


def sibling_chapters(path: Path) -> Path | None:
    """``<stem>.chapters.json`` or ``chapters.json`` beside a transcript, if there is one."""
    folder = path if path.is_dir() else path.parent
    # by the name Bedside reads, then with a subtitle's language ("Story.en.vtt" beside
    # "Story.en.chapters.json"), then by its first word, as they were found before
    names = dict.fromkeys((name_without_type(path), path.stem, path.name.split(".")[0]))
    for candidate in (*(folder / f"{name}.chapters.json" for name in names), folder / "chapters.json"):
        if candidate.is_file() and candidate != path:
            return candidate
    return None


def _read_smil_folder(folder: Path, chapters_path: Path | None) -> Book:
    maps = sync_maps(files_in(folder))
    if not maps:
        raise BadInput(folder, NOTHING_IN_THE_FOLDER)
    reader = SmilReader()
    for smil in maps:
        reader.read(str(smil), decoded_text(smil, _read_bytes(smil)), files_beside(smil))
    return _timed(reader.transcript(), folder, chapters_path)


def _read_json(path: Path, content: str, chapters_path: Path | None) -> Book:
    try:
        data = json.loads(content)
    except json.JSONDecodeError as error:
        raise BadInput(
            path, f"is not valid JSON: {error.msg}", f"line {error.lineno}, column {error.colno}"
        ) from None
    kind = json_transcript_kind(data)
    if kind is not None:
        return _timed(read_timed_json(path, data, kind), path, chapters_path)
    if is_json_book(data):
        return read_json_book(path, data)
    if is_chapters_list(data):
        raise BadInput(path, "is a chapters file; give it with --chapters beside a transcript")
    raise BadInput(
        path, "is JSON of no known kind (Whisper segments, a timeline, fragments, words, or a book)"
    )


def _parse(path: Path, chapters_path: Path | None) -> Book:
    if path.is_dir():
        return _read_smil_folder(path, chapters_path)
    if not path.exists():
        raise BadInput(path, "does not exist")
    content = _read_bytes(path)
    kind = detect(path, content)
    if kind == "epub":
        overlays = read_overlays(path)
        return read_epub(path) if overlays is None else _timed(overlays, path, chapters_path)
    text = decoded_text(path, content)
    if kind == "webvtt":
        return _timed(read_webvtt(path, text), path, chapters_path)
    if kind == "srt":
        return _timed(read_srt(path, text), path, chapters_path)
    if kind == "smil":
        reader = SmilReader()
        reader.read(str(path), text, files_beside(path))
        return _timed(reader.transcript(), path, chapters_path)
    if kind == "json":
        return _read_json(path, text, chapters_path)
    return read_plain_text(path, text)


def check_chapters(path: Path, book: Book) -> None:
    """Every chapter has words, and chapter numbers are distinct."""
    seen: set[int] = set()
    for chapter in book.chapters:
        if chapter.n in seen:
            raise BadInput(path, f"two chapters are numbered {chapter.n}", chapter.where)
        seen.add(chapter.n)
        if not any(word_count(u.text) for u in chapter.units):
            if holds_unknown_characters(" ".join(u.text for u in chapter.units)):
                raise BadInput(
                    path,
                    f"the chapter {chapter.title!r} is written in letters newer than Unicode "
                    f"{UNICODE_KNOWN}, which Bedside tells words apart by: it finds no words in it",
                    chapter.where,
                )
            raise BadInput(path, f"the chapter {chapter.title!r} has no text", chapter.where)


def read_book(
    path: Path | str,
    *,
    chapters_path: Path | str | None = None,
    title: str | None = None,
    narration_wpm: int = DEFAULT_WPM,
) -> Book:
    """Read ``path`` into a book with times; raises ``BadInput`` naming the file and the place."""
    path = Path(path)
    chapters = Path(chapters_path) if chapters_path is not None else sibling_chapters(path)
    if chapters is not None and not chapters.is_file():
        raise BadInput(chapters, "the chapters file does not exist")
    try:
        book = _parse(path, chapters)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as error:
        # A shape no reader expected (a number where a list should be, ...): still the file's fault.
        raise BadInput(path, f"has a shape Bedside cannot read ({type(error).__name__}: {error})") from None
    check_chapters(path, book)
    book = replace(book, source=path.name, title=title or book.title)
    return estimate_times(book, narration_wpm)
