"""The book as ingest hands it over, the request that asks for it, and the events that announce it."""

import unicodedata
from typing import Annotated, Any, Literal

from bedside_guard import Passage
from pydantic import BeforeValidator, Field, model_validator

from bedside_contracts.common import Contract, MediaName, Millis, Name
from bedside_contracts.search import ChapterInfo, TimesFrom, TranscriptCoverage, times_from_format

EMBEDDING_DIMENSIONS = 384

Version = Annotated[str, Field(min_length=8, max_length=64)]
"""A book's version: ingest makes it a hash of the content, so the same content has the same version."""

LONGEST_TITLE = 300
"""The most characters a book's title or author is given or kept with: a tag of thousands pans a
phone's page sideways, and no library shows one whole."""


class BookArtifact(Contract):
    """Everything search needs to serve a book, stored whole in the JetStream object store.

    ``vectors_b64`` holds one float32 (little-endian) dense vector per passage, in the
    order of ``passages``, base64-encoded: compact and exact. Passage ids are stable
    integers within a book (its passages numbered in order from 0).
    """

    book: Name
    version: Version
    title: str
    author: str = ""
    narrator: str = ""
    estimated: bool
    times_from: TimesFrom = Field(
        default="file",
        description="when absent (every book read from a file, and any artifact stored before the "
        "field was), the format its ``source`` names says (``times_from_format``)",
    )
    duration_ms: Millis
    audio_path: str | None = None
    cover_path: str | None = Field(
        default=None, description="the recording's cover image, on ingest's machine"
    )
    audio_object: MediaName | None = Field(
        default=None, description="the recording in the media bucket, for a player on another machine"
    )
    cover_object: MediaName | None = Field(default=None, description="the cover in the media bucket")
    source: str
    chapters: list[ChapterInfo]
    passages: list[Passage]
    embedding_model: str
    vectors_b64: str
    transcript: TranscriptCoverage | None = Field(
        default=None, description="set on an interim version: the recording is still being transcribed"
    )
    silent_chapters: list[int] = Field(
        default_factory=list,
        description="the chapters of a recording in which nothing was heard: listed by their times, "
        "with no passages",
    )

    @model_validator(mode="before")
    @classmethod
    def _times_from_its_source(cls, data: Any) -> Any:
        if isinstance(data, dict) and "times_from" not in data:
            book_format = str(data.get("source", "")).split(": ", 1)[0]
            return {**data, "times_from": times_from_format(book_format)}
        return data


class MadeFrom(Contract):
    """The file (or folder) a book was read from, on ingest's machine: another file that happens to
    have the same name is another book (``bedside_ingest.identity``)."""

    path: str = Field(min_length=1, max_length=4096)
    fingerprint: str = Field(
        min_length=16, max_length=64, description="of the content: a copy of the file has the same one"
    )


class BookIngested(Contract):
    """A new version of a book is in the object store under ``object_name``.

    Published on ``subjects.BOOK_INGESTED`` with ``Nats-Msg-Id = "{book}:{version}"``, followed
    by ``:after-{seq}`` when the book was announced before, ``seq`` being that announcement's.
    ``transcript`` is set when the version is interim (adr/0032): the chapters transcribed so
    far, while the job goes on; the whole book's version, announced last, has none.
    """

    book: Name
    version: str
    object_name: str
    title: str
    transcript: TranscriptCoverage | None = None
    made_from: MadeFrom | None = Field(
        default=None, description="absent on what was announced before books said what they were made from"
    )
    withdrawn: bool = Field(
        default=False,
        description="the book is served no more: it was removed (``RemoveBook``), or the job whose "
        "interim versions it held failed (``version`` names the last of them)",
    )


class BookReady(Contract):
    """Search has indexed ``version`` of ``book`` and serves it from now on."""

    book: Name
    version: str
    passages: int


class IngestBook(Contract):
    """Ask the ingest service to read a file on its own machine and make it a book.

    ``path`` is a timed transcript (WebVTT, SRT, Whisper JSON, aeneas JSON, a SMIL sync
    map or a directory of them), a book without timing (EPUB, plain text, a JSON book), or
    an audiobook (an m4b/m4a, mp3, ogg/opus, flac or wav file, or a folder of tracks), which
    is transcribed as a resumable job.
    Without ``book`` the id is made from the file name; without ``title`` it comes from
    the file. ``chapters_path`` names a chapters file (JSON list of ``{title, start}``);
    without it a ``chapters.json`` or ``<stem>.chapters.json`` beside ``path`` is used.
    """

    path: str = Field(min_length=1, max_length=4096)
    book: Name | None = None
    title: str | None = Field(default=None, min_length=1, max_length=LONGEST_TITLE)
    audio_path: str | None = Field(default=None, min_length=1, max_length=4096)
    chapters_path: str | None = Field(default=None, min_length=1, max_length=4096)
    text_path: str | None = Field(
        default=None,
        min_length=1,
        max_length=4096,
        description="with an audiobook: its e-book (EPUB, text, JSON book), whose words become the "
        "transcript, timed from the recording",
    )
    job: Name | None = Field(default=None, description="progress goes to INGEST_PROGRESS for this job")
    replace: bool = Field(
        default=False,
        description="``book`` may name a book made from another file, which this one then replaces (its "
        "listeners keep their places, held within the new book: ADR 81); without it that is refused",
    )


Stage = Literal["parse", "transcribe", "align", "chunk", "embed", "store"]


class TranscriptionProgress(Contract):
    """How far the transcription of an audiobook has got, after each chapter."""

    chapter: int = Field(ge=0, description="chapters finished so far, counting those stored before")
    chapters: int = Field(ge=1)
    resumed: int = Field(ge=0, description="chapters whose transcript was stored by an earlier run")
    audio_done_s: float = Field(ge=0)
    audio_total_s: float = Field(ge=0)
    rtf: float | None = Field(default=None, ge=0, description="seconds computing per second of audio")
    eta_s: float | None = Field(default=None, ge=0)


class IngestProgress(Contract):
    """One step of one ingest job, on ``subjects.INGEST_PROGRESS.format(job=...)`` (core NATS)."""

    job: Name
    stage: Stage
    done: int = Field(ge=0)
    total: int = Field(ge=0)
    detail: str = ""
    transcription: TranscriptionProgress | None = None


class SpokenWordTimes(Contract):
    """A recognised word and its times on the chapter's own clock (from the chapter's start)."""

    text: str = Field(min_length=1)
    start_ms: Millis
    end_ms: Millis


class ChapterTranscript(Contract):
    """What the recogniser heard in one chapter of an audiobook: stored as soon as the chapter is
    done (bucket ``subjects.TRANSCRIPTS_BUCKET``), so a job that is restarted resumes after it.
    """

    chapter: int = Field(ge=0)
    model: str
    audio_ms: Millis
    compute_s: float = Field(ge=0)
    words: list[SpokenWordTimes]


class PieceTranscript(Contract):
    """What the recogniser heard in one piece of a chapter, stored as each piece is done (same
    bucket), so a long chapter stopped halfway resumes at its first piece not yet heard.
    """

    chapter: int = Field(ge=0)
    piece: int = Field(ge=0, description="its place in the chapter, from 0")
    offset: int = Field(ge=0, description="its first sample in the chapter's audio, at 16 kHz")
    samples: int = Field(ge=1, description="how many samples it holds")
    compute_s: float = Field(ge=0)
    words: list[SpokenWordTimes] = Field(description="on the chapter's clock")


JobState = Literal["queued", "running", "done", "failed", "cancelled"]
UNFINISHED: tuple[JobState, ...] = ("queued", "running")


class IngestJob(Contract):
    """An audiobook ingest as a job (bucket ``subjects.INGEST_JOBS_BUCKET``, key = job id): a
    service that starts and finds a job queued or running runs it again, from its stored chapters.
    """

    job: Name
    request: IngestBook
    state: JobState
    book: Name | None = Field(default=None, description="the book made, once done")
    reason: str = Field(default="", description="why it failed or was cancelled")
    note: str = Field(
        default="",
        description="once done, what the listener should know of the book made: its e-book set aside",
    )
    progress: TranscriptionProgress | None = Field(default=None, description="as of the last chapter done")
    interrupted: int = Field(
        default=0, ge=0, description="how often the service stopped while it ran (a crash, a kill, a restart)"
    )

    @model_validator(mode="before")
    @classmethod
    def _from_a_record_with_one_detail(cls, data: Any) -> Any:
        """Jobs recorded before the book and the reason had fields of their own held either in one."""
        if isinstance(data, dict) and "detail" in data:
            record = {key: value for key, value in data.items() if key != "detail"}
            said = data["detail"] or None
            return record | ({"book": said} if data.get("state") == "done" else {"reason": said or ""})
        return data


UPLOAD_MAX_BYTES = 4 * 1024**3
"""The largest file a device may send. An audiobook of 40 hours at 128 kbit/s is 2.3 GB; twice that
leaves room for a richer encoding."""


LONGEST_FILE_NAME = 255
"""The most characters a sent file's name is kept with, as most disks bound a name."""
LONGEST_FILE_NAME_SENT = 512
"""The most characters a device may send as a file's name, before it is made plain and cut: in a query,
each may take twelve (an emoji, escaped), and an address much longer is refused by the HTTP server
before Bedside reads it."""
UNNAMED = "unnamed"
"""The name a file is kept by when nothing of the name sent is left, or only its type (".m4b")."""
_KEPT_SUFFIX_CHARS = 16
_NO_PART_OF_A_NAME = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control and format characters (a line break, a right-to-left override), and no characters at all."""


def plain_file_name(sent: str) -> str:
    """A name a device sent for a file, as it is shown and kept: its last part only (a device's
    folders are not Bedside's), without control or format characters, spaces single, without the
    dots and spaces Windows drops from a name's end ("Book.m4b." is "Book.m4b" there, and its suffix
    says what it is), at most ``LONGEST_FILE_NAME`` characters with its suffix kept. Made plain again
    it is the same. Nothing left of it, it is ``UNNAMED``; only its type (".m4b": no disk takes that as a
    suffix), that type after ``UNNAMED``: the book's title comes from its tags or the listener, and the
    name is only what the file is told by. ``ValueError`` when it is longer than any name a device gives."""
    if len(sent) > LONGEST_FILE_NAME_SENT:
        raise ValueError(f"a file's name is at most {LONGEST_FILE_NAME_SENT} characters")
    last = sent.replace("\\", "/").rpartition("/")[2]
    kept = "".join(c for c in last if unicodedata.category(c) not in _NO_PART_OF_A_NAME)
    # composed once what stood between a letter and its accent is out, so the name is composed for good
    name = _without_windows_end(" ".join(unicodedata.normalize("NFC", kept).split()))
    if name == "":
        return UNNAMED
    if len(name) > LONGEST_FILE_NAME:
        stem, dot, suffix = name.rpartition(".")
        tail = f".{suffix}" if dot and stem and len(suffix) <= _KEPT_SUFFIX_CHARS else ""
        name = _without_windows_end((stem if tail else name)[: LONGEST_FILE_NAME - len(tail)]) + tail
    stem, dot, _ = name.rpartition(".")
    return f"{UNNAMED}{name}" if dot and _without_windows_end(stem) == "" else name


def _without_windows_end(name: str) -> str:
    return name.rstrip(". ")


def _plain_if_text(sent: object) -> object:
    return plain_file_name(sent) if isinstance(sent, str) else sent


SentFileName = Annotated[
    str, BeforeValidator(_plain_if_text), Field(min_length=1, max_length=LONGEST_FILE_NAME)
]
"""A file's name as a device sent it, made plain (``plain_file_name``) wherever it is read."""


class UploadedFile(Contract):
    """A file a device sent, held in the uploads bucket as ``upload`` until ingest takes it."""

    upload: Name
    filename: SentFileName = Field(
        description="as the device named it, made plain: its suffix says what it is, the rest may name "
        "the book",
    )
    size: int = Field(ge=1, le=UPLOAD_MAX_BYTES, description="bytes, as stored")


EMPTY_FILE = "is an empty file (0 bytes)"
"""Said of a file sent with nothing in it, before it is sent and once it has arrived."""


class UploadNames(Contract):
    """The names of the files a device is about to send (``subjects.INGEST_CHECK_UPLOAD``): a file
    no book could be made of is refused before its bytes are sent, not after."""

    recording: SentFileName
    ebook: SentFileName | None = None
    recording_bytes: int | None = Field(default=None, ge=0, description="its size: room for it is checked")
    ebook_bytes: int | None = Field(default=None, ge=0)


class UploadNamesAccepted(Contract):
    """Files of these names may be sent; what they hold is checked once they have arrived."""


class AddUploadedBook(Contract):
    """Make a book of an audiobook sent from a device (``subjects.INGEST_UPLOADED``): ingest takes
    the files out of the uploads bucket onto its own disk and starts the job. The reply is the job,
    queued; its progress is asked for with ``JobsRequest``."""

    recording: UploadedFile
    ebook: UploadedFile | None = Field(default=None, description="its e-book, whose words are timed from it")
    title: str | None = Field(default=None, min_length=1, max_length=LONGEST_TITLE)


class JobsRequest(Contract):
    """Ask ingest for its audiobook jobs (``subjects.INGEST_JOBS``); ``job`` for one of them."""

    job: Name | None = None


class JobList(Contract):
    jobs: list[IngestJob]


class RemoveBook(Contract):
    """Serve a book no more (``subjects.INGEST_REMOVE``): its newest version is withdrawn, and search
    drops it. Every listener's place in it is kept. Its stored versions are kept too, so ingesting
    the same file again brings it back as it was, unless ``delete_files`` is asked."""

    book: Name
    delete_files: bool = Field(
        default=False,
        description="also delete what Bedside stored of it (its versions, and the recording and cover"
        " Bedside keeps when no other book has them), to make room; ingesting it again starts afresh",
    )


class BookRemoved(Contract):
    book: Name
    title: str
    version: str = Field(description="the version withdrawn")
    freed_bytes: int = Field(default=0, ge=0, description="what deleting its files gave back")


class CancelJob(Contract):
    """Stop a queued or running job (``subjects.INGEST_CANCEL``); its stored chapters are kept,
    so asking for the same recording again continues where it stopped."""

    job: Name


class AlignmentSummary(Contract):
    """How an e-book given with an audiobook matched the recording."""

    sentences: int = Field(ge=0, description="e-book sentences in the chapters paired with the recording")
    matched: int = Field(ge=0, description="sentences timed by their own words")
    interpolated: int = Field(ge=0, description="sentences timed between matched neighbours")
    left_out: int = Field(ge=0, description="e-book sentences the recording does not hold")
    matched_share: float = Field(ge=0, le=1, description="matched / (matched + interpolated)")
    recording_share: float = Field(ge=0, le=1, description="share of the words heard found in the e-book")
    fallback: str = Field(default="", description="why the recogniser's words were kept instead")


class IngestReport(Contract):
    """The reply to ``IngestBook``: what was stored, or that it was there already."""

    book: Name
    version: Version
    object_name: str
    title: str
    chapters: int
    passages: int
    duration_ms: Millis
    estimated: bool
    transcribed: bool = Field(default=False, description="the times (and words) come from the recording")
    times_from: TimesFrom = "file"
    alignment: AlignmentSummary | None = None
    notes: list[str] = Field(
        default_factory=list, description="what the listener should know of the book made: a file cut short"
    )
    unchanged: bool = Field(description="this content was stored before; nothing was written")
    taken_id: Name | None = Field(
        default=None,
        description="the id the file's name gives, which a book made from another file has: this "
        "book was given ``book`` beside it",
    )
    seconds: float = Field(ge=0)
    stage_seconds: dict[str, float] = Field(default_factory=dict)
