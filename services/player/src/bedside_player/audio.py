"""The media type an audio file is served with: Python's table does not know audiobooks' .m4b,
and a browser given text/plain for it may refuse to play it."""

import mimetypes
from pathlib import Path

AUDIO_TYPES = {".m4b": "audio/mp4", ".m4a": "audio/mp4", ".aac": "audio/aac", ".opus": "audio/ogg"}


def audio_media_type(path: Path) -> str:
    known = AUDIO_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
    return known or "application/octet-stream"
