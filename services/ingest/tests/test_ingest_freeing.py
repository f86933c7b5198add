"""Which files a removed book takes with it (the rule alone; `tests/test_remove_book.py` runs it)."""

from dataclasses import dataclass
from pathlib import Path

from bedside_ingest.freeing import StoredFiles, files_of, only_theirs

OWN = Path("/data/bedside/audio")
RECORDING = "0123456789abcdef0123456789abcdef.m4b"
COVER = "fedcba9876543210fedcba9876543210.jpg"


@dataclass(frozen=True)
class Named:
    audio_path: str | None
    audio_object: str | None
    cover_object: str | None
    cover_path: str | None = None


def artifact(audio_path: str | None, audio_object: str | None, cover: str | None = None) -> Named:
    return Named(audio_path, audio_object, cover)


def test_only_paths_in_bedsides_own_folders_are_its_to_delete() -> None:
    made = files_of(artifact(f"{OWN}/joined.m4b", RECORDING, COVER), [OWN])
    assert made == StoredFiles(frozenset({RECORDING, COVER}), frozenset({OWN / "joined.m4b"}))
    listeners = files_of(artifact("/home/anna/books/tide.m4b", RECORDING), [OWN])
    assert listeners == StoredFiles(frozenset({RECORDING}), frozenset())
    # A path that only looks inside (".." out of it) is judged where it leads.
    assert files_of(artifact(f"{OWN}/../../anna/tide.m4b", RECORDING), [OWN]).paths == frozenset()


def test_what_a_kept_book_names_stays() -> None:
    removed = [files_of(artifact(f"{OWN}/joined.m4b", RECORDING, COVER), [OWN])]
    kept = [files_of(artifact(f"{OWN}/joined.m4b", RECORDING), [OWN])]
    assert only_theirs(removed, kept) == StoredFiles(frozenset({COVER}), frozenset())
    assert only_theirs(removed, []) == removed[0]
    assert only_theirs([], kept) == StoredFiles()
