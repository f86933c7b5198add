"""Bad input is refused with a message that names the file and the line, cue or entry."""

import codecs
import json
import random
import re
import unicodedata
from pathlib import Path

import pytest
from bedside_ingest.errors import BadInput
from bedside_ingest.given import book_given, check_given
from bedside_ingest.reader import read_book
from bedside_ingest.text import odd_characters, undone_double_encoding


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def refused(path: Path, *, chapters: Path | None = None) -> str:
    with pytest.raises(BadInput) as caught:
        read_book(path, chapters_path=chapters)
    message = str(caught.value)
    assert str(path if chapters is None else chapters) in message or caught.value.path in message
    return message


def test_a_folders_tracks_given_one_by_one_are_that_folder(tmp_path: Path) -> None:
    """A listener session: `bedside ingest A/*.mp3` failed with "Got unexpected extra argument(s)"."""
    tracks = [tmp_path / f"{n} - Chapter {n}.mp3" for n in (1, 2, 10)]
    for track in [*tracks, tmp_path / "cover.jpg"]:
        track.write_bytes(b"x")
    assert book_given([tmp_path / "book.m4b"]) == tmp_path / "book.m4b"
    assert book_given(tracks) == tmp_path
    with pytest.raises(BadInput, match=r"2 files given: a book is one file or one folder of tracks \(give "):
        book_given(tracks[:2])


def test_one_discs_tracks_given_one_by_one_are_refused_naming_the_books_folder(tmp_path: Path) -> None:
    """(The second review) `bedside ingest Book/CD1/*.mp3` made disc 1 alone a book called "cd1"."""
    disc = tmp_path / "Book" / "CD1"
    disc.mkdir(parents=True)
    tracks = [disc / f"{n:02d}.mp3" for n in (1, 2)]
    for track in tracks:
        track.write_bytes(b"x")
    with pytest.raises(BadInput, match=r"one disc's tracks: give the folder that holds the discs \(.*Book\)"):
        book_given(tracks)


def test_missing_file(tmp_path: Path) -> None:
    assert "does not exist" in refused(tmp_path / "nope.vtt")


def test_empty_file(tmp_path: Path) -> None:
    assert "is empty" in refused(write(tmp_path, "empty.vtt", "  \n"))


def test_unsupported_extension(tmp_path: Path) -> None:
    assert "unsupported file type '.docx'" in refused(write(tmp_path, "book.docx", "hello"))


def test_audio_given_as_the_book(tmp_path: Path) -> None:
    assert "audiobook" in refused(write(tmp_path, "book.mp3", b"ID3\x03\x00"))


def test_content_that_does_not_match_the_extension(tmp_path: Path) -> None:
    message = refused(write(tmp_path, "story.vtt", "Once upon a time."))
    assert "named .vtt but its content looks like text" in message


def test_binary_text_file(tmp_path: Path) -> None:
    assert "is not text" in refused(write(tmp_path, "story.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff"))


STORY = (
    "The Inn\n\nChapter 1\n\n"
    "The caf\u00e9 was shut. \u201cNot tonight,\u201d said the keeper, and barred the door.\n"
)


@pytest.mark.parametrize("encoding", ["utf-16", "cp1252"])
def test_text_saved_in_another_common_encoding_is_read_as_its_words(tmp_path: Path, encoding: str) -> None:
    """Notepad's "Unicode" (UTF-16 with its byte-order mark) and the Windows-1252 of older e-texts were
    refused as "not UTF-8 text"; their words are read as the UTF-8 file's are."""
    as_utf8 = read_book(write(tmp_path, "utf8.txt", STORY))
    other = read_book(write(tmp_path, f"{encoding}.txt", STORY.encode(encoding)))
    assert [c.units for c in other.chapters] == [c.units for c in as_utf8.chapters]


def test_text_in_utf16_of_either_byte_order_is_read_as_its_words(tmp_path: Path) -> None:
    as_utf8 = read_book(write(tmp_path, "utf8.txt", STORY))
    for order, mark in (("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)):
        other = read_book(write(tmp_path, f"{order}.txt", mark + STORY.encode(order)))
        assert [c.units for c in other.chapters] == [c.units for c in as_utf8.chapters]


def bytes_decoding_as_utf16(seed: int, size: int) -> bytes:
    """Random bytes that are whole UTF-16 (little-endian) code units, none of them half a pair."""
    units = bytearray(random.Random(seed).randbytes(size))
    for high in range(1, size, 2):
        if 0xD8 <= units[high] <= 0xDF:
            units[high] = 0x4E  # a CJK ideograph instead
    return bytes(units)


def test_a_binary_file_behind_a_utf16_mark_is_not_read_as_text(tmp_path: Path) -> None:
    """A binary file named .txt that began with a UTF-16 byte-order mark was read as a book of
    ideographs and private-use characters."""
    for seed in range(3):
        noise = codecs.BOM_UTF16_LE + bytes_decoding_as_utf16(seed, 4_000)
        noise.decode("utf-16")  # as the reader once took it: no error
        assert "is not text" in refused(write(tmp_path, f"noise{seed}.txt", noise))


QUOTED = (
    "The Inn\n\nChapter 1\n\n"
    "\u201cIt\u2019s shut,\u201d she said. \u201cWe\u2019re shut, and you\u2019re late.\u201d "
    "The keeper\u2019s lamp went out.\n"
)


def as_windows_reads_it(utf8: bytes) -> str:
    """UTF-8 bytes decoded as Windows-1252 the way Windows does, its five unused bytes kept as the C1
    control characters of the same number."""
    return "".join(bytes([byte]).decode("cp1252", errors="ignore") or chr(byte) for byte in utf8)


@pytest.mark.parametrize("misread", ["latin-1", "windows-1252"])
def test_an_etext_encoded_twice_is_read_as_its_words(tmp_path: Path, misread: str) -> None:
    """A listener's e-text, its UTF-8 once read as Latin-1 and saved again as UTF-8 (each \u2019 became
    "\u00e2" and two C1 control characters), was refused as "not text: 11%"; before, it was read as
    that garble."""
    as_utf8 = read_book(write(tmp_path, "utf8.txt", QUOTED))
    utf8 = QUOTED.encode("utf-8")
    garbled = utf8.decode("latin-1") if misread == "latin-1" else as_windows_reads_it(utf8)
    twice = read_book(write(tmp_path, f"{misread}.txt", garbled.encode("utf-8")))
    assert [c.units for c in twice.chapters] == [c.units for c in as_utf8.chapters]


UNQUOTED = (
    "The Inn\n\nChapter 1\n\n"
    "It\u2019s shut \u2013 the caf\u00e9\u2019s shut, and you\u2019re late\u2026 "
    "The keeper\u2019s lamp went out.\n"
)
"""Its characters' UTF-8 bytes are all Windows-1252's, so read as it, it holds no C1 control character."""


def words_of(path: Path) -> list[str]:
    return [unit.text for chapter in read_book(path).chapters for unit in chapter.units]


def test_an_etext_garbled_by_windows_1252_without_a_c1_control_is_read_as_its_words(tmp_path: Path) -> None:
    """UTF-8 read as Windows-1252 and saved again, each \u2019 "\u00e2\u20ac\u2122" and each \u00e9
    "\u00c3\u00a9", holds no C1 control character to tell it: it was read as that garble."""
    garbled = UNQUOTED.encode("utf-8").decode("cp1252")
    assert "\u00e2\u20ac\u2122" in garbled
    assert not odd_characters(garbled).c1_controls
    twice = words_of(write(tmp_path, "twice.txt", garbled.encode("utf-8")))
    assert twice == words_of(write(tmp_path, "once.txt", UNQUOTED))


FRENCH_AND_PORTUGUESE = (
    "S\u00e3o Paulo\n\nChapter 1\n\n"
    "Le ch\u00e2teau de S\u00c3O TOM\u00c9 \u00e9tait \u00e0 l\u2019\u00e2ge d\u2019or. "
    "\u00ab\u00a0C\u2019est ferm\u00e9\u00a0\u00bb, dit-il. \u00ab\u00a0All\u00e9\u00a0\u00bb, "
    "dit-elle. \u00ab\u00a0Pass\u00e9\u00a0\u00bb, dit-on. \u00ab\u00a0Tomb\u00e9\u00a0\u00bb, dit-il.\n"
)
"""Its "\u00e9" + no-break space + "\u00bb" are the bytes of a UTF-8 character read as Latin-1 (E9 A0 BB)."""


def test_a_text_with_its_own_a_tilde_and_a_circumflex_is_read_as_it_is(tmp_path: Path) -> None:
    """ "S\u00e3o", "S\u00c3O", "ch\u00e2teau" and French quotation marks look like pieces of a text
    encoded twice; a text of them is not one, so it keeps every letter."""
    words = " ".join(words_of(write(tmp_path, "sao.txt", FRENCH_AND_PORTUGUESE)))
    body = FRENCH_AND_PORTUGUESE.split("Chapter 1\n\n")[1]
    assert " ".join(body.split()) in " ".join(words.split())


@pytest.mark.parametrize(
    "line",
    [
        'An apostrophe shows as "\u00e2\u20ac\u2122", an e-acute as "\u00c3\u00a9", a dash as '
        '"\u00e2\u20ac\u201d".',
        "Er wei\u00df\u2026 Sie wei\u00df\u2026 Niemand wei\u00df\u2026 Und Schlu\u00df.",
    ],
)
def test_a_text_whose_own_words_look_garbled_keeps_them(line: str) -> None:
    """A review: a text about encodings was "mended" into the characters it explains, and German
    "wei\u00df\u2026" (whose two characters are one character's UTF-8 bytes) into an NKo letter. Garble
    sits inside words and undoes to letters and punctuation of a Western text, or runs on unbroken."""
    assert undone_double_encoding(line) == line
    for clean in (
        "It\u2019s the caf\u00e9\u2019s door, and \u201cYes\u201d, she said.",
        # (the second review) dashes between spaces, years, pounds and degrees, with straight quotes
        "The winter of 1962\u20131963 was hard. 'We'll manage \u2013 somehow,' said Mum. Coal cost \u00a34 a "
        "sack \u2013 then \u00a36 \u2013 and the pipes froze at \u221210\u00b0.",
    ):
        assert undone_double_encoding(as_windows_reads_it(clean.encode())) == clean
    chinese = "\u4f60\u597d\uff0c\u4e16\u754c\u3002\u6211\u4eec\u8d70\u5427\u3002"
    assert undone_double_encoding(chinese.encode().decode("latin-1")) == chinese


@pytest.mark.parametrize("misread", ["latin-1", "windows-1252"])
def test_a_text_partly_encoded_twice_has_that_part_undone(tmp_path: Path, misread: str) -> None:
    """An e-text garbled as above and then written on in UTF-8 was refused whole as "cannot be undone
    whole"; the garbled part is undone and what was written after is kept as it is."""
    after = "A dash \u2014 typed after, at the caf\u00e9\u2019s door.\n"
    utf8 = QUOTED.encode("utf-8")
    garbled = utf8.decode("latin-1") if misread == "latin-1" else as_windows_reads_it(utf8)
    partly = words_of(write(tmp_path, "partly.txt", (garbled + after).encode("utf-8")))
    assert partly == words_of(write(tmp_path, "once.txt", QUOTED + after))


def test_an_etext_encoded_twice_that_cannot_be_undone_says_why(tmp_path: Path) -> None:
    """A garbled text whose "\u00e2" before each C1 control was since taken out (a tool that folds
    accents) holds C1 controls that are no UTF-8 character's bytes: refused, saying where."""
    garbled = as_windows_reads_it((QUOTED * 3).encode("utf-8")).replace("\u00e2", "a")
    message = refused(write(tmp_path, "twice.txt", garbled.encode("utf-8")))
    assert "looks encoded twice" in message
    assert "line 5" in message
    assert "not text" not in message


def test_letters_newer_than_pythons_unicode_tables_are_text(tmp_path: Path) -> None:
    """A Nag Mundari book (Unicode 15, newer than Python 3.11's tables) was refused as 71% characters
    no text holds; so was a text quoting it, or with newer emoji."""
    quoted = "\U0001e4d0\U0001e4d1\U0001e4d2 \U0001e4d3\U0001e4d4"
    sentence = f"She wrote \u201c{quoted}\u201d on the door \U0001fae8 and left.\n"  # a shaking face, of 2022
    assert odd_characters(quoted).count == 0
    book = read_book(write(tmp_path, "nag.txt", "Chapter 1\n\n" + sentence * 4))
    assert quoted in " ".join(unit.text for unit in book.chapters[0].units)


@pytest.mark.skipif(unicodedata.category("\U0001e4d0") != "Cn", reason="Python knows Nag Mundari's letters")
def test_a_book_in_letters_newer_than_pythons_unicode_tables_is_refused_saying_so(tmp_path: Path) -> None:
    """Its words cannot be told apart, so it has no passages; it was refused as "the chapter 'Chapter 1'
    has no text", which it has."""
    words = " ".join(["\U0001e4d0\U0001e4d1\U0001e4d2"] * 8)
    message = refused(write(tmp_path, "nag.txt", "Chapter 1\n\n" + (words + ".\n") * 4))
    assert "has no text" not in message
    assert f"in letters newer than Unicode {unicodedata.unidata_version}" in message


def test_a_short_file_with_a_stray_control_character_is_read(tmp_path: Path) -> None:
    """A two-cue WebVTT chapters track ending in DOS's end-of-file mark was refused as "not text:
    1%" (the rule being more than 1%); so was a short text with one other stray control character."""
    cues = "00:00:00.000 --> 00:00:01.000\nHello there.\n\n00:00:01.000 --> 00:00:02.000\nGood night.\n"
    vtt = write(tmp_path, "t.vtt", "WEBVTT\n\n" + cues)
    track = "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nOne\n\n00:00:01.000 --> 00:00:02.000\nTwo\n\x1a"
    book = read_book(vtt, chapters_path=write(tmp_path, "chapters.vtt", track))
    assert [c.title for c in book.chapters] == ["One", "Two"]
    short = read_book(write(tmp_path, "short.txt", "Chapter 1\n\nThe inn\x07 was shut.\n"))
    assert "The inn" in " ".join(unit.text for unit in short.chapters[0].units)


def test_how_much_of_a_file_is_not_text_is_said_to_a_tenth_of_a_percent(tmp_path: Path) -> None:
    noise = codecs.BOM_UTF16_LE + bytes_decoding_as_utf16(0, 4_000)
    assert re.search(r"is not text: \d+\.\d% of its characters", refused(write(tmp_path, "n.txt", noise)))


def test_a_folder_with_nothing_to_read(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "notes.txt").write_text("x")
    assert "no audio tracks in it, nor in folders of its discs" in refused(folder)


def test_a_folder_with_nothing_to_read_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    """`bedside ingest FOLDER --detach` handed back a job id, and the refusal was only in ingest's log."""
    empty, notes = tmp_path / "empty", tmp_path / "notes"
    empty.mkdir()
    notes.mkdir()
    (notes / "notes.txt").write_text("x")
    for folder in (empty, notes):
        with pytest.raises(BadInput, match="no audio tracks in it, nor in folders of its discs"):
            check_given(folder, audio=None, chapters=None, text=None)
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "part1.smil").write_text("<smil/>")
    check_given(maps, audio=None, chapters=None, text=None)  # read, and judged, as sync maps


def test_a_track_the_system_will_not_read_is_refused_with_its_words_before_anything_is_sent(
    tmp_path: Path,
) -> None:
    """A track of a folder the system refused to read (a file of another user's, say) came out as
    an internal error when ingest told the book's files apart. ``/proc/self/mem`` is such a file
    even for root: its start cannot be read."""
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "01.mp3").write_bytes(b"ID3\x03\x00")
    (folder / "02.mp3").symlink_to("/proc/self/mem")
    with pytest.raises(BadInput, match=r"02\.mp3: cannot be read: Input/output error"):
        check_given(folder, audio=None, chapters=None, text=None)
    transcript = write(tmp_path, "book.vtt", "WEBVTT\n")
    with pytest.raises(BadInput, match=r"02\.mp3: cannot be read: Input/output error"):
        check_given(transcript, audio=folder / "02.mp3", chapters=None, text=None)


def test_a_broken_link_is_missing(tmp_path: Path) -> None:
    link = tmp_path / "gone.vtt"
    link.symlink_to(tmp_path / "nowhere.vtt")
    assert "does not exist" in refused(link)


def test_time_going_backwards_names_the_cue(tmp_path: Path) -> None:
    vtt = "WEBVTT\n\n1\n00:00:05.000 --> 00:00:06.000\nLater.\n\n2\n00:00:01.000 --> 00:00:02.000\nEarlier.\n"
    message = refused(write(tmp_path, "back.vtt", vtt))
    assert "line 8 (cue 2)" in message
    assert "backwards" in message


def test_overlapping_cues_name_the_cue(tmp_path: Path) -> None:
    srt = "1\n00:00:01,000 --> 00:00:04,000\nOne.\n\n2\n00:00:03,000 --> 00:00:05,000\nTwo.\n"
    message = refused(write(tmp_path, "overlap.srt", srt))
    assert "line 6 (cue 2)" in message
    assert "overlaps" in message


def test_a_cue_that_ends_before_it_starts(tmp_path: Path) -> None:
    vtt = "WEBVTT\n\n00:00:04.000 --> 00:00:02.000\nOdd.\n"
    assert "ends (0:00:02.000) before it starts" in refused(write(tmp_path, "odd.vtt", vtt))


def test_a_bad_timestamp_names_the_line(tmp_path: Path) -> None:
    vtt = "WEBVTT\n\n1\n00:00:01.000 --> soon\nOdd.\n"
    assert "line 4 (cue 1)" in refused(write(tmp_path, "bad.vtt", vtt))


def test_whisper_words_that_overlap_name_the_word(tmp_path: Path) -> None:
    data = {
        "segments": [
            {
                "start": 0,
                "end": 2,
                "words": [{"word": "a", "start": 0.0, "end": 1.0}, {"word": "b", "start": 0.5, "end": 2.0}],
            }
        ]
    }
    assert "segment 1, word 2" in refused(write(tmp_path, "w.json", json.dumps(data)))


def test_a_chapter_with_no_text_in_a_chapters_file(tmp_path: Path) -> None:
    vtt = write(tmp_path, "t.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there.\n")
    chapters = write(
        tmp_path, "ch.json", json.dumps([{"title": "A", "start": 0}, {"title": "B", "start": 60}])
    )
    message = refused(vtt, chapters=chapters)
    assert "entry 2" in message
    assert "'B'" in message
    assert "no text" in message


def test_chapters_file_going_backwards(tmp_path: Path) -> None:
    vtt = write(tmp_path, "t.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there.\n")
    chapters = write(
        tmp_path, "ch.json", json.dumps([{"title": "A", "start": 5}, {"title": "B", "start": 2}])
    )
    assert "entry 2" in refused(vtt, chapters=chapters)


def test_a_chapter_with_no_text_in_plain_text(tmp_path: Path) -> None:
    text = (
        "Title\n\nChapter 1: First\n\nSome words here.\n\n"
        "Chapter 2: Second\n\nChapter 3: Third\n\nMore words.\n"
    )
    message = refused(write(tmp_path, "t.txt", text))
    assert "line 7" in message
    assert "'Second' has no text" in message


def test_a_chapter_with_no_text_in_a_json_book(tmp_path: Path) -> None:
    data = {
        "title": "T",
        "chapters": [{"n": 1, "title": "Full", "text": "Words."}, {"n": 2, "title": "Void", "text": " "}],
    }
    message = refused(write(tmp_path, "b.json", json.dumps(data)))
    assert "chapter n=2 ('Void')" in message
    assert "no text" in message


def test_json_of_no_known_kind(tmp_path: Path) -> None:
    assert "no known kind" in refused(write(tmp_path, "x.json", '{"hello": 1}'))


def test_broken_json_names_the_line(tmp_path: Path) -> None:
    assert "line 2" in refused(write(tmp_path, "x.json", '{\n  "segments": [,]\n}'))


def test_smil_pointing_at_a_missing_element(tmp_path: Path) -> None:
    write(tmp_path, "page.xhtml", "<html><body><p id='a'>Here.</p></body></html>")
    smil = (
        '<smil xmlns="http://www.w3.org/ns/SMIL"><body><par id="p7"><text src="page.xhtml#zz"/>'
        '<audio src="a.mp3" clipBegin="0s" clipEnd="1s"/></par></body></smil>'
    )
    message = refused(write(tmp_path, "m.smil", smil))
    assert "par p7" in message
    assert "'zz'" in message


def test_a_transcript_saved_as_utf_16_is_read_as_its_cues(tmp_path: Path) -> None:
    cues = (
        "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nThe caf\u00e9 was shut.\n\n"
        "00:00:04.000 --> 00:00:07.000\nNot tonight.\n"
    )
    as_utf8 = read_book(write(tmp_path, "utf8.vtt", cues))
    as_utf16 = read_book(write(tmp_path, "utf16.vtt", cues.encode("utf-16")))
    assert [c.units for c in as_utf16.chapters] == [c.units for c in as_utf8.chapters]


def test_a_folder_given_where_a_file_goes_is_refused_for_what_it_is_not_as_unreadable(tmp_path: Path) -> None:
    folder = tmp_path / "tracks"
    folder.mkdir()
    transcript = write(tmp_path, "book.vtt", "WEBVTT\n")
    with pytest.raises(BadInput, match="--audio takes an audio file"):
        check_given(transcript, audio=folder, chapters=None, text=None)


@pytest.mark.parametrize("name", ["story.epub", "story.txt"])
def test_a_pdf_given_as_the_e_book_is_named_a_pdf(tmp_path: Path, name: str) -> None:
    """A PDF renamed to .epub was said to "look like text"; a listener needs to hear what it is."""
    pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
    message = refused(write(tmp_path, name, pdf))
    assert "is a PDF" in message
    assert "EPUB" in message
