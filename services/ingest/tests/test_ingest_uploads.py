"""A file's name as a device sent it, made a safe name on ingest's disk (``uploads.local_name``)."""

import pytest
from bedside_ingest.uploads import local_name


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Black Beauty.m4b", "Black Beauty.m4b"),
        ("The Hound (Unabridged), Part 1.mp3", "The Hound (Unabridged), Part 1.mp3"),
        ("Les Misérables.m4b", "Les Misérables.m4b"),
        ("C:\\Users\\me\\Audiobooks\\Emma.m4b", "Emma.m4b"),  # a Windows browser's whole path
        ("../../etc/passwd", "passwd"),
        ("/abs/book.mp3", "book.mp3"),
        (".hidden.m4b", "hidden.m4b"),
        (".m4b", "upload.m4b"),
        ("book.M4B", "book.M4B"),
        ("bad\x00name\n.mp3", "bad_name_.mp3"),
        ("what?*<>|.epub", "what_____.epub"),
        ("..", "upload"),
        ("noextension", "noextension"),
    ],
)
def test_a_sent_name_keeps_its_last_part_and_suffix_and_nothing_unsafe(sent: str, kept: str) -> None:
    assert local_name(sent) == kept


@pytest.mark.parametrize(
    "sent", ["Война и мир, читает " + "Иванов " * 30 + ".mp3", "三体" * 60 + ".m4b", "é" * 255]
)
def test_a_sent_name_fits_a_file_name_on_disk_and_keeps_its_suffix(sent: str) -> None:
    """A name of 255 characters may be 510 or 765 bytes, and a disk takes 255 bytes of a name: a
    long Cyrillic or Chinese name was taken, and asking for its book failed ("File name too long")
    with a 503 every time."""
    kept = local_name(sent)
    stem, suffix = sent.rsplit(".", 1) if "." in sent else (sent, "")
    assert len(kept.encode()) <= 255
    assert kept == stem[: len(kept) - len(suffix) - bool(suffix)] + ("." if suffix else "") + suffix


def test_a_name_that_is_all_suffix_is_named_upload_and_still_fits_a_disk() -> None:
    """A review: the stand-in name was put on after the cut, making 260 bytes of 255."""
    assert local_name("." + "x" * 253) == "upload"
    assert local_name("." + "x" * 248) == "upload." + "x" * 248
