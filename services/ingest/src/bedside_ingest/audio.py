"""The audio file named beside a transcript: its length (mutagen reads the headers only)."""

from pathlib import Path

import mutagen

from bedside_ingest.errors import BadInput


def audio_duration_ms(path: Path) -> int:
    """The duration of an audio file; a file mutagen cannot read is bad input."""
    if not path.is_file():
        raise BadInput(path, "the audio file does not exist")
    try:
        audio = mutagen.File(str(path))
    except Exception as error:  # mutagen raises format-specific errors
        raise BadInput(path, f"cannot read it as audio: {error}") from None
    length = getattr(getattr(audio, "info", None), "length", None)
    if audio is None or not isinstance(length, float) or length <= 0:
        raise BadInput(path, "is not an audio file Bedside can read (mp3, m4a/m4b, ogg, opus, flac, wav)")
    return round(length * 1000)
