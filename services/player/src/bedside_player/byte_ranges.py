"""Which bytes of a file a request's ``Range`` header asks for (RFC 9110, one range), and whether
the device's copy is still the file (its entity tag, ``If-None-Match`` and ``If-Range``).

Used where a file is served while it still arrives, so the response is built here rather than by
Starlette's ``FileResponse``. A header asking for several ranges, or one that cannot be read, is
ignored and the whole file sent, as the RFC allows; an audio element asks for one range. A book's
address stays when it is ingested again with another recording, so a device's cached bytes are
only used while its tag is the file's.
"""

from dataclasses import dataclass

MOST_DIGITS = 18


class RangeNotSatisfiable(ValueError):
    """The range starts past the end of the file."""


@dataclass(frozen=True)
class ByteRange:
    first: int
    last: int  # inclusive, as Content-Range counts

    @property
    def length(self) -> int:
        return self.last - self.first + 1

    def content_range(self, size: int) -> str:
        return f"bytes {self.first}-{self.last}/{size}"


def requested_range(header: str | None, size: int) -> ByteRange | None:
    """The range asked for in a file of ``size`` bytes, or None for the whole file."""
    if header is None:
        return None
    unit, _, spec = header.partition("=")
    if unit.strip().lower() != "bytes" or not spec:
        return None
    if "," in spec:
        return None
    first_text, dash, last_text = spec.strip().partition("-")
    if not dash or not (_digits(first_text) or _digits(last_text)):
        return None
    if not first_text:  # "-N": the last N bytes
        suffix = int(last_text)
        if suffix == 0 or size == 0:
            raise RangeNotSatisfiable(header)
        return ByteRange(max(0, size - suffix), size - 1)
    if not _digits(first_text) or (last_text and not _digits(last_text)):
        return None
    first = int(first_text)
    last = min(int(last_text), size - 1) if last_text else size - 1
    if first >= size:
        raise RangeNotSatisfiable(header)
    if last < first:
        return None
    return ByteRange(first, last)


def _digits(text: str) -> bool:
    # "²" is a digit to str.isdigit, not to int(); past 18 digits no file is that long, and int()
    # refuses thousands of them
    return text.isascii() and text.isdigit() and len(text) <= MOST_DIGITS


def entity_tag(media_name: str) -> str:
    """The strong tag of a media-bucket file: its name is its content's hash."""
    return f'"{media_name}"'


def weak_tag(size: int, modified_ns: int) -> str:
    """The tag of a file known only on disk: the same size and time are taken as the same bytes."""
    return f'W/"{size:x}-{modified_ns:x}"'


def unchanged(if_none_match: str | None, tag: str) -> bool:
    """Whether ``If-None-Match`` names the file as it is (weak comparison, as for a GET)."""
    if if_none_match is None:
        return False
    # split on commas: the tags made here (hashes, hex numbers) hold none
    named = {_opaque(listed) for listed in if_none_match.split(",")}
    return "*" in named or _opaque(tag) in named


def range_applies(if_range: str | None, tag: str) -> bool:
    """Whether to send the range asked for: no ``If-Range``, or one naming the file by its strong
    tag. Anything else (a date, a weak or older tag) gets the whole file, so bytes of two
    recordings are never joined."""
    return if_range is None or (not tag.startswith("W/") and if_range.strip() == tag)


def _opaque(tag: str) -> str:
    return tag.strip().removeprefix("W/")
