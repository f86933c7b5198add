"""EPUB 3 media overlays: an EPUB whose pages have SMIL sync maps is a timed book.

The package document (OPF) names, for each page of the reading order, its overlay
(``media-overlay``); the overlays are read in that order onto one clock, with their text
taken from the pages inside the EPUB.
"""

import posixpath
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from bedside_ingest.book import Transcript
from bedside_ingest.decoding import decoded_text
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.smil import PageLoader, SmilReader

_CONTAINER = "META-INF/container.xml"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if _local(e.tag) == name]


def _text(archive: zipfile.ZipFile, name: str) -> str:
    return archive.read(name).decode("utf-8-sig", errors="replace")


def _package(archive: zipfile.ZipFile) -> str:
    container = ET.fromstring(_text(archive, _CONTAINER))
    rootfiles = [e.get("full-path") for e in _children(container, "rootfile")]
    if not rootfiles or not rootfiles[0]:
        raise ValueError("the container names no package document")
    return rootfiles[0]


def _overlay_names(opf_name: str, opf: ET.Element) -> list[str]:
    """The sync maps of the reading order, in order, as names inside the archive."""
    base = posixpath.dirname(opf_name)
    manifest = {item.get("id"): item for item in _children(opf, "item")}
    names: list[str] = []
    for itemref in _children(opf, "itemref"):
        page = manifest.get(itemref.get("idref"))
        overlay = manifest.get(page.get("media-overlay")) if page is not None else None
        href = overlay.get("href") if overlay is not None else None
        if href:
            name = posixpath.normpath(posixpath.join(base, href))
            if name not in names:
                names.append(name)
    return names


def _metadata(opf: ET.Element, name: str) -> str:
    found = [e.text for e in _children(opf, name) if e.text]
    return found[0].strip() if found else ""


def read_overlays(path: Path) -> Transcript | None:
    """The timed transcript of an EPUB with media overlays; None when it has none."""
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise BadInput(path, f"not a readable EPUB: {error}") from None
    with archive:
        try:
            opf_name = _package(archive)
            opf = ET.fromstring(_text(archive, opf_name))
        except (KeyError, ValueError, ET.ParseError) as error:
            raise BadInput(path, f"not a readable EPUB package: {error}") from None
        overlays = _overlay_names(opf_name, opf)
        if not overlays:
            return None
        prefix = f"{path}/"
        members = set(archive.namelist())

        def load(smil: str, reference: str) -> tuple[str, str] | None:
            inner = smil.removeprefix(prefix)
            name = posixpath.normpath(posixpath.join(posixpath.dirname(inner), reference))
            if name not in members:
                return None
            return name, decoded_text(path, archive.read(name), where=f"page {name}")

        loader: PageLoader = load
        reader = SmilReader()
        for name in overlays:
            if name not in members:
                raise BadInput(path, f"the package names a sync map {name!r} that is not in the EPUB")
            reader.read(prefix + name, _text(archive, name), loader)
    transcript = reader.transcript()
    return Transcript(
        units=transcript.units,
        format="epub-media-overlay",
        title=_metadata(opf, "title"),
        author=_metadata(opf, "creator"),
    )
