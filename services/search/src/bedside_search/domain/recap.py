"""Recap's rules: the heard sentences a span of book time holds, and the central few: pure.

A span never reaches the line: it is clamped to ``here_ms`` before anything is read. What
counts as heard is the guard's judgement (``heard_cues``), the same one recall makes; a
sentence is timed by the cue it starts in, or, where a passage has no finer timing, by
where it falls in the passage's text (narration at an even pace).
"""

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from bedside_contracts.search import RecapSentence
from bedside_guard import (
    Candidate,
    Cue,
    Passage,
    ahead_of,
    balance_quotes,
    heard_cues,
    is_heading,
    is_whole_sentence,
    sentence_spans,
)

MAX_CANDIDATES = 160
"""Sentences embedded for one recap; a longer span is sampled evenly across its length."""
MAX_PLACES = 40
"""Passages a recap hands the model: about twenty minutes; a longer span is sampled evenly."""
MIN_WORDS = 6
"""Shorter sentences ("Yes," said he.) carry too little of the story to stand alone."""
MAX_SENTENCE_WORDS = 40
REPEAT_COSINE = 0.85
"""A sentence this close to one already picked says the same thing again."""
STRETCH_WORDS = 14
"""About the words of a sayable sentence (the sample book's mean): a recap of 70 words covers
its span in five stretches of time, one sentence from each."""
WORDS_KEPT_PER_STRETCH = 10
"""Words each stretch not yet told keeps for a sentence of its own: without them the two long
sentences of its last minutes filled a recap of the first hour of Black Beauty."""


@dataclass(frozen=True)
class Span:
    """A stretch of book time, ``from_ms`` included, ``to_ms`` not."""

    from_ms: int
    to_ms: int

    def holds(self, at_ms: int) -> bool:
        return self.from_ms <= at_ms < self.to_ms


def clamp_span(from_ms: int, to_ms: int, here_ms: int) -> Span:
    """The span as it may be read: never at or past the line, never running backwards."""
    to = min(to_ms, here_ms)
    return Span(min(from_ms, to), to)


def timed_sentences(pieces: Sequence[Cue]) -> list[tuple[int, str]]:
    """The sentences of a passage's heard pieces, read as one text, each with the time it starts at.

    A sentence runs on across the pieces' ends (a cue of a transcript is not a sentence, and a
    quotation of several sentences spans several cues), and is made whole: its speaker's quote
    marks on both sides, never a heading read out (``is_heading``). It is timed in the piece it
    starts in, read at an even pace: it starts at the share of the piece's time that its place
    in the piece's text is of the whole piece.
    """
    text = ""
    starts: list[int] = []
    for piece in pieces:
        text += " " if text else ""
        starts.append(len(text))
        text += piece.text
    timed: list[tuple[int, str]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if is_heading(sentence):
            continue
        at = bisect.bisect_right(starts, start) - 1
        piece, offset = pieces[at], start - starts[at]
        duration = max(piece.end_ms - piece.start_ms, 0)
        timed.append(
            (piece.start_ms + duration * offset // max(len(piece.text), 1), balance_quotes(sentence))
        )
    return timed


def span_sentences(passages: Sequence[Passage], span: Span, here_ms: int) -> list[RecapSentence]:
    """Every heard sentence that starts inside ``span``, in story order."""
    found: list[RecapSentence] = []
    for passage in passages:
        if passage.start_ms >= span.to_ms or passage.end_ms <= span.from_ms:
            continue
        for at_ms, text in timed_sentences(heard_cues(passage, here_ms)):
            if span.holds(at_ms) and not ahead_of(at_ms, here_ms):
                found.append(
                    RecapSentence(passage_id=passage.id, chapter=passage.chapter, at_ms=at_ms, text=text)
                )
    return sorted(found, key=lambda s: (s.at_ms, s.passage_id))


def words_in(text: str) -> int:
    return len(text.split())


def sayable(text: str) -> bool:
    """Of a length to stand alone, and a whole sentence (``is_whole_sentence``): not a piece a
    passage starts mid-way ("and then not even that.") or the line cuts short."""
    return is_whole_sentence(text) and MIN_WORDS <= words_in(text) <= MAX_SENTENCE_WORDS


_CLAUSE_END = re.compile(r"(?<=[,;:])\s+")


def said_in_clauses(text: str) -> list[str]:
    """A whole sentence too long to say (a recogniser's run-on) as its clauses, joined up to
    ``MAX_SENTENCE_WORDS`` and each ended with a full stop; [] for one with no clauses that short."""
    if not is_whole_sentence(text) or words_in(text) <= MAX_SENTENCE_WORDS:
        return []
    parts: list[str] = []
    for clause in _led_in(_CLAUSE_END.split(text.strip())):
        if parts and words_in(parts[-1]) + words_in(clause) <= MAX_SENTENCE_WORDS:
            parts[-1] = f"{parts[-1]} {clause}"
        else:
            parts.append(clause)
    ended = [balance_quotes(_opened(_ended(part))) for part in parts]
    return ended if all(MIN_WORDS <= words_in(part) <= MAX_SENTENCE_WORDS for part in ended) else []


LEAD_IN_WORDS = 4
"""A clause this short ("and one day,", "at last,") leads into the one after it: a part said as a
sentence never ends on it."""


def _led_in(clauses: list[str]) -> list[str]:
    """The clauses with each short one joined to the clause it leads into, unless the two would be
    too long to say as one: then it stays a clause of its own, and the sentence is still said."""
    joined: list[str] = []
    leading = ""
    for clause in clauses:
        if leading and words_in(leading) + words_in(clause) > MAX_SENTENCE_WORDS:
            joined.append(leading)
            leading = ""
        whole = f"{leading} {clause}" if leading else clause
        leading = whole if words_in(whole) <= LEAD_IN_WORDS else ""
        if not leading:
            joined.append(whole)
    return [*joined, leading] if leading else joined


_NEVER_A_NAME = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "because",
        "but",
        "for",
        "he",
        "her",
        "his",
        "i",
        "if",
        "in",
        "it",
        "its",
        "my",
        "now",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "though",
        "till",
        "to",
        "until",
        "we",
        "when",
        "where",
        "which",
        "while",
        "who",
        "with",
        "yet",
        "you",
        "your",
    ]
)
"""Words a clause opens with that are never anyone's name: raised to a capital, they name no one
(raising "rose slowly" would make the Rose of a later chapter)."""


_FIRST_WORD = re.compile(r"[^\W\d_]+")


def _opened(part: str) -> str:
    """A clause opened as a sentence: "and one day, ..." as "And one day, ...", when its first word
    is ``_NEVER_A_NAME``'s (after any quote mark); any other word is left as written."""
    first = _FIRST_WORD.search(part)
    if first is None or first[0] not in _NEVER_A_NAME:
        return part
    return part[: first.start()] + first[0].capitalize() + part[first.end() :]


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")


def _ended(part: str) -> str:
    """A clause ended as a sentence: its comma a full stop; the sentence's own end kept ("?", '."')."""
    part = part.rstrip(",;: ")
    return part if _SENTENCE_END.search(part) else f"{part}."


def recap_candidates(sentences: Sequence[RecapSentence]) -> list[RecapSentence]:
    """The sentences worth embedding: sayable ones (a run-on said in its clauses), at most
    ``MAX_CANDIDATES``, spread evenly."""
    sayable_ones = [
        part
        for s in sentences
        for part in (
            # a part is timed a millisecond after the one before it, so they keep their order
            [s]
            if sayable(s.text)
            else [
                s.model_copy(update={"text": t, "at_ms": s.at_ms + k})
                for k, t in enumerate(said_in_clauses(s.text))
            ]
        )
    ]
    if len(sayable_ones) <= MAX_CANDIDATES:
        return sayable_ones
    step = len(sayable_ones) / MAX_CANDIDATES
    return [sayable_ones[int(i * step)] for i in range(MAX_CANDIDATES)]


def stretches(span: Span, max_words: int) -> list[Span]:
    """The span cut into equal stretches of time, one for each sentence ``max_words`` holds
    (about ``STRETCH_WORDS`` each), latest first."""
    count = max(1, max_words // STRETCH_WORDS)
    length = span.to_ms - span.from_ms
    cuts = [span.from_ms + length * i // count for i in range(count + 1)]
    return [Span(cuts[i], cuts[i + 1]) for i in reversed(range(count))]


def recap_sentences(
    candidates: Sequence[RecapSentence], vectors: npt.NDArray[np.float32], span: Span, max_words: int
) -> list[RecapSentence]:
    """The sentences a recap says, within ``max_words``, in story order.

    First the sentence nearest in meaning to the centre of each stretch of the span, the
    latest stretch first, so what was heard just before the span's end is told and, when the
    words run out, the earliest stretches are the ones left untold; a sentence leaves
    ``WORDS_KEPT_PER_STRETCH`` for each stretch still to come. Words left over
    go to the sentences nearest the whole span's centre. A sentence that repeats one already
    picked is passed over, and so is one that would overrun the words.
    """
    if not candidates:
        return []
    picker = _Picker(candidates, vectors, max_words)
    parts = stretches(span, max_words)
    for told, stretch in enumerate(parts, start=1):
        among = [i for i, s in enumerate(candidates) if stretch.holds(s.at_ms)]
        picker.take_central(among, first_only=True, leaving=(len(parts) - told) * WORDS_KEPT_PER_STRETCH)
    picker.take_central(list(range(len(candidates))), first_only=False)
    return sorted((candidates[i] for i in picker.picked), key=lambda s: (s.at_ms, s.passage_id))


@dataclass
class _Picker:
    candidates: Sequence[RecapSentence]
    vectors: npt.NDArray[np.float32]
    max_words: int
    picked: list[int] = field(default_factory=list)
    words: int = 0

    def take_central(self, among: list[int], *, first_only: bool, leaving: int = 0) -> None:
        """Take from ``among`` the sentences nearest their own centre that fit (only the first that
        fits when ``first_only``). Centrality is the cosine to the mean of their vectors."""
        if not among:
            return
        centre = self.vectors[among].mean(axis=0)
        centre = centre / (float(np.linalg.norm(centre)) or 1.0)
        scores = self.vectors[among] @ centre
        for _, i in sorted(zip((-float(x) for x in scores), among, strict=True)):
            if i in self.picked or not self._fits(i, leaving):
                continue
            self.picked.append(i)
            self.words += words_in(self.candidates[i].text)
            if first_only:
                return

    def _fits(self, i: int, leaving: int) -> bool:
        if self.words + words_in(self.candidates[i].text) + leaving > self.max_words:
            return False
        return not any(float(self.vectors[i] @ self.vectors[j]) >= REPEAT_COSINE for j in self.picked)


def span_places(sentences: Sequence[RecapSentence], passages: Sequence[Passage]) -> list[Candidate]:
    """The span's passages as the model reads them: each with only its heard words inside the span.

    At most ``MAX_PLACES``, spread evenly over the span, in story order.
    """
    by_id = {p.id: p for p in passages}
    grouped: dict[int, list[RecapSentence]] = {}
    for sentence in sentences:
        grouped.setdefault(sentence.passage_id, []).append(sentence)
    places = [
        Candidate(
            start_ms=mine[0].at_ms,
            ahead=False,
            passage_id=passage_id,
            chapter=by_id[passage_id].chapter,
            chapter_title=by_id[passage_id].chapter_title,
            words=" ".join(s.text for s in mine),
        )
        for passage_id, mine in grouped.items()
    ]
    places.sort(key=lambda c: (c.start_ms, c.passage_id or 0))
    if len(places) <= MAX_PLACES:
        return places
    step = len(places) / MAX_PLACES
    return [places[int(i * step)] for i in range(MAX_PLACES)]
