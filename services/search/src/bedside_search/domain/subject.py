"""What a recall question is about, read from the book's own words: pure.

Two things the cosine alone gets wrong (adr/0025):
- "who is X?" is answered where the book tells of X: X is a name, so once the heard text has
  written it as one (capitalised inside a sentence, or opening one just before another name),
  the heard passages that write it with a capital are the candidates, and the heard chapter that
  names X most is where X is described, unless the book's opening chapter names X: it introduces
  the book's main characters, named often everywhere after.
  The question's own case does not matter ("who is the captain?"), the book's does: "Justice"
  the horse is a name where the book writes it so, though it also writes "justice" as a word.
- A heard chapter's title says what the chapter is about, so a question that shares a rare word
  with a heard title leans towards that chapter.
"""

import math
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

from bedside_guard import (
    A_NAME,
    FUNCTION_WORDS,
    PART_OF_A_NAME,
    TITLES,
    AskedAfter,
    asked_after,
    sentence_telling_a_name,
    sentences_of,
    without_headings,
    words_of,
)

from bedside_search.domain.fusion import Fused
from bedside_search.domain.terms import terms

_ABOUT = re.compile(
    r"\b(?:tell|remind)\s+me\s+(?:again\s+)?(?:about|of)\s+"
    r"(?!(?:what|how|why|when|where|which|whether|if|who)\b)(?P<thing>[^?.!]+)",
    re.IGNORECASE,
)
""""Remind me about the storm": what is asked about, when it is a thing rather than someone."""
_WHAT_THING = re.compile(
    r"^what(?:['\u2019]s|\s+is|\s+are|\s+was|\s+were)\s+(?:a|an|the)\s+(?P<thing>[^?.!]+?)"
    r"(?:\s+like)?(?:\s+again)?\s*[?.!]*$",
    re.IGNORECASE,
)
""""What are the needle rocks?", "what was the horse fair like?": a thing named with its article, asked
after as "remind me about it" asks."""
_WHAT_IS = r"\bwhat(?:['\u2019]s|\s+is|\s+was|\s+were)\s+"
_NAME_ASKED = (
    re.compile(rf"{_WHAT_IS}the\s+{A_NAME}\s+of\s+(?P<thing>[^?.!,]+)"),
    re.compile(rf"{_WHAT_IS}(?P<thing>[^?.!,]+?)['\u2019]s?\s+{A_NAME}\b"),
    re.compile(rf"{_WHAT_IS}(?P<thing>[^?.!,]+?)\s+called$"),
    re.compile(r"\bwhat\s+did\s+(?:they|he|she|you|we|i)\s+call\s+(?P<thing>[^?.!,]+)$"),
    re.compile(r"^(?P<thing>[^?.!,]+),\s*what(?:['\u2019]s|\s+is|\s+was)\s+(?:his|her|its|their)\s+name\b"),
)
"""'What's the pony called?', 'what is the name of the coachman?', 'what was the groom's name?',
'what did they call the old horse?', 'the lady at the big house, what's her name?'."""
_ASKED_AGAIN = re.compile(r"\s+(?:again|please)$")
_TITLE_WORDS = frozenset(title.lower() for title in TITLES)
SUBJECT_WORDS = 3
"""A longer subject ("the man who sold the horse at the fair") is a description, not a name."""
TITLE_WEIGHT = 0.25
"""How much a fully matching heard title adds to its passages' fused scores (as a share)."""


def subject_of(question: str) -> tuple[str, ...]:
    """The content words of the person a "who is X?" question asks after, or of the thing a "what is
    X?" question calls by its name, lower case; () if none. The guard's ``asked_after`` reads the
    phrasing, for its respelling too; search looks up any word of it among the book's names ("who is
    the captain?": the book, not the asker's case, tells whether the Captain is a name)."""
    return _content_words(next((asked for asked in asked_after(question) if not asked.latest), None))


def name_asked_of(question: str) -> tuple[str, ...]:
    """The content words (lower case) of what a question asks the name of; () when it asks none, or
    names it already with a capital ("what's Wren's dog called?": the asker knows a name)."""
    asked = _ASKED_AGAIN.sub("", question.strip().rstrip("?.! "))
    for pattern in _NAME_ASKED:
        match = pattern.search(asked)
        if match is None:
            continue
        thing = match.group("thing")
        if any(c.isupper() for c in thing) and not re.search(PART_OF_A_NAME, match.group(0)):
            return ()  # a name known; but "what's James's surname?" asks where James is named in full
        words = tuple(w for w in words_of(thing) if w not in FUNCTION_WORDS)
        return words if 0 < len(words) <= SUBJECT_WORDS else ()
    return ()


def whereabouts_of(question: str) -> tuple[str, ...]:
    """The content words of the person a "where is X?" question asks after, lower case; () if none."""
    return _content_words(next((asked for asked in asked_after(question) if asked.latest), None))


def _content_words(asked: AskedAfter | None) -> tuple[str, ...]:
    if asked is None:
        return ()
    words = tuple(w for w in asked.words if w not in FUNCTION_WORDS)
    return words if 0 < len(words) <= SUBJECT_WORDS else ()


def thing_of(question: str) -> tuple[str, ...]:
    """The content terms (stemmed) of the thing a "tell me about X", "remind me about X" or "what is
    the X?" question asks after; () if none.

    Only an X written all in lower case: a capital is the asker naming someone, and the names
    rules decide about a name ("tell me about Justice" before the horse is named has not come up,
    though the book has said "justice" as a word).
    """
    return _lower_case_terms(_ABOUT.search(question) or _what_thing(question))


def _lower_case_terms(match: re.Match[str] | None) -> tuple[str, ...]:
    """The terms of what ``match`` names as ``thing``, written all in lower case and in at most
    ``SUBJECT_WORDS`` terms; () otherwise."""
    if match is None or any(c.isupper() for c in match.group("thing")):
        return ()
    asked = tuple(dict.fromkeys(terms(match.group("thing"))))
    return asked if 0 < len(asked) <= SUBJECT_WORDS else ()


_WHO_BY_ROLE = re.compile(
    r"\bwho(?:['\u2019]s|\s+is|\s+was|\s+are|\s+were)\s+the\s+(?P<thing>[^?.!]+)", re.IGNORECASE
)


def role_of(question: str) -> tuple[str, ...]:
    """The content terms (stemmed) of "who's the keeper?": someone asked after by what they are, in
    lower case; () if none. When the book never writes it as a name, the heard passages that say it
    answer, as for a thing ("the new lighthouse keeper")."""
    asked = _lower_case_terms(_WHO_BY_ROLE.search(question))
    return () if set(asked) <= _NAMING_NO_ONE else asked


_NAMING_NO_ONE = frozenset(terms("one ones best worst first last next same other rest latter former"))
"""Words that say which of several, not who: "who is the other one?" is no role the book names."""


WHAT_THING_WORDS = (2, 3)
"""How many words "what is the X?" names a thing with: one ("the plan", "the answer") or a clause
("the point of that", "the reason she left") is a question about the story, not a thing to find."""


def _what_thing(question: str) -> re.Match[str] | None:
    match = _WHAT_THING.match(question.strip())
    if match is None:
        return None
    words = words_of(match.group("thing"))
    least, most = WHAT_THING_WORDS
    named = least <= len(words) <= most and not any(w in FUNCTION_WORDS for w in words)
    return match if named else None


def mentioned_first(mentions: Sequence[int], ranked: Sequence[Fused]) -> list[Fused]:
    """``ranked`` with the heard passages that mention a thing asked about first (``mentions``, in
    story order): those ranked in their ranked order, then the others in story order."""
    mentioning = set(mentions)
    ranked_ids = {f.passage_id for f in ranked}
    first = [f for f in ranked if f.passage_id in mentioning]
    unranked = [Fused(passage_id=pid, score=0.0, dense=None) for pid in mentions if pid not in ranked_ids]
    return [*first, *unranked, *(f for f in ranked if f.passage_id not in mentioning)]


def tells_name_of(text: str, asked: Sequence[str], names: Collection[str], title: str | None = None) -> bool:
    """Whether ``text`` has a sentence holding every word of ``asked`` near one that writes a name of
    the book's (``names``, lower case; not an asked word; the guard's ``sentence_telling_a_name``):
    where the book tells what the thing asked about is called. When what is asked about is a name
    already ("what's James's surname?"), the rest of it is told where the two are written together.
    ``title``: the title of the chapter ``text`` opens, heard just before its first sentence; holding
    every word asked, it is that sentence ("The Apprentice", then "A thin boy named Tobin Creel ...")."""
    sentences = sentences_of(without_headings(text))
    if set(asked) <= set(names):
        return any(written_in_full(sentence, asked, names) for sentence in sentences)
    wanted = set(terms(" ".join(asked)))
    opened = title is not None and wanted <= set(terms(title))
    if opened and sentence_telling_a_name(sentences, 0, names=names, besides=asked) is not None:
        return True
    return any(
        wanted <= set(terms(sentence))
        and sentence_telling_a_name(sentences, i, names=names, besides=asked) is not None
        for i, sentence in enumerate(sentences)
    )


_CAPITALISED_RUN = re.compile(r"[A-Z][\w'\u2019]*(?:\s+[A-Z][\w'\u2019]*)+")


def written_in_full(sentence: str, asked: Collection[str], names: Collection[str]) -> bool:
    """Whether ``sentence`` writes a name of ``asked`` beside another of the book's ``names`` ("James
    Howard"), not merely in the same sentence ("she bit James, and Miss Flora ...")."""
    for run in _CAPITALISED_RUN.finditer(sentence):
        written = set(words_of(run.group(0)))
        if written & set(asked) and (written - set(asked)) & set(names):
            return True
    return False


def told_first(tellings: Sequence[int], ranked: Sequence[Fused]) -> list[Fused]:
    """``ranked`` with the passages of ``tellings`` first, in that order (story order: the first
    telling is where the book introduces the name)."""
    fused = {f.passage_id: f for f in ranked}
    telling = set(tellings)
    first = [fused.get(pid, Fused(passage_id=pid, score=0.0, dense=None)) for pid in tellings]
    return [*first, *(f for f in ranked if f.passage_id not in telling)]


class Introduction(IntEnum):
    """How a passage says who someone is, the surer way higher."""

    NONE = 0
    DESCRIBED = 1
    """Their name with what they are after a comma ("James Howard, the stable boy"), which a list
    also writes ("the master on Ginger, the mistress on me")."""
    NAMED = 2
    """Named or presented: "the name of the coachman was John Manly", "a pony called Merrylegs",
    "they call her Ginger", "I'm Oskar", "That is Pudding"."""


def introduction(text: str, word: str) -> Introduction:
    """How surely ``text`` introduces the one named ``word`` (lower case) the way a book does."""
    name = rf"{re.escape(word[:1].upper())}(?i:{re.escape(word[1:])})\b"  # "McCarthy" as written
    naming, presenting = _naming_patterns(name)
    if naming.search(text) or presenting.search(text):
        return Introduction.NAMED
    if re.search(rf"\b{name}(?:\s+[A-Z][\w'\u2019-]*)*,\s+(?:the|a|an)\s+[a-z]", text):
        return Introduction.DESCRIBED
    return Introduction.NONE


_NOT_SUMMONED = "".join(
    rf"(?<!\b{word}\s)" for word in ("and", "he", "she", "they", "we", "i", "who", "then")
)
"""Not "he called Jerry", which summons him: "a pony called Merrylegs" names."""


def _naming_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    quoted = "[\"\u201c\u2018']?"  # 'an animal called “Captain”'
    return (
        re.compile(
            rf"(?i:\bname\s+(?:of\s+[\w\s]{{1,40}}?\s+)?(?:was|is)|{_NOT_SUMMONED}\bcalled|\bnamed(?:\s+(?:him|her|it))?"
            rf"|\bcall(?:ed)?\s+(?:him|her|it|them))\s+(?:the\s+)?{quoted}(?:[A-Z][\w'\u2019-]*\s+)?{name}"
        ),
        re.compile(rf"(?i:\b(?:i['\u2019]m|i\s+am|my\s+name\s+is|this\s+is|that\s+is))\s+{quoted}{name}"),
    )


@dataclass(frozen=True)
class Naming:
    """A heard passage that writes a subject word with a capital."""

    passage_id: int
    chapter: int
    start_ms: int
    inside: bool
    """Written as a name for sure: capitalised inside a sentence, or opening one just before another
    name ("Hettie Bramble," said ...); otherwise at a sentence's start it may be any word."""
    introduced: Introduction = Introduction.NONE
    """How surely it says who they are (``introduction``)."""
    someone_else: bool = False
    """It writes the word only inside another's name ("Thomas Green" when Joe Green is asked after)."""
    whole_name: bool = False
    """It writes the whole name asked after as one ("John Turner", ``writes_whole_name``)."""


def writes_whole_name(text: str, subject: Sequence[str]) -> bool:
    """Whether ``text`` writes every word of a name of two or more asked after in one capitalised run
    ("John Turner"), where one of them alone ("Mrs. Turner") may be anyone of that name."""
    return len(subject) > 1 and any(
        set(subject) <= set(words_of(run[0])) for run in _CAPITALISED_RUN.finditer(text)
    )


def names_someone_else(text: str, word: str, subject: Sequence[str]) -> bool:
    """Whether ``text`` writes ``word`` only as part of another person's name than the ``subject`` asked
    after: each time beside another capitalised word and never beside the subject's own others
    ("Thomas Green", asked about Joe Green). A title ("Mr. Green") may be anyone's, and a sentence's
    first word ("Then Green said") is no name."""
    others = set(subject) - {word}
    if not others:
        return False
    runs = [set(words_of(run[0])) for run in _CAPITALISED_RUN.finditer(text) if word in words_of(run[0])]
    if not runs or len(runs) < len(re.findall(rf"\b{re.escape(word)}\b", text, re.IGNORECASE)):
        return False  # written alone somewhere: it may be theirs
    return all(not run & others and run - {word} - _TITLE_WORDS - FUNCTION_WORDS for run in runs)


def introduced_order(
    naming: Mapping[str, Sequence[Naming]],
    ranked: Sequence[Fused],
    *,
    latest: bool = False,
    opening_chapter: int | None = None,
) -> list[Fused] | None:
    """The passages that answer "who is X?" (or, ``latest``, "where is X?"), best first, then the
    rest of ``ranked``.

    ``naming`` holds, for each subject word, the heard passages that write it with a capital. None
    when some word of the subject was never written as a name (``Naming.inside``) behind the
    line: then the book has not named X in the listener's hearing, and recall decides
    as it would for any question. Otherwise the least named word picks the passages ("Clay", not
    "John"); those that introduce them come first, the surer way first (``Naming.introduced``),
    then by their most naming chapter (ties: the earlier), and inside a chapter story order: the
    first time a chapter names someone is where it says who they are; passages naming only someone
    else of that name (``Naming.someone_else``) are left out while others name X, and a whole name
    asked ("John Turner") is answered from the chapters that write it whole where any does. Someone the book's
    opening chapter (``opening_chapter``) names is one of its main characters, named often in every
    chapter after: the opening chapter comes first, where they are introduced. For "where is X?"
    the latest heard passage naming X comes first: it is the last the listener heard of them.
    """
    if not naming or any(not any(p.inside for p in naming.get(word, ())) for word in naming):
        return None
    word = min(naming, key=lambda w: (len(naming[w]), w))
    passages = [p for p in naming[word] if not p.someone_else] or naming[word]
    # a whole name asked and written: the chapters that write it whole, not one word of it anyone's
    if whole := {p.chapter for p in passages if p.whole_name}:
        passages = [p for p in passages if p.chapter in whole]
    per_chapter = Counter(p.chapter for p in passages)
    introduced = any(p.chapter == opening_chapter and p.inside for p in passages)
    fused = {f.passage_id: f for f in ranked}
    if latest:
        ordered = sorted(passages, key=lambda p: -p.start_ms)
    else:
        ordered = sorted(
            passages,
            key=lambda p: (
                not (introduced and p.chapter == opening_chapter),
                -p.introduced,
                -per_chapter[p.chapter],
                p.chapter,
                p.start_ms,
            ),
        )
    first = [fused.get(p.passage_id, Fused(passage_id=p.passage_id, score=0.0, dense=None)) for p in ordered]
    chosen = {p.passage_id for p in ordered}
    return [*first, *(f for f in ranked if f.passage_id not in chosen)]


def title_weights(question: str, titles: Mapping[int, str]) -> dict[int, float]:
    """Each heard chapter's share of the question's title match (0 to 1, the best chapter 1).

    A title term counts by its rarity among the heard titles ("horse" is in many, "hostler" in one).
    """
    asked = set(terms(question, query=True))
    titled = {chapter: set(terms(title)) for chapter, title in titles.items()}
    df = Counter(term for words in titled.values() for term in words & asked)
    if not df:
        return {}
    rarity = {term: math.log(1.0 + len(titled) / count) for term, count in df.items()}
    scores = {chapter: sum(rarity[t] for t in words & asked) for chapter, words in titled.items()}
    best = max(scores.values())
    return {chapter: score / best for chapter, score in scores.items() if score > 0}


def title_nudged(
    ranked: Sequence[Fused], weights: Mapping[int, float], chapter_of: Mapping[int, int], weight: float
) -> list[Fused]:
    """``ranked`` with each passage's score raised by its chapter's title match, re-sorted."""
    if not weights or not weight:
        return list(ranked)
    raised = [
        Fused(f.passage_id, f.score * (1.0 + weight * weights.get(chapter_of[f.passage_id], 0.0)), f.dense)
        for f in ranked
    ]
    return sorted(raised, key=lambda f: (-f.score, f.passage_id))
