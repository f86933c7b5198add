"""A WAV upload becomes 16 kHz mono samples, or a clear refusal."""

import io
import wave

import numpy as np
import pytest
from bedside_speech import LISTEN_RATE, NotAWav, samples_from_wav


def wav(samples: np.ndarray, rate: int, channels: int = 1, width: int = 2) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as recording:
        recording.setnchannels(channels)
        recording.setsampwidth(width)
        recording.setframerate(rate)
        recording.writeframes(samples.tobytes())
    return out.getvalue()


def test_a_22khz_stereo_recording_is_heard_at_16khz_mono() -> None:
    second = (np.sin(np.linspace(0, 440 * 2 * np.pi, 22_050)) * 16_000).astype("<i2")
    stereo = np.repeat(second, 2)
    samples = samples_from_wav(wav(stereo, 22_050, channels=2))
    assert abs(len(samples) - LISTEN_RATE) <= 1
    assert samples.dtype == np.float32
    assert 0.45 < float(np.max(np.abs(samples))) <= 0.5


def test_bytes_that_are_not_a_wav_are_refused() -> None:
    with pytest.raises(NotAWav):
        samples_from_wav(b"RIFF....not really")


def test_8_bit_audio_is_refused() -> None:
    with pytest.raises(NotAWav, match="8-bit"):
        samples_from_wav(wav(np.zeros(100, dtype=np.uint8), 16_000, width=1))
