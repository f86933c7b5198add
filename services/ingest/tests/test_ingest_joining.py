"""A folder's tracks joined into one recording: packets copied when the codecs allow, else
transcoded; chapters placed where each track's audio is in the joined file; joined once."""

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from bedside_audiobooks import Speech, need_espeak, sample_chapters, speak_book, write_tracks
from bedside_disks import small_disk
from bedside_ingest.joined_audio import keep_joined
from bedside_ingest.joining import TrackFormat, join_plan
from bedside_ingest.media import SAMPLE_RATE, decode_span, read_audiobook
from bedside_runtime.errors import NoRoom


@pytest.fixture(scope="module")
def speech() -> Speech:
    need_espeak()
    return speak_book(sample_chapters(chapters=3, sentences=1))


def test_alike_mp3_or_aac_tracks_are_copied_anything_else_transcoded() -> None:
    mp3 = TrackFormat("mp3", 44_100, 2)
    assert join_plan([mp3, mp3]).copy
    assert join_plan([TrackFormat("aac", 22_050, 1)] * 2).suffix == ".m4a"
    mixed = join_plan([mp3, TrackFormat("mp3", 22_050, 2)])
    assert (mixed.copy, mixed.suffix, mixed.rate) == (False, ".m4a", 44_100)
    assert not join_plan([TrackFormat("flac", 44_100, 6)] * 2).copy
    assert join_plan([TrackFormat("flac", 44_100, 6)]).channels == 1


@pytest.mark.parametrize(("suffix", "joined_suffix"), [(".mp3", ".mp3"), (".flac", ".m4a")])
def test_each_chapter_starts_where_its_track_is_in_the_joined_file(
    speech: Speech, tmp_path: Path, suffix: str, joined_suffix: str
) -> None:
    folder = tmp_path / "book"
    write_tracks(folder, speech, suffix=suffix)
    book = keep_joined(read_audiobook(folder), tmp_path / "audio")
    assert book.joined is not None
    assert book.playable == book.joined
    joined = Path(book.joined)
    assert joined.suffix == joined_suffix
    whole = decode_span(joined, 0, book.duration_ms + 1_000)
    assert len(whole) * 1000 / SAMPLE_RATE == pytest.approx(book.duration_ms, abs=100)
    for chapter in book.chapters:
        own = decode_span(Path(chapter.path), 0, 1_500)
        at = chapter.book_start_ms * SAMPLE_RATE // 1000
        low = max(0, at - SAMPLE_RATE // 2)
        window = whole[low : at + SAMPLE_RATE // 2 + len(own)]
        lag_ms = (low + int(np.argmax(np.correlate(window, own, mode="valid"))) - at) * 1000 / SAMPLE_RATE
        assert abs(lag_ms) <= 20, (chapter.n, lag_ms)

    modified = joined.stat().st_mtime_ns
    again = keep_joined(read_audiobook(folder), tmp_path / "audio")
    assert (again.joined, [c.book_start_ms for c in again.chapters]) == (
        book.joined,
        [c.book_start_ms for c in book.chapters],
    )
    assert joined.stat().st_mtime_ns == modified  # joined once
    assert not list((tmp_path / "audio").glob("*.partial"))


def _as_mp3_at(path: Path, rate: int) -> None:
    """The track re-encoded as an mp3 at another sample rate, as a folder's intro often is."""
    samples = (decode_span(path, 0, 10**9) * 32767).astype(np.int16)
    picks = (np.arange(len(samples) * rate // SAMPLE_RATE) * SAMPLE_RATE // rate).astype(np.int64)
    with av.open(str(path), "w", format="mp3") as out:
        stream = out.add_stream("mp3", rate=rate, layout="mono")
        assert isinstance(stream, av.AudioStream)
        for begin in range(0, len(picks), 1152):
            chunk = samples[picks[begin : begin + 1152]].reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(chunk, format="s16", layout="mono")
            frame.sample_rate, frame.pts, frame.time_base = rate, begin, Fraction(1, rate)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)


@pytest.mark.parametrize("mixed", ["mp3 at two rates", "mp3 and flac"])
def test_mp3_tracks_transcoded_are_joined_on_one_clock(speech: Speech, tmp_path: Path, mixed: str) -> None:
    """A decoded mp3 frame keeps its demuxer's time base (1/14112000), and its samples were counted
    in it: tracks at two rates were refused ("its tracks cannot be joined ... returned 22"), and an
    mp3 beside a flac made a file that said it was 0.16 s long for 45 s of audio."""
    folder = tmp_path / "book"
    if mixed == "mp3 and flac":
        tracks = write_tracks(folder, speech, suffix=".flac")
        (first := write_tracks(tmp_path / "mp3", speech)[0]).rename(folder / first.name)
        tracks[0].unlink()
    else:
        _as_mp3_at(write_tracks(folder, speech)[0], 44_100)
    book = keep_joined(read_audiobook(folder), tmp_path / "audio")
    assert book.joined is not None
    with av.open(book.joined) as joined:
        assert joined.duration is not None
        said_ms = joined.duration // 1000
    assert said_ms == pytest.approx(book.duration_ms, abs=100)


def test_a_single_file_is_served_as_it_is(speech: Speech, tmp_path: Path) -> None:
    (track, *_) = write_tracks(tmp_path / "book", speech)
    single = tmp_path / "single"
    single.mkdir()
    one = single / track.name
    one.write_bytes(track.read_bytes())
    book = keep_joined(read_audiobook(one), tmp_path / "audio")
    assert (book.joined, book.playable) == (None, str(one))


def test_tracks_there_is_no_room_to_join_are_refused_with_the_sizes_and_leave_nothing(
    speech: Speech, tmp_path: Path
) -> None:
    folder = tmp_path / "book"
    tracks = write_tracks(folder, speech)
    size = sum(t.stat().st_size for t in tracks)
    joined = tmp_path / "audio"
    with small_disk(joined, 1):  # 1 MiB, filled to leave half the tracks' size free
        (joined / "filler").write_bytes(bytes(1024**2 - size // 2))
        with pytest.raises(NoRoom, match="there is not room for the recording's tracks joined as one"):
            keep_joined(read_audiobook(folder), joined)
        assert sorted(p.name for p in joined.iterdir()) == ["filler"]
        (joined / "filler").unlink()
        book = keep_joined(read_audiobook(folder), joined)  # room made, it is joined
        assert book.joined is not None
