"""Bytes into text, one way for every file and page a book is read from: a text file, a transcript,
an e-book's page. Decoded the same way, each has a text encoded twice undone by one rule."""

import codecs
import contextlib
from pathlib import Path

from bedside_ingest.errors import BadInput
from bedside_ingest.text import END_OF_FILE_MARK, odd_characters, undone_double_encoding

UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decoded_text(path: Path, content: bytes, where: str | None = None) -> str:
    """Text in UTF-8, in UTF-16 with its byte-order mark (Notepad's "Unicode"), or in Windows-1252
    (older e-texts, Project Gutenberg's among them); bytes that are not UTF-8 and hold a NUL are no
    Windows-1252 text either, and what decodes into characters no text holds is no text at all
    (binary data behind a UTF-16 mark decodes without an error). The stretches of a text encoded twice
    are undone, and a text that still looks so is refused saying where. ``where`` names the part of
    ``path`` the bytes are (an e-book's page)."""
    text = undone_double_encoding(_decoded(path, content, where).rstrip(END_OF_FILE_MARK))
    odd = odd_characters(text)
    if odd.too_many and odd.mostly_c1:
        raise BadInput(
            path,
            f"looks encoded twice ({odd.share:.1%} of its characters are C1 control characters, as UTF-8 "
            "read as Latin-1 or Windows-1252 and saved again holds) but cannot be undone there: the one on "
            f"line {odd.first_c1_line} is no part of a character's UTF-8 bytes read so (the text was changed "
            "since); save it again from an earlier copy, or as UTF-8 once",
            where,
        )
    if odd.too_many:
        raise BadInput(
            path, f"is not text: {odd.share:.1%} of its characters are control or private-use ones", where
        )
    return text


def _decoded(path: Path, content: bytes, where: str | None) -> str:
    if content.startswith(UTF16_MARKS):
        try:
            return content.decode("utf-16")
        except UnicodeDecodeError as error:
            raise BadInput(path, f"is not text: broken UTF-16 at byte {error.start}", where) from None
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if b"\x00" not in content:
            with contextlib.suppress(UnicodeDecodeError):
                return content.decode("cp1252")
        raise BadInput(
            path, f"is not text in UTF-8, UTF-16 or Windows-1252 (byte {error.start})", where
        ) from None
