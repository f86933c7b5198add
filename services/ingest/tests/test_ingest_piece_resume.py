"""A chapter stopped halfway resumes at its first piece not yet heard: the pieces kept in the
job store on a real nats-server, and a real transcription stopped after two pieces and run again."""

import hashlib
from collections.abc import Callable, Sequence

import nats
import numpy as np
import numpy.typing as npt
import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts.ingest import PieceTranscript, SpokenWordTimes
from bedside_ingest.errors import JobCancelled
from bedside_ingest.jobs import JobStore
from bedside_ingest.media import read_audiobook
from bedside_ingest.transcribe import PieceLog, transcribe_audiobook
from bedside_speech import SpokenWord, TranscriptionStopped, WhisperTranscriber


def piece(chapter: int, index: int, text: str) -> PieceTranscript:
    word = SpokenWordTimes(text=text, start_ms=index * 1_000, end_ms=index * 1_000 + 400)
    return PieceTranscript(
        chapter=chapter, piece=index, offset=index * 16_000, samples=16_000, compute_s=0.1, words=[word]
    )


async def test_the_store_gives_back_a_chapters_pieces_in_order_until_forgotten(nats_url: str) -> None:
    client = await nats.connect(nats_url)
    try:
        store = await JobStore.declare(client.jetstream(), replicas=1)
        fingerprint = "piece-store-test"
        for index, text in enumerate(["one", "two", "three"]):
            await store.save_piece(fingerprint, piece(7, index, text))
        await store.save_piece(fingerprint, piece(7, 4, "after a hole"))  # not reached: 3 is missing
        await store.save_piece(fingerprint, piece(8, 0, "another chapter"))
        kept = await store.stored_pieces(fingerprint, 7)
        assert [p.words[0].text for p in kept] == ["one", "two", "three"]
        await store.forget_pieces(fingerprint, 7, 5)
        assert await store.stored_pieces(fingerprint, 7) == []
        assert [p.chapter for p in await store.stored_pieces(fingerprint, 8)] == [8]
    finally:
        await client.close()


class CountingTranscriber:
    """The real recogniser, counting the pieces it is given. A piece it has heard before (the same
    samples and hints) is answered from memory: the runs below cut one chapter the same way
    several times, and what they check is which pieces are asked for, not what each one says."""

    def __init__(self, inner: WhisperTranscriber) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.heard = 0
        self.remembered: dict[tuple[bytes, str | None], list[SpokenWord]] = {}

    def transcribe(
        self,
        samples: npt.NDArray[np.float32],
        should_stop: Callable[[], bool] = lambda: False,
        hints: str | None = None,
    ) -> list[SpokenWord]:
        self.heard += 1
        key = (hashlib.sha256(samples.tobytes()).digest(), hints)
        if key not in self.remembered:
            self.remembered[key] = self.inner.transcribe(samples, should_stop, hints)
        elif self.remembered[key] and should_stop():  # as the recogniser asks before a segment
            raise TranscriptionStopped
        return self.remembered[key]


class KeptPieces:
    """Pieces kept as the job store keeps them: one key a piece, by its place in the chapter."""

    def __init__(self) -> None:
        self.pieces: dict[int, dict[int, PieceTranscript]] = {}

    def save(self, piece: PieceTranscript) -> None:
        """A piece heard again replaces the one before it at that place."""
        kept = self.pieces.setdefault(piece.chapter, {})
        assert piece.piece == 0 or piece.piece - 1 in kept
        kept[piece.piece] = piece

    def forget(self, chapter: int, count: int) -> None:
        """Deletes the first ``count`` places, as the store deletes their keys."""
        kept = self.pieces.get(chapter, {})
        for place in range(count):
            kept.pop(place, None)
        if not kept:
            self.pieces.pop(chapter, None)

    def log(self) -> PieceLog:
        return PieceLog(
            heard_before=lambda chapter: [piece for _, piece in sorted(self.pieces.get(chapter, {}).items())],
            save=self.save,
            forget=self.forget,
        )


def texts(words: Sequence[SpokenWordTimes]) -> list[str]:
    return [w.text for w in words]


@pytest.mark.slow
def test_a_chapter_stopped_after_two_pieces_hears_only_the_rest_when_run_again(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    need_espeak()
    speech = speak_book(sample_chapters(chapters=1, sentences=4))
    audiobook = read_audiobook(write_audiobook(tmp_path_factory.mktemp("resume") / "one.m4b", speech))
    transcriber = CountingTranscriber(WhisperTranscriber())

    def run(
        kept: KeptPieces, should_stop: Callable[[], bool] = lambda: False, piece_s: float = 10.0
    ) -> list[SpokenWordTimes]:
        done = transcribe_audiobook(
            audiobook,
            transcriber,
            {},
            save=lambda t: None,
            progress=lambda p: None,
            should_stop=should_stop,
            piece_s=piece_s,
            pieces=kept.log(),
        )
        return done[1].words

    whole = run(KeptPieces())
    pieces_in_chapter, transcriber.heard = transcriber.heard, 0
    assert pieces_in_chapter >= 3

    kept = KeptPieces()
    with pytest.raises(JobCancelled):
        run(kept, should_stop=lambda: len(kept.pieces.get(1, [])) >= 2)
    assert len(kept.pieces[1]) == 2
    transcriber.heard = 0
    resumed = run(kept)
    assert transcriber.heard == pieces_in_chapter - 2
    assert texts(resumed) == texts(whole)
    assert [w.start_ms for w in resumed] == [w.start_ms for w in whole]
    assert 1 not in kept.pieces  # forgotten once the chapter's transcript was saved

    # pieces of another cut (an earlier run with other piece lengths) are heard again, not reused
    other_cut = KeptPieces()
    with pytest.raises(JobCancelled):
        run(other_cut, should_stop=lambda: len(other_cut.pieces.get(1, [])) >= 2)
    transcriber.heard = 0
    run(KeptPieces(), piece_s=8.0)
    pieces_of_8_s, transcriber.heard = transcriber.heard, 0
    recut = run(other_cut, piece_s=8.0)
    assert transcriber.heard == pieces_of_8_s  # none of the 10-s pieces matched an 8-s one
    assert len(recut) >= 0.9 * len(whole)
    assert 1 not in other_cut.pieces

    # an earlier cut with more pieces than the one that finishes leaves none of them behind
    finer = KeptPieces()
    with pytest.raises(JobCancelled):
        run(finer, should_stop=lambda: len(finer.pieces.get(1, {})) > pieces_in_chapter, piece_s=4.0)
    run(finer)
    assert 1 not in finer.pieces
