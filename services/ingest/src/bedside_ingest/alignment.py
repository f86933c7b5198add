"""Aligning an e-book to the recording's transcript, without I/O.

The e-book's words are the ones the listener should see (names spelled right); the
recogniser's words know when each was said. Each audio chapter is paired with the run of e-book
chapters whose words it shares most, usually one, several when one file holds several chapters
(in order: pairs never go back in the e-book); within a pair the two word sequences are matched
(difflib's longest common blocks), and a sentence with enough of its words matched takes its
start and end from them. Sentences between two
matched ones are spread over the time between them; sentences at a chapter's edges that the
recording does not hold (front matter, notes, an abridged passage) are left out, not spread.
An audio chapter paired with no e-book chapter keeps the recogniser's words.
"""

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from bedside_contracts.ingest import AlignmentSummary, ChapterTranscript, SpokenWordTimes
from bedside_contracts.search import TimesFrom
from bedside_guard import FUNCTION_WORDS, OPENING_CHAPTER

from bedside_ingest.audiobook import Audiobook, AudioChapter
from bedside_ingest.book import Book, Chapter, Unit
from bedside_ingest.matter import around_the_story
from bedside_ingest.transcription import ALIGNED_FORMAT, transcribed_book, units_of

MIN_CHAPTER_SHARE = 0.3
"""An audio chapter is paired with an e-book chapter holding at least this share of its words."""
MIN_SENTENCE_SHARE = 0.4
"""A sentence is matched when this share of its words (at least one) was heard in order."""
MIN_BOOK_SHARE = 0.3
"""Below this share of the recording's words matched, the e-book is not this recording."""
STRAY_WORDS = 3
"""A matched word more than three words further from its neighbour in the recording than in the
sentence is a stray match."""
MIN_HELD_SHARE = 0.5
"""A neighbouring e-book chapter joins an audio chapter's run when the recording holds this share of
its words besides those already matched: one file read from several chapters."""
CONTENT_WORD_CHARS = 3
"""Pairing chapters counts words of three letters or more besides the function words ("this", "all"):
they say nothing of which chapter, and a credits track that matched a chapter by them alone held every
track after it there."""
MIN_NOTED_SENTENCES = 3
"""An e-book chapter the recording lacks is noted when it holds this many sentences: an epilogue,
or a chapter an abridged reading leaves out; a title page or a dedication is no news."""
MIN_UNHELD_WORDS = 60
"""Words heard before the first or after the last e-book sentence placed in an audio chapter are
kept as heard when there are this many (half a minute): what an abridged or longer reading holds
beyond its e-book. Fewer are a reader's announcements ("This is a LibriVox recording ...", some 40
words; "End of chapter one"), left out as before."""


def words_of(text: str) -> list[str]:
    """Lowercased words without punctuation or apostrophes: "Wren's," -> "wrens"."""
    return [w for w in (re.sub(r"[^a-z0-9]", "", t) for t in text.lower().split()) if w]


def _not_this_recording(recording_share: float) -> str:
    return f"does not match this recording: {recording_share:.0%} of the words heard are in it"


def keeps_the_book_before(alignment: AlignmentSummary | None, before: TimesFrom) -> bool:
    """Whether a recording made a book again with an e-book set aside (it did not match) leaves the
    version before in place: one timed by its own e-book is the better book, and a wrong e-book
    sent with the right recording is a slip, not a wish to lose it."""
    return alignment is not None and bool(alignment.fallback) and before == "alignment"


def the_book_before_kept(alignment: AlignmentSummary) -> str:
    """Why a book made again was not: what a listener is told of the e-book sent."""
    return (
        f"{_not_this_recording(alignment.recording_share)}. The book made before with its own e-book is "
        "kept; to make it again of the words heard, add the recording alone"
    )


@dataclass(frozen=True)
class AlignmentReport:
    """How well the e-book matched the recording."""

    sentences: int
    """E-book sentences in the chapters paired with the recording."""
    matched: int
    interpolated: int
    left_out: int
    """Sentences of the e-book the recording does not hold (unpaired chapters included)."""
    recording_share: float
    """Share of the recogniser's words that matched the e-book."""
    fallback: str = ""
    """Why the recogniser's own words were used instead, if they were."""
    kept_as_heard_ms: int = 0
    """How much of the recording, beside the e-book's chapters paired with it, is the recogniser's words."""

    @property
    def matched_share(self) -> float:
        placed = self.matched + self.interpolated
        return self.matched / placed if placed else 0.0


def pair_chapters(ebook: Sequence[Chapter], heard: Sequence[ChapterTranscript]) -> list[range | None]:
    """For each audio chapter, the run of e-book chapters it holds (or None), never going back.

    Each e-book chapter gives a run (``_widened``); of those holding at least ``MIN_CHAPTER_SHARE`` of
    the recording's words, the one whose words and the recording's match best both ways (the share
    of all the words of both that match): a run longer than the recording, or one chapter of
    several the recording holds, matches less of one side.
    """
    ebook_counts = [Counter(w for u in c.units for w in words_of(u.text) if _says_which(w)) for c in ebook]
    sizes = [sum(counts.values()) for counts in ebook_counts]
    pairs: list[range | None] = []
    taken = -1  # the last e-book chapter paired
    for transcript in heard:
        counts = Counter(w for word in transcript.words for w in words_of(word.text) if _says_which(w))
        total = sum(counts.values())
        best, best_match = None, 0.0
        for index in range(max(taken, 0), len(ebook)) if total else ():
            run, matched = _widened(counts, ebook_counts, index)
            both_ways = 2 * matched / (total + sum(sizes[i] for i in run))
            if matched / total >= MIN_CHAPTER_SHARE and both_ways > best_match:
                best, best_match = run, both_ways
        pairs.append(best)
        if best is not None:
            taken = best.stop - 1
    return pairs


def _says_which(word: str) -> bool:
    return len(word) >= CONTENT_WORD_CHARS and word not in FUNCTION_WORDS


def _overlap(heard: Counter[str], written: Counter[str]) -> int:
    return sum((heard & written).values())


def _widened(heard: Counter[str], ebook_counts: Sequence[Counter[str]], index: int) -> tuple[range, int]:
    """The run of e-book chapters from ``index`` on that one audio chapter holds, and how many of its
    words they match. When the recording holds most of chapter ``index``'s words (``MIN_HELD_SHARE``),
    the chapters after it join while it holds most of theirs beyond those the run already matched.
    A recording of one chapter says its neighbours' common words no more often than its own text
    does, so it takes in none."""
    run = Counter(ebook_counts[index])
    matched = _overlap(heard, run)
    last = index
    if matched < MIN_HELD_SHARE * sum(run.values()):
        return range(index, index + 1), matched
    while last + 1 < len(ebook_counts):
        following = ebook_counts[last + 1]
        gain = _overlap(heard, run + following) - matched
        if gain < MIN_HELD_SHARE * sum(following.values()):
            break
        run += following
        matched += gain
        last += 1
    return range(index, last + 1), matched


@dataclass(frozen=True)
class _Placed:
    index: int
    start_ms: int
    end_ms: int
    matched: bool


def _consistent(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop a matched word at either end that lies far from the next match in the recording but
    near it in the sentence: a common word ("the") matched in a heading or the sentence before."""

    def far(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return (b[1] - a[1]) - (b[0] - a[0]) > STRAY_WORDS

    while len(found) > 1 and far(found[0], found[1]):
        found = found[1:]
    while len(found) > 1 and far(found[-2], found[-1]):
        found = found[:-1]
    return found


def _match_sentences(
    sentences: Sequence[Unit], transcript: ChapterTranscript
) -> tuple[list[_Placed | None], int]:
    """Each sentence's times from its matched words (None where too few matched), and how many
    of the recogniser's words matched."""
    book_words: list[tuple[int, int]] = []  # (sentence, position in it)
    book_tokens: list[str] = []
    lengths = []
    for s, sentence in enumerate(sentences):
        tokens = words_of(sentence.text)
        lengths.append(len(tokens))
        book_tokens += tokens
        book_words += [(s, k) for k in range(len(tokens))]
    heard_tokens: list[str] = []
    heard_index: list[int] = []  # token -> word of the transcript
    for w, word in enumerate(transcript.words):
        for token in words_of(word.text):
            heard_tokens.append(token)
            heard_index.append(w)
    matcher = SequenceMatcher(None, book_tokens, heard_tokens, autojunk=False)
    hits: dict[int, list[tuple[int, int]]] = {}  # sentence -> [(position, heard token)]
    matched_heard = 0
    for block in matcher.get_matching_blocks():
        matched_heard += block.size
        for k in range(block.size):
            s, position = book_words[block.a + k]
            hits.setdefault(s, []).append((position, block.b + k))
    placed: list[_Placed | None] = []
    words = transcript.words
    for s, length in enumerate(lengths):
        found = hits.get(s, [])
        if not length or len(found) < max(1, math.ceil(length * MIN_SENTENCE_SHARE)):
            placed.append(None)
            continue
        found = _consistent(found)
        (first_pos, first_tok), (last_pos, last_tok) = found[0], found[-1]
        # Words before the first match were said just before it (misheard, not missing).
        first_word = heard_index[max(0, first_tok - first_pos)]
        last_word = heard_index[min(len(heard_index) - 1, last_tok + (length - 1 - last_pos))]
        placed.append(_Placed(s, words[first_word].start_ms, words[last_word].end_ms, True))
    return placed, matched_heard


def _fill(placed: list[_Placed | None], sentences: Sequence[Unit]) -> list[_Placed]:
    """Matched sentences in order (never starting before the one before ends), and the unmatched
    ones between them spread over the time between, by their word counts. Those before the first
    and after the last matched sentence are outside what the recording holds: left out."""
    anchors = [k for k, p in enumerate(placed) if p is not None]
    if not anchors:
        return []
    out: list[_Placed] = []
    floor, k = 0, anchors[0]
    while k <= anchors[-1]:
        item = placed[k]
        if item is not None:
            start = max(item.start_ms, floor)
            out.append(_Placed(k, start, max(start, item.end_ms), True))
            floor, k = out[-1].end_ms, k + 1
            continue
        after = k
        while placed[after] is None:
            after += 1
        following = placed[after]
        finish = max(floor, following.start_ms if following is not None else floor)
        weights = [max(1, len(words_of(sentences[i].text))) for i in range(k, after)]
        total, done = sum(weights), 0
        for i, weight in zip(range(k, after), weights, strict=True):
            start = floor + (finish - floor) * done // total
            done += weight
            out.append(_Placed(i, start, floor + (finish - floor) * done // total, False))
        floor, k = finish, after
    return out


def _unheld(
    transcript: ChapterTranscript, filled: Sequence[_Placed]
) -> tuple[ChapterTranscript, ChapterTranscript]:
    """The audio chapter's words said before the first and after the last e-book sentence placed in it
    (all of them when none was), each kept only when it is ``MIN_UNHELD_WORDS`` or more."""
    first = filled[0].start_ms if filled else None
    last = filled[-1].end_ms if filled else None
    before = [w for w in transcript.words if first is None or w.end_ms <= first]
    after = [w for w in transcript.words if last is not None and w.start_ms >= last]

    def kept(words: list[SpokenWordTimes]) -> ChapterTranscript:
        return transcript.model_copy(update={"words": words if len(words) >= MIN_UNHELD_WORDS else []})

    return kept(before), kept(after)


NO_EBOOK_CHAPTER = -1
"""What a track's words beyond its e-book chapters stand in for, when it placed none of their sentences."""
Held = tuple[int, str, tuple[Unit, ...]]
"""An audio chapter's part of one chapter: the e-book's number for it, its title, its sentences."""


def _numbered_on(
    chapters: list[Chapter], kept: list[Held], audio: AudioChapter, added: int, going_on: int | None
) -> int:
    """Add what one audio chapter holds to ``chapters``, numbered on from the audio chapter's own number
    and the ``added`` chapters that tracks holding several put before it; returns ``added`` after it.
    ``going_on``: the e-book chapter the track before ended in, which this one may go on with."""
    first = audio.n + added
    if first == 1 and not chapters and len(kept) > 1 and kept[0][0] == OPENING_CHAPTER:
        first = OPENING_CHAPTER  # one file read from the e-book's opening on: chapter 1 stays chapter 1
    starts_at: int | None = audio.book_start_ms
    if chapters and kept and kept[0][0] == going_on:
        # the rest of the chapter the track before began ("Chapter 3, Part 2"): one chapter, so the
        # chapters after it keep the e-book's numbers
        chapters[-1] = replace(chapters[-1], units=chapters[-1].units + kept[0][2])
        kept, first, starts_at = kept[1:], chapters[-1].n + 1, None
        added = chapters[-1].n - audio.n
    for k, (_, title, units) in enumerate(kept):
        n = first + k
        chapters.append(Chapter(n, title, units, f"chapter {n}", starts_at if k == 0 else None))
    return first + len(kept) - 1 - audio.n if kept else added


def align_book(
    ebook: Book, audiobook: Audiobook, transcripts: Mapping[int, ChapterTranscript], source: str
) -> tuple[Book, AlignmentReport]:
    """The e-book's sentences timed by the recording; or the recogniser's words, with the reason,
    when too little of the recording matched the e-book."""
    heard = [transcripts[c.n] for c in audiobook.chapters]
    pairs = pair_chapters(ebook.chapters, heard)
    chapters: list[Chapter] = []
    titled: set[int] = set()
    counts = Counter[str]()
    heard_words = sum(len(words_of(w.text)) for t in heard for w in t.words)
    matched_words = 0
    placed_sentences: set[tuple[int, int]] = set()
    unheld_ms = 0
    added = 0  # chapters that audio chapters holding several put before the ones after them
    ended_in: int | None = None  # the e-book chapter the track before placed its last sentences in
    for audio, transcript, run in zip(audiobook.chapters, heard, pairs, strict=True):
        if run is None:  # no chapter of the e-book: the recogniser's words, noted unless a credits track's
            held = [(audio.n, audio.title, units_of(transcript, audio.book_start_ms))]
            unheld_ms += _lasting_ms(held[0][2]) if len(transcript.words) >= MIN_UNHELD_WORDS else 0
        else:
            # the run's sentences matched as one text: where one chapter ends in it is the e-book's
            owner = [(i, k) for i in run for k in range(len(ebook.chapters[i].units))]
            sentences = [ebook.chapters[i].units[k] for i, k in owner]
            placed, matched = _match_sentences(sentences, transcript)
            matched_words += matched
            filled = _fill(placed, sentences)
            counts.update("matched" if p.matched else "interpolated" for p in filled)
            placed_sentences.update(owner[p.index] for p in filled)
            timed: dict[int, list[Unit]] = {i: [] for i in run}
            for p in filled:
                timed[owner[p.index][0]].append(
                    Unit(
                        text=sentences[p.index].text,
                        where=sentences[p.index].where,
                        start_ms=audio.book_start_ms + p.start_ms,
                        end_ms=audio.book_start_ms + p.end_ms,
                    )
                )
            titles = {i: ebook.chapters[i].title if i not in titled else audio.title for i in run}
            held = [(ebook.chapters[i].n, titles[i], tuple(timed[i])) for i in run]
            titled.update(run)
            before, after = (units_of(t, audio.book_start_ms) for t in _unheld(transcript, filled))
            if before or after:
                held = [(n, title, units) for n, title, units in held if units] or [
                    (NO_EBOOK_CHAPTER, audio.title, ())
                ]
                (first_n, first_title, first_units), *rest = held
                held = [(first_n, first_title, before + first_units), *rest]
                last_n, last_title, last_units = held[-1]
                held[-1] = (last_n, last_title, last_units + after)
                unheld_ms += _lasting_ms(before + after)
        kept = [(ebook_n, title, units) for ebook_n, title, units in held if units]
        going_on = ebook.chapters[run.start].n if run is not None else None
        added = _numbered_on(chapters, kept, audio, added, going_on if going_on == ended_in else None)
        ran = {ebook.chapters[i].n for i in run} if run is not None else set()
        ended_in = kept[-1][0] if kept and kept[-1][0] in ran else None
    paired = {i for run in pairs if run is not None for i in run}
    in_paired = sum(len(ebook.chapters[p].units) for p in paired)
    all_sentences = sum(len(c.units) for c in ebook.chapters)
    report = AlignmentReport(
        sentences=in_paired,
        matched=counts["matched"],
        interpolated=counts["interpolated"],
        left_out=all_sentences - len(placed_sentences),
        recording_share=matched_words / heard_words if heard_words else 0.0,
        kept_as_heard_ms=unheld_ms,
    )
    if report.recording_share < MIN_BOOK_SHARE:
        not_this = _not_this_recording(report.recording_share)
        reason = f"the e-book {not_this}; the book is the recogniser's own words"
        recognised = transcribed_book(audiobook, transcripts, source)
        return replace(recognised, notes=(reason,)), replace(report, fallback=reason)
    book = Book(  # its title and author are the recording's until naming.book_names decides
        title=audiobook.title,
        author=audiobook.author,
        chapters=tuple(chapters),
        format=ALIGNED_FORMAT,
        timed=True,
        source=source,
        narrator=audiobook.narrator,
        notes=tuple(note for note in (_unheld_note(unheld_ms), _left_out_note(ebook, pairs)) if note),
    )
    return book, report


def _lasting_ms(units: Sequence[Unit]) -> int:
    return sum((u.end_ms or 0) - (u.start_ms or 0) for u in units)


def _left_out_note(ebook: Book, pairs: Sequence[range | None]) -> str:
    """The e-book's chapters after its first paired one that the recording lacks (an epilogue, an
    abridged reading's cuts), counted, never titled: a title may tell what happens. Pages around the
    story (acknowledgements, a note on the author) are no news."""
    paired = {i for run in pairs if run is not None for i in run}
    first = min(paired, default=len(ebook.chapters))
    lacked = [
        i
        for i, chapter in enumerate(ebook.chapters)
        if i > first
        and i not in paired
        and len(chapter.units) >= MIN_NOTED_SENTENCES
        and not around_the_story(chapter.title, ebook.title, ebook.author)
    ]
    if not lacked:
        return ""
    sentences = sum(len(ebook.chapters[i].units) for i in lacked)
    one = len(lacked) == 1
    if min(lacked) > max(paired):  # an epilogue
        which = f"the e-book's {'chapter' if one else f'{len(lacked)} chapters'} after the last one recorded"
    else:
        which = "one of the e-book's chapters" if one else f"{len(lacked)} of the e-book's chapters"
    return f"{which} ({sentences} sentences) {'is' if one else 'are'} not in the recording: left out"


def _unheld_note(unheld_ms: int) -> str:
    if not unheld_ms:
        return ""
    seconds = round(unheld_ms / 1000)
    said = f"{seconds} seconds" if seconds < 120 else f"{round(seconds / 60)} minutes"
    return f"{said} of the recording are not in the e-book; there the book is the recogniser's own words"


__all__ = ["AlignmentReport", "AudioChapter", "align_book", "pair_chapters", "words_of"]
