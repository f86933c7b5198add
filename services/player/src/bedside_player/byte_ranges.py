"""Which bytes of a file a request's ``Range`` header asks for (RFC 9110, one range).

Used where a file is served while it still arrives, so the response is built here rather than by
Starlette's ``FileResponse``. A header asking for several ranges, or one that cannot be read, is
ignored and the whole file sent, as the RFC allows; an audio element asks for one range.
"""

from dataclasses import dataclass


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
    return text.isascii() and text.isdigit()  # "²" is a digit to str.isdigit, not to int()
