"""The answer check: what a turn may say, sentence by sentence, before it is spoken.

A model may know a famous book from its own training and add what happens later. Two
rules cut a sentence of an answer, both decided against the line by ``ahead_of``:
- it names something of the book first heard ahead (``BookNames``);
- its meaning lies ahead: some stretch of the book ahead of the line (a chapter, or the
  unheard rest of the chapter holding it) matches its words clearly better than any heard
  stretch does; or it says that what it tells comes later ("in the end", "years later") and
  the passage closest to it in meaning is ahead.
Search supplies the matches (it holds the vectors and the term index); this module only
reads them. The figures behind the margins are in adr/0025.
"""

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from bedside_guard.later import tells_of_later
from bedside_guard.line import ahead_of, heard_once_past
from bedside_guard.names import BookNames, heard_word, words_of, written_with_capital
from bedside_guard.prose import sentences_of
from bedside_guard.shapes import numbered_as
from bedside_guard.words import FUNCTION_WORDS

STOP_THERE = "I'll stop there, that's further on than you've got."
"""What stands in for every sentence cut from an answer: it says nothing of what was cut."""

STRETCH = 3
"""A stretch of the book (a chapter's heard part or its part ahead) is scored by the mean of its
this many best BM25 matches: an event is told over several passages, a chance word in one."""
STORY_MARGIN = 0.15
"""Cut when the best stretch ahead beats the best heard one by this share of the larger."""
ABOUT_THE_BOOK = 0.30
"""A sentence no passage ahead comes this close to (by cosine) is not about what is ahead
("Good question."), and the meaning rule leaves it alone."""
TELLS_SOMETHING = 4
"""Nor does it judge a sentence of fewer content terms ("I asked.", "Here it is."): so short
a sentence matches a passage anywhere, and is common in the heard text a keyless answer quotes."""


class Match(BaseModel):
    """One passage found close to a sentence, and how close, in one ranking."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    passage_id: int
    chapter: int
    start_ms: int
    end_ms: int
    """Where the passage's words end; for the passage holding the line, search sends only its
    heard part (it ends at the line)."""
    score: float

    def heard(self, here_ms: int) -> bool:
        """Every word of it is behind the line (its last millisecond is, as ``heard_text`` has it)."""
        return not ahead_of(heard_once_past(self.start_ms, self.end_ms), here_ms)


class SentenceMatches(BaseModel):
    """What search found closest to one sentence of an answer, over the whole book, best first."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    terms: int
    """How many distinct content terms (search's sparse query terms) the sentence has."""
    dense: tuple[Match, ...]
    sparse: tuple[Match, ...]


class CheckedAnswer(BaseModel):
    """An answer as it may be spoken, and how many of its sentences were cut."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    speech: str
    cut: int


def _best(matches: Sequence[Match], heard: bool, here_ms: int) -> float:
    return max((m.score for m in matches if m.heard(here_ms) == heard), default=0.0)


def _closest_heard(matches: Sequence[Match], here_ms: int) -> bool:
    return bool(matches) and max(matches, key=lambda m: m.score).heard(here_ms)


def best_stretch(matches: Sequence[Match], heard: bool, here_ms: int) -> float:
    """The best score of a stretch on one side of the line: a chapter's part on that side,
    scored as the mean of its ``STRETCH`` best matches (missing ones count as nothing)."""
    by_part: defaultdict[int, list[float]] = defaultdict(list)
    for m in matches:
        if m.heard(here_ms) == heard:
            by_part[m.chapter].append(m.score)
    return max((sum(sorted(v, reverse=True)[:STRETCH]) / STRETCH for v in by_part.values()), default=0.0)


def meaning_lies_ahead(matches: SentenceMatches, here_ms: int, *, told_later: bool = False) -> bool:
    """True when a sentence matches what is ahead of the line and nothing heard supports it.

    ``told_later``: the sentence places itself later in the story (``tells_of_later``); then its
    closest passage in meaning being ahead is enough, the listener having heard nothing closer.
    """
    if matches.terms < TELLS_SOMETHING or _best(matches.dense, False, here_ms) < ABOUT_THE_BOOK:
        return False
    if told_later and matches.dense and not _closest_heard(matches.dense, here_ms):
        return True
    # Heard words said back: the passage closest to it, by meaning and by words, is heard.
    if _closest_heard(matches.dense, here_ms) and _closest_heard(matches.sparse, here_ms):
        return False
    ahead, heard = best_stretch(matches.sparse, False, here_ms), best_stretch(matches.sparse, True, here_ms)
    return ahead - heard >= STORY_MARGIN * max(ahead, heard, 1e-9)


def names_ahead(sentence: str, asked: set[str], names: BookNames, here_ms: int) -> list[str]:
    """The book's names in ``sentence`` first heard ahead, but for those the listener said, and for
    one written in lower case whose word was heard ("a smith" before a Smith is named)."""
    capitalised = written_with_capital(sentence)
    return [
        w
        for w in words_of(sentence)
        if w not in asked
        and w in names.first_ms
        and ahead_of(names.first_ms[w], here_ms)
        and (w in capitalised or not heard_word(names, w, here_ms))
    ]


def check_answer(
    answer: str,
    question: str,
    names: BookNames,
    here_ms: int,
    matches: Sequence[SentenceMatches] | None = None,
    *,
    titles: Mapping[int, str] | None = None,
) -> CheckedAnswer:
    """``answer`` with every sentence cut that names something first heard ahead or means it.

    ``matches`` holds search's matches for each of ``sentences_of(answer)`` in order; without
    them only the names rule runs. ``titles``: the chapters' own titles by where each starts; one
    ahead with a word not heard is cut (``titles_ahead``). Names the listener said in
    ``question`` are theirs to hear back ("Ginger hasn't come up yet"). ``STOP_THERE`` is never
    cut. The cut sentences give way to one ``STOP_THERE``, where the first of them stood.
    """
    sentences = sentences_of(answer)
    if matches is not None and len(matches) != len(sentences):
        raise ValueError(f"{len(matches)} sets of matches for {len(sentences)} sentences")
    asked = set(words_of(question))
    kept: list[str] = []
    cut = 0
    titled = titles_ahead(titles or {}, here_ms, asked, names)
    for i, sentence in enumerate(sentences):
        seen = _as_seen(sentence)
        ahead = sentence != STOP_THERE and (
            bool(names_ahead(seen, asked, names, here_ms))
            or (titled is not None and titled.search(_title_words(seen)) is not None)
            or (
                matches is not None
                and meaning_lies_ahead(matches[i], here_ms, told_later=tells_of_later(sentence))
            )
        )
        if ahead:
            if not cut:
                kept.append(STOP_THERE)
            cut += 1
        else:
            kept.append(sentence)
    return CheckedAnswer(speech=" ".join(kept) if cut else answer, cut=cut)


def titles_ahead(
    titles: Mapping[int, str], here_ms: int, asked: set[str], names: BookNames
) -> re.Pattern[str] | None:
    """What finds, in a sentence's ``_title_words``, a chapter title ahead that has a word not heard
    yet, however it is written ("called *The Lamplighter*", "Chapter 9: The Lamplighter."); None when
    there is none. A model may know the titles of a famous book from elsewhere; heard text never holds
    such a word. A title whose words are all heard ("Ginger", once a mare named Ginger is met) is words
    like any other, left to the other rules, as are its numbers and letters; a title the listener said
    is theirs."""
    phrases = [
        _title_phrase(title)
        for start_ms, title in titles.items()
        if ahead_of(start_ms, here_ms) and _unheard_in(title, names, here_ms) - asked
    ]
    if not phrases:
        return None
    return re.compile(rf"(?<![\w'])(?:{'|'.join(phrases)})(?![\w'])")


_ARTICLES = frozenset({"a", "an", "the"})
_POSSESSIVE = "'s"


def _title_phrase(title: str) -> str:
    """A title as a sentence's ``_title_words`` may write it: all its words in order ("Room 101"),
    without its leading article ("is Lamplighter"), each with or without an apostrophe's s ("Gingers
    Harbour" for "Ginger's Harbour", and so a plural: "The Ship" finds "ships"). Never fewer letters
    than the title's own words: "Horses" never finds "horse"."""
    words = _title_words(title).split()
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    return " ".join(rf"{re.escape(word.removesuffix(_POSSESSIVE))}(?:'?s)?" for word in words)


def _unheard_in(title: str, names: BookNames, here_ms: int) -> set[str]:
    """The words of a chapter's own title (not its number, nor the number of another chapter it
    gives) a listener at ``here_ms`` has not heard: none of fewer than three letters."""
    numbered = numbered_as(title)
    said = numbered[1] if numbered is not None else title
    return {
        word
        for word in words_of(said)
        if len(word) >= 3 and word not in FUNCTION_WORDS and not heard_word(names, word, here_ms)
    }


def _title_words(text: str) -> str:
    """The words of ``text`` in lower case, one space apart: titles match however they are marked."""
    return " ".join(re.findall(r"[^\W_]+(?:'[^\W_]+)*", text.casefold().replace("\u2019", "'")))


def _as_seen(text: str) -> str:
    """``text`` without the characters no one sees or hears (a zero-width space, a soft hyphen, a
    variation selector: Unicode's default-ignorable ones), which would split a name in two for the
    names rule ("Cor\u200bvin")."""
    return _IGNORABLE.sub("", text)


_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
