"""Text out of (X)HTML: the text of each element with an id (for SMIL), and the blocks of a page.

The standard library's forgiving HTML parser is used rather than an XML parser, because
e-book pages often carry HTML entities (&nbsp;) that strict XML refuses.
"""

import html
from dataclasses import dataclass, field
from html.parser import HTMLParser

from bedside_ingest.formats.gutenberg import is_boilerplate
from bedside_ingest.text import clean

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
BLOCKS = frozenset({"p", "div", "li", "blockquote", "section", "article", "tr", "pre", "dd", "dt"}) | HEADINGS
SKIPPED = frozenset({"script", "style", "head", "title", "nav"})
VOID = frozenset({"br", "img", "hr", "meta", "link", "input", "area", "base", "col", "source", "wbr"})


_NOTE_TYPES = frozenset(
    {"noteref", "footnote", "footnotes", "endnote", "endnotes", "rearnote", "rearnotes"}
    | {"doc-noteref", "doc-footnote", "doc-endnote", "doc-endnotes"}
)


def is_note_markup(tag: str, attributes: dict[str, str | None], inside_sup: bool) -> bool:
    """A footnote, endnote or the link that marks one in the text: never narrated. Marked as such
    (EPUB's ``epub:type``, ARIA's ``role``), or a link to a place in the book set as a superscript."""
    marked = {*(attributes.get("epub:type") or "").split(), *(attributes.get("role") or "").split()}
    linked_mark = tag == "a" and inside_sup and "#" in (attributes.get("href") or "")
    return bool(marked & _NOTE_TYPES) or linked_mark


@dataclass
class _Open:
    tag: str
    id: str | None
    skipped: bool
    parts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Block:
    text: str
    heading: bool


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[_Open] = []
        self.by_id: dict[str, str] = {}
        self.heading_ids: set[str] = set()
        self.blocks: list[Block] = []
        self._block: list[str] = []
        self._skip = 0
        self._in_heading = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            if tag == "br":
                self.handle_data(" ")
            return
        attributes = dict(attrs)
        inside_sup = bool(self.stack) and self.stack[-1].tag == "sup"
        skipped = tag in SKIPPED or is_boilerplate(attributes) or is_note_markup(tag, attributes, inside_sup)
        if skipped:
            self._skip += 1
        if tag in BLOCKS:
            self._flush()
        if tag in HEADINGS:
            self._in_heading += 1
        self.stack.append(_Open(tag, attributes.get("id"), skipped))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.handle_data(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not any(o.tag == tag for o in self.stack):
            return
        while self.stack:
            closed = self.stack.pop()
            self._close(closed)
            if closed.tag == tag:
                break

    def _close(self, closed: _Open) -> None:
        if closed.skipped:
            self._skip -= 1
        if closed.tag in HEADINGS:
            self._in_heading -= 1
            self._flush(heading=True)
        elif closed.tag in BLOCKS:
            self._flush()
        if closed.id is not None:
            self.by_id[closed.id] = clean("".join(closed.parts))
            if closed.tag in HEADINGS or self._in_heading:
                self.heading_ids.add(closed.id)
        if self.stack:
            self.stack[-1].parts += closed.parts

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self.stack:
            self.stack[-1].parts.append(data)
        self._block.append(data)

    def _flush(self, heading: bool = False) -> None:
        text = clean("".join(self._block))
        self._block = []
        if text:
            self.blocks.append(Block(text, heading))

    def finish(self) -> None:
        self.close()
        while self.stack:
            self._close(self.stack.pop())
        self._flush()


def parse_page(content: str) -> tuple[dict[str, str], set[str], list[Block]]:
    """``(text by element id, ids that are or sit in headings, text blocks in order)``."""
    parser = _PageParser()
    parser.feed(content)
    parser.finish()
    return parser.by_id, parser.heading_ids, parser.blocks


def page_title(content: str) -> str:
    """The <title> of a page, or ""."""
    start = content.find("<title>")
    end = content.find("</title>", start)
    return clean(html.unescape(content[start + 7 : end])) if 0 <= start < end else ""
