"""EPUB (with ebooklib): each document of the reading order that holds text is a chapter,
titled by its first heading (else its table-of-contents entry, else its <title>).
"""

import warnings
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import ebooklib
from ebooklib import epub

from bedside_ingest.book import Book, numbered_title
from bedside_ingest.decoding import decoded_text
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.gutenberg import wrapping
from bedside_ingest.formats.untimed import untimed_chapter
from bedside_ingest.formats.xhtml import page_title, parse_page
from bedside_ingest.matter import about_the_book, lists_the_chapters


def _toc_titles(toc: Any) -> dict[str, str]:
    """Document file name -> its title in the table of contents."""
    titles: dict[str, str] = {}
    for entry in toc:
        if isinstance(entry, tuple):
            section, children = entry
            titles.update(_toc_titles([section, *children]))
        elif hasattr(entry, "href") and hasattr(entry, "title"):
            titles.setdefault(str(entry.href).split("#")[0], str(entry.title))
    return titles


def _metadata(book: Any, name: str) -> str:
    values = book.get_metadata("DC", name)
    return str(values[0][0]) if values else ""


DRM_REASON = (
    "is protected by DRM (its pages are encrypted); Bedside cannot read it. "
    "Use an EPUB without DRM, or the book's text (.txt)"
)
FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
"""How a DRM-free EPUB hides the fonts it embeds: listed as encrypted, its text is not."""
_XMLENC = "{http://www.w3.org/2001/04/xmlenc#}"


def encrypted_pages(path: Path) -> list[str]:
    """The pages (not fonts) an EPUB's META-INF/encryption.xml lists as encrypted: a DRM-protected
    book's (Adobe, Apple, Readium LCP) are its text."""
    try:
        with zipfile.ZipFile(path) as package:
            listed = package.read("META-INF/encryption.xml")
        root = ElementTree.fromstring(listed)
    except (OSError, KeyError, zipfile.BadZipFile, ElementTree.ParseError):
        return []  # none listed, or a package ebooklib refuses in its own words
    pages = []
    for data in root.iter(f"{_XMLENC}EncryptedData"):
        method = data.find(f"{_XMLENC}EncryptionMethod")
        reference = data.find(f"{_XMLENC}CipherData/{_XMLENC}CipherReference")
        if reference is None or (method is not None and method.get("Algorithm") in FONT_OBFUSCATION):
            continue
        uri = reference.get("URI", "")
        if uri.lower().endswith((".xhtml", ".html", ".htm", ".xml")):
            pages.append(uri)
    return pages


def read_epub(path: Path) -> Book:
    if encrypted_pages(path):
        raise BadInput(path, DRM_REASON)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ebooklib warns about its own future defaults
            book = epub.read_epub(str(path), options={"ignore_ncx": True})
    except Exception as error:  # ebooklib raises many kinds on a broken package
        raise BadInput(path, f"not a readable EPUB: {error}") from None
    toc = _toc_titles(book.toc)
    title, author = _metadata(book, "title") or path.stem, _metadata(book, "creator")
    pages: list[tuple[str, list[tuple[str, str]], str]] = []
    for item_id, linear in book.spine:
        item = book.get_item_with_id(item_id)
        if item is None or item.get_type() != ebooklib.ITEM_DOCUMENT or isinstance(item, epub.EpubNav):
            continue
        if linear == "no":  # read only when a link leads to it (notes, a cast list): no part of the story
            continue
        content = decoded_text(path, item.get_content(), f"page {item.get_name()}")
        _, _, blocks = parse_page(content)
        wrapped = wrapping([b.text for b in blocks])
        blocks = blocks[wrapped.start : wrapped.end]
        headings = [b.text for b in blocks if b.heading]
        prose = [(b.text, item.get_name()) for b in blocks if not b.heading]
        if not prose:
            continue  # a cover or a title page: nothing to narrate
        page = (headings[0] if headings else "") or toc.get(item.get_name(), "") or page_title(content)
        if not about_the_book(page, title, author):
            pages.append((page, prose, item.get_name()))
    titles = [page for page, _, _ in pages]
    story = [
        (page, prose, name)
        for page, prose, name in pages
        if not lists_the_chapters([text for text, _ in prose], [other for other in titles if other != page])
    ]
    chapters = [
        untimed_chapter(n, page or numbered_title(n), prose, name)
        for n, (page, prose, name) in enumerate(story, start=1)
    ]
    if not chapters:
        raise BadInput(path, "the EPUB has no document with text in its reading order")
    return Book(title=title, author=author, chapters=tuple(chapters), format="epub", timed=False)
