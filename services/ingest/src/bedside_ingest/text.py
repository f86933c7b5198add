"""Plain rules about English prose: words and clauses. Where a sentence ends (``sentences_of``,
``ends_sentence``) and what a chapter heading looks like (``heading_title``) are the guard's, so
each is known by one rule where a book is read and where it is quoted."""

import contextlib
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


UNICODE_KNOWN = unicodedata.unidata_version
"""The Unicode version of Python's tables, by which words are told apart."""


def holds_unknown_characters(text: str) -> bool:
    """Whether ``text`` holds characters newer than ``UNICODE_KNOWN`` (a newer script's letters, whose
    words a word count does not see)."""
    return any(unicodedata.category(char) == "Cn" for char in text)


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
    first_c1_line: int | None
    """The line of the first of them (from 1), to say where a text is garbled."""

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
    first_c1 = next((at for at, char in enumerate(head) if char in _C1_CONTROLS), None)
    first_c1_line = None if first_c1 is None else head.count("\n", 0, first_c1) + 1
    return OddCharacters(len(odd), len(head), sum(1 for char in odd if char in _C1_CONTROLS), first_c1_line)


def _bytes_read_as() -> dict[str, int]:
    """Each character a byte 0x80 to 0xFF becomes when read as Latin-1 or as Windows-1252 (whose five
    unused bytes Windows keeps as the C1 control characters Latin-1 reads), and that byte."""
    read_as = {chr(byte): byte for byte in range(0x80, 0x100)}
    for byte in range(0x80, 0xA0):
        with contextlib.suppress(UnicodeDecodeError):
            read_as[bytes([byte]).decode("cp1252")] = byte
    return read_as


_BYTE_READ_AS = _bytes_read_as()


def _read_as(low: int, high: int) -> str:
    return "[" + "".join(re.escape(char) for char, byte in _BYTE_READ_AS.items() if low <= byte <= high) + "]"


_FOLLOWING = _read_as(0x80, 0xBF)
_ONE_CHARACTERS_BYTES = re.compile(
    "|".join(
        f"{_read_as(first_low, first_high)}{_FOLLOWING}{{{following}}}"
        for first_low, first_high, following in ((0xC2, 0xDF, 1), (0xE0, 0xEF, 2), (0xF0, 0xF4, 3))
    )
)
"""What one character's UTF-8 bytes (two to four, the first telling how many) become read one by one."""
DOUBLE_ENCODED_FEWEST = 3
"""Characters read as their UTF-8 bytes, one after another with no other non-ASCII character between,
that tell a stretch of text encoded twice. A real text has such pairs by chance ("ferm\u00e9\u00a0\u00bb" is
E9 A0 BB, one character's bytes), but only among its other accented letters and quotation marks."""


def undone_double_encoding(text: str) -> str:
    """``text`` with each stretch of it that was encoded twice (its UTF-8 read as Latin-1 or Windows-1252
    and saved as UTF-8 again: \u2019 became "\u00e2\u20ac\u2122", \u00e9 "\u00c3\u00a9") as it was
    before. A stretch is characters that read as one character's UTF-8 bytes, with only ASCII between
    them: undone when it holds a C1 control character, which no text holds, or at least
    ``DOUBLE_ENCODED_FEWEST`` that tell garble: inside a word and undoing to a Western letter or mark,
    or running on into another (a garbled line of Chinese). The rest is kept as it is, so a text written
    on after it was garbled keeps what was written after."""
    stretches: list[list[tuple[re.Match[str], str]]] = []  # each character's bytes read, and it
    at = 0
    while found := _ONE_CHARACTERS_BYTES.search(text, at):
        try:
            was = bytes(_BYTE_READ_AS[char] for char in found.group()).decode("utf-8")
        except UnicodeDecodeError:  # no character's bytes (an overlong or a surrogate's)
            at = found.start() + 1
            continue
        if not stretches or not text[stretches[-1][-1][0].end() : found.start()].isascii():
            stretches.append([])
        stretches[-1].append((found, was))
        at = found.end()
    undone: list[str] = []
    at = 0
    for stretch in (stretch for stretch in stretches if _tells_double_encoding(text, stretch)):
        for found, was in stretch:
            undone += [text[at : found.start()], was]
            at = found.end()
    return "".join([*undone, text[at:]])


def _tells_double_encoding(text: str, stretch: list[tuple[re.Match[str], str]]) -> bool:
    holds_c1 = any(_C1_CONTROLS.intersection(found.group()) for found, _ in stretch)
    runs_on = {k for k in range(1, len(stretch)) if stretch[k - 1][0].end() == stretch[k][0].start()}
    telling = [
        k in runs_on or k + 1 in runs_on or (_inside_a_word(text, found, was) and _western(was))
        for k, (found, was) in enumerate(stretch)
    ]
    return holds_c1 or sum(telling) >= DOUBLE_ENCODED_FEWEST


def _inside_a_word(text: str, found: re.Match[str], was: str) -> bool:
    """Garble stands in a word or a number ("It\u00e2\u20ac\u2122s", "caf\u00c3\u00a9", "\u00c2\u00a34"), or
    is punctuation between words ("manage \u00e2\u20ac\u201c somehow"); a text about encodings quotes
    it apart ("shows as \"\u00e2\u20ac\u2122\"")."""
    before, after = text[found.start() - 1 : found.start()], text[found.end() : found.end() + 1]
    if any(char.isascii() and char.isalnum() for char in before + after):
        return True
    return 0x2000 <= ord(was) < 0x2070 and not (before in "\"'" and after in "\"'")


def _western(char: str) -> bool:
    """What most garble undoes to: a letter of Latin, Greek, Cyrillic, Hebrew or the like, punctuation or
    a sign; "wei\u00df\u2026" would undo to an NKo letter, French "\u00e9\u00a0\u00bb" to a Chinese one."""
    return ord(char) < 0x0600 or 0x2000 <= ord(char) < 0x2300
