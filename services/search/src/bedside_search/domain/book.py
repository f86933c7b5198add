"""A book as search serves it: its catalog entry and passages, in memory, without I/O."""

import base64
import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from bedside_contracts.ingest import EMBEDDING_DIMENSIONS, BookArtifact
from bedside_contracts.search import BookInfo
from bedside_guard import (
    BookNames,
    Passage,
    ahead_of,
    book_names,
    heard_text,
    heard_whole,
    named_words,
    names_heard,
    own_title,
    without_headings,
    written_with_capital,
)
from bedside_runtime.errors import InvalidRequest

from bedside_search.domain.book_part import Part, distance_from
from bedside_search.domain.subject import (
    Naming,
    introduction,
    names_someone_else,
    tells_name_of,
    writes_whole_name,
)
from bedside_search.domain.terms import BookTerms, SparseTerms, terms
from bedside_search.domain.wordless import spanning, wordless_passages


@dataclass(frozen=True)
class ServedBook:
    """One version of a book, whole: search only ever serves a fully indexed one."""

    info: BookInfo
    passages: tuple[Passage, ...]
    """Sorted by start time."""
    collection: str
    _by_id: dict[int, Passage] = field(init=False, repr=False, compare=False)
    chapter_of: dict[int, int] = field(init=False, repr=False, compare=False)
    """Each passage id's chapter number (fusion nudges passages of a matching chapter)."""
    _starts: list[int] = field(init=False, repr=False, compare=False)
    _distances: dict[Part, dict[int, int]] = field(init=False, repr=False, compare=False)
    names: BookNames = field(init=False, repr=False, compare=False)
    """The book's names and where each first occurs, for recall and the answer check."""
    named_in: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """Each word (lower case) and the passages that write it with a capital (``heard_naming``)."""
    term_in: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """Each content term (stemmed, as BM25 reads it) and the passages that hold it (``heard_mentioning``)."""
    bm25: BookTerms = field(init=False, repr=False, compare=False)
    """The passages' term statistics, as the store scores them (``sparse_score``)."""
    wordless: tuple[Passage, ...] = field(init=False, repr=False, compare=False)
    """The chapters with no passages (not transcribed yet, or nothing heard in them), one wordless
    passage each (resolve only)."""
    own_titles: dict[int, str] = field(init=False, repr=False, compare=False)
    """Each chapter's own title ("The Fire" of "CHAPTER III. The Fire") by where it starts: the
    titles the answer check cuts before their chapters begin."""
    opening_titles: dict[int, str] = field(init=False, repr=False, compare=False)
    """The own title of each titled chapter (``own_title``) by the id of the passage that opens it: the
    title is heard just before that passage's words (``heard_mentioning``, ``heard_telling_name``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {p.id: p for p in self.passages})
        object.__setattr__(self, "chapter_of", {p.id: p.chapter for p in self.passages})
        object.__setattr__(self, "_starts", [p.start_ms for p in self.passages])
        duration = self.info.duration_ms
        distances = {
            part: {p.id: distance_from(part, p.start_ms, p.end_ms, duration) for p in self.passages}
            for part in Part
        }
        object.__setattr__(self, "_distances", distances)
        object.__setattr__(self, "wordless", wordless_passages(self.info))
        titles = {c.start_ms: own_title(c.n, c.title) for c in self.info.chapters}
        object.__setattr__(self, "own_titles", {start: title for start, title in titles.items() if title})
        opening: dict[int, str] = {}
        begun: set[int] = set()
        for p in self.passages:
            if p.chapter not in begun and (title := own_title(p.chapter, p.chapter_title)):
                opening[p.id] = title
            begun.add(p.chapter)
        object.__setattr__(self, "opening_titles", opening)
        # A chapter without words counts its title as heard at its start too, where the page names it.
        cover = f"{self.info.title} {self.info.author}"
        object.__setattr__(self, "names", book_names((*self.passages, *self.wordless), cover))
        named_in: dict[str, list[int]] = {}
        for p in self.passages:
            for word in written_with_capital(p.text):
                named_in.setdefault(word, []).append(p.id)
        object.__setattr__(self, "named_in", {word: tuple(ids) for word, ids in named_in.items()})
        passage_terms = [terms(p.text) for p in self.passages]
        term_in: dict[str, list[int]] = {}
        for p, held in zip(self.passages, passage_terms, strict=True):
            for term in set(held):
                term_in.setdefault(term, []).append(p.id)
        object.__setattr__(self, "term_in", {term: tuple(ids) for term, ids in term_in.items()})
        object.__setattr__(self, "bm25", BookTerms.of(passage_terms))

    @classmethod
    def of(cls, info: BookInfo, passages: list[Passage], collection: str) -> "ServedBook":
        return cls(
            info=info,
            passages=tuple(sorted(passages, key=lambda p: (p.start_ms, p.id))),
            collection=collection,
        )

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def version(self) -> str:
        return self.info.version

    def all_heard(self, here_ms: int) -> bool:
        """Whether nothing of the book is ahead of ``here_ms``: its last passage is behind (never while
        chapters are still being transcribed)."""
        return self.info.transcript is None and bool(self.passages) and here_ms >= self.passages[-1].end_ms

    def distances_from(self, part: Part | None) -> dict[int, int] | None:
        """Each passage id's distance from ``part`` on the clock, in ms (None for no part)."""
        return self._distances[part] if part is not None else None

    def heard_naming(self, word: str, here_ms: int, subject: Sequence[str] = ()) -> list[Naming]:
        """The passages a listener at ``here_ms`` has heard write ``word`` with a capital, and
        whether as a name for sure (``named_words``: inside a sentence, or opening one just before
        another name). The passage holding the line counts by its heard words only (``heard_text``),
        and a chapter heading read out names no one (``without_headings``): the story does. With
        the whole ``subject`` asked after, whether the word is written only in someone else's name."""
        found = []
        for passage_id in self.named_in.get(word, ()):
            p = self._by_id[passage_id]
            if ahead_of(p.start_ms, here_ms):
                continue
            text = without_headings(heard_text(p, here_ms))
            if word not in written_with_capital(text):
                continue
            inside = word in named_words(text)
            found.append(
                Naming(
                    passage_id=p.id,
                    chapter=p.chapter,
                    start_ms=p.start_ms,
                    inside=inside,
                    introduced=introduction(text, word),
                    someone_else=names_someone_else(text, word, subject),
                    whole_name=writes_whole_name(text, subject),
                )
            )
        return found

    def heard_mentioning(self, asked: Sequence[str], here_ms: int) -> list[int]:
        """The passages a listener at ``here_ms`` has heard hold every term of ``asked``, in story
        order. The passage holding the line counts by its heard words only (``heard_text``); the
        passage that opens a chapter counts its chapter's title too, heard at the chapter's start just
        before its words ("the apprentice" is heard in the chapter "The Apprentice")."""
        if not asked:
            return []
        candidates = set.intersection(*(set(self.term_in.get(term, ())) for term in asked))
        found = []
        for p in self.passages:
            if (p.id not in candidates and p.id not in self.opening_titles) or ahead_of(p.start_ms, here_ms):
                continue
            heard = terms(heard_text(p, here_ms))
            if heard and set(asked) <= {*heard, *terms(self.opening_titles.get(p.id, ""))}:
                found.append(p.id)
        return found

    def heard_telling_name(self, asked: Sequence[str], here_ms: int) -> list[int]:
        """The heard passages, in story order, that tell the name of what ``asked`` (lower-case
        words) describes (``subject.tells_name_of``); by their heard words only, as ever."""
        found = []
        heard = names_heard(self.names, here_ms)
        for passage_id in self.heard_mentioning(tuple(terms(" ".join(asked))), here_ms):
            p = self._by_id[passage_id]
            title = self.opening_titles.get(passage_id)
            if tells_name_of(heard_text(p, here_ms), asked, heard, title=title):
                found.append(passage_id)
        return found

    def sparse_score(self, query: SparseTerms, words: str) -> float | None:
        """The BM25 score of ``words`` as the store would give a passage of them; None when there are
        none, or no term of ``query`` is among them (the store would not list it)."""
        score = self.bm25.score(query, words) if words else 0.0
        return score if score > 0.0 else None

    def heard_titles(self, here_ms: int) -> dict[int, str]:
        """The title of every chapter begun before ``here_ms``: a title is heard at its start."""
        return {p.chapter: p.chapter_title for p in self.passages if not ahead_of(p.start_ms, here_ms)}

    def passage(self, passage_id: int) -> Passage | None:
        return self._by_id.get(passage_id)

    def first_of_chapter(self, chapter: int) -> Passage | None:
        return next((p for p in self.passages if p.chapter == chapter), None)

    def last_of_chapter(self, chapter: int) -> Passage | None:
        return next((p for p in reversed(self.passages) if p.chapter == chapter), None)

    def wordless_passage(self, passage_id: int) -> Passage | None:
        return next((p for p in self.wordless if p.id == passage_id), None)

    def wordless_chapter(self, chapter: int) -> Passage | None:
        return next((p for p in self.wordless if p.chapter == chapter), None)

    def wordless_at(self, ms: int) -> Passage | None:
        return spanning(self.wordless, ms)

    def not_transcribed_at(self, ms: int) -> bool:
        """Whether ``ms`` lies in a chapter still to be transcribed: what was heard there is not read yet."""
        chapter = self.wordless_at(ms)
        return chapter is not None and chapter.chapter not in self.info.silent_chapters

    def last_passage_starting_at_or_before(self, ms: int) -> Passage | None:
        index = bisect.bisect_right(self._starts, ms) - 1
        return self.passages[index] if index >= 0 else None

    def next_passage_after(self, passage: Passage) -> Passage | None:
        index = bisect.bisect_right(self._starts, passage.start_ms)
        return self.passages[index] if index < len(self.passages) else None

    def passages_starting_before(self, ms: int | None) -> int:
        """How many passages start before ``ms`` (every one when None): what a find bounded there searches."""
        return len(self._starts) if ms is None else bisect.bisect_left(self._starts, ms)

    def holding(self, here_ms: int) -> Passage | None:
        """The passage that holds the line: started before it, not yet finished."""
        passage = self.last_passage_starting_at_or_before(here_ms - 1) if here_ms > 0 else None
        if passage is not None and not heard_whole(passage, here_ms):
            return passage
        return None


def info_of(artifact: BookArtifact) -> BookInfo:
    return BookInfo(
        id=artifact.book,
        title=artifact.title,
        author=artifact.author,
        narrator=artifact.narrator,
        duration_ms=artifact.duration_ms,
        estimated=artifact.estimated,
        times_from=artifact.times_from,
        passages=len(artifact.passages),
        chapters=artifact.chapters,
        audio_path=artifact.audio_path,
        cover_path=artifact.cover_path,
        audio_object=artifact.audio_object,
        cover_object=artifact.cover_object,
        version=artifact.version,
        transcript=artifact.transcript,
        silent_chapters=artifact.silent_chapters,
    )


def vectors_of(artifact: BookArtifact) -> npt.NDArray[np.float32]:
    """The artifact's dense vectors, one row per passage, checked against the passages."""
    raw = base64.b64decode(artifact.vectors_b64, validate=True)
    width = EMBEDDING_DIMENSIONS * 4
    if len(raw) != width * len(artifact.passages):
        raise InvalidRequest(
            f"book {artifact.book} version {artifact.version}: {len(raw)} bytes of vectors "
            f"for {len(artifact.passages)} passages of {EMBEDDING_DIMENSIONS} dimensions"
        )
    vectors = np.frombuffer(raw, dtype="<f4").reshape(len(artifact.passages), EMBEDDING_DIMENSIONS)
    if not np.all(np.isfinite(vectors)):
        raise InvalidRequest(f"book {artifact.book} version {artifact.version}: vectors are not finite")
    return vectors.astype(np.float32)


def check_artifact(artifact: BookArtifact, model_id: str) -> None:
    """Refuse an artifact search could not serve correctly."""
    if artifact.embedding_model != model_id:
        raise InvalidRequest(
            f"book {artifact.book} was embedded with {artifact.embedding_model}; "
            f"search embeds queries with {model_id}"
        )
    if not artifact.passages and artifact.transcript is None:
        # An interim version may have none yet: its recording is read, nothing transcribed.
        raise InvalidRequest(f"book {artifact.book} version {artifact.version} has no passages")
    ids = [p.id for p in artifact.passages]
    if len(set(ids)) != len(ids):
        raise InvalidRequest(f"book {artifact.book} version {artifact.version} repeats passage ids")
