"""The files a request names, looked at and checked against ``accepted.py`` before any work: by
``bedside ingest`` before it sends anything, and by the service before it starts a job, so a
request from anywhere meets the same refusals."""

from collections.abc import Sequence
from pathlib import Path

from bedside_contracts.ingest import IngestBook

from bedside_ingest.accepted import Named, check_named
from bedside_ingest.audiobook import is_recording
from bedside_ingest.errors import BadInput, unreadable
from bedside_ingest.folders import files_in, is_disc_folder, sync_maps
from bedside_ingest.reader import read_book


def book_given(paths: Sequence[Path]) -> Path:
    """The one file or folder a book is made from: a folder's tracks given one by one (a shell's
    ``Book/*.mp3``) are that folder; any other several paths are refused, saying what to give (one
    disc's tracks are part of a book)."""
    if len(paths) == 1:
        return paths[0]
    folders = {path.resolve().parent for path in paths}
    several = f"{len(paths)} files given: a book is one file or one folder of tracks"
    if len(folders) != 1:
        raise BadInput(paths[0], f"{several} (give one folder)")
    folder = folders.pop()
    if is_disc_folder(folder.name):
        raise BadInput(folder, f"one disc's tracks: give the folder that holds the discs ({folder.parent})")
    try:
        tracks = {entry for entry in files_in(folder) if is_recording(entry, None)}
    except OSError as error:
        raise unreadable(error.filename or folder, error) from None
    if tracks != {path.resolve() for path in paths}:
        raise BadInput(paths[0], f"{several} (give the folder {folder})")
    return folder


def check_given(path: Path, *, audio: Path | None, chapters: Path | None, text: Path | None) -> None:
    """Each file there, of a kind ingest reads, with options that go with it; ``BadInput`` if not."""
    try:
        for given in (path, audio, chapters, text):
            if given is not None and not given.exists():
                raise BadInput(given, "does not exist")
        folder = path.is_dir()
        entries = files_in(path) if folder else None
        for given in (*(entries if entries is not None else [path]), audio, chapters, text):
            if given is not None and not given.is_dir():  # a folder where a file goes: check_named says so
                _refuse_unopenable(given)
    except OSError as error:  # a folder that cannot be listed or entered
        raise unreadable(error.filename or path, error) from None
    maps = bool(sync_maps(entries or ()))
    check_named(
        Named(path, folder, is_recording(path, entries), maps, audio=audio, chapters=chapters, text=text)
    )


def check_request(request: IngestBook) -> None:
    def named(value: str | None) -> Path | None:
        return Path(value) if value is not None else None

    check_given(
        Path(request.path),
        audio=named(request.audio_path),
        chapters=named(request.chapters_path),
        text=named(request.text_path),
    )


def _refuse_unopenable(path: Path) -> None:
    """The system's words ("Permission denied") are the listener's to act on; found later, while
    the book's files are told apart or read, they would be an internal error."""
    try:
        with path.open("rb") as file:
            file.read(1)
    except OSError as error:
        raise unreadable(path, error) from None


def is_audiobook(path: Path) -> bool:
    return is_recording(path, files_in(path) if path.is_dir() else None)


def timed_by_its_recording(request: IngestBook) -> IngestBook:
    """An e-book sent with its recording (``--audio``) is that audiobook with its e-book (``--text``):
    its words are timed by transcribing the recording. Spread over it by reading rate, they ran
    ahead of a reading that opens with credits or pauses, and the guard took unread words for heard."""
    if request.audio_path is None or request.chapters_path is not None or is_audiobook(Path(request.path)):
        return request
    if not read_book(request.path).estimated:
        return request  # a timed transcript: the recording is only what the page plays
    return request.model_copy(
        update={
            "path": request.audio_path,
            "audio_path": None,
            "text_path": request.path,
        }
    )
