"""The offline recogniser: the pinned tiny.en model, a user's own model folder, words with times."""

from pathlib import Path

import numpy as np
import pytest
from bedside_audiobooks import need_espeak, speak
from bedside_embedding import IntegrityError
from bedside_speech import LISTEN_RATE, TINY_EN_MODEL_ID, WhisperTranscriber, model_folder

SENTENCE = "The lighthouse keeper climbed the stairs and lit the lamp at sunset."


def test_the_pinned_model_is_found_and_checked() -> None:
    folder, model_id = model_folder(None)
    assert model_id == TINY_EN_MODEL_ID
    assert (folder / "model.bin").is_file()


def test_a_folder_without_a_model_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IntegrityError, match="not a CTranslate2 model folder"):
        model_folder(tmp_path)


def test_speech_becomes_words_with_times_in_order() -> None:
    need_espeak()
    samples, rate = speak(SENTENCE)
    # espeak speaks at 22.05 kHz; the recogniser listens at 16 kHz.
    positions = np.linspace(0, len(samples) - 1, round(len(samples) * LISTEN_RATE / rate))
    audio = np.interp(positions, np.arange(len(samples)), samples.astype(np.float32) / 32768).astype(
        np.float32
    )
    words = WhisperTranscriber().transcribe(audio)
    heard = [w.text.strip(".,").lower() for w in words]
    assert {"stairs", "sunset"} <= set(heard)  # espeak-ng's l is often heard as r
    assert len(heard) >= 10
    starts = [w.start_s for w in words]
    assert starts == sorted(starts)
    assert all(0 <= w.start_s <= w.end_s <= len(samples) / rate + 0.5 for w in words)


def test_a_spoken_question_is_heard_as_text_and_hints_bring_a_name_in() -> None:
    need_espeak()
    samples, rate = speak("who is Merrylegs?")
    positions = np.linspace(0, len(samples) - 1, round(len(samples) * LISTEN_RATE / rate))
    audio = np.interp(positions, np.arange(len(samples)), samples.astype(np.float32) / 32768).astype(
        np.float32
    )
    recogniser = WhisperTranscriber()
    assert "who is" in recogniser.hear(audio).lower()
    assert "Merrylegs" in recogniser.hear(audio, hints="Ginger Merrylegs Birtwick")
