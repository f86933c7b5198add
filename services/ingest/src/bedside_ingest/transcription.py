"""From recognised words to a book, without I/O: words grouped into timed units (the cues of a
passage), chapters placed on the book's clock, and the progress figures of a transcription.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bedside_contracts.ingest import ChapterTranscript, SpokenWordTimes, TranscriptionProgress
from bedside_contracts.search import ChapterInfo
from bedside_guard import chapter_name, clock, ends_sentence
from bedside_speech import SpokenWord

from bedside_ingest.audiobook import Audiobook, AudioChapter
from bedside_ingest.book import Book, Chapter, Unit
from bedside_ingest.chapters import said_chapters
from bedside_ingest.errors import BadInput
from bedside_ingest.notices import without_recording_notice
from bedside_ingest.text import ends_clause

AUDIO_FORMAT = "audio"
"""The format of a book whose words and times were transcribed from its recording."""
ALIGNED_FORMAT = "audio+text"
"""The format of an e-book's words timed by its recording."""


UNIT_MAX_WORDS = 16
"""A cue closes at a sentence end, at a clause end past eight words, or at sixteen words: about
the size of a subtitle cue, so a passage that holds the line splits finely."""
UNIT_CLAUSE_WORDS = 8
UNIT_PAUSE_MS = 700
"""A pause this long in the speech ends a cue even mid-sentence (the speaker took a breath)."""


def chapter_transcript(
    chapter: int, model: str, audio_ms: int, compute_s: float, words: Sequence[SpokenWord]
) -> ChapterTranscript:
    """The recogniser's words on the chapter's own clock."""
    return ChapterTranscript(
        chapter=chapter,
        model=model,
        audio_ms=audio_ms,
        compute_s=round(compute_s, 3),
        words=timed_words(words, audio_ms),
    )


def timed_words(words: Sequence[SpokenWord], audio_ms: int) -> list[SpokenWordTimes]:
    """Words in whole milliseconds within ``audio_ms``, never running backwards."""
    timed: list[SpokenWordTimes] = []
    floor = 0
    for word in words:
        start = max(floor, min(audio_ms, round(word.start_s * 1000)))
        end = max(start, min(audio_ms, round(word.end_s * 1000)))
        timed.append(SpokenWordTimes(text=word.text, start_ms=start, end_ms=end))
        floor = start
    return timed


def spoken_words(timed: Sequence[SpokenWordTimes]) -> list[SpokenWord]:
    """``timed_words`` back in seconds: a stored piece joins the words heard in this run."""
    return [SpokenWord(w.text, w.start_ms / 1000, w.end_ms / 1000) for w in timed]


def _closes(group: list[SpokenWordTimes], following: SpokenWordTimes | None) -> bool:
    last = group[-1].text
    paused = following is not None and following.start_ms - group[-1].end_ms >= UNIT_PAUSE_MS
    return (
        ends_sentence(last)
        or (len(group) >= UNIT_CLAUSE_WORDS and ends_clause(last))
        or len(group) >= UNIT_MAX_WORDS
        or paused
    )


def units_of(transcript: ChapterTranscript, offset_ms: int) -> tuple[Unit, ...]:
    """The chapter's words in cue-sized units, times moved onto the book's clock by ``offset_ms``,
    without a LibriVox notice (``without_recording_notice``)."""
    units: list[Unit] = []
    group: list[SpokenWordTimes] = []
    words = transcript.words
    for k, word in enumerate(words):
        group.append(word)
        if _closes(group, words[k + 1] if k + 1 < len(words) else None):
            units.append(
                Unit(
                    text=" ".join(w.text for w in group),
                    where=f"chapter {transcript.chapter}, {group[0].start_ms / 1000:.1f} s",
                    start_ms=offset_ms + group[0].start_ms,
                    end_ms=offset_ms + group[-1].end_ms,
                )
            )
            group = []
    return without_recording_notice(tuple(units))


def transcribed_book(audiobook: Audiobook, transcripts: Mapping[int, ChapterTranscript], source: str) -> Book:
    """The book of the words the recording makes: a chapter in which nothing was heard makes no
    passages, and is listed by its times alone (``silent_chapters``)."""
    chapters: list[Chapter] = []
    for chapter in audiobook.chapters:
        units = units_of(transcripts[chapter.n], chapter.book_start_ms)
        if units:
            chapters += _chapters_heard(audiobook, chapter, units)
    if not chapters:
        raise BadInput(source, "no speech was heard in it")
    return Book(
        title=audiobook.title,
        author=audiobook.author,
        chapters=tuple(chapters),
        format=AUDIO_FORMAT,
        timed=True,
        source=source,
        narrator=audiobook.narrator,
    )


def _chapters_heard(audiobook: Audiobook, chapter: AudioChapter, units: tuple[Unit, ...]) -> list[Chapter]:
    """The audio chapter as one chapter; a file without markers divided where its words say its
    chapters (``said_chapters``), each after the first starting at its heading's first word."""
    said = said_chapters(units) if audiobook.unmarked else ()
    if not said:
        return [Chapter(chapter.n, chapter.title, units, f"chapter {chapter.n}", chapter.book_start_ms)]
    first, *rest = said
    # The first starts where the file does, as its one chapter did: no stretch of it is in no chapter.
    return [replace(first, start_ms=chapter.book_start_ms), *rest]


def _unheard(chapter: AudioChapter, transcripts: Mapping[int, ChapterTranscript]) -> bool:
    return chapter.n in transcripts and not units_of(transcripts[chapter.n], chapter.book_start_ms)


def silent_chapters(
    audiobook: Audiobook, transcripts: Mapping[int, ChapterTranscript]
) -> tuple[ChapterInfo, ...]:
    """The chapters transcribed in which nothing was heard (music, silence, or speech the recogniser
    missed), by their markers' times: every chapter the recording marks stays one to go to, and none
    takes in another's time."""
    return tuple(
        ChapterInfo(n=c.n, title=c.title, start_ms=c.book_start_ms, end_ms=c.book_start_ms + c.duration_ms)
        for c in audiobook.chapters
        if _unheard(c, transcripts)
    )


def unheard_notes(audiobook: Audiobook, transcripts: Mapping[int, ChapterTranscript]) -> tuple[str, ...]:
    """What the listener should know of the chapters in which nothing was heard: listed, they hold
    nothing to find. Lower case: the page says it after "Ready, but". By number, not title: the page
    shows it while the listener is at the start, and a title ahead of them is not theirs to read yet."""
    return tuple(
        f"nothing was heard in {chapter_name(c.n)} ({clock(c.start_ms)} to {clock(c.end_ms)}): "
        "it is listed, with nothing in it to find or to tell"
        for c in silent_chapters(audiobook, transcripts)
    )


@dataclass
class TranscriptionMeter:
    """Progress figures of one run: the real-time factor counts only what this run computed."""

    chapters: int
    audio_total_ms: int
    resumed: int = 0
    done: int = 0
    audio_done_ms: int = 0
    computed_audio_ms: int = 0
    compute_s: float = 0.0
    chapter_pieces_ms: int = 0
    """Audio of the chapter under way already told piece by piece."""

    def add_piece(self, audio_ms: int, compute_s: float | None) -> TranscriptionProgress:
        """A piece of the chapter under way heard (``compute_s`` None: by an earlier run): a book that
        is one long file tells its progress long before its one chapter is done."""
        self.audio_done_ms += audio_ms
        self.chapter_pieces_ms += audio_ms
        if compute_s is not None:
            self.computed_audio_ms += audio_ms
            self.compute_s += compute_s
        return self.progress()

    def add(self, transcript: ChapterTranscript, *, stored_before: bool) -> TranscriptionProgress:
        self.done += 1
        self.audio_done_ms += transcript.audio_ms - self.chapter_pieces_ms
        if stored_before:
            self.resumed += 1
        elif not self.chapter_pieces_ms:  # told whole: its pieces were not
            self.computed_audio_ms += transcript.audio_ms
            self.compute_s += transcript.compute_s
        self.chapter_pieces_ms = 0
        return self.progress()

    def progress(self) -> TranscriptionProgress:
        rtf = self.compute_s * 1000 / self.computed_audio_ms if self.computed_audio_ms else None
        left_s = max(0, self.audio_total_ms - self.audio_done_ms) / 1000
        return TranscriptionProgress(
            chapter=self.done,
            chapters=self.chapters,
            resumed=self.resumed,
            audio_done_s=round(self.audio_done_ms / 1000, 1),
            audio_total_s=round(self.audio_total_ms / 1000, 1),
            rtf=round(rtf, 4) if rtf is not None else None,
            eta_s=round(left_s * rtf, 1) if rtf is not None else None,
        )
