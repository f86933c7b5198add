"""Dividing a timed transcript into chapters: by a chapters file, by headings the source marks,
or by spoken chapter markers ("Chapter 1. Loomings."). What comes before the first chapter
(a recording's preamble) becomes chapter 0, "Opening" (the guard's ``OPENING_CHAPTER``).
"""

import json
import re
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from bedside_guard import (
    OPENING_CHAPTER,
    OPENING_TITLE,
    ends_sentence,
    heading_in_sentence_case,
    heading_title,
    named_heading,
    number_value,
)
from bedside_guard.prose import HEADING, MAX_HEADING_WORDS, NAMED_HEADINGS

from bedside_ingest.book import Chapter, Transcript, Unit, numbered_title
from bedside_ingest.counted import Numbered, taken_by_the_count
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.subtitles import read_webvtt
from bedside_ingest.same_number import Heading, Meeting, meeting
from bedside_ingest.text import clean, word_count
from bedside_ingest.timecodes import BadTime, flexible_ms

MAX_SPOKEN_TITLE_WORDS = 6


@dataclass(frozen=True)
class ChapterMark:
    title: str
    start_ms: int
    where: str


def is_chapters_list(data: Any) -> bool:
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(e, dict) and "start" in e and "text" not in e for e in data)
    )


@dataclass(frozen=True)
class ChaptersFile:
    marks: list[ChapterMark]
    title: str = ""
    author: str = ""


def read_chapters_file(path: Path, content: str) -> ChaptersFile:
    """A JSON list of ``{title, start}``, start in seconds or "H:MM:SS", strictly increasing;
    or an object ``{title, author, chapters: [...]}`` that also names the book; or a WebVTT
    chapters track (each cue's text is a chapter title, its start the chapter's start).
    """
    if content.lstrip("\ufeff").startswith("WEBVTT"):
        return _chapters_track(path, content)
    try:
        data = json.loads(content)
    except json.JSONDecodeError as error:
        raise BadInput(path, f"not JSON: {error.msg}", f"line {error.lineno}") from None
    title = author = ""
    if isinstance(data, dict) and isinstance(data.get("chapters"), list):
        title, author = str(data.get("title") or ""), str(data.get("author") or "")
        data = data["chapters"]
    if not is_chapters_list(data):
        raise BadInput(path, 'a chapters file is a JSON list of {"title": ..., "start": ...}')
    marks: list[ChapterMark] = []
    for number, entry in enumerate(data, start=1):
        where = f"entry {number}"
        name = clean(str(entry.get("title") or "")) or numbered_title(number)
        try:
            start = flexible_ms(entry["start"])
        except BadTime as error:
            raise BadInput(path, f"start: {error}", where) from None
        if marks and start <= marks[-1].start_ms:
            raise BadInput(path, f"starts at {entry['start']!r}, not after the chapter before", where)
        marks.append(ChapterMark(name, start, where))
    return ChaptersFile(marks, title, author)


def _chapters_track(path: Path, content: str) -> ChaptersFile:
    marks: list[ChapterMark] = []
    for cue in read_webvtt(path, content).units:
        start = cue.start_ms or 0
        if marks and start <= marks[-1].start_ms:
            raise BadInput(path, "a chapter starts no later than the one before", cue.where)
        marks.append(ChapterMark(cue.text.rstrip("."), start, cue.where))
    if not marks:
        raise BadInput(path, "the chapters track has no cues")
    return ChaptersFile(marks)


def split_by_marks(
    transcript: Transcript, marks: list[ChapterMark], chapters_path: Path
) -> tuple[Chapter, ...]:
    """Each unit goes to the chapter in which it starts."""
    before = tuple(u for u in transcript.units if (u.start_ms or 0) < marks[0].start_ms)
    chapters = [Chapter(OPENING_CHAPTER, OPENING_TITLE, before, "before the first chapter")] if before else []
    for number, mark in enumerate(marks, start=1):
        end = marks[number].start_ms if number < len(marks) else None
        units = tuple(
            u
            for u in transcript.units
            if mark.start_ms <= (u.start_ms or 0) and (end is None or (u.start_ms or 0) < end)
        )
        if not units:
            raise BadInput(
                chapters_path, f"chapter {number} ({mark.title!r}) has no text in the transcript", mark.where
            )
        chapters.append(Chapter(number, mark.title, units, mark.where, start_ms=mark.start_ms))
    return tuple(chapters)


def sentence_groups(units: tuple[Unit, ...]) -> list[list[Unit]]:
    """Consecutive units up to and including one that ends a sentence."""
    groups: list[list[Unit]] = []
    current: list[Unit] = []
    for unit in units:
        current.append(unit)
        if ends_sentence(unit.text):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _marked_starts(units: tuple[Unit, ...]) -> list[tuple[int, str]]:
    """``(index of the unit that opens a chapter, title)`` for every heading the source marks."""
    starts: list[tuple[int, str]] = []
    for index, unit in enumerate(units):
        if unit.heading and (index == 0 or not units[index - 1].heading):
            run = [u.text for u in units[index:] if u.heading][:1]
            starts.append((index, clean(" ".join(run)).rstrip(".")))
    return starts


PREAMBLE_SENTENCES = 8
"""How far a recording's own heading may follow the sentence announcing its chapter: LibriVox's
"Chapter 2 of <the book>." and its chapter's heading have five sentences between them."""


@dataclass(frozen=True)
class _Said:
    """The label and number a sentence opens with as a heading does: "Chapter two of Black
    Beauty." says ("chapter", "two", 2), whether or not what follows makes it a heading."""

    label: str
    number: str
    value: int

    @property
    def chapter(self) -> tuple[str, int]:
        return self.label, self.value


def _said(sentence: str) -> _Said | None:
    match = HEADING.match(" ".join(sentence.split()))
    value = None if match is None else number_value(match.group("number"))
    if match is None or value is None:
        return None
    return _Said(match.group(0).split()[0].casefold(), match.group("number"), value)


_ENDS_CHAPTER = re.compile(r"\s*end of\b", re.IGNORECASE)
"""A reader's "End of chapter one.": what comes before it is that chapter's."""


def _preamble(k: int, sentences: list[str]) -> range:
    """The sentences after ``k`` in which the heading of a chapter ``k`` announces may follow:
    ``PREAMBLE_SENTENCES`` of them, up to an end of a chapter (a story's "Chapter two of her life
    began ...", then "End of chapter one.", is no announcement of the chapter after)."""
    stop = min(len(sentences), k + 1 + PREAMBLE_SENTENCES)
    ended = [j for j in range(k + 1, stop) if _ENDS_CHAPTER.match(sentences[j])]
    return range(k + 1, ended[0] if ended else stop)


_NAMED_ANNOUNCEMENT = re.compile(rf"\s*(?P<name>{'|'.join(NAMED_HEADINGS)})\s+of\b", re.IGNORECASE)
"""LibriVox's "Epilogue of <the book>.", as it says "Chapter 2 of <the book>."."""


def _name_announced(k: int, sentences: list[str]) -> str | None:
    """The name sentence ``k`` announces ("Epilogue of Black Beauty."), when its heading ("Epilogue.",
    "Epilogue: Ten years on.", "Epilogue, ten years on.") follows within its ``_preamble``, as a
    numbered announcement's must: the notice between is the epilogue's, not the end of the chapter
    before. A story's "Epilogue of sorts, she called it." announces nothing."""
    match = _NAMED_ANNOUNCEMENT.match(sentences[k])
    if match is None:
        return None
    name = match.group("name")
    return name if any(_announced_heading(sentences[j], name) for j in _preamble(k, sentences)) else None


_TITLED_NAME = re.compile(
    rf"\s*(?P<name>{'|'.join(NAMED_HEADINGS)})\s*(?:--|[.,:—–]|-(?=\s))\s*\S.*", re.IGNORECASE | re.DOTALL
)


def _announced_heading(sentence: str, name: str) -> str | None:
    """The heading ``sentence`` is of the stretch an announcement named ``name`` ("Epilogue.",
    "Epilogue: Ten years on"), None when it is none. Announced, its title may be in small letters as
    Whisper writes it ("Epilogue, ten years on."), as a numbered announcement's heading may; unannounced,
    "Epilogue: the years went by." is the story's (``named_heading``)."""
    heading = named_heading(sentence)
    if heading is not None:
        return heading if heading.casefold().startswith(name.casefold()) else None
    line = " ".join(sentence.split())
    titled = _TITLED_NAME.fullmatch(line)
    if (
        titled is None
        or titled.group("name").casefold() != name.casefold()
        or word_count(line) > MAX_HEADING_WORDS
    ):
        return None
    return line.rstrip(".")


def _heading_ahead(
    k: int, ahead: range, headings: list[tuple[str, str] | None], chapters: list[tuple[str, int] | None]
) -> bool:
    """Whether the heading of the chapter sentence ``k`` names follows in ``ahead`` before another
    chapter's of its label: "Chapter 3 The storm came." before chapter 2's heading announces nothing."""
    announced = chapters[k]
    for j in ahead:
        heading_of = chapters[j]
        if headings[j] is None or heading_of is None or announced is None:
            continue
        if heading_of == announced:
            return True
        if heading_of[0] == announced[0]:
            return False
    return False


def _in_its_part(sentence: str) -> str:
    """What a sentence says of a chapter said with its book or part ("Book one, Chapter one of War
    and Peace.", as LibriVox announces a book in parts): "Chapter one of War and Peace."."""
    match = HEADING.match(" ".join(sentence.split()))
    if match is not None and HEADING.match(match.group("title")):
        return str(match.group("title"))
    return sentence


@dataclass(frozen=True)
class _SpokenStart:
    index: int
    title: str
    number: str
    chapter: tuple[str, int] | None
    preamble_end: int
    """The sentence up to which (not included) a heading of its chapter is the one it announced."""
    headed: bool
    titled: bool = False
    """Its heading said its title ("Chapter three, the storm."), not its number alone."""

    @property
    def name(self) -> str:
        return self.title or numbered_title(self.number)

    @property
    def named(self) -> bool:
        """Headed by a name and no number: "Prologue.", "Epilogue."."""
        return not self.number

    @property
    def heading(self) -> Heading:
        return Heading(self.chapter, self.title if self.titled else "")


def _chapter_heading_after(
    k: int, sentences: list[str], headings: list[tuple[str, str] | None]
) -> int | None:
    """The sentence of the chapter heading a part's or book's heading at ``k`` stands right before
    ("Book one.", "Chapter one."), its title alone between them ("Part 1.", "The early years.",
    "Chapter 1."); None when story comes first, or the heading is a chapter's."""
    said = _said(sentences[k])
    if said is None or said.label == "chapter":
        return None
    j = k + 1
    heading = headings[k]
    untitled = heading is not None and not heading[1]
    if untitled and j < len(sentences) and headings[j] is None:
        if word_count(sentences[j]) > MAX_SPOKEN_TITLE_WORDS:
            return None
        j += 1  # the part's own title
    after = _said(sentences[j]) if j < len(sentences) and headings[j] else None
    return j if after is not None and after.label == "chapter" else None


def _spoken(units: tuple[Unit, ...]) -> list[_SpokenStart]:
    """A recording says its chapters: a heading ("Chapter one, my early home."), or an announcement
    ("Chapter one of Black Beauty.") that the chapter's heading follows within
    ``PREAMBLE_SENTENCES``; the chapter opens at the first, and is named by the heading. A number
    said alone ("Chapter three.") announces as well: its heading with a title that follows within
    as many sentences names it, and opens no other. A heading of the open chapter said again (no
    title, or the same) opens no other; one with a new title does (``same_number.meeting``, the
    rule a text's headings meet by too)."""
    position = {id(u): i for i, u in enumerate(units)}
    groups = sentence_groups(units)
    sentences = [" ".join(u.text for u in group) for group in groups]
    headings = [
        heading_title(_in_its_part(group[0].text)) or heading_title(_in_its_part(sentences[k]))
        for k, group in enumerate(groups)
    ]
    said = [_said(_in_its_part(sentence)) for sentence in sentences]
    chapters = [s.chapter if s else None for s in said]
    for k in _in_sentence_case_by_the_count(sentences, headings, said):
        headings[k] = heading_in_sentence_case(_in_its_part(sentences[k]))
    starts: list[_SpokenStart] = []
    part_heading: dict[int, int] = {}
    """A chapter heading's sentence -> the unit of the part's heading just before it."""
    for k, group in enumerate(groups):
        found, announced, index = headings[k], said[k], position[id(group[0])]
        open_chapter = starts[-1] if starts else None
        if (
            open_chapter is not None
            and not open_chapter.headed
            and open_chapter.named
            and k < open_chapter.preamble_end
            and (heard := _announced_heading(sentences[k], open_chapter.title)) is not None
        ):  # the heading of the name announced: it names the stretch the announcement opened
            starts[-1] = replace(open_chapter, title=heard, headed=True)
            continue
        if (named := named_heading(sentences[k])) is not None:  # "Prologue." said alone
            starts.append(_SpokenStart(index, named, "", None, k + 1, True, True))
            continue
        if (name := _name_announced(k, sentences)) is not None:
            starts.append(_SpokenStart(index, name, "", None, _preamble(k, sentences).stop, False, True))
            continue
        index = part_heading.get(k, index)
        chapter_heading = None if found is None else _chapter_heading_after(k, sentences, headings)
        if chapter_heading is not None:
            # The part's heading opens the chapter after it, not one of its own ("Book one.
            # Chapter one."); an announcement of the part ("Part one of ...") announces that chapter.
            part_heading[chapter_heading] = index
            open_chapter = starts[-1] if starts else None
            if open_chapter and not open_chapter.headed and open_chapter.chapter == chapters[k]:
                starts[-1] = replace(
                    open_chapter,
                    chapter=chapters[chapter_heading],
                    preamble_end=max(open_chapter.preamble_end, chapter_heading + 1),
                )
            continue
        if found is None:
            ahead = _preamble(k, sentences)
            if announced is not None and _heading_ahead(k, ahead, headings, chapters):
                starts.append(_SpokenStart(index, "", announced.number, chapters[k], ahead.stop, False))
            continue
        number, own_title = found
        title = own_title
        following = sentences[k + 1] if k + 1 < len(groups) else ""
        if not title and following and word_count(following) <= MAX_SPOKEN_TITLE_WORDS:
            title = clean(following).rstrip(".")
        # A number said alone is followed by its heading as an announcement is ("Chapter three.",
        # then "Chapter three, the storm."): it opens the chapter that heading names.
        preamble_end = k + 1 if own_title else _preamble(k, sentences).stop
        open_chapter = starts[-1] if starts else None
        met = meeting(
            None if open_chapter is None else open_chapter.heading,
            "" if open_chapter is None else open_chapter.title,
            Heading(chapters[k], own_title),
            within_reach=open_chapter is not None and k < open_chapter.preamble_end,
        )
        if open_chapter is not None and met is Meeting.NAMES_IT:
            starts[-1] = replace(
                open_chapter,
                title=title,
                headed=True,
                titled=bool(own_title),
                preamble_end=max(open_chapter.preamble_end, preamble_end) if not own_title else k + 1,
            )
            continue
        if met is Meeting.SAID_AGAIN:
            continue
        starts.append(_SpokenStart(index, title, number, chapters[k], preamble_end, True, bool(own_title)))
    return starts


def _in_sentence_case_by_the_count(
    sentences: list[str], headings: list[tuple[str, str] | None], said: list[_Said | None]
) -> set[int]:
    """The sentences headed in sentence case ("Chapter 3 The storm at sea.") that the count of the
    headings said places (``counted.taken_by_the_count``)."""
    numbered = [
        Numbered(k, label.label, label.value, in_sentence_case=headings[k] is None)
        for k, label in enumerate(said)
        if label is not None
        and (headings[k] is not None or heading_in_sentence_case(_in_its_part(sentences[k])) is not None)
    ]
    return taken_by_the_count(numbered)


def split_by_markers(transcript: Transcript, fallback_title: str) -> tuple[Chapter, ...]:
    """A transcript's chapters: at the headings its source marks (an e-book's text), or where its
    words say them (``said_chapters``, the rule a recording ingest transcribes is divided by)."""
    units = transcript.units
    if any(u.heading for u in units):
        return _split_at(units, _marked_starts(units))
    return said_chapters(units) or (
        Chapter(1, _one_chapters_title(units, fallback_title), units, "the whole transcript"),
    )


def _one_chapters_title(units: tuple[Unit, ...], fallback_title: str) -> str:
    """A transcript of one chapter is named by the heading it opens with ("Chapter five, the storm.",
    or announced: "Chapter five of ...", the notice, then its heading), else by ``fallback_title``
    (its file's): a heading further on may be the story's ("Chapter 11, the lawyer said.")."""
    starts = _spoken(units)
    if not starts or starts[0].index != 0:
        return fallback_title
    first = " ".join(u.text for u in sentence_groups(units)[0])
    return starts[0].title or clean(first).rstrip(".")


def said_chapters(units: tuple[Unit, ...]) -> tuple[Chapter, ...]:
    """The chapters recognised words say (``_spoken``), what comes before the first the opening;
    none when they say none, or what they say is no book's chapters (``_a_books_chapters``). One
    rule for a transcript brought and a recording ingest transcribes. Chapters said counting up one
    by one are numbered as said, so a second volume's "Chapter 23" is chapter 23, and an epilogue
    or "Chapter the last" after them the next; others in order. A prologue before them is the
    opening, named so."""
    starts = _spoken(units)
    if not _a_books_chapters(starts):
        return ()
    numbered = [k for k, start in enumerate(starts) if not start.named]
    # a name said between the numbered chapters ("Prologue." in a line of the story) opens none: it
    # would shift the numbers of every chapter after it
    starts = [s for k, s in enumerate(starts) if not s.named or not numbered[0] < k < numbered[-1]]
    prologue = starts[0] if starts[0].named else None
    if prologue is not None:  # the opening, with what comes before it (adr/0051)
        starts = starts[1:]
    chapters = _split_at(units, [(start.index, start.name) for start in starts])
    if prologue is not None:
        chapters = (replace(chapters[0], title=prologue.name), *chapters[1:])
    said = [start.chapter for start in starts if start.chapter is not None]
    label, first = said[0]
    # an epilogue, or "Chapter the last", after them: the next number
    unnumbered_last = all(start.chapter is None for start in starts[len(said) :])
    if not unnumbered_last or first < 1 or said != [(label, first + k) for k in range(len(said))]:
        return chapters
    numbers = iter(range(first, first + len(starts)))
    return tuple(c if c.n == OPENING_CHAPTER else replace(c, n=next(numbers)) for c in chapters)


def _a_books_chapters(starts: list[_SpokenStart]) -> bool:
    """Whether headings heard are a book's chapters: two or more of one label, one numbered right
    after another ("Chapter 4", "Chapter 5"), as ``plaintext._numbered_headings`` asks of a text. A
    lone "Part one, the easy part, was done." or "Chapter 11, the lawyer said" is the story's, and
    would make the book before it an opening to skip."""
    said = [start.chapter for start in starts if start.chapter is not None]
    return any(
        label == after_label and value + 1 == after_value
        for (label, value), (after_label, after_value) in pairwise(said)
    )


def _split_at(units: tuple[Unit, ...], starts: list[tuple[int, str]]) -> tuple[Chapter, ...]:
    chapters = []
    if starts[0][0] > 0:
        chapters.append(
            Chapter(OPENING_CHAPTER, OPENING_TITLE, units[: starts[0][0]], "before the first chapter")
        )
    for number, (index, title) in enumerate(starts, start=1):
        end = starts[number][0] if number < len(starts) else len(units)
        chapters.append(Chapter(number, title, units[index:end], units[index].where))
    return tuple(chapters)
