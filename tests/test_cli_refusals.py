"""What a person types wrong at the `bedside` commands is refused in a sentence, before the bus."""

import socket
import subprocess
from pathlib import Path

import pytest
from bedside_testing import run_bedside

SAID_PLAINLY = "letters, digits, '-' or '_'"


def bedside(*args: str) -> subprocess.CompletedProcess[str]:
    wide = {"COLUMNS": "300", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}  # one line per message
    return run_bedside(*args, env=wide, timeout_s=60)


@pytest.mark.parametrize("book_id", ["my book", "a/b", "x" * 500])
def test_a_book_id_that_is_not_an_id_is_refused_in_words(tmp_path: Path, book_id: str) -> None:
    text = tmp_path / "book.txt"
    text.write_text("Chapter 1\n\nTom had a red kite.\n")
    for args in (
        ("ingest", str(text), "--id", book_id),
        ("ask", "--book", book_id, "who is Tom?"),
        ("find", "--book", book_id, "the kite"),
        ("remove", book_id),
        ("jobs", "--attach", book_id),
        ("jobs", "--cancel", book_id),
    ):
        done = bedside(*args)
        said = done.stdout + done.stderr
        assert done.returncode != 0, args
        assert SAID_PLAINLY in " ".join(said.split()), said
        assert "pydantic" not in said, said
        assert "[A-Za-z0-9_-]" not in said, said


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    "args",
    [
        ("status",),
        ("listener", "add", "anna"),
        ("listener", "list"),
        ("listener", "remove", "anna"),
        ("pair",),
        ("replay",),
        ("books",),
        ("jobs",),
        ("remove", "sample"),
        ("ask", "--book", "sample", "where was I?"),
        ("ask", "where was I?"),  # no book named: the player is asked which, and cannot be
    ],
)
def test_a_command_run_while_bedside_is_down_says_so_and_exits(tmp_path: Path, args: tuple[str, ...]) -> None:
    # nothing listens on the port: the command must give up with one sentence, not retry for ever
    said = bedside_down(tmp_path, *args)
    assert "is Bedside running? start it with `bedside up`" in said, said


def bedside_down(tmp_path: Path, *args: str) -> str:
    """``bedside ARGS`` with nothing listening where the bus would be; all it said, on one line."""
    down = {
        "COLUMNS": "300",
        "NO_COLOR": "1",
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "BEDSIDE_DATA_DIR": str(tmp_path / "data"),
        "BEDSIDE_NATS_PORT": str(free_port()),
    }
    done = run_bedside(*args, env=down, timeout_s=60)
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 1, said
    assert "Traceback" not in said, said
    return said


def test_ingest_help_says_which_audio_files_and_which_chapters_files_it_takes() -> None:
    done = bedside("ingest", "--help")
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.replace("│", " ").split())
    # each seen read and transcribed (test_ingest_audiobook_reading.py)
    kinds = ".m4b .m4a .mp3 .ogg .opus .flac .wav"
    assert f"an audiobook ({kinds}, or a folder of such tracks or of its discs' folders)" in said, said
    assert "Not raw .aac (put it in an .m4a)" in said, said
    assert 'a JSON list of {"title", "start"} (start in seconds or "H:MM:SS")' in said, said
    assert 'a JSON object {"title", "author", "chapters": that same list}' in said, said
    assert "a WebVTT chapters track (.vtt" in said, said
    assert "An audiobook's chapters come from its markers or tracks" in said, said


def test_a_file_ingest_does_not_read_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    # Bedside is down: a refusal that names the file, not "is Bedside running?", shows nothing was sent.
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04")
    (tmp_path / "book.aac").write_bytes(b"\xff\xf1" + bytes(64))
    (tmp_path / "book.m4b").write_bytes(bytes(64))
    (tmp_path / "book.txt").write_text("Chapter 1\n\nTom had a red kite.\n")
    (tmp_path / "chapters.json").write_text('[{"title": "One", "start": 0}]')
    refusals = {
        ("notes.docx",): "notes.docx: unsupported file type '.docx'; Bedside reads audio (.m4b .m4a .mp3",
        ("book.aac",): "book.aac: is raw AAC (.aac)",
        ("book.m4b", "--chapters", "chapters.json"): "an audiobook's chapters are its markers or tracks",
        ("book.txt", "--chapters", "chapters.json"): "a text's chapters are its headings",
        ("book.txt", "--text", "book.txt"): "--text goes with an audiobook",
        ("book.m4b", "--text", "notes.docx"): "--text takes an e-book",
        ("book.txt", "--audio", "notes.docx"): "--audio takes an audio file (.m4b .m4a .mp3",
        ("missing.vtt",): "missing.vtt: does not exist",
    }
    for args, refusal in refusals.items():
        said = bedside_down(tmp_path, "ingest", *(str(tmp_path / a) if "." in a else a for a in args))
        assert refusal in said, (args, said)
        assert "is Bedside running?" not in said, (args, said)
