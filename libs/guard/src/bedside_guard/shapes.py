"""The only shapes in which a place reaches the model or a screen.

A place ahead of the listener is a time and an id, nothing more: its words and its
chapter title stay out. A place behind travels with its chapter and the words heard.
The listener's own position is an input here and is never printed.
"""

import re
from collections.abc import Iterable, Sequence
from typing import Self

from pydantic import BaseModel, ConfigDict, Field

from bedside_guard.line import ahead_of, clock, heard_once_past
from bedside_guard.names import words_of
from bedside_guard.passage import Passage, heard_text, heard_until
from bedside_guard.prose import (
    balance_quotes,
    heading_title,
    is_heading,
    is_whole_sentence,
    number_value,
    sentence_spans,
    sentences_of,
)

NOT_TOLD = "further on than they have got; nothing of what happens there has been read to you."
"""The fixed sentence that stands in for a place ahead. It names nothing of the book."""

MAX_ROWS = 4
"""A list on the screen holds at most four rows: enough to recognise the moment, few to read."""

OPENING_CHAPTER = 0
"""What comes before a book's first chapter (a recording's preamble, an e-book's front matter)."""
OPENING_TITLE = "Opening"


_SHORTENED = re.compile(r"(?:ch|chap|chapter)\.?\s*(\d{1,4})", re.IGNORECASE)
"""A chapter's number as a file is named for it: "ch12", "Ch. 12", "chap 04", "Chapter12"."""


def numbered_as(title: str) -> tuple[int, str] | None:
    """The chapter number a title gives itself and what it says besides: ``(3, "The Fire")`` for
    "CHAPTER III. The Fire", ``(3, "")`` for "Chapter Three", "3" or "ch3"; None for "The Fire" or
    "Part 3"."""
    if title.strip().isdigit():
        return int(title), ""
    if shortened := _SHORTENED.fullmatch(title.strip()):
        return int(shortened.group(1)), ""
    heading = heading_title(title)
    if heading is None or not title.lstrip().lower().startswith("chapter"):
        return None
    number = number_value(heading[0])
    return None if number is None else (number, heading[1])


def own_title(n: int, title: str | None) -> str | None:
    """What chapter ``n``'s title says beyond its number: nothing for "Chapter 3" or "3" on
    chapter 3 (a recording's markers and an untitled heading say no more), "The Fire" for
    "CHAPTER III. The Fire". A title numbering another chapter is kept whole: it is what the
    listener's copy calls it."""
    if not title:
        return None
    numbered = numbered_as(title)
    if numbered is None or numbered[0] != n:
        return title
    return numbered[1] or None


def chapter_name(n: int, title: str | None = None) -> str:
    """A chapter as a sentence names it: 'chapter 3, "The Fire"'. The stretch before the first
    chapter is "the opening": "chapter 0" means nothing to a listener, and its title adds nothing."""
    if n == OPENING_CHAPTER:
        return "the opening"
    said = own_title(n, title)
    return f'chapter {n}, "{said}"' if said else f"chapter {n}"


EXCERPT_WORDS = 60
"""How many heard words a line carries: enough to judge the moment, short enough to read fast."""


def excerpt(text: str, words: int = EXCERPT_WORDS) -> str:
    """The first ``words`` words of ``text``, marked when cut."""
    parts = text.split()
    if len(parts) <= words:
        return " ".join(parts)
    return " ".join(parts[:words]) + " …"


ROW_WORDS = 24
"""About how many heard words a row of a list carries: a glance's worth, in whole sentences."""


def sentences_excerpt(text: str, words: int = ROW_WORDS) -> str:
    """Whole sentences of ``text`` (``sentences_of``), from its first whole one, as many as fit
    in ``words`` words (the first always: cut, marked, only past twice that), with the quote
    marks of dialogue it starts or ends inside balanced (``balance_quotes``).

    A passage often starts or ends inside a character's speech: the row then reads as the
    dialogue it is, not as a stray quote mark in the middle of a line cut off mid-sentence.
    A chapter heading read out is passed over when story follows: the row shows the title.
    """
    sentences = sentences_of(text)
    whole = [i for i, s in enumerate(sentences) if is_whole_sentence(s)]
    first = next((i for i in whole if not is_heading(sentences[i])), whole[0] if whole else 0)
    chosen: list[str] = []
    count = 0
    for sentence in sentences[first:]:
        length = len(sentence.split())
        if chosen and (count + length > words or not is_whole_sentence(sentence)):
            break
        chosen.append(sentence)
        count += length
    return balance_quotes(excerpt(" ".join(chosen), 2 * words)) if chosen else ""


def excerpt_naming(text: str, names: Sequence[str], words: int = EXCERPT_WORDS) -> str:
    """The excerpt of ``text`` that shows who ``names`` (the lower-case words of "who is X?") are:
    from the start as ever when the first sentence of the story naming one of them ends inside
    it; else from that sentence, marked as cut at its start too. Recall picks a passage for naming
    X, and X may be named only past the first ``words`` words: the line would hold nothing of X
    to quote. A chapter's heading read out ("Chapter Five: What Pudding Kept.") tells of no one."""
    for start, end in sentence_spans(text) if names else []:
        sentence = text[start:end]
        if is_heading(sentence) or set(names).isdisjoint(words_of(sentence)):
            continue
        if start == 0 or len(text[:end].split()) <= words:
            break
        return "… " + excerpt(text[start:], words)
    return excerpt(text, words)


class Candidate(BaseModel):
    """A place as the model and a screen may see it: a search hit, a recalled passage, a row.

    A place ahead is covered: a time and an id (and a chapter number the listener named, and
    whether they named its end), no title and no words. A place behind keeps its chapter, its
    title and the words heard.
    Text for the model is rendered from it with ``line`` or ``label``, never parsed back.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    start_ms: int = Field(ge=0)
    ahead: bool
    passage_id: int | None = None
    chapter: int | None = None
    chapter_title: str | None = None
    words: str | None = None
    end_of_chapter: bool = False
    """A covered row for the end of the chapter named ("the end of chapter 3"): the row says so."""
    words_end_ms: int | None = None
    """Where the heard words end (the last heard piece's end): a listener gone back before it has
    not heard them all, and is shown none (``seen_from``)."""

    @classmethod
    def hit(cls, passage: Passage, here_ms: int, naming: Sequence[str] = (), *, whole: bool = False) -> Self:
        """A search or recall hit on ``passage`` as a listener at ``here_ms`` may see it: an excerpt
        of its heard words, from where ``naming`` is named (``excerpt_naming``: an older record's
        recall line); ``whole``, all its heard words (recall: the answer may lie past an excerpt)."""
        if ahead_of(passage.start_ms, here_ms):
            return cls(start_ms=passage.start_ms, ahead=True, passage_id=passage.id)
        words = heard_text(passage, here_ms)
        return cls(
            start_ms=passage.start_ms,
            ahead=False,
            passage_id=passage.id,
            chapter=passage.chapter,
            chapter_title=own_title(passage.chapter, passage.chapter_title),
            words=(words if whole else excerpt_naming(words, naming)) if words else None,
            words_end_ms=heard_until(passage, here_ms) if words else None,
        )

    @classmethod
    def covering(
        cls,
        passage: Passage,
        here_ms: int,
        *,
        at_ms: int | None = None,
        chapter_named: bool = False,
        chapter_end: bool = False,
    ) -> Self:
        """The row for a place in ``passage`` as a listener at ``here_ms`` may see it.

        ``at_ms`` is the place itself when it is not the passage's start (a time the
        listener named); it must lie inside the passage. ``chapter_named`` keeps the
        chapter number on a row ahead, because the listener said it themselves
        ("chapter 8"); the title still stays out. ``chapter_end`` (with ``chapter_named``) says
        the place is that chapter's end, so a row ahead reads "end of chapter 3", not a bare time.
        """
        start_ms = passage.start_ms if at_ms is None else at_ms
        if not passage.start_ms <= start_ms <= max(passage.start_ms, passage.end_ms):
            raise ValueError(f"{start_ms} ms is not inside passage {passage.id}")
        if ahead_of(start_ms, here_ms):
            return cls(
                start_ms=start_ms,
                ahead=True,
                passage_id=passage.id,
                chapter=passage.chapter if chapter_named else None,
                end_of_chapter=chapter_named and chapter_end,
            )
        words = heard_text(passage, here_ms)
        return cls(
            start_ms=start_ms,
            ahead=False,
            passage_id=passage.id,
            chapter=passage.chapter,
            chapter_title=own_title(passage.chapter, passage.chapter_title),
            words=sentences_excerpt(words) if words else None,
            words_end_ms=heard_until(passage, here_ms) if words else None,
        )

    def seen_from(self, here_ms: int) -> Self:
        """This row as a listener now at ``here_ms`` may see it.

        A list stays on the screen while the listener moves; a row that was behind when it
        was drawn and is now ahead is covered again. A covered row stays covered. A row whose
        place is behind but whose words run on past ``here_ms`` keeps its place without them.
        """
        if self.ahead:
            return self
        if not ahead_of(self.start_ms, here_ms):
            if self.words_end_ms is None or not ahead_of(
                heard_once_past(self.start_ms, self.words_end_ms), here_ms
            ):
                return self
            return self.model_copy(update={"words": None, "words_end_ms": None})
        return self.model_copy(
            update={
                "ahead": True,
                "chapter": None,
                "chapter_title": None,
                "words": None,
                "words_end_ms": None,
                "end_of_chapter": False,
            }
        )

    def line(self) -> str:
        """The place as one line of a search or recall result.

        Words travel with their chapter and title; a place without heard words (ahead, or
        the passage holding the line with no finer timing) is the fixed sentence instead.
        """
        ident = f", id={self.passage_id}" if self.passage_id is not None else ""
        stamp = f"[{clock(self.start_ms)}{ident}]"
        if self.ahead or not self.words:
            return f"{stamp} {NOT_TOLD}"
        return f"{stamp} {self.heard_in()}: {self.words}"

    def label(self) -> str:
        """The row as one line of text (for the model's tool result and a terminal)."""
        stamp = clock(self.start_ms)
        if self.ahead:
            end = "end of " if self.end_of_chapter else ""
            chapter = f", {end}{chapter_name(self.chapter)}" if self.chapter is not None else ""
            return f"{stamp}{chapter}, further on (covered)"
        return f"{stamp}, {self.heard_in()}"

    def heard_in(self) -> str:
        """The chapter of a place behind, as a sentence names it (one stored without its chapter
        is named by no number)."""
        return chapter_name(self.chapter, self.chapter_title) if self.chapter is not None else "a chapter"


def distinct_rows(rows: Iterable[Candidate]) -> list[Candidate]:
    """The rows in the order given, one per place: two rows starting at one time are one place."""
    seen: set[int] = set()
    kept: list[Candidate] = []
    for row in rows:
        if row.start_ms not in seen:
            seen.add(row.start_ms)
            kept.append(row)
    return kept
