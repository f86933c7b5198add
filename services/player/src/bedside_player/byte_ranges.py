"""Which bytes of a file a request's ``Range`` header asks for (RFC 9110, one range).

Used where a file is served while it still arrives, so the response is built here rather than by
Starlette's ``FileResponse``. A header asking for several ranges is answered with the first, which
is what an audio element ever asks for; a header that cannot be read is ignored, as the RFC allows.
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
    first_text, dash, last_text = spec.split(",")[0].strip().partition("-")
    if not dash or not (first_text.isdigit() or last_text.isdigit()):
        return None
    if not first_text:  # "-N": the last N bytes
        suffix = int(last_text)
        if suffix == 0:
            raise RangeNotSatisfiable(header)
        return ByteRange(max(0, size - suffix), size - 1) if size else None
    if not first_text.isdigit() or (last_text and not last_text.isdigit()):
        return None
    first = int(first_text)
    last = min(int(last_text), size - 1) if last_text else size - 1
    if first >= size:
        raise RangeNotSatisfiable(header)
    if last < first:
        return None
    return ByteRange(first, last)
