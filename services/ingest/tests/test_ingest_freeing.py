"""Which files a removed book takes with it (the rule alone; `tests/test_remove_book.py` runs it)."""

from dataclasses import dataclass
from pathlib import Path

from bedside_ingest.freeing import OwnFolders, StoredFiles, files_of, only_theirs

DATA = Path("/data/bedside")
OWN = OwnFolders(uploads=DATA / "uploads", covers=DATA / "covers", joined=DATA / "audio")
RECORDING = "0123456789abcdef0123456789abcdef.m4b"
COVER = "fedcba9876543210fedcba9876543210.jpg"


@dataclass(frozen=True)
class Named:
    audio_path: str | None
    audio_object: str | None
    cover_object: str | None = None
    cover_path: str | None = None


def test_a_taken_upload_goes_with_its_job_folder_and_its_e_book() -> None:
    taken = files_of(Named(f"{DATA}/uploads/job1/tide.m4b", RECORDING), OWN)
    assert taken == StoredFiles(frozenset({RECORDING}), frozenset({DATA / "uploads" / "job1"}))


def test_joined_tracks_go_with_the_starts_kept_beside_them_and_a_cover_alone() -> None:
    joined = files_of(Named(f"{DATA}/audio/abc.mp3", RECORDING, COVER, f"{DATA}/covers/c.jpg"), OWN)
    assert joined.paths == {
        DATA / "audio" / "abc.mp3",
        DATA / "audio" / "abc.starts.json",
        DATA / "covers" / "c.jpg",
    }
    assert joined.objects == {RECORDING, COVER}


def test_a_file_given_by_path_is_never_bedsides_to_delete() -> None:
    assert files_of(Named("/home/anna/books/tide.m4b", RECORDING), OWN) == StoredFiles(frozenset({RECORDING}))
    # A path that only looks inside (".." out of it) is judged where it leads.
    assert files_of(Named(f"{DATA}/audio/../../anna/tide.m4b", RECORDING), OWN).paths == frozenset()
    assert files_of(Named(f"{DATA}/uploads", RECORDING), OWN).paths == frozenset()


def test_what_a_kept_book_names_stays() -> None:
    removed = [files_of(Named(f"{DATA}/audio/abc.mp3", RECORDING, COVER), OWN)]
    kept = [files_of(Named(f"{DATA}/audio/abc.mp3", RECORDING), OWN)]
    assert only_theirs(removed, kept) == StoredFiles(frozenset({COVER}))
    assert only_theirs(removed, []) == removed[0]
    assert only_theirs([], kept) == StoredFiles()
