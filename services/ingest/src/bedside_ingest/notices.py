"""LibriVox's notice in a recording, told apart from the book: pure, no I/O.

Every chapter file of a LibriVox recording (the free audiobooks most listeners bring) says "This is
a LibriVox recording. All LibriVox recordings are in the public domain. For more information or to
volunteer, please visit librivox dot org." Heard as the book, it was a passage of every chapter:
found by a search, and words a recap could quote (adr/0080).
"""

import re

from bedside_ingest.book import Unit
from bedside_ingest.chapters import sentence_groups

_NAME = r"[\w.' -]{3,30}?"
"""The project's name as a recogniser writes it: "LibriVox", "library box", "librarymox"."""
_PUBLIC_DOMAIN = re.compile(
    rf"(?:all {_NAME} recordings? (?:are|is)|this {_NAME} recording is) in the public domain", re.IGNORECASE
)
"""The notice's own sentence; the two beside it are dropped only next to it."""
_BEFORE = re.compile(rf"this (?:is|in) an? {_NAME} recording", re.IGNORECASE)
"""("in": Whisper tiny.en wrote "This in a library box recording" for espeak-ng's voice.)"""
_AFTER = re.compile(r"for more information,? or to volunteer,? please visit .{3,40}", re.IGNORECASE)


def _said(group: list[Unit]) -> str:
    return " ".join(" ".join(u.text for u in group).split()).rstrip(".!")


def without_recording_notice(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """``units`` without LibriVox's notice: each sentence saying its recordings are in the public
    domain, and the sentences "This is a ... recording." before it and "For more information or
    to volunteer, please visit ..." after it, where each is a sentence of its own. Units that are
    nothing but the notice are kept: a chapter is never emptied by it."""
    groups = sentence_groups(units)
    said = [_said(group) for group in groups]
    dropped: set[int] = set()
    for k, sentence in enumerate(said):
        if not _PUBLIC_DOMAIN.fullmatch(sentence):
            continue
        dropped.add(k)
        if k > 0 and _BEFORE.fullmatch(said[k - 1]):
            dropped.add(k - 1)
        if k + 1 < len(said) and _AFTER.fullmatch(said[k + 1]):
            dropped.add(k + 1)
    kept = tuple(u for k, group in enumerate(groups) if k not in dropped for u in group)
    return kept or units
