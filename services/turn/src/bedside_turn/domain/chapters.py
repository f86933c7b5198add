"""The chapter playing, and a chapter counted from it ("the next chapter", "the previous one"): pure.

The keyless router and the model name it the same way (``chapter_step`` of an offer), and the
tool counts it here, from the chapter on the clock (``chapter_at``, as the page, "where am
I?" and the recaps name it). How many chapters the book has is no spoiler (the page shows the
chapter and the clock), so a step past the first or the last is refused saying so plainly.
"""

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bedside_contracts.search import ChapterInfo, chapter_at
from bedside_guard import OPENING_CHAPTER, Passage, ahead_of, own_title, words_of


@dataclass(frozen=True)
class NoSuchChapter:
    """No chapter lies ``step`` from the one playing: the book starts or ends before it."""

    playing: int
    step: int
    first: int
    last: int

    @property
    def after_last(self) -> bool:
        return self.step > 0


def counted_chapter(playing: int, step: int, numbers: Sequence[int]) -> int | NoSuchChapter:
    """The chapter ``step`` chapters from ``playing`` among the book's chapter ``numbers``.

    Counted in the book's own order, so a book numbered from 0 (a prologue) counts the same.
    """
    order = sorted(set(numbers) | {playing})
    at = order.index(playing) + step
    if 0 <= at < len(order):
        return order[at]
    return NoSuchChapter(playing=playing, step=step, first=order[0], last=order[-1])


def final_chapter(chapters: Sequence[ChapterInfo]) -> ChapterInfo | None:
    """The book's last chapter ("go to the final chapter"); None in a book without any."""
    return max(chapters, key=lambda c: c.start_ms, default=None)


def end_of_the_words_ms(chapters: Sequence[ChapterInfo], silent: Collection[int], duration_ms: int) -> int:
    """The last millisecond of the book as "the end" means it: its last, or, when it closes with
    chapters in which nothing was heard (music after the last words), the last before them."""
    end = duration_ms
    for chapter in sorted(chapters, key=lambda c: c.start_ms, reverse=True):
        if chapter.n not in silent:
            break
        end = min(end, chapter.start_ms)
    return max(0, end - 1)


def after_the_opening(chapters: Sequence[ChapterInfo]) -> ChapterInfo | None:
    """The first chapter after the opening (ingest's chapter 0, what precedes the first heading), where
    "skip the intro" goes; None in a book with no opening, or nothing after it."""
    if not any(c.n == OPENING_CHAPTER for c in chapters):
        return None
    return min((c for c in chapters if c.n != OPENING_CHAPTER), key=lambda c: c.start_ms, default=None)


def counted_from_the_clock(
    chapters: Sequence[ChapterInfo], here_ms: int, step: int
) -> int | NoSuchChapter | None:
    """The chapter ``step`` chapters from the one playing at ``here_ms``; None in a book without any.

    The one playing is the chapter on the clock, not the passage search places the line in: in the
    pause after a chapter's last words that passage is the next chapter's first, and "the next
    chapter" counted from it would skip one.
    """
    # Before the first chapter's mark (a book whose first words precede it) it is the first chapter.
    playing = chapter_at(chapters, here_ms) or min(chapters, key=lambda c: c.start_ms, default=None)
    if playing is None:
        return None
    return counted_chapter(playing.n, step, [c.n for c in chapters])


def still_at_its_start(first_passage: Passage, here_ms: int) -> bool:
    """Whether a listener in a chapter whose first passage is ``first_passage`` is still at its start:
    none of its words are behind the line (in its lead-in of silence, or on its first word).

    Its start is then where they are. Offered, it would be a covered row ahead ("further on than
    you've got") for the very chapter the page shows, which reveals nothing and helps no one.
    """
    return ahead_of(first_passage.start_ms, here_ms)


def already_at_its_end(closing_passage: Passage, here_ms: int) -> bool:
    """Whether a listener in a chapter whose closing passage is ``closing_passage`` is at its end
    already: on that passage's first word, inside it, or in the pause after it.

    The end is the closing passage's start, so from there on an offer would move the book back (or,
    on its first word, offer a covered row for where they are). Not the guard's ``ahead_of``, which
    counts that first word as not yet heard: this is where the listener is, not what they know.
    """
    return closing_passage.start_ms <= here_ms


_ARTICLES = frozenset({"a", "an", "the"})


def title_words(text: str) -> tuple[str, ...]:
    """A title's words as a listener may say them: any case, no punctuation, articles optional."""
    return tuple(word for word in words_of(text) if word not in _ARTICLES)


def titled_chapter(chapters: Sequence[ChapterInfo], said: str, here_ms: int) -> ChapterInfo | None:
    """The chapter whose title the listener said: the one titled with exactly those words, else the
    one whose title holds them all; None when none does, or several do.

    Only chapters begun behind the line are matched: a title ahead is shown nowhere (the page and
    every answer give a chapter not yet reached its number alone), so a move by one would confirm
    what the book holds further on. Those are found as any described moment is.
    """
    wanted = _loose(title_words(said))
    if not wanted:
        return None
    heard = [c for c in chapters if not ahead_of(c.start_ms, here_ms)]
    titles = {c.n: _loose(title_words(own_title(c.n, c.title) or "")) for c in heard}
    exact = [c for c in heard if titles[c.n] == wanted]
    holding = [c for c in heard if titles[c.n] and set(wanted) <= set(titles[c.n])]
    matched = exact or holding
    return matched[0] if len(matched) == 1 else None


_START_OF = re.compile(r"^(?:the )?(?:very )?(?:start|beginning|opening) of (?=\w)")
_PLEASE = re.compile(r",?\s+please$")
RUN_OF_TITLE_WORDS = 2
"""After "the start of", this many of a title's words in a row name it ("the start of the speckled
band"); said alone they may describe a moment ("the cab horse"), so alone a title is said whole."""


def chapter_by_title_alone(chapters: Sequence[ChapterInfo], said: str, here_ms: int) -> ChapterInfo | None:
    """The chapter begun behind the line whose title is all that was asked for: its start, not a passage
    found in it. In a book of stories a listener names the story: said whole ("go back to the adventure
    of the copper beeches"), or in part after "the start of" ("the start of the red-headed league").
    A title ahead stays a moment to find, as in ``titled_chapter``."""
    asked = _PLEASE.sub("", said.lower().strip())
    part = _START_OF.sub("", asked)
    wanted = _loose(title_words(part))
    if not wanted:
        return None
    heard = [c for c in chapters if not ahead_of(c.start_ms, here_ms)]
    titles = {c.n: _loose(title_words(own_title(c.n, c.title) or "")) for c in heard}
    matched = [c for c in heard if titles[c.n] == wanted]
    if not matched and part != asked and len(wanted) >= RUN_OF_TITLE_WORDS:
        matched = [c for c in heard if _holds_run(titles[c.n], wanted)]
    return matched[0] if len(matched) == 1 else None


def _loose(words: tuple[str, ...]) -> tuple[str, ...]:
    """Words as a recogniser may write them: "engineers thumb" for "Engineer's Thumb"."""
    return tuple(word.removesuffix("s") for word in words)


def _holds_run(title: tuple[str, ...], run: tuple[str, ...]) -> bool:
    return any(title[i : i + len(run)] == run for i in range(len(title) - len(run) + 1))
