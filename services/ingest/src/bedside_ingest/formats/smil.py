"""SMIL sync maps (EPUB 3 media overlays, aeneas output): <par> pairs of a text fragment in an
XHTML page and an audio clip. The text is read from the page each fragment points at.

Clip times count from the start of their audio file; when the audio file changes (one per
chapter is common) the book clock carries on from the end of the last clip of the file before.
"""

import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from bedside_ingest.book import Transcript, Unit
from bedside_ingest.decoding import decoded_text
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.xhtml import parse_page
from bedside_ingest.timecodes import BadTime, smil_ms

_NUMBERED = re.compile(r"^(\D*?)0*(\d+)$")


@dataclass(frozen=True)
class _Page:
    by_id: dict[str, str]
    heading_ids: set[str]
    by_number: dict[tuple[str, int], str]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _numbered(ids: dict[str, str]) -> dict[tuple[str, int], str]:
    index: dict[tuple[str, int], str] = {}
    for element_id in ids:
        match = _NUMBERED.match(element_id)
        if match:
            index[(match.group(1), int(match.group(2)))] = element_id
    return index


def find_page(smil_path: Path, reference: str) -> Path | None:
    """The XHTML page a fragment names, where packaging moved it: the exact relative path; the
    same name beside the sync map; a name ending in ``_<name>``; or the only page beside it.
    """
    relative = PurePosixPath(reference)
    exact = smil_path.parent / Path(*relative.parts)
    if exact.is_file():
        return exact
    beside = smil_path.parent / relative.name
    if beside.is_file():
        return beside
    pages = sorted(p for p in smil_path.parent.iterdir() if p.suffix in {".xhtml", ".html", ".htm"})
    suffixed = [p for p in pages if p.name.endswith(f"_{relative.name}")]
    if len(suffixed) == 1:
        return suffixed[0]
    return pages[0] if len(pages) == 1 else None


PageLoader = Callable[[str, str], tuple[str, str] | None]
"""``(sync map name, page reference) -> (page name, page content)``, or None when absent."""


def files_beside(smil_path: Path) -> PageLoader:
    """Pages on disk, found as ``find_page`` finds them."""

    def load(smil_name: str, reference: str) -> tuple[str, str] | None:
        path = find_page(smil_path, reference)
        if path is None:
            return None
        try:
            content = path.read_bytes()
        except OSError as error:
            raise BadInput(path, f"cannot read the text page: {error}") from None
        return str(path), decoded_text(path, content)

    return load


class SmilReader:
    """Reads one or more sync maps in order onto one book clock."""

    def __init__(self) -> None:
        self._pages: dict[str, _Page] = {}
        # Loading decodes the whole page, so each (sync map, page reference) is loaded once, not
        # once per fragment: a page of 335 fragments otherwise took a minute to read.
        self._page_names: dict[tuple[str, str], str] = {}
        self._units: list[Unit] = []
        self._audio: str | None = None
        self._offset_ms = 0
        self._file_end_ms = 0

    def _page(self, smil: str, reference: str, where: str, load: PageLoader) -> _Page:
        name = self._page_names.get((smil, reference))
        if name is None:
            found = load(smil, reference)
            if found is None:
                raise BadInput(smil, f"the text page {reference!r} is not beside the sync map", where)
            name, content = found
            self._page_names[(smil, reference)] = name
            if name not in self._pages:
                by_id, heading_ids, _ = parse_page(content)
                self._pages[name] = _Page(by_id, heading_ids, _numbered(by_id))
        return self._pages[name]

    def _text(self, page: _Page, fragment: str) -> tuple[str, bool] | None:
        element_id = fragment if fragment in page.by_id else None
        match = _NUMBERED.match(fragment)
        if element_id is None and match:  # aeneas pads ids (f000001) that pages do not (f001)
            element_id = page.by_number.get((match.group(1), int(match.group(2))))
        if element_id is None:
            return None
        return page.by_id[element_id], element_id in page.heading_ids

    def read(self, smil: str, content: str, load: PageLoader) -> None:
        """Add the pars of one sync map named ``smil``; ``load`` finds the pages it points at."""
        try:
            root = ET.fromstring(content)
        except ET.ParseError as error:
            raise BadInput(smil, f"not well-formed XML: {error}") from None
        if _local(root.tag) != "smil":
            raise BadInput(smil, f"the root element is <{_local(root.tag)}>, not <smil>")
        for index, par in enumerate((e for e in root.iter() if _local(e.tag) == "par"), start=1):
            self._par(smil, par, f"par {par.get('id') or index}", load)

    def _par(self, smil: str, par: ET.Element, where: str, load: PageLoader) -> None:
        text = next((e for e in par if _local(e.tag) == "text"), None)
        audio = next((e for e in par if _local(e.tag) == "audio"), None)
        if text is None or audio is None or not text.get("src"):
            raise BadInput(smil, "a <par> needs a <text src> and an <audio>", where)
        reference, _, fragment = (text.get("src") or "").partition("#")
        page = self._page(smil, reference, where, load)
        found = self._text(page, fragment)
        if found is None:
            raise BadInput(smil, f"the page {reference!r} has no element with id {fragment!r}", where)
        try:
            begin = smil_ms(audio.get("clipBegin") or "0s")
            end = smil_ms(audio.get("clipEnd") or "")
        except BadTime as error:
            raise BadInput(smil, str(error), where) from None
        source = posixpath.normpath(posixpath.join(posixpath.dirname(smil), audio.get("src") or ""))
        if source != self._audio:
            if self._audio is not None:
                self._offset_ms += self._file_end_ms
            self._audio, self._file_end_ms = source, 0
        self._file_end_ms = max(self._file_end_ms, end)
        words, heading = found
        if words:
            self._units.append(
                Unit(words, f"{where} ({fragment})", self._offset_ms + begin, self._offset_ms + end, heading)
            )

    def transcript(self) -> Transcript:
        return Transcript(units=tuple(self._units), format="smil")
