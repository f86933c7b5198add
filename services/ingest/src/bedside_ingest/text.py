"""Plain rules about English prose: words and clauses. Where a sentence ends (``sentences_of``,
``ends_sentence``) and what a chapter heading looks like (``heading_title``) are the guard's, so
each is known by one rule where a book is read and where it is quoted."""

import re
import unicodedata
from dataclasses import dataclass

from bedside_guard import sentences_of

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[\w’']+")
_CLAUSE_MARKS = (",", ";", ":", "—", "–", "-")
_CLOSERS = "\"'”’)]»"


NOTE_MARK = re.compile(r"\[(?:\d{1,3}|[a-z*])\]")
"""A footnote's mark in running text ("Tallow Street.[1] Every"): never read aloud."""


def clean(text: str) -> str:
    """One line of text with single spaces, without footnote marks."""
    return _SPACE.sub(" ", NOTE_MARK.sub("", text)).strip()


def is_note(paragraph: str) -> bool:
    """Whether a paragraph of plain text is a footnote's own ("[1] Tallow Street was renamed...")."""
    return NOTE_MARK.match(paragraph.lstrip()) is not None


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def ends_clause(text: str) -> bool:
    return text.rstrip().rstrip(_CLOSERS).endswith(_CLAUSE_MARKS)


def split_sentences(paragraph: str) -> list[str]:
    """The sentences of one paragraph, on one line each: the guard's splitter (``sentences_of``),
    so a passage closes where a sentence read out or quoted ends, and never after "Mr."."""
    return sentences_of(clean(paragraph))


NOT_TEXT_MOST = 0.01
"""The share of characters no text holds past which a decoded file is no text: an old e-text may
carry a stray control character, binary data taken for text a great many."""
NOT_TEXT_FEWEST = 5
"""Fewer characters no text holds than this are stray ones whatever their share: one in a short file
(a two-cue chapters track) is more than 1% of it; binary data has hundreds."""
NOT_TEXT_LOOKED_AT = 200_000
"""Characters looked at, from the start: binary data shows at once, and a long book costs no more."""
END_OF_FILE_MARK = "\x1a"
"""DOS's end-of-file mark, which old e-texts and tools leave at a file's end: not part of the text."""
_NOT_IN_TEXT = frozenset({"Cc", "Co", "Cs"})  # control, private-use, lone surrogate
# Not unassigned (Cn): Python's Unicode tables lag Unicode's, and newer letters and emoji are text.
_TEXT_CONTROLS = frozenset("\t\n\r\f\v")
_C1_CONTROLS = frozenset(map(chr, range(0x80, 0xA0)))
"""In no text, but what the bytes of a UTF-8 character (\u2019 is E2 80 99) read as Latin-1 become."""


@dataclass(frozen=True)
class OddCharacters:
    """The characters no text holds among those looked at of a decoded file."""

    count: int
    looked_at: int
    c1_controls: int
    """Of ``count``, those U+0080 to U+009F: a text encoded twice has them, binary data few."""

    @property
    def share(self) -> float:
        return self.count / self.looked_at if self.looked_at else 0.0

    @property
    def too_many(self) -> bool:
        """Whether the file is no text as it was decoded."""
        return self.count >= NOT_TEXT_FEWEST and self.share > NOT_TEXT_MOST

    @property
    def mostly_c1(self) -> bool:
        """Whether they look like UTF-8 read as Latin-1 (or Windows-1252) and saved again."""
        return self.c1_controls * 2 > self.count


def odd_characters(text: str) -> OddCharacters:
    """``text``'s characters (of its first ``NOT_TEXT_LOOKED_AT``) that no text holds: random bytes
    decoded as UTF-16 are a tenth control or private-use characters, as Windows-1252 a tenth control."""
    head = text[:NOT_TEXT_LOOKED_AT]
    odd = [char for char in head if char not in _TEXT_CONTROLS and unicodedata.category(char) in _NOT_IN_TEXT]
    return OddCharacters(len(odd), len(head), sum(1 for char in odd if char in _C1_CONTROLS))


def undone_double_encoding(text: str) -> str | None:
    """``text`` as it was before its UTF-8 was read as Latin-1 or as Windows-1252 (its five unused
    bytes kept as C1 control characters, as Windows does) and saved as UTF-8 again; None when it holds
    no C1 control character, the sign of it, or cannot have been so made (a character that is no one
    byte of either, or bytes that are no UTF-8): a text with a correct part cannot be undone whole."""
    if not _C1_CONTROLS.intersection(text):
        return None
    single = bytearray()
    for char in text:
        try:
            single += char.encode("cp1252")
        except UnicodeEncodeError:
            if ord(char) > 0xFF:
                return None
            single.append(ord(char))  # Latin-1's byte, which is Windows-1252's unused one too
    try:
        return single.decode("utf-8")
    except UnicodeDecodeError:
        return None
