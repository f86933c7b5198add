"""A recording as the recogniser hears it: 16-bit PCM WAV in, 16 kHz mono float32 out."""

import io
import wave

import numpy as np
import numpy.typing as npt

from bedside_speech.whisper import LISTEN_RATE

PCM16_BYTES = 2


class NotAWav(ValueError):
    """The bytes are not a 16-bit PCM WAV recording."""


def samples_from_wav(data: bytes) -> npt.NDArray[np.float32]:
    """The recording's samples at ``LISTEN_RATE``, channels mixed to one, in [-1, 1]."""
    try:
        with wave.open(io.BytesIO(data)) as recording:
            if recording.getsampwidth() != PCM16_BYTES:
                raise NotAWav(f"{8 * recording.getsampwidth()}-bit samples; 16-bit PCM expected")
            channels = recording.getnchannels()
            rate = recording.getframerate()
            frames = recording.readframes(recording.getnframes())
    except (wave.Error, EOFError) as error:
        raise NotAWav(str(error)) from None
    pcm = np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768
    if channels > 1:
        pcm = pcm[: len(pcm) - len(pcm) % channels].reshape(-1, channels).mean(axis=1)
    if rate == LISTEN_RATE or len(pcm) == 0:
        return pcm.astype(np.float32)
    positions = np.linspace(0, len(pcm) - 1, round(len(pcm) * LISTEN_RATE / rate))
    return np.interp(positions, np.arange(len(pcm)), pcm).astype(np.float32)
