"""The rules of reading an audiobook, without I/O: which files are audio, which are refused,
the order of a folder's tracks, chapters from markers or one per track, and the book's tags.
"""

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bedside_guard import OPENING_CHAPTER, OPENING_TITLE, clock, numbered_as

from bedside_ingest.accepted import AUDIO_EXTENSIONS, REFUSED_AUDIO
from bedside_ingest.book import numbered_title
from bedside_ingest.errors import BadInput
from bedside_ingest.folders import by_name, sync_maps

AUDIO = frozenset(AUDIO_EXTENSIONS)
REFUSED = frozenset(REFUSED_AUDIO)
MIN_OPENING_MS = 1_000
"""Audio before the first chapter marker shorter than this is a gap, not an opening."""

FILE_TITLE_TAGS = ("title", "album")
FOLDER_TITLE_TAGS = ("album",)
"""A track's own title names its chapter, not the book."""
AUTHOR_TAGS = ("album_artist", "artist", "author")
NARRATOR_TAGS = ("composer", "narrator", "performer")


@dataclass(frozen=True)
class Marker:
    title: str
    start_ms: int
    end_ms: int


@dataclass(frozen=True)
class TrackInfo:
    """What probing one audio file found."""

    path: str
    duration_ms: int
    markers: tuple[Marker, ...]
    tags: Mapping[str, str]
    said_ms: int | None = None
    """The longer length the file says it has, when its audio ends well before (cut short)."""


@dataclass(frozen=True)
class AudioChapter:
    """A stretch of one file that is one chapter; ``book_start_ms`` places it on the book's clock."""

    n: int
    title: str
    path: str
    file_start_ms: int
    file_end_ms: int
    book_start_ms: int

    @property
    def duration_ms(self) -> int:
        return self.file_end_ms - self.file_start_ms


@dataclass(frozen=True)
class Audiobook:
    title: str
    """The title tag, else the file's or the folder's name (``title_tag`` says which)."""
    author: str
    narrator: str
    chapters: tuple[AudioChapter, ...]
    files: tuple[str, ...]
    joined: str | None = None
    """A folder's tracks joined into one file for the player (``joining.py``)."""
    title_tag: str = ""
    """The recording's own title tag, empty when it has none (``naming.book_names``)."""
    cut_short: tuple[str, ...] = ()
    """A sentence for each file whose audio ends before the length it says: the listener's to know."""
    unmarked: bool = False
    """One file without chapter markers: its one chapter here is the whole recording, and the
    chapters it says are found in its words once heard (``transcription.transcribed_book``)."""

    @property
    def duration_ms(self) -> int:
        last = self.chapters[-1]
        return last.book_start_ms + last.duration_ms

    @property
    def playable(self) -> str | None:
        """The one file the player serves: the recording itself, or its tracks joined."""
        return self.files[0] if len(self.files) == 1 else self.joined


def is_recording(path: Path, folder_entries: Sequence[Path] | None) -> bool:
    """Whether a path is a recording to transcribe: an audio file (or an Audible or raw AAC one,
    to refuse), or a folder of tracks. A folder of SMIL sync maps beside their audio is a timed
    transcript."""
    if folder_entries is None:
        return path.suffix.lower() in AUDIO | REFUSED
    suffixes = {entry.suffix.lower() for entry in folder_entries}
    return not sync_maps(folder_entries) and bool(suffixes & (AUDIO | REFUSED))


COVER_NAMES = ("cover", "folder", "front")
IMAGE_TYPES = {".jpg": "jpg", ".jpeg": "jpg", ".png": "png"}


def cover_file(folder_entries: Sequence[Path]) -> Path | None:
    """An image a folder of tracks names as its cover (cover.jpg, folder.png, front.jpeg...)."""
    for entry in sorted(folder_entries):
        if entry.stem.lower() in COVER_NAMES and entry.suffix.lower() in IMAGE_TYPES:
            return entry
    return None


def track_number(tags: Mapping[str, str], tag: str = "track") -> int | None:
    """The track (or disc) number of ``"3"`` or ``"3/12"``, if the tags give one."""
    match = re.match(r"\s*(\d+)", tags.get(tag, ""))
    return int(match.group(1)) if match else None


def track_order(tracks: Sequence[TrackInfo], folder: Path | None = None) -> list[TrackInfo]:
    """Disc by disc (by its number, else the folder's own tracks, then its disc folders by name),
    then by track number (tracks without one after those with one), then by name, digits as numbers."""

    def key(track: TrackInfo) -> tuple[int, bool, list[Any], bool, int, list[Any]]:
        path, number = Path(track.path), track_number(track.tags)
        disc = track_number(track.tags, "disc") or 0
        in_a_disc, unnumbered = path.parent != folder, number is None
        return (disc, in_a_disc, by_name(path.parent), unnumbered, number or 0, by_name(path))

    return sorted(tracks, key=key)


def _first_tag(tracks: Sequence[TrackInfo], names: Sequence[str]) -> str:
    for name in names:
        for track in tracks:
            value = track.tags.get(name, "").strip()
            if value:
                return value
    return ""


def _file_title(path: str) -> str:
    stem = Path(path).stem
    return re.sub(r"[_]+", " ", stem).strip() or "Untitled"


def _markers_of(track: TrackInfo) -> list[Marker]:
    """The track's markers that hold some of its audio, by their times."""
    markers = [
        Marker(m.title, max(0, m.start_ms), min(m.end_ms, track.duration_ms))
        for m in track.markers
        if m.start_ms < track.duration_ms
    ]
    # By their times, not as the file lists them (an mp3's CHAP frames may lie in any order), and
    # one chapter for each start: a marker runs to the next one, so one sharing its start is empty.
    by_start: dict[int, Marker] = {}
    for m in sorted((m for m in markers if m.end_ms > m.start_ms), key=lambda m: m.start_ms):
        by_start.setdefault(m.start_ms, m)
    return list(by_start.values())


def _chapters_of(track: TrackInfo, first_n: int, book_start_ms: int) -> list[AudioChapter]:
    markers = _markers_of(track)
    if not markers:
        title = track.tags.get("title", "").strip() or _file_title(track.path)
        return [AudioChapter(first_n, title, track.path, 0, track.duration_ms, book_start_ms)]
    chapters: list[AudioChapter] = []
    n = first_n
    if markers[0].start_ms >= MIN_OPENING_MS:
        # Before the book's first marker is its opening, as an e-book's front matter is.
        opening_n = OPENING_CHAPTER if book_start_ms == 0 else n
        n += opening_n != OPENING_CHAPTER
        chapters.append(
            AudioChapter(opening_n, OPENING_TITLE, track.path, 0, markers[0].start_ms, book_start_ms)
        )
    for k, marker in enumerate(markers):
        # A marker runs to the next one, so no stretch of the file falls between two chapters.
        end = markers[k + 1].start_ms if k + 1 < len(markers) else track.duration_ms
        title = marker.title.strip() or numbered_title(n)
        chapters.append(
            AudioChapter(n, title, track.path, marker.start_ms, end, book_start_ms + marker.start_ms)
        )
        n += 1
    return chapters


def numbered_as_named(chapters: Sequence[AudioChapter]) -> tuple[AudioChapter, ...]:
    """A recording is numbered as it names its chapters, so "go to chapter 3" finds its "Chapter 3".

    Chapters it does not number before its first numbered one ("Opening Credits", "Dedication", then
    "Chapter 1") are the opening, chapter 0, when one file holds them: a chapter is a stretch of one
    file. The chapters from its first numbered one on count from that number: 1, or a second volume's
    "Chapter 6". Otherwise they keep their numbers in order."""
    numbers = [numbered[0] if (numbered := numbered_as(c.title)) else None for c in chapters]
    first = _first_named(numbers)
    if first is None:
        return tuple(chapters)
    index, number = first
    lead = chapters[:index]
    if lead and len({c.path for c in lead}) > 1:
        return tuple(chapters)
    counted = tuple(replace(c, n=n) for n, c in enumerate(chapters[index:], start=number))
    if not lead:
        return counted
    start, end = lead[0], lead[-1]
    opening = AudioChapter(
        OPENING_CHAPTER, OPENING_TITLE, start.path, start.file_start_ms, end.file_end_ms, start.book_start_ms
    )
    return (opening, *counted)


def _first_named(numbers: Sequence[int | None]) -> tuple[int, int] | None:
    """Where a recording's own numbering starts, and at what number: its chapter one when nothing
    before it is numbered, else its first numbered chapter when every numbered one after it carries
    on from it (a lone number may be a title: "1984")."""
    if 1 in numbers and all(n is None for n in numbers[: numbers.index(1)]):
        return numbers.index(1), 1
    index = next((i for i, n in enumerate(numbers) if n is not None), None)
    if index is None:
        return None
    named = [(k, n) for k, n in enumerate(numbers[index:]) if n is not None]
    start = named[0][1]
    carries_on = len(named) > 1 and all(n == start + k for k, n in named)
    return (index, start) if start > 1 and carries_on else None


def told_apart_by_disc(chapters: Sequence[AudioChapter], folder: Path) -> list[AudioChapter]:
    """A title that tracks of a folder share (each disc's "Track 01", untagged) is told apart by the
    disc folder its track is in ("CD 2, Track 01"): two chapters of one name are no place to go."""
    shared = {title for title, count in Counter(c.title for c in chapters).items() if count > 1}
    return [
        replace(c, title=f"{Path(c.path).parent.name}, {c.title}")
        if c.title in shared and Path(c.path).parent != folder
        else c
        for c in chapters
    ]


def audiobook_of(tracks: Sequence[TrackInfo], where: Path) -> Audiobook:
    """One file, or a folder's tracks: chapters from each file's markers, else one per file."""
    if not tracks:
        raise BadInput(where, f"has no audio files ({' '.join(AUDIO_EXTENSIONS)})")
    ordered = track_order(tracks, where)
    chapters: list[AudioChapter] = []
    book_ms = 0
    for track in ordered:
        if track.duration_ms <= 0:
            raise BadInput(track.path, "has no audio in it (its length is zero)")
        chapters += _chapters_of(track, chapters[-1].n + 1 if chapters else 1, book_ms)
        book_ms += track.duration_ms
    single = len(ordered) == 1
    title_tags = FILE_TITLE_TAGS if single else FOLDER_TITLE_TAGS
    tagged = _first_tag(ordered, title_tags)
    return Audiobook(
        title=tagged or (_file_title(str(where)) if single else where.name),
        title_tag=tagged,
        author=_first_tag(ordered, AUTHOR_TAGS),
        narrator=_first_tag(ordered, NARRATOR_TAGS),
        chapters=numbered_as_named(chapters if single else told_apart_by_disc(chapters, where)),
        files=tuple(t.path for t in ordered),
        cut_short=tuple(
            f"{Path(t.path).name} ends at {clock(t.duration_ms)}, not at the {clock(t.said_ms)} it says: "
            "it may have been cut short (a download that stopped), and the rest of the book is not in it"
            for t in ordered
            if t.said_ms is not None
        ),
        unmarked=single and not _markers_of(ordered[0]),
    )
