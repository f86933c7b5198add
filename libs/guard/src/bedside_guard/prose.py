"""Plain rules about English prose every service reads it by: where a sentence ends, how a
sentence inside dialogue is made whole, and what a chapter heading looks like. Pure.

A sentence ends at . ! ? or a word's … (and any closing quotes or brackets) followed by a space
and the start of another: a capital, a digit, or opening quotes before one. So ``"Is it
yours?" asked Wren.`` is one sentence, and an abbreviation such as "Mrs." ends none, wherever
it stands (``“‘Mr. Radney``, ``—St. Dominic``) and in any case (``MY DEAR MR. HOLMES``). This
is the one splitter: ingest cuts a book into passages by it, and the guard reads what is said.
"""

import re

from bedside_guard.numbers import IN_WORDS, ORDINALS, TENS, one_of, value_in_words

TITLES = (
    *("Mr", "Mrs", "Ms", "Dr", "Messrs", "Mme", "Rev", "Prof"),
    *("Gen", "Col", "Maj", "Capt", "Lt", "Sgt", "Adm"),  # ranks: "Gen. Gordon rode in."
    *("St", "Mt"),  # a saint's or a place's name: "St. Simon", "Mt. Hecla"
)
"""Titles before a name, whose full stop ends no sentence: the name after "Mrs." stands inside
one, so names.py counts "Gordon" in "Gen. Gordon rode in." a name and "Gen" none."""

ABBREVIATIONS = (*TITLES, "Jr", "Sr", "Esq", "Vs")
"""Abbreviations whose full stop ends no sentence, in any case ("Mt. Hecla", "ST. SIMON")."""

NUMBER_ABBREVIATIONS = ("No", "Fig", "Vol", "Ch")
"""Abbreviations whose full stop ends no sentence before a number ("No. 4"). Before a word it
does: "No." is also the answer ("No. They must get just such"). "etc." is not one: before a
capital it ends its sentence ("Harris, Cuvier, etc. But I pass that matter by.")."""

_ALWAYS = frozenset(a.lower() for a in ABBREVIATIONS)
_BEFORE_A_NUMBER = frozenset(a.lower() for a in NUMBER_ABBREVIATIONS)
_OPENERS = "\"'\u201c\u2018([\u00ab"
_CLOSERS = "\"'\u201d\u2019)]\u00bb"
_SENTENCE_MARKS = (".", "!", "?", "\u2026")
_SENTENCE_END = re.compile(
    # "…" after a word ends a sentence; after a space it marks words left out ("… Then").
    rf"(?:(?<=[.!?])|(?<=\S\u2026))(?P<close>[{re.escape(_CLOSERS)}]*)\s+(?=[{re.escape(_OPENERS)}]*[A-Z0-9])"
)
_LAST_WORD = re.compile(r"(?<!\w)(\w+)\.\Z")
_LONGEST_ABBREVIATION = 8
_NUMBER_AHEAD = re.compile(rf"\s+[{re.escape(_OPENERS)}]*\d")


def _ends_here(text: str, mark_end: int, after: str) -> bool:
    """Whether the mark of ``text`` that ends at ``mark_end`` ends a sentence, ``after`` being
    the text that follows it (empty at the end of what is known)."""
    # Only the last few characters: a longer word is no abbreviation, and a paragraph stays linear.
    word = _LAST_WORD.search(text, max(0, mark_end - _LONGEST_ABBREVIATION), mark_end)
    if word is None:
        return True
    abbreviation = word.group(1).lower()
    if abbreviation in _ALWAYS:
        return False
    return abbreviation not in _BEFORE_A_NUMBER or _NUMBER_AHEAD.match(after) is None


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends a sentence (closing quotes and brackets aside): it ends with its
    full stop, and that is no abbreviation's ("Mr.")."""
    ending = text.rstrip().rstrip(_CLOSERS)
    return ending.endswith(_SENTENCE_MARKS) and _ends_here(ending, len(ending), "")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of ``text`` starts and ends (its closing quotes included)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if not _ends_here(text, match.start(), text[match.end("close") :]):
            continue
        spans.append((start, match.end("close")))
        start = match.end()
    spans.append((start, len(text)))
    return [_stripped(text, s, e) for s, e in spans if text[s:e].strip()]


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    start += len(piece) - len(piece.lstrip())
    return start, end - (len(piece) - len(piece.rstrip()))


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text``, as written."""
    return [text[s:e] for s, e in sentence_spans(text)]


def is_whole_sentence(text: str) -> bool:
    """Whether ``text`` is a sentence as written, not a piece of one: it starts as a sentence
    does (not in lower case, not with a closing mark) and ends with its full stop (closing
    quotes and brackets aside). What a passage starts mid-way, the line cuts short or an
    excerpt cuts off is a piece."""
    opening = text.lstrip("\"'\u201c\u2018(")
    ending = text.rstrip("\"'\u201d\u2019)]")
    starts = bool(opening) and not opening[0].islower() and not text.startswith(("\u201d", "\u2019"))
    return starts and ending.endswith((".", "!", "?", "\u2026"))


_OPENS_AFTER = "([\u2014"
"""What may stand before a quote mark that opens, besides a space or the start."""
_SINGLE_OPENS_AFTER = _OPENS_AFTER + '-\u201c"'
"""A single mark opens inside a double quotation too ("'Pray take a seat,'") and after a dash
("the sentence--'This account...'"), when a word follows."""
_CLOSES_AFTER = ".,!?;:\u2014\u2013-\u2026"
"""A single mark after these closes a quotation for sure ("'Hettie Bramble,' said the woman")."""
_ELISIONS = frozenset({"tis", "twas", "twere", "twill", "twould", "em", "cause", "bout", "neath", "til"})
"""Words a straight mark opens as an apostrophe, not a quotation ("'tis", "'em")."""
_SINGLES = "'\u2018\u2019"


def _quote_marks(text: str) -> list[tuple[str, str, bool | None]]:
    """Each quote mark of ``text`` as ``(kind, closing mark, opens)``: kind "double" or "single";
    opens None for a single mark after a word that may close a quotation or be an apostrophe
    ("the horses' stable"). An apostrophe inside or opening a word ("Wren's", "'tis",
    "\u2019tis", "W----'s") is no quote mark."""
    marks: list[tuple[str, str, bool | None]] = []
    for i, mark in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        if mark in "\u201c\u201d":
            marks.append(("double", "\u201d", mark == "\u201c"))
        elif mark == '"':
            marks.append(("double", '"', before.isspace() or before in _OPENS_AFTER))
        elif mark in "'\u2018" and (before.isspace() or before in _SINGLE_OPENS_AFTER):
            if _opens_quotation(mark, text[i + 1 :]):
                marks.append(("single", "\u2019" if mark == "\u2018" else "'", True))
            elif before in _CLOSES_AFTER and not after.isalpha():
                marks.append(("single", mark, False))  # "known--'" closes
        elif mark in "'\u2019" and not after.isalpha() and after not in _SINGLES:
            if before in _CLOSES_AFTER:
                marks.append(("single", mark, False))
            elif before.isalpha():
                marks.append(("single", mark, None))
    return marks


def _opens_quotation(mark: str, rest: str) -> bool:
    """Whether a single ``mark`` before ``rest`` opens a quotation: a word follows that is no
    elision ("'tis") and no possessive ("W----'s"), unless a mark opens before the elision
    ("''Twas a pity,' he said")."""
    word = re.match(r"(['\u2019]?)([A-Za-z]+)", rest)
    if word is None:
        return False
    if mark == "\u2018" or word.group(1):
        return True
    return word.group(2).lower() not in _ELISIONS and not re.match(r"s\b", rest)


def balance_quotes(text: str) -> str:
    """``text`` with the quote marks it leaves open closed, and those it closes opened.

    A sentence taken out of a quotation of several ("She said it always pointed home.") keeps
    its speaker's marks on both sides, so it reads, and is shown, as the dialogue it is. A
    straight mark opens after a space or at the start, and closes anywhere else; single marks
    as double ones, an apostrophe aside (``_quote_marks``): a single mark after a word closes an
    open quotation, unless a later one after punctuation does ("'The horses' stable,' he said").
    """
    opened: list[tuple[str, str]] = []  # kind, the mark that closes it
    missing: list[str] = []
    maybe_closed = 0  # single quotations a mark after a word closed, perhaps an apostrophe
    for kind, closing, opens in _quote_marks(text):
        if opens:
            opened.append((kind, closing))
        elif opens is None:  # after a word: closes an open single quotation, if there is one
            if opened and opened[-1][0] == "single":
                opened.pop()
                maybe_closed += 1
        elif any(k == kind for k, _ in opened):
            while opened.pop()[0] != kind:
                pass
        elif kind == "single" and maybe_closed:
            maybe_closed -= 1  # that mark after a word was an apostrophe: this one closes
        else:
            missing.append({"\u201d": "\u201c", "\u2019": "\u2018"}.get(closing, closing))
    return "".join(reversed(missing)) + text + "".join(closing for _, closing in reversed(opened))


_SMALL_ROMAN = (
    r"(?-i:(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))\b"
    r"(?=\s*(?:--|[.,:—–]|-\s|$)|\s+(?-i:[A-Z\u201c\"']))"
)
_ORDINAL = rf"the\s+(?:(?:{one_of(TENS)})[\s-])?(?:{one_of(ORDINALS)})\b"
"""An ordinal after "the", as older books number chapters: "Chapter the First", "the Twenty-First"."""
_LAST = r"the\s+last\b"
"""How such books number their last chapter, "Chapter the Last": the count's next, no value of its own."""
_NUMBER = rf"(?:\d{{1,4}}|(?-i:[IVXLCDM]{{1,8}})|{_SMALL_ROMAN}|{IN_WORDS}|{_ORDINAL}|{_LAST})"
"""Digits, a Roman numeral in capitals as books set them ("Part Vic" names someone) or, well
formed ("Part did." is none), in small letters before a mark or a title's capital ("Chapter ii."),
words in any case, or an ordinal after "the"."""
HEADING = re.compile(
    rf"^\s*(?:chapter|part|book)\s+(?P<number>{_NUMBER})\b\s*"
    rf"(?:(?P<mark>--|[.,:—–-])(?P<spaced>\s*)(?:(?:--|[—–])\s*)?)?(?P<title>.*)$",
    re.IGNORECASE,
)
MAX_HEADING_WORDS = 12
_WORD = re.compile(r"[\w’']+")
_TITLE_MARKS = frozenset({".", ",", ":", "—", "–", "--"})
"""What sets a title apart from its number, in any case: Whisper writes "Chapter one, my early
home.", Project Gutenberg "Chapter 1 -- My early home"."""
_SAID_BY = re.compile(r"^(?:\S+\s+){1,4}?(?:said|says|asked|replied|thought|wrote|added)\s*(?:,|$)")
"""Who said it, set apart by a comma right after the number: "Part one, Ginger said, was the
worst." and "Chapter 11, the lawyer said." are the story's sentences, not headings titled "Ginger
said, was the worst" or "the lawyer said"."""


def heading_title(text: str) -> tuple[str, str] | None:
    """``(number, title)`` when ``text`` is a chapter heading ("Chapter 3. The Storm"), else None.

    After the label and its number comes a title set apart by a mark (``_TITLE_MARKS``, or a
    hyphen before a space), or one whose first word has a capital ("Chapter 2 The hunt"). A
    sentence that goes on in small letters after the number is the story's, and names whom it
    names: "Book one room for Mr. Ferguson."
    """
    line = " ".join(text.split())
    if len(_WORD.findall(line)) > MAX_HEADING_WORDS:
        return None
    match = HEADING.match(line)
    if match is None:
        return None
    mark = match.group("mark") or ""
    set_apart = mark in _TITLE_MARKS or (mark == "-" and bool(match.group("spaced")))
    title = match.group("title").strip().rstrip(".").strip()
    if set_apart and mark == "," and _SAID_BY.match(title):
        return None
    if not set_apart and not (opens_with_a_capital(title) and _reads_as_a_title(line, title)):
        return None
    return match.group("number"), title


def heading_in_sentence_case(text: str) -> tuple[str, str] | None:
    """``(number, title)`` for a line ``heading_title`` leaves out only because its title, with no
    mark before it, goes on as a sentence ("Chapter 3 The storm at sea.", as "Part two Ginger liked
    best." does): a heading only where the book's count places it, which ingest decides."""
    line = " ".join(text.split())
    match = HEADING.match(line)
    if match is None or match.group("mark") or heading_title(line) is not None:
        return None
    if len(_WORD.findall(line)) > MAX_HEADING_WORDS:
        return None
    title = match.group("title").strip().rstrip(".").strip()
    return (match.group("number"), title) if title and opens_with_a_capital(title) else None


def _reads_as_a_title(line: str, title: str) -> bool:
    """Whether words after a heading's number with no mark between are its title: not when the line
    ends as a sentence does and most of them are in small letters ("Part two Ginger liked best.");
    a title has capitals ("The Hunt", "How it Ended") or no full stop ("Chapter 8 I go to school")."""
    if not line.rstrip().endswith("."):
        return True
    words = _WORD.findall(title)
    return 2 * sum(opens_with_a_capital(word) for word in words) >= len(words)


def opens_with_a_capital(title: str) -> bool:
    """Whether a title's first word has a capital or is a number ("The hunt", "\u201cWhoa!\u201d",
    "1914"); an empty title too, as a heading of a number alone has."""
    first = next((c for c in title if c.isalnum()), None)
    return first is None or first.isdigit() or first.isupper()


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def number_value(number: str) -> int | None:
    """The value of a heading's number (``heading_title``'s first part): "14", "XIV", "fourteen",
    "Twenty-One"; None for what is none of them, and for "the Last", whose value is the count's."""
    if number.isdigit():
        return int(number)
    if re.fullmatch(_ORDINAL, number, re.IGNORECASE):
        return value_in_words(re.sub(r"\w+$", lambda last: ORDINALS[last.group(0).lower()], number[4:]))
    if re.fullmatch(rf"[IVXLCDM]+|{_SMALL_ROMAN}", number):
        values = [_ROMAN[letter] for letter in number.upper()]
        return sum(-v if k + 1 < len(values) and v < values[k + 1] else v for k, v in enumerate(values))
    return value_in_words(number)


NAMED_HEADINGS = ("prologue", "epilogue")
"""Headings that name a stretch of the book without a number, at either end of it: an interlude stands
between chapters, where a chapter of its own would shift the numbers of every chapter after it."""
_NAMED_HEADING = re.compile(
    rf"\s*(?P<name>{'|'.join(NAMED_HEADINGS)})\s*(?:(?:--|[.:—–]|-(?=\s))\s*(?P<title>.*?))?\s*",
    re.IGNORECASE,
)


def named_heading(text: str) -> str | None:
    """The heading ``text`` is when it is "Prologue" or "Epilogue" alone (a line of its own, a
    sentence said alone), or with a title set apart by a mark ("Prologue: The Fire", "EPILOGUE.
    TEN YEARS ON"), as written without its full stop; None otherwise: "the prologue to his speech"
    is the story's. No count backs such a title, so it must read as one, in capitals: "Epilogue.
    The years went by." and "Prologue: the fire went out." are the story's."""
    match = _NAMED_HEADING.fullmatch(text)
    if match is None:
        return None
    title = (match.group("title") or "").rstrip(".").strip()
    if not title:
        return match.group("name")
    line = " ".join(text.split())
    if len(_WORD.findall(line)) > MAX_HEADING_WORDS:
        return None
    return line.rstrip(".") if opens_with_a_capital(title) and _reads_as_a_title(line, title) else None


def is_heading(sentence: str) -> bool:
    """Whether a sentence of a passage is its chapter's heading, read out, not the story."""
    return heading_title(sentence) is not None or named_heading(sentence) is not None


def without_headings(text: str) -> str:
    """``text`` without the chapter headings read out in it: the story's own sentences. A title
    ("Chapter Five: What Pudding Kept.") names someone as no sentence of the story does."""
    return " ".join(s for s in sentences_of(text) if not is_heading(s))
