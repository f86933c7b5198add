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
