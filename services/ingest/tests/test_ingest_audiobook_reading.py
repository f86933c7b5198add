"""Reading audiobooks: chapters from markers or tracks, tags, decoding, and the refusals."""

from pathlib import Path

import av
import numpy as np
import pytest
from bedside_audiobooks import (
    Speech,
    need_espeak,
    sample_chapters,
    speak_book,
    tag_cover,
    write_audiobook,
    write_plain_audio,
    write_tracks,
)
from bedside_guard import clock
from bedside_ingest.accepted import AUDIO_EXTENSIONS
from bedside_ingest.audiobook import Marker, TrackInfo, audiobook_of, is_recording, track_order
from bedside_ingest.errors import BadInput
from bedside_ingest.folders import files_in, is_disc_folder
from bedside_ingest.given import check_given
from bedside_ingest.media import SAMPLE_RATE, decode_span, probe, read_audiobook, read_cover
from bedside_ingest.transcribe import transcribe_audiobook
from bedside_speech import WhisperTranscriber

TAGS = {"title": "The Lantern at Gull Point", "artist": "The Bedside authors", "composer": "Espeak Reader"}
CHAPTER_TOLERANCE_MS = 60
"""mp3 frames are 26 ms long, and the encoder's start delay is trimmed by the decoder."""


@pytest.fixture(scope="module")
def speech() -> Speech:
    need_espeak()
    return speak_book(sample_chapters(chapters=3, sentences=1))


def test_an_m4b_gives_its_chapters_and_tags(speech: Speech, tmp_path: Path) -> None:
    book = read_audiobook(write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS))
    assert [c.title for c in book.chapters] == [c.title for c in speech.chapters]
    starts = [c.book_start_ms for c in book.chapters]
    assert starts == pytest.approx([round(c.start_s * 1000) for c in speech.chapters], abs=2)
    assert (book.title, book.author, book.narrator) == (TAGS["title"], TAGS["artist"], TAGS["composer"])
    assert book.duration_ms == pytest.approx(speech.chapters[-1].end_s * 1000, abs=CHAPTER_TOLERANCE_MS)


def test_an_mp3_gives_its_id3_chapters(speech: Speech, tmp_path: Path) -> None:
    book = read_audiobook(write_audiobook(tmp_path / "lantern.mp3", speech, tags=TAGS))
    assert [c.title for c in book.chapters] == [c.title for c in speech.chapters]
    assert book.chapters[1].file_start_ms == pytest.approx(speech.chapters[1].start_s * 1000, abs=2)


def test_a_file_without_markers_is_one_chapter_named_by_its_title_tag(speech: Speech, tmp_path: Path) -> None:
    book = read_audiobook(write_audiobook(tmp_path / "lantern.m4a", speech, tags=TAGS, chapters=False))
    assert [(c.n, c.title) for c in book.chapters] == [(1, TAGS["title"])]


def test_a_folder_is_a_chapter_per_track_in_track_order(speech: Speech, tmp_path: Path) -> None:
    folder = tmp_path / "lantern"
    paths = write_tracks(folder, speech, album="The Lantern at Gull Point")
    assert sorted(p.name for p in paths) != [p.name for p in paths]  # name order is not track order
    book = read_audiobook(folder)
    assert [c.title for c in book.chapters] == [c.title for c in speech.chapters]
    assert book.title == "The Lantern at Gull Point"
    lengths = [c.duration_ms for c in book.chapters]
    assert [c.book_start_ms for c in book.chapters] == [0, lengths[0], lengths[0] + lengths[1]]
    assert all(c.file_start_ms == 0 for c in book.chapters)


def test_the_hidden_files_a_mac_leaves_beside_tracks_are_not_tracks(speech: Speech, tmp_path: Path) -> None:
    """A Mac copying to a USB stick, an exFAT disk or a share writes "._name" (AppleDouble) beside
    each file, and .DS_Store: the whole folder was refused ("._01.mp3: cannot be read as audio")."""
    folder = tmp_path / "lantern"
    paths = write_tracks(folder, speech, album="The Lantern at Gull Point")
    for path in paths:
        (folder / f"._{path.name}").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X" + bytes(4000))
    (folder / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1" + bytes(2000))
    (folder / "._CD 1").mkdir()
    book = read_audiobook(folder)
    assert [c.title for c in book.chapters] == [c.title for c in speech.chapters]
    assert sorted(book.files) == sorted(str(p) for p in paths)


def test_a_folder_ripped_from_discs_is_read_disc_by_disc(speech: Speech, tmp_path: Path) -> None:
    """Each disc's tracks numbered from 1 again, in folders named as a ripper names them."""
    folder = tmp_path / "lantern"
    discs = ("CD 2", "CD 10", "CD 1")  # 2 before 10: digits as numbers
    for disc in discs:
        write_tracks(folder / disc, speech, album="The Lantern at Gull Point")
    (folder / "cover.jpg").write_bytes(b"\xff\xd8\xff")
    assert is_recording(folder, files_in(folder))
    check_given(folder, audio=None, chapters=None, text=None)  # refused before, as a folder of nothing
    book = read_audiobook(folder)
    assert [Path(c.path).parent.name for c in book.chapters] == ["CD 1"] * 3 + ["CD 2"] * 3 + ["CD 10"] * 3
    # each disc's tracks bear the same titles, as "Track 01" on every disc does: the disc tells them apart
    told = [f"{disc}, {c.title}" for disc in ("CD 1", "CD 2", "CD 10") for c in speech.chapters]
    assert [c.title for c in book.chapters] == told
    assert [c.n for c in book.chapters] == list(range(1, 10))
    assert book.title == "The Lantern at Gull Point"


def test_a_track_beside_the_disc_folders_comes_first_and_the_discs_are_kept(
    speech: Speech, tmp_path: Path
) -> None:
    folder = tmp_path / "lantern"
    for disc in ("Disc 1", "Disc 2"):
        write_tracks(folder / disc, speech)
    write_tracks(folder, speak_book([("Introduction", ["A word before the tale."])]))
    book = read_audiobook(folder)
    assert [Path(c.path).parent.name for c in book.chapters] == ["lantern"] + ["Disc 1"] * 3 + ["Disc 2"] * 3


def test_a_folder_of_books_is_not_read_as_one_book_of_discs(speech: Speech, tmp_path: Path) -> None:
    """Only folders named as discs are ("CD 2", "Disc 3", "Book - CD1"); a library's book folders are not."""
    library = tmp_path / "library"
    for title in ("The Lantern", "Gull Point Stories"):
        write_tracks(library / title, speech)
    assert files_in(library) == []
    with pytest.raises(BadInput, match="no audio"):
        read_audiobook(library)
    assert [is_disc_folder(n) for n in ("Book - CD1", "disk 03", "Discworld")] == [True, True, False]


def test_a_chapter_decodes_to_16_khz_mono_of_its_length(speech: Speech, tmp_path: Path) -> None:
    book = read_audiobook(write_audiobook(tmp_path / "lantern.m4b", speech))
    chapter = book.chapters[1]
    samples = decode_span(Path(chapter.path), chapter.file_start_ms, chapter.file_end_ms)
    assert samples.dtype == np.float32
    assert len(samples) / SAMPLE_RATE * 1000 == pytest.approx(chapter.duration_ms, abs=30)
    assert float(np.abs(samples).max()) > 0.05  # speech, not silence


def test_tracks_order_by_number_then_by_name() -> None:
    def track(name: str, number: str = "") -> TrackInfo:
        return TrackInfo(name, 1000, (), {"track": number} if number else {})

    ordered = track_order(
        [track("b.mp3"), track("x.mp3", "2/3"), track("y.mp3", "10"), track("a10.mp3"), track("a9.mp3")]
    )
    assert [t.path for t in ordered] == ["x.mp3", "y.mp3", "a9.mp3", "a10.mp3", "b.mp3"]


def test_the_tracks_of_each_disc_come_after_the_disc_before() -> None:
    def track(name: str, number: str, disc: str) -> TrackInfo:
        return TrackInfo(name, 1000, (), {"track": number, "disc": disc})

    ordered = track_order(
        [track("b1", "1", "2/2"), track("a2", "2", "1/2"), track("b2", "2", "2"), track("a1", "1", "1")]
    )
    assert [t.path for t in ordered] == ["a1", "a2", "b1", "b2"]


def test_audio_before_the_first_marker_is_the_opening_as_an_ebooks_front_matter_is() -> None:
    markers = (Marker("One", 5_000, 20_000), Marker("Two", 20_000, 40_000))
    book = audiobook_of([TrackInfo("book.m4b", 40_000, markers, {})], Path("book.m4b"))
    assert [(c.n, c.title, c.file_start_ms, c.file_end_ms) for c in book.chapters] == [
        (0, "Opening", 0, 5_000),
        (1, "One", 5_000, 20_000),
        (2, "Two", 20_000, 40_000),
    ]


def test_markers_out_of_order_or_sharing_a_start_are_read_in_the_order_of_their_times() -> None:
    """ID3 lets an mp3's CHAP frames lie in any order (its table of contents orders them, and
    taggers such as mutagen write them so), and FFmpeg gives them as they lie: a marker ran to
    the next one in the file, so a chapter ended before it began and the job failed on it."""
    markers = (
        Marker("Two", 20_000, 30_000),
        Marker("Three", 30_000, 40_000),
        Marker("One", 0, 20_000),
        Marker("One again", 0, 20_000),
    )
    book = audiobook_of([TrackInfo("book.mp3", 40_000, markers, {})], Path("book.mp3"))
    assert [(c.n, c.title, c.file_start_ms, c.file_end_ms) for c in book.chapters] == [
        (1, "One", 0, 20_000),
        (2, "Two", 20_000, 30_000),
        (3, "Three", 30_000, 40_000),
    ]


def test_the_credits_before_a_recordings_chapter_one_are_its_opening() -> None:
    """An m4b's markers often run "Opening Credits", "Chapter 1", ... "End Credits": numbered in
    order, "go to chapter 3" found the marker "Chapter 2"."""
    titles = ["Opening Credits", "Dedication", "Chapter 1", "Chapter 2", "End Credits"]
    markers = tuple(
        Marker(title, 1_000 + k * 10_000, 1_000 + (k + 1) * 10_000) for k, title in enumerate(titles)
    )
    book = audiobook_of([TrackInfo("book.m4b", 51_000, markers, {})], Path("book.m4b"))
    assert [(c.n, c.title, c.file_start_ms, c.file_end_ms) for c in book.chapters] == [
        (0, "Opening", 0, 21_000),
        (1, "Chapter 1", 21_000, 31_000),
        (2, "Chapter 2", 31_000, 41_000),
        (3, "End Credits", 41_000, 51_000),
    ]


def test_a_folders_tracks_before_its_chapter_one_are_numbered_in_order_unless_one_file_holds_them() -> None:
    def tracks(*titles: str) -> list[TrackInfo]:
        return [
            TrackInfo(f"{k:02}.mp3", 10_000, (), {"title": t, "track": str(k)})
            for k, t in enumerate(titles, 1)
        ]

    credits = audiobook_of(tracks("Credits", "Chapter One", "Chapter Two"), Path("book"))
    assert [(c.n, c.title, c.book_start_ms) for c in credits.chapters] == [
        (0, "Opening", 0),
        (1, "Chapter One", 10_000),
        (2, "Chapter Two", 20_000),
    ]
    two_files = audiobook_of(tracks("Credits", "Prologue", "Chapter 1"), Path("book"))
    assert [c.n for c in two_files.chapters] == [1, 2, 3]
    unnumbered = audiobook_of(tracks("Credits", "The Hunt", "Chapter 7"), Path("book"))
    assert [c.n for c in unnumbered.chapters] == [1, 2, 3]


def test_a_second_volume_is_numbered_as_it_names_its_chapters() -> None:
    """A recording of a book's second half, marked "Chapter 6", "Chapter 7", ..., was numbered from 1:
    "go to chapter 7" said the book had no chapter 7."""
    titles = ["Opening Credits", "Chapter 6", "Chapter 7", "Chapter Eight", "End Credits"]
    markers = tuple(Marker(title, k * 10_000, (k + 1) * 10_000) for k, title in enumerate(titles))
    book = audiobook_of([TrackInfo("volume2.m4b", 50_000, markers, {})], Path("volume2.m4b"))
    assert [(c.n, c.title) for c in book.chapters] == [
        (0, "Opening"),
        (6, "Chapter 6"),
        (7, "Chapter 7"),
        (8, "Chapter Eight"),
        (9, "End Credits"),
    ]
    tracks = [
        TrackInfo(f"{k:02}.mp3", 10_000, (), {"title": f"Chapter {k + 11}", "track": str(k)})
        for k in (1, 2, 3)
    ]
    assert [c.n for c in audiobook_of(tracks, Path("volume3")).chapters] == [12, 13, 14]


def test_a_first_number_the_next_chapters_do_not_carry_on_from_is_no_numbering() -> None:
    """A lone number, or numbers out of step, may be a title ("1984") or a mislabelled track: the
    chapters are numbered in order from 1, as before."""

    def numbered(*titles: str) -> list[int]:
        tracks = [
            TrackInfo(f"{k:02}.mp3", 10_000, (), {"title": t, "track": str(k)})
            for k, t in enumerate(titles, 1)
        ]
        return [c.n for c in audiobook_of(tracks, Path("book")).chapters]

    assert numbered("1984", "The Ministry", "Room 101") == [1, 2, 3]
    assert numbered("Chapter 6", "Chapter 9", "Chapter 7") == [1, 2, 3]


@pytest.mark.parametrize("name", ["book.aax", "book.aa"])
def test_audible_files_are_refused_as_drm(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"\x00" * 4096)
    with pytest.raises(BadInput, match="DRM"):
        read_audiobook(path)


def test_a_corrupt_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "broken.m4b"
    path.write_bytes(np.random.default_rng(7).bytes(20_000))
    with pytest.raises(BadInput, match="cannot be read as audio"):
        read_audiobook(path)


def test_a_text_file_named_mp3_is_refused_in_words_a_listener_reads(tmp_path: Path) -> None:
    path = tmp_path / "renamed.mp3"
    path.write_text("not a recording, only words\n")
    with pytest.raises(BadInput) as refused:
        read_audiobook(path)
    assert refused.value.message == f"{path}: cannot be read as audio: it is damaged, cut short, or not audio"


def test_a_recording_that_cannot_be_opened_says_why_in_the_systems_words(tmp_path: Path) -> None:
    path = tmp_path / "gone.mp3"  # gone between the check and the reading
    with pytest.raises(BadInput) as refused:
        probe(path)
    assert refused.value.message == f"{path}: cannot be read as audio: No such file or directory"


def test_a_folder_without_audio_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no audio here")
    with pytest.raises(BadInput, match="has no audio files"):
        read_audiobook(tmp_path)


def test_a_truncated_file_is_refused_not_half_read(speech: Speech, tmp_path: Path) -> None:
    whole = write_audiobook(tmp_path / "whole.m4b", speech)
    cut = tmp_path / "cut.m4b"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(BadInput, match=r"cut\.m4b: cannot be read as audio"):
        read_audiobook(cut)  # the m4b's index (moov) is at its end, so the cut file has none


FASTSTART = {"movflags": "+faststart"}
"""The index (moov) before the audio, as many tools write an m4b, so it plays while it downloads."""


def test_an_m4b_indexed_at_its_start_and_cut_short_is_as_long_as_its_audio(
    speech: Speech, tmp_path: Path
) -> None:
    """An m4b whose index (moov) is at its start keeps it when a download stops, and the index says
    the whole length: the book was served in part, then failed where the audio ends ("cannot be
    decoded after ..."). It is as long as the audio in the file, as a cut mp3 is."""
    written, whole = write_audiobook(tmp_path / "written.m4b", speech), tmp_path / "whole.m4b"
    with av.open(str(written)) as source, av.open(str(whole), "w", format="ipod", options=FASTSTART) as out:
        stream = out.add_stream_from_template(source.streams.audio[0])
        for packet in source.demux(source.streams.audio[0]):
            if packet.dts is not None:
                packet.stream = stream
                out.mux(packet)
    cut = tmp_path / "cut.m4b"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    book = read_audiobook(cut)
    heard_ms = len(decode_span(cut, 0, book.duration_ms)) * 1000 // SAMPLE_RATE
    assert book.duration_ms == pytest.approx(heard_ms, abs=CHAPTER_TOLERANCE_MS)
    assert 0.3 < book.duration_ms / read_audiobook(whole).duration_ms < 0.7
    assert len(book.cut_short) == 1
    assert book.cut_short[0].startswith(f"{cut.name} ends at {clock(book.duration_ms)}, not at the ")
    assert read_audiobook(whole).cut_short == ()


@pytest.mark.parametrize("marked", [True, False])
def test_an_mp3_cut_short_is_as_long_as_its_audio_and_says_so(
    speech: Speech, tmp_path: Path, marked: bool
) -> None:
    """An mp3's header says how long the whole file was; a download that stopped keeps the header."""
    whole = write_audiobook(tmp_path / "whole.mp3", speech, chapters=marked)
    cut = tmp_path / "cut.mp3"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    heard_ms = len(decode_span(cut, 0, 10**9)) * 1000 // SAMPLE_RATE
    book = read_audiobook(cut)
    assert book.duration_ms == pytest.approx(heard_ms, abs=CHAPTER_TOLERANCE_MS)
    assert all(c.duration_ms > 0 for c in book.chapters)
    assert len(book.chapters) == (2 if marked else 1)  # the third began after the audio ends
    said = clock(read_audiobook(whole).duration_ms)
    assert book.cut_short == (
        f"{cut.name} ends at {clock(book.duration_ms)}, not at the {said} it says: "
        "it may have been cut short (a download that stopped), and the rest of the book is not in it",
    )
    assert read_audiobook(whole).cut_short == ()


def test_which_paths_are_recordings() -> None:
    assert is_recording(Path("book.M4B"), None)
    assert is_recording(Path("bought.aax"), None)  # to be refused with its reason
    assert not is_recording(Path("book.vtt"), None)
    assert is_recording(Path("tracks"), [Path("01.mp3"), Path("cover.jpg")])
    assert not is_recording(Path("overlays"), [Path("a.smil"), Path("a.mp3"), Path("a.xhtml")])
    assert not is_recording(Path("notes"), [Path("notes.txt")])


PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)
JPEG = b"\xff\xd8\xff\xe0" + bytes(64)


def test_the_cover_comes_from_the_tags_or_the_folder(speech: Speech, tmp_path: Path) -> None:
    m4b = write_audiobook(tmp_path / "lantern.m4b", speech)
    tag_cover(m4b, PNG, png=True)
    assert read_cover(read_audiobook(m4b), m4b) == (PNG, "png")

    mp3 = write_audiobook(tmp_path / "lantern.mp3", speech)
    tag_cover(mp3, JPEG, png=False)
    assert read_cover(read_audiobook(mp3), mp3) == (JPEG, "jpg")

    folder = tmp_path / "tracks"
    write_tracks(folder, speech)
    assert read_cover(read_audiobook(folder), folder) is None
    (folder / "Cover.JPG").write_bytes(JPEG)
    assert read_cover(read_audiobook(folder), folder) == (JPEG, "jpg")


@pytest.fixture(scope="module")
def transcriber() -> WhisperTranscriber:
    return WhisperTranscriber()


@pytest.mark.slow
@pytest.mark.parametrize("suffix", AUDIO_EXTENSIONS)
def test_every_kind_of_audio_the_help_names_is_read_with_its_title_and_transcribed(
    speech: Speech, tmp_path: Path, transcriber: WhisperTranscriber, suffix: str
) -> None:
    # What `bedside ingest --help` claims (accepted.AUDIO_EXTENSIONS), each from a real file.
    title = f"The Lantern ({suffix})"
    path = tmp_path / f"lantern{suffix}"
    if suffix in (".m4b", ".mp3"):
        write_audiobook(path, speech, tags={"title": title})
    else:
        write_plain_audio(path, speech, title)
    book = read_audiobook(path)
    assert book.title == title  # Ogg's tags are on its stream
    assert book.duration_ms == pytest.approx(speech.chapters[-1].end_s * 1000, abs=CHAPTER_TOLERANCE_MS)
    assert book.cut_short == ()  # its end read where its header says it is
    heard = transcribe_audiobook(book, transcriber, {}, save=lambda done: None, progress=lambda done: None)
    words = " ".join(w.text for t in heard.values() for w in t.words).lower()
    assert "house" in words, words  # "The House at Gull Point", the first chapter's title


def test_raw_aac_is_refused_with_its_reason(speech: Speech, tmp_path: Path) -> None:
    # FFmpeg only estimates the length of an ADTS stream: it is refused, not read wrong.
    path = write_plain_audio(tmp_path / "lantern.aac", speech, "The Lantern")
    assert is_recording(path, None)
    with pytest.raises(BadInput, match=r"lantern\.aac: is raw AAC .*`ffmpeg -i book\.aac -c copy book\.m4a"):
        read_audiobook(path)
    folder = tmp_path / "tracks"
    folder.mkdir()
    path.rename(folder / "01.aac")
    with pytest.raises(BadInput, match="is raw AAC"):
        read_audiobook(folder)
