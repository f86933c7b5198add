"""A chapter is heard in bounded pieces cut at quiet moments: the cut rule on made-up signals,
and the pieces of real speech (espeak-ng) joined back into the whole."""

from pathlib import Path

import numpy as np
import pytest
from bedside_audiobooks import Speech, need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts.ingest import SpokenWordTimes, TranscriptionProgress
from bedside_ingest.audiobook import Audiobook
from bedside_ingest.media import SAMPLE_RATE, decode_pieces, decode_span, read_audiobook
from bedside_ingest.pieces import FRAME_S, PIECE_S, SEARCH_S, cut_index
from bedside_ingest.transcribe import transcribe_audiobook
from bedside_speech import WhisperTranscriber
from hypothesis import given
from hypothesis import strategies as st

RATE = 1_000


def noise(seconds: float, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-0.5, 0.5, round(seconds * RATE)).astype(np.float32)


def test_audio_no_longer_than_a_piece_is_not_cut() -> None:
    samples = noise(30)
    assert cut_index(samples, RATE, longest=len(samples)) == len(samples)


def test_the_cut_falls_in_the_pause_near_the_end_of_the_piece() -> None:
    samples = noise(60)
    samples[50 * RATE : round(50.4 * RATE)] = 0.0  # a pause 10 s before the bound
    samples[10 * RATE : 11 * RATE] = 0.0  # a longer one too early to be chosen
    cut = cut_index(samples, RATE, longest=55 * RATE)
    assert 50 * RATE <= cut <= round(50.4 * RATE)


@given(st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=120), st.integers(0, 9))
def test_a_cut_is_inside_the_search_window_of_the_bound(extra_s: int, longest_s: int, seed: int) -> None:
    samples = noise(longest_s + extra_s + 1, seed)
    longest = longest_s * RATE
    cut = cut_index(samples, RATE, longest)
    assert longest - min(SEARCH_S * RATE, longest // 2) < cut <= longest


def test_a_piece_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="longer than"):
        cut_index(noise(1), RATE, longest=0)


@pytest.fixture(scope="module")
def speech() -> Speech:
    need_espeak()
    return speak_book(sample_chapters(chapters=1, sentences=4))


@pytest.fixture(scope="module")
def audiobook(speech: Speech, tmp_path_factory: pytest.TempPathFactory) -> Audiobook:
    return read_audiobook(write_audiobook(tmp_path_factory.mktemp("pieces") / "one.m4b", speech))


@pytest.fixture(scope="module")
def chapter_file(audiobook: Audiobook) -> tuple[Path, int, int]:
    chapter = audiobook.chapters[0]
    return Path(chapter.path), chapter.file_start_ms, chapter.file_end_ms


def test_the_pieces_of_a_chapter_join_into_its_whole_audio(chapter_file: tuple[Path, int, int]) -> None:
    whole = decode_span(*chapter_file)
    longest_s = 4.0
    pieces = list(decode_pieces(*chapter_file, longest_s=longest_s))
    assert len(pieces) > 2
    assert [p.offset for p in pieces] == list(np.cumsum([0] + [len(p.samples) for p in pieces[:-1]]))
    assert all(len(p.samples) <= longest_s * SAMPLE_RATE for p in pieces)
    assert all(len(p.samples) >= longest_s / 2 * SAMPLE_RATE for p in pieces[:-1])
    assert np.array_equal(np.concatenate([p.samples for p in pieces]), whole)


def test_each_cut_is_quieter_than_the_speech_around_it(chapter_file: tuple[Path, int, int]) -> None:
    whole = decode_span(*chapter_file)
    frame = round(FRAME_S * SAMPLE_RATE)
    loudness = float(np.sqrt(np.mean(np.square(whole))))
    for piece in list(decode_pieces(*chapter_file, longest_s=4.0))[1:]:
        around = whole[piece.offset - frame // 2 : piece.offset + frame // 2]
        assert float(np.sqrt(np.mean(np.square(around)))) < loudness / 4


@pytest.mark.slow
def test_a_chapter_heard_in_pieces_keeps_its_words_and_times(speech: Speech, audiobook: Audiobook) -> None:
    transcriber = WhisperTranscriber()

    told: list[TranscriptionProgress] = []

    def heard(piece_s: float) -> list[SpokenWordTimes]:
        told.clear()
        transcripts = transcribe_audiobook(
            audiobook, transcriber, {}, save=lambda t: None, progress=told.append, piece_s=piece_s
        )
        return transcripts[1].words

    whole, pieced = heard(PIECE_S), heard(10.0)  # 32 s of speech in pieces of 5-10 s
    # a book of one chapter (one .mp3) said "0 of 1 chapters done" until its end: each piece tells
    inside = [p for p in told if p.chapter == 0]
    assert len({p.audio_done_s for p in inside}) >= 3
    assert [p.audio_done_s for p in told] == sorted(p.audio_done_s for p in told)
    assert told[-1].audio_done_s == told[-1].audio_total_s
    assert all(p.eta_s is not None for p in inside[1:])
    assert [w.start_ms for w in pieced] == sorted(w.start_ms for w in pieced)
    spoken = {w.text.strip(".,;!?").lower() for w in whole}
    kept = spoken & {w.text.strip(".,;!?").lower() for w in pieced}
    # A piece's words dropped would lose a sixth of them; the recogniser's own variation with
    # less context costs about a tenth of the distinct words on this tiny model.
    assert len(kept) >= 0.8 * len(spoken)
    assert len(pieced) >= 0.9 * len(whole)
    for sentence in speech.sentences:  # each sentence starts where a word heard in pieces starts
        nearest = min(abs(w.start_ms / 1000 - sentence.start_s) for w in pieced)
        assert nearest < 0.6, sentence.text
