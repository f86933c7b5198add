"""What ``bedside ingest`` accepts, by the names of the files it is given, without I/O: the one
list that the command's help, its refusals before any work, and the service's readers share.

Every kind of audio listed was seen read and transcribed from a real file (espeak-ng speech
written by PyAV): .m4b, .m4a and .mp3 with their chapter markers, .ogg (Vorbis), .opus, .flac
and .wav. Raw AAC (.aac, ADTS) is refused: it has no index, so FFmpeg only estimates its length
(22.3 s for 17.8 s of speech) and a player seeks in it by guesswork.
"""

import re
from dataclasses import dataclass
from pathlib import PurePath

from bedside_contracts.ingest import EMPTY_FILE

from bedside_ingest.errors import BadInput

AUDIO_EXTENSIONS = (".m4b", ".m4a", ".mp3", ".ogg", ".opus", ".flac", ".wav")
TRANSCRIPT_KINDS = {".vtt": "webvtt", ".srt": "srt", ".json": "json", ".smil": "smil"}
"""A ``.json`` is a Whisper, echogarden or aeneas transcript, or else a JSON book (untimed)."""
TEXT_KINDS = {".epub": "epub", ".txt": "text", ".text": "text", ".md": "text"}
BY_EXTENSION = TRANSCRIPT_KINDS | TEXT_KINDS
FILE_TYPES = frozenset((*AUDIO_EXTENSIONS, *BY_EXTENSION))
E_BOOK_EXTENSIONS = (".epub", ".txt", ".text", ".md", ".json")
CHAPTERS_EXTENSIONS = (".json", ".vtt")

DRM_REASON = (
    "is an Audible file protected by DRM (encrypted); Bedside cannot read it. "
    "Use an m4b, mp3 or other audio file you can play without Audible's app"
)
RAW_AAC_REASON = (
    "is raw AAC (.aac): it has no index, so its length and the places in it are only estimated. "
    "Put it in an .m4a without re-encoding first, e.g. `ffmpeg -i book.aac -c copy book.m4a`"
)
REFUSED_AUDIO = {".aa": DRM_REASON, ".aax": DRM_REASON, ".aaxc": DRM_REASON, ".aac": RAW_AAC_REASON}
"""Audio that is refused with its reason, never read as anything else."""

AUDIO_HELP = " ".join(AUDIO_EXTENSIONS)
PATH_HELP = (
    f"an audiobook ({AUDIO_HELP}, or a folder of such tracks or of its discs' folders), transcribed offline; "
    "a timed transcript (.vtt .srt, Whisper or aeneas .json, .smil or a folder of .smil sync maps, "
    "an .epub with media overlays); or an e-book to time by reading rate (.epub .txt .md, a JSON book "
    '{"title", "author", "chapters": [{"n", "title", "text"}]}). '
    "Not raw .aac (put it in an .m4a) nor Audible's .aa/.aax"
)
CHAPTERS_HELP = (
    'with a timed transcript only: a JSON list of {"title", "start"} (start in seconds or '
    '"H:MM:SS"), a JSON object {"title", "author", "chapters": that same list}, or a WebVTT '
    "chapters track (.vtt: each cue's text a title, its start the chapter's). Default: "
    "<name>.chapters.json or chapters.json beside PATH. An audiobook's chapters come from its "
    "markers or tracks, a text's from its headings"
)
AUDIO_OPTION_HELP = (
    f"with a transcript: the narration's audio ({AUDIO_HELP}), which the page plays; with an e-book, "
    "the audiobook it is transcribed from and timed by, as with --text"
)
TEXT_HELP = (
    "with an audiobook: its e-book (.epub .txt .md, or a JSON book), whose words become the "
    "transcript, timed by the recording"
)
READABLE = (
    f"audio ({AUDIO_HELP}) or a folder of tracks, WebVTT (.vtt), SRT (.srt), Whisper/aeneas JSON or "
    "a JSON book (.json), SMIL (.smil), EPUB (.epub), text (.txt, .md)"
)


SUBTITLE_KINDS = (".vtt", ".srt")
# The languages audiobooks are most sold in, written lower-case as subtitle files name them: a list,
# not any two letters, so that "the.old.man.and.the.sea.vtt" keeps its sea. A code that is also a
# word ("it", "no", "spa", "uk") is taken only with its region ("it-IT"): "dr.no.vtt" is Dr. No.
_LANGUAGES = (
    "en|eng|de|deu|ger|fr|fra|fre|es|ita|nl|nld|dut|pt|ru|rus|ja|jpn|zh|zho|sv|swe|da|nb|fi|pl|pol|cs|"
    "ces|cze|tr|tur|ell|gre|ko|kor|ukr"
)
_WORDS_TOO = "it|no|nor|spa|por|chi|dan|fin|hun|uk|el"
_LANGUAGE_TAG = re.compile(
    rf"\.(?:(?:{_LANGUAGES})(?:[-_][A-Za-z]{{2,4}})?|(?:{_WORDS_TOO})[-_][A-Za-z]{{2,4}})"
)


def name_without_type(path: PurePath) -> str:
    """A file's name without the suffixes naming kinds of file Bedside reads ("Book.mp3.vtt", as
    whisper.cpp names a transcript, is "Book"): its other dots are the name's ("Dr. Jekyll and Mr.
    Hyde.m4b" is "Dr. Jekyll and Mr. Hyde")."""
    transcript = suffix_of(path) in SUBTITLE_KINDS
    while path.stem and suffix_of(path) in FILE_TYPES:
        path = PurePath(path.stem)
    if transcript and path.stem and _LANGUAGE_TAG.fullmatch(path.suffix):
        return path.stem  # "Story.en.vtt", as subtitles name their language, is "Story"
    return path.name


def suffix_of(name: PurePath) -> str:
    return name.suffix.lower()


def is_audio_name(name: PurePath) -> bool:
    return suffix_of(name) in AUDIO_EXTENSIONS


def refuse_unreadable_audio(name: PurePath) -> None:
    """An Audible or raw AAC file, refused with its reason."""
    reason = REFUSED_AUDIO.get(suffix_of(name))
    if reason is not None:
        raise BadInput(name, reason)


def _kind_word(suffix: str) -> str:
    return repr(suffix) if suffix else "(no extension)"


NOTHING_IN_THE_FOLDER = (
    'is a folder with no audio tracks in it, nor in folders of its discs ("CD 1"), nor sync maps: '
    "add one book's own folder or file"
)


@dataclass(frozen=True)
class Named:
    """What ``bedside ingest`` was given, by name: ``recording`` says whether PATH is an audiobook
    (an audio file, or a folder holding audio tracks: the caller looked)."""

    path: PurePath
    folder: bool
    recording: bool
    sync_maps: bool = False
    """A folder holding SMIL sync maps."""
    audio: PurePath | None = None
    chapters: PurePath | None = None
    text: PurePath | None = None


def check_named(named: Named) -> None:
    """Refuse, before any work, a file of a kind ingest does not read or an option that does not
    go with PATH (it would be ignored). Raises ``BadInput`` naming the file."""
    path = named.path
    if named.folder and not named.recording and not named.sync_maps:
        raise BadInput(path, NOTHING_IN_THE_FOLDER)
    if not named.folder:
        refuse_unreadable_audio(path)
        suffix = suffix_of(path)
        if not named.recording and suffix not in BY_EXTENSION:
            raise BadInput(path, f"unsupported file type {_kind_word(suffix)}; Bedside reads {READABLE}")
    if named.audio is not None:
        if named.recording:
            raise BadInput(
                named.audio, "--audio goes with a transcript or an e-book; an audiobook plays itself"
            )
        refuse_unreadable_audio(named.audio)
        if not is_audio_name(named.audio):
            raise BadInput(named.audio, f"--audio takes an audio file ({AUDIO_HELP})")
    if named.chapters is not None:
        if named.recording:
            raise BadInput(
                named.chapters,
                "--chapters goes with a timed transcript; an audiobook's chapters are its markers or tracks",
            )
        if TEXT_KINDS.get(suffix_of(path)) == "text":
            raise BadInput(
                named.chapters, "--chapters goes with a timed transcript; a text's chapters are its headings"
            )
        if suffix_of(named.chapters) not in CHAPTERS_EXTENSIONS:
            raise BadInput(
                named.chapters,
                "--chapters takes a JSON chapters file (.json) or a WebVTT chapters track (.vtt)",
            )
    if named.text is not None:
        if not named.recording:
            raise BadInput(named.text, "--text goes with an audiobook (audio) as PATH")
        if suffix_of(named.text) not in E_BOOK_EXTENSIONS:
            raise BadInput(named.text, "--text takes an e-book (.epub .txt .md, or a JSON book)")


def check_sent_names(
    recording: PurePath, ebook: PurePath | None, sizes: tuple[int | None, int | None] = (None, None)
) -> None:
    """Refuse, by their names and the ``sizes`` a device says they have (where it says), files
    sent from a device that could make no book: the recording must be audio of a kind ingest
    reads, the e-book an e-book, neither empty."""
    refuse_unreadable_audio(recording)
    if not is_audio_name(recording):
        raise BadInput(recording, f"is not an audiobook: send its recording ({AUDIO_HELP})")
    if ebook is not None and suffix_of(ebook) not in E_BOOK_EXTENSIONS:
        raise BadInput(ebook, "is not an e-book (.epub .txt .md, or a JSON book)")
    for name, size in zip((recording, ebook), sizes, strict=True):
        if name is not None and size == 0:  # refused before it is sent, not once it arrives
            raise BadInput(name, EMPTY_FILE)
