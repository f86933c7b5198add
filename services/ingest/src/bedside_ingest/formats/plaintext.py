"""Plain text with chapter headings ("Chapter 3", "CHAPTER III. The Storm", "# The Storm"), or
with numbered titles alone ("01 My Early Home", "IV. The Boscombe Valley Mystery").

The lines before the first heading give the book's title (and "by ..." its author); any
longer text there becomes chapter 0. A heading with no title may take the short line
below it as its title.
"""

import re
from pathlib import Path

from bedside_guard import (
    OPENING_CHAPTER,
    OPENING_TITLE,
    TITLES,
    heading_in_sentence_case,
    heading_title,
    named_heading,
    number_value,
)
from bedside_guard.prose import NAMED_HEADINGS

from bedside_ingest.book import Book, Chapter, numbered_title
from bedside_ingest.counted import Numbered, taken_by_the_count
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.gutenberg import wrapping
from bedside_ingest.formats.untimed import untimed_chapter
from bedside_ingest.matter import known_titles, listed_entry, number_alone
from bedside_ingest.same_number import Heading, Meeting, meeting
from bedside_ingest.text import clean, is_note, word_count

_MARKDOWN_HEADING = re.compile(r"^#{1,3}\s+(?P<title>\S.*)$")
_GROUPING = re.compile(r"^\s*(part|book)\b", re.IGNORECASE)
_CONTENTS = re.compile(r"^(table of )?contents[.:]?$", re.IGNORECASE)
_BY = re.compile(r"^by\s+(?P<author>.+)$", re.IGNORECASE)
MAX_TITLE_WORDS = 10
CONTENTS_RUN = 3
CONTENTS_ENTRIES = 2
"""How many numbers alone in a row, each given again later with a title, are a contents list when no
"Contents" line heads them: one is a chapter ("Chapter 3", a line of story, then "Chapter 1. The Hunt")."""


def _markdown_level(line: str) -> int | None:
    """How many "#" head a Markdown heading; None for any other line."""
    stripped = line.strip()
    return len(stripped) - len(stripped.lstrip("#")) if _MARKDOWN_HEADING.match(stripped) else None


def _without_book_title(
    found: list[tuple[int, int, str]], lines: list[tuple[int, str]]
) -> list[tuple[int, int, str]]:
    """The headings without a Markdown book's title: its first heading, when the other Markdown
    headings are all lower ("# The Salt Road" over "## The Ferry"). Its line stays with the lines
    before the first chapter, which give the book its title and author (``_front_matter``). A
    first heading that numbers a chapter ("# Chapter 1: The Ferry") is that chapter's."""
    if not found or _GROUPING.match(found[0][2]) or heading_title(found[0][2]) is not None:
        return found
    first = _markdown_level(lines[found[0][0]][1])
    lower = [level for i, _, _ in found[1:] if (level := _markdown_level(lines[i][1])) is not None]
    return found[1:] if first is not None and lower and min(lower) > first else found


def _heading(line: str, after: str, followed_by: str) -> str | None:
    """The title a heading line gives (may be ""), or None when the line is not a heading. ``after``
    is the line before it, ``followed_by`` the line below it: "Prologue" is a heading only where no paragraph
    runs on into it (the last line of one may be "Prologue." as wrapped), and "Prologue: The Fire"
    only where none runs on from it either (the first line of one may be "Epilogue: The Ash")."""
    markdown = _MARKDOWN_HEADING.match(line.strip())
    if markdown:
        return clean(markdown.group("title"))
    if (named := named_heading(line)) is not None:
        titled = named.casefold() not in NAMED_HEADINGS
        return None if after.strip() or (titled and followed_by.strip()) else named
    found = heading_title(line) if len(line) < 120 else None
    return None if found is None else found[1] or numbered_title(found[0])


_NUMBERED = re.compile(r"^\s*(?:(?P<number>\d{1,3})\.?|(?P<roman>[IVXLC]{1,7})\.)\s+(?P<title>\S.*?)\s*$")
"""A chapter numbered without the word "chapter": "01 My Early Home", "IV. The Boscombe Valley Mystery"
(a Roman numeral with its full stop, or every "I went" would be one)."""
NUMBERED_RUN = 3
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _value(number: str) -> int:
    if number.isdigit():
        return int(number)
    values = [_ROMAN[c] for c in number]
    return sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0], strict=True))


def _numbered_headings(lines: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Lines numbered as chapters are without the word: a short title after a number, counted up
    one by one at least ``NUMBERED_RUN`` times (so a date or a list of two is no chapter). A table
    of contents is such a run too; ``_without_contents`` drops it as it drops any."""
    runs: list[list[tuple[int, int, str, int]]] = []
    for i, (number, line) in enumerate(lines):
        said = _NUMBERED.match(line)
        if said is None or word_count(said.group("title")) > MAX_TITLE_WORDS:
            continue
        value = _value(said.group("number") or said.group("roman"))
        if runs and runs[-1][-1][3] + 1 == value:
            runs[-1].append((i, number, clean(said.group("title")), value))
        elif value == 1:
            runs.append([(i, number, clean(said.group("title")), value)])
    return [(i, number, title) for run in runs if len(run) >= NUMBERED_RUN for i, number, title, _ in run]


def _numbered(at: int, line: str, heading: tuple[str, str] | None, in_sentence_case: bool) -> Numbered | None:
    value = None if heading is None else number_value(heading[0])
    label = line.split(maxsplit=1)[0].casefold()
    return None if value is None else Numbered(at, label, value, in_sentence_case)


def _in_sentence_case_by_the_count(
    found: list[tuple[int, int, str]], lines: list[tuple[int, str]]
) -> list[tuple[int, int, str]]:
    """Lines alone between blank ones headed in sentence case ("Chapter 3 The storm at sea.") that
    the count of the book's headings places (``counted.taken_by_the_count``)."""
    headed = {i for i, _, _ in found}
    numbered = [_numbered(i, lines[i][1], heading_title(lines[i][1]), False) for i in headed]
    loose: dict[int, tuple[str, str]] = {}
    for i, (_, line) in enumerate(lines):
        alone = (i == 0 or not lines[i - 1][1].strip()) and (
            i + 1 == len(lines) or not lines[i + 1][1].strip()
        )
        if i not in headed and alone and len(line) < 120 and (said := heading_in_sentence_case(line)):
            loose[i] = said
            numbered.append(_numbered(i, line, said, True))
    taken = taken_by_the_count([n for n in numbered if n is not None])
    return [(i, lines[i][0], clean(loose[i][1])) for i in sorted(taken)]


def _paragraphs(lines: list[tuple[int, str]]) -> list[tuple[str, str]]:
    paragraphs: list[tuple[str, str]] = []
    current: list[str] = []
    first = 0
    for number, line in [*lines, (0, "")]:
        if line.strip():
            first = first or number
            current.append(line.strip())
        elif current:
            if not is_note(current[0]):  # a footnote's text is not narrated
                paragraphs.append((" ".join(current), f"line {first}"))
            current, first = [], 0
    return paragraphs


def _without_contents(
    starts: list[tuple[int, int, str]], lines: list[tuple[int, str]]
) -> tuple[list[tuple[int, int, str]], set[int]]:
    """Headings listed one after another with nothing between them are a table of contents:
    in a run of three or more all but the last are dropped (the last is the first chapter
    itself, or the list's last entry heading what follows it); their lines are skipped. So are the
    numbers alone before the first chapter given again later with a title (``_listed_again``), a
    shorter list's: ``CONTENTS_ENTRIES`` of them or more, or under a "Contents" line.
    """
    runs: list[list[tuple[int, int, str]]] = []
    for start in starts:
        previous = runs[-1][-1] if runs else None
        if previous is not None and not any(line.strip() for _, line in lines[previous[0] + 1 : start[0]]):
            runs[-1].append(start)
        else:
            runs.append([start])
    kept = [start for run in runs for start in (run if len(run) < CONTENTS_RUN else run[-1:])]
    listed = {number for run in runs if len(run) >= CONTENTS_RUN for _, number, _ in run[:-1]}
    headed = {i for i, _, _ in starts}
    entries: list[set[int]] = []
    while len(entries) < len(kept) and (skipped := _listed_again(kept[len(entries) :], lines, headed)):
        entries.append(skipped)  # only before the chapters: a line skipped later would be another's text
    if len(entries) < CONTENTS_ENTRIES and not (entries and _under_contents(kept[0][0], lines, headed)):
        entries = []  # one number alone over a line is a chapter of a book whose numbering begins again
    return kept[len(entries) :], listed.union(*entries)


def _listed_again(
    starts: list[tuple[int, int, str]], lines: list[tuple[int, str]], headed: set[int]
) -> set[int]:
    """The line numbers to skip when the first of ``starts``, a number alone ("Chapter 1"), is a
    contents entry given again later with a title: under a "Contents" line, or with no story of its
    own before another number's heading: nothing, a line that reads as a title (the entry's, skipped
    too), or, at the list's end where the numbers go back to the chapters', one line no longer than
    a title (a dedication). Right over its own number's heading it is that chapter's
    (``_each_number_once``); a sentence below it, before the next number, is its story."""
    (i, number, _), later = starts[0], [_said(lines[j][1]) for j, _, _ in starts[1:]]
    said = _said(lines[i][1])
    titles = {h.title for h in later if h.chapter == said.chapter and h.title}
    if said.chapter is None or said.title or not titles:
        return set()
    if _under_contents(i, lines, headed):
        return {number}
    if later[0].chapter == said.chapter:
        return set()
    between = [(n, line) for n, line in lines[i + 1 : starts[1][0]] if line.strip()]
    nxt = later[0].chapter
    going_back = nxt is not None and nxt[0] == said.chapter[0] and nxt[1] < said.chapter[1]
    if len(between) > 1 or any(word_count(line) > MAX_TITLE_WORDS for _, line in between):
        return set()
    if going_back or all(_reads_as_title(clean(line)) for _, line in between):
        return {number} | {n for n, line in between if any(_same_title(line, title) for title in titles)}
    return set()


def _under_contents(i: int, lines: list[tuple[int, str]], headed: set[int]) -> bool:
    """Whether line ``i`` stands in a list under a "Contents" line: only headings and blank lines
    between."""
    for j in range(i - 1, -1, -1):
        if _CONTENTS.match(clean(lines[j][1])):
            return True
        if lines[j][1].strip() and j not in headed:
            return False
    return False


def _said(line: str) -> Heading:
    """A heading line's label and number, and the title it prints itself ("" for a number alone)."""
    text = line.strip().lstrip("#").strip()
    said = heading_title(text) or heading_in_sentence_case(text)
    value = None if said is None else number_value(said[0])
    if said is None or value is None:
        return Heading(None, "")
    return Heading((text.split(maxsplit=1)[0].casefold(), value), clean(said[1]))


def _each_number_once(
    starts: list[tuple[int, int, str]], lines: list[tuple[int, str]]
) -> tuple[list[tuple[int, int, str]], set[int]]:
    """A heading meeting the chapter open under its number (``same_number.meeting``, as a
    transcript's): "Chapter 3" printed right over "Chapter 3. The Storm", nothing between but a title
    (``_within_reach``), is one chapter named by the second (it was refused, the first having no text,
    or its text was the title); printed again with no title or the same, it opens no other. The
    headings kept, and the line numbers of those dropped and of a title printed over them."""
    kept: list[tuple[int, int, str]] = []
    kept_said: list[Heading] = []
    dropped: set[int] = set()
    for i, number, named in starts:
        said = _said(lines[i][1])
        if kept:
            open_i, open_number, open_named = kept[-1]
            between = [(n, line) for n, line in lines[open_i + 1 : i] if line.strip()]
            reach = _within_reach(between, said.title)
            met = meeting(kept_said[-1], kept_said[-1].title or open_named, said, within_reach=reach)
            if met is Meeting.NAMES_IT:
                kept[-1], kept_said[-1] = (open_i, open_number, named), said
                dropped |= {n for n, line in between if _same_title(line, said.title)}
            if met is not Meeting.OPENS_ANOTHER:
                dropped.add(number)
                continue
        kept.append((i, number, named))
        kept_said.append(said)
    return kept, dropped


def _within_reach(between: list[tuple[int, str]], title: str) -> bool:
    """Whether what stands between a number alone and its heading with ``title`` leaves them one
    heading: nothing, or one line that is that title or reads as a title; a sentence is a chapter's
    story."""
    if len(between) > 1:
        return False
    return all(
        _same_title(line, title) or (word_count(line) <= MAX_TITLE_WORDS and _reads_as_title(clean(line)))
        for _, line in between
    )


def _same_title(line: str, title: str) -> bool:
    return bool(title) and clean(line).rstrip(".").casefold() == title.rstrip(".").casefold()


def read_plain_text(path: Path, content: str) -> Book:
    lines = list(enumerate(content.lstrip("\ufeff").splitlines(), start=1))
    wrapped = wrapping([line for _, line in lines])
    lines = lines[wrapped.start : wrapped.end]
    padded = ["", *(line for _, line in lines), ""]  # each line with the lines around it
    found = [
        (i, number, title)
        for i, (number, line) in enumerate(lines)
        if (title := _heading(line, padded[i], padded[i + 2])) is not None
    ]
    found = sorted(found + _in_sentence_case_by_the_count(found, lines))
    found = _without_book_title(found, lines)
    if all(_GROUPING.match(lines[i][1]) or named_heading(lines[i][1]) for i, _, _ in found):
        found = sorted(found + _numbered_headings(lines))
    starts, contents = _without_contents(found, lines)
    starts, said_again = _each_number_once(starts, lines)
    lines = [(number, "" if number in said_again else line) for number, line in lines]
    front = [(n, line) for n, line in lines[: starts[0][0]] if n not in contents] if starts else []
    titles = [_title_below(named, lines[i + 1 :])[0] for i, _, named in starts]
    title, author, front_text = _front_matter(path, front, known_titles(titles))
    title, author = wrapped.title or title, wrapped.author or author
    if not starts:
        return _whole(path, lines, title, author)
    chapters: list[Chapter] = []
    prologue = _a_prologue(starts, lines)
    if front_text and not prologue:
        chapters.append(
            untimed_chapter(OPENING_CHAPTER, OPENING_TITLE, _paragraphs(front_text), "the opening lines")
        )
    for k, (i, number, named) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        heading, body = _title_below(named, lines[i + 1 : end])
        where = f"line {number} ({heading!r})"
        if k == 0 and prologue:
            chapters.append(
                untimed_chapter(OPENING_CHAPTER, heading, _paragraphs([*front_text, *body]), where)
            )
            continue
        n = len(chapters) if chapters and chapters[0].n == OPENING_CHAPTER else len(chapters) + 1
        chapter = untimed_chapter(n, heading, _paragraphs(body), where)
        if not chapter.units and _GROUPING.match(lines[i][1]):
            continue  # "Part Two" over its first chapter groups chapters; it is not one
        if not chapter.units:
            raise BadInput(path, f"the chapter {heading!r} has no text", f"line {number}")
        chapters.append(chapter)
    return Book(title=title, author=author, chapters=tuple(chapters), format="text", timed=False)


def _a_prologue(starts: list[tuple[int, int, str]], lines: list[tuple[int, str]]) -> bool:
    """Whether the first heading is a prologue's before the book's chapters ("Prologue", then
    "Chapter 1"): it is the opening, chapter 0, with any prose before it, so the book's chapter 1 is
    chapter 1 (adr/0051, as a recording's prologue is)."""
    named = [named_heading(lines[i][1]) is not None for i, _, _ in starts]
    return len(named) > 1 and named[0] and not all(named)


def _whole(path: Path, lines: list[tuple[int, str]], title: str, author: str) -> Book:
    chapter = untimed_chapter(1, title, _paragraphs(lines), "line 1")
    if not chapter.units:
        raise BadInput(path, "there is no text in it", "line 1")
    return Book(title=title, author=author, chapters=(chapter,), format="text", timed=False)


def _front_matter(
    path: Path, front: list[tuple[int, str]], titles: set[str]
) -> tuple[str, str, list[tuple[int, str]]]:
    """The title, the author and whatever prose stands before the first heading. Where a list of
    contents stands there, what comes before it is a title page or a blurb, and no prose: only what
    follows the list, from its first line that is no chapter's title or number, is kept (a prologue
    without a heading of its own)."""
    title, author = "", ""
    rest: list[tuple[int, str]] = []
    listing = False
    for number, line in front:
        text = clean(line)
        if _CONTENTS.match(text):
            rest, listing = [(n, "") for n, _ in rest], True
        elif listing:
            listing = not text or number_alone(text) or listed_entry(text, titles)
        if not text or listing:
            rest.append((number, ""))
        elif not title and word_count(text) <= MAX_TITLE_WORDS and not _prose(rest):
            title = text.strip("#").strip()
        elif not author and (by := _BY.match(text)) and not _prose(rest):
            author = by.group("author").strip()
        else:
            rest.append((number, line))
    return title or path.stem.replace("_", " ").title(), author, rest if _prose(rest) else []


def _prose(lines: list[tuple[int, str]]) -> bool:
    return any(line.strip() for _, line in lines)


def _title_below(heading: str, body: list[tuple[int, str]]) -> tuple[str, list[tuple[int, str]]]:
    """ "Chapter 3" over a short line alone that reads as a title: that line is the title, unless
    it is all the chapter has."""
    if not re.fullmatch(r"Chapter (?i:the\s+)?\S+", heading):
        return heading, body
    filled = [(k, line) for k, (_, line) in enumerate(body) if line.strip()]
    if len(filled) < 2:
        return heading, body
    k, line = filled[0]
    text = clean(line)
    next_blank = k + 1 >= len(body) or not body[k + 1][1].strip()
    if word_count(text) <= MAX_TITLE_WORDS and next_blank and _reads_as_title(text):
        return text.rstrip("."), body[k + 1 :]
    return heading, body


_SENTENCE_END = re.compile(r"[.!?]")
_TITLE_STOP = re.compile(rf"\b(?:{'|'.join(TITLES)})\.")


def _reads_as_title(text: str) -> bool:
    """A title, not the chapter's first sentence: no sentence ends inside it, and one with a full
    stop of its own capitalises its longer words ("Down the Rabbit-Hole.", not "It was dark.")."""
    if _SENTENCE_END.search(_TITLE_STOP.sub("", text).rstrip(".!?")):  # "Mr. Sherlock Holmes" is one
        return False
    if not _SENTENCE_END.search(text[-1:]):
        return True
    return all(word[0].isupper() for word in text.split() if len(word) > 3 and word[0].isalpha())
