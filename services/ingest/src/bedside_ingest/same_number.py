"""What a chapter heading does that meets the chapter open under its label and number: a recording's
"Chapter three." then "Chapter three, the storm.", a text's "Chapter 3" printed over "Chapter 3. The
Storm". One rule for a transcript's headings (``chapters._spoken``) and a text's
(``formats.plaintext``). Pure."""

from dataclasses import dataclass
from enum import Enum, auto


class Meeting(Enum):
    NAMES_IT = auto()
    """The open chapter's heading gave its number alone: this one names that chapter."""
    SAID_AGAIN = auto()
    """The open chapter's heading again, with no title or the same one: it opens no other."""
    OPENS_ANOTHER = auto()


@dataclass(frozen=True)
class Heading:
    chapter: tuple[str, int] | None
    """Its label and number, ("chapter", 3); None for one without ("Prologue", "01 My Early Home")."""
    title: str
    """The title it gives itself; "" for a number alone."""


def meeting(open_heading: Heading | None, open_title: str, heading: Heading, within_reach: bool) -> Meeting:
    """What ``heading`` does after ``open_heading``, the open chapter's (now named ``open_title``).
    A number alone names no chapter yet: a heading of its number with a title that follows within
    reach (a recording's announcement's sentences, a text's nothing but a title line between)
    names it. Given again with no title or the same, it opens nothing; with a new title it opens a
    chapter, as a chapter lost inside another is worse than a number heard twice ("Chapter two, the
    storm." after "Chapter two, the hunt.", or chapter 4's heading misheard as "Chapter three, ...")."""
    if open_heading is None or heading.chapter is None or heading.chapter != open_heading.chapter:
        return Meeting.OPENS_ANOTHER
    if not open_heading.title and within_reach:
        return Meeting.NAMES_IT
    if not heading.title or heading.title.casefold() == open_title.casefold():
        return Meeting.SAID_AGAIN
    return Meeting.OPENS_ANOTHER
