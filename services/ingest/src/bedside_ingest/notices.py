"""LibriVox's notice in a recording, told apart from the book: pure, no I/O.

Every chapter file of a LibriVox recording (the free audiobooks most listeners bring) says "This is
a LibriVox recording. All LibriVox recordings are in the public domain. For more information or to
volunteer, please visit librivox dot org." Heard as the book, it was a passage of every chapter:
found by a search, and words a recap could quote (adr/0080).
"""

import re

from bedside_guard.prose import HEADING

from bedside_ingest.book import Unit
from bedside_ingest.chapters import sentence_groups

_NAME = r"l[iy]b(?:e?r[aeiy]|rar[yi])[ -]?[vbfm]o(?:x|cks|ks)"
"""The project's name as a recogniser writes it: "LibriVox", "Libra Vox", "library box", "librarymox";
no other words, which may be a story's ("All of these early recordings are in the public domain.")."""
_PUBLIC_DOMAIN = re.compile(
    rf"(?:all {_NAME} recordings? (?:are|is)|this {_NAME} recording is) in the public domain", re.IGNORECASE
)
"""The notice's own sentence; the two beside it are dropped only next to it."""
_BEFORE = re.compile(rf"this (?:is|in) an? {_NAME} recording", re.IGNORECASE)
"""("in": Whisper tiny.en wrote "This in a library box recording" for espeak-ng's voice.)"""
_AFTER = re.compile(r"for more information,? or to volunteer,? please visit .{3,40}", re.IGNORECASE)
NOTICE_REACH = 4
"""How many sentences the notice's own sentence may follow the start of a chapter or track, or a
chapter's announcement ("Chapter 2 of Black Beauty."): LibriVox says it second, after them."""


def _said(group: list[Unit]) -> str:
    return " ".join(" ".join(u.text for u in group).split()).rstrip(".!")


def _where_the_notice_is_said(k: int, said: list[str]) -> bool:
    return k <= NOTICE_REACH or any(HEADING.match(sentence) for sentence in said[k - NOTICE_REACH : k])


def without_recording_notice(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """``units`` (a chapter or a track heard) without LibriVox's notice: a sentence saying its
    recordings are in the public domain near the start or an announcement (``NOTICE_REACH``), and
    the sentences "This is a ... recording." before it and "For more information or to volunteer,
    please visit ..." after it, where each is a sentence of its own. Units that are nothing but the
    notice are kept: a chapter is never emptied by it."""
    groups = sentence_groups(units)
    said = [_said(group) for group in groups]
    dropped: set[int] = set()
    for k, sentence in enumerate(said):
        if not _PUBLIC_DOMAIN.fullmatch(sentence) or not _where_the_notice_is_said(k, said):
            continue
        dropped.add(k)
        if k > 0 and _BEFORE.fullmatch(said[k - 1]):
            dropped.add(k - 1)
        if k + 1 < len(said) and _AFTER.fullmatch(said[k + 1]):
            dropped.add(k + 1)
    kept = tuple(u for k, group in enumerate(groups) if k not in dropped for u in group)
    return kept or units
