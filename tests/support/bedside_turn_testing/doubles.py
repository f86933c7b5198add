"""Search and player as small responders on the real bus, for tests of the turn service.

They answer the same subjects with the same contracts; every line and row is built by
the guard from the listener's position, as the real services do. Scoring is plain word
overlap, which is all a test needs to make a search find the passage it means.
"""

import asyncio
import hashlib
import re
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from bedside_contracts import subjects
from bedside_contracts.player import (
    AddBookmark,
    Asleep,
    Bookmark,
    CancelList,
    CancelSleepTimer,
    CommandRequest,
    CommandResult,
    Heard,
    HistoryEntry,
    ListenerState,
    Located,
    LocateRequest,
    NoteQuestion,
    OfferOutcome,
    OfferPositions,
    Pause,
    PlayerCommand,
    PressRow,
    SetSleepTimer,
    SetSpeed,
    SleepTimer,
    StateRequest,
    Undo,
)
from bedside_contracts.search import (
    BookInfo,
    Catalog,
    CatalogRequest,
    CheckAnswer,
    FindPassage,
    FoundPassages,
    HeardNames,
    Hit,
    NameHints,
    Recall,
    Recalled,
    Recap,
    Recapped,
    Resolution,
    Resolve,
    Resolved,
    Target,
)
from bedside_guard import (
    Candidate,
    CheckedAnswer,
    Passage,
    asks_what_comes_later,
    check_answer,
    heard_names,
    heard_text,
    unheard_names,
)
from bedside_player.domain import bookmarks
from bedside_player.domain.decide import Invalid, set_sleep_timer
from bedside_player.domain.offer import decide_offer, unique_targets
from bedside_player.domain.state import PlayerState
from bedside_runtime.bus import Broker, serve_requests
from bedside_runtime.errors import InvalidRequest, NotFound, Unavailable
from bedside_search.domain import recap as recaps
from bedside_search.domain.book import ServedBook
from bedside_search.domain.places import resolve_one

_STOP_WORDS = """a an and the of to in on at for with was were is it he she they her his him i me my
you your that this there where when what who how did do take back go find part bit moment again about"""
STOP = frozenset(_STOP_WORDS.split())


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z']+", text.lower()) if w not in STOP and len(w) > 2}


def overlap(query: str, text: str) -> float:
    asked = words(query)
    return len(asked & words(text)) / len(asked) if asked else 0.0


def word_vectors(texts: list[str], dimensions: int = 64) -> npt.NDArray[np.float32]:
    """Hashed bags of words, L2-normalised: a stand-in for sentence embeddings in a test."""
    vectors = np.zeros((len(texts), dimensions), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in words(text):
            vectors[row, int(hashlib.sha256(word.encode()).hexdigest(), 16) % dimensions] += 1.0
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)


def fused_like(overlap_share: float, rank: int) -> float:
    """A score on the real search's scale (reciprocal-rank fusion of two rankings, k=60).

    A passage holding every asked word scores as if both rankings put it first; one
    holding a quarter of them, about as if only one ranking had found it.
    """
    return (1 + overlap_share) / (60 + rank)


@dataclass
class DoubleBook:
    """A book held in memory; its places are resolved by search's own rules."""

    info: BookInfo
    passages: list[Passage]
    served: ServedBook = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.served = ServedBook.of(self.info, self.passages, collection="")

    def resolve(self, target: Target, here_ms: int) -> Resolution:
        return resolve_one(self.served, here_ms, target)


@dataclass
class SearchDouble:
    books: dict[str, DoubleBook]
    requests: list[object] = field(default_factory=list)
    down: bool = False
    """Search as a broken process leaves it: every request fails (the player double resolves
    offers itself, so a move still happens)."""
    stalled: asyncio.Event | None = None
    """Search as a stalled process leaves it: every request is taken and left unanswered until
    the event is set (the caller's request times out first)."""

    async def answering(self, request: object) -> None:
        """Count ``request``, then hold it while search is stalled."""
        self.requests.append(request)
        if self.stalled is not None:
            await self.stalled.wait()

    def book(self, book_id: str) -> DoubleBook:
        if self.down:
            raise RuntimeError("search is down")
        if book_id not in self.books:
            raise NotFound(f"no book {book_id}")
        return self.books[book_id]

    async def find(self, request: FindPassage) -> FoundPassages:
        await self.answering(request)
        book = self.book(request.book)
        searched = [p for p in book.passages if not request.heard_only or p.start_ms < request.here_ms]
        scored = [(overlap(request.query, p.text + " " + p.chapter_title), p) for p in searched]
        best = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1].start_ms))[: request.limit]
        return FoundPassages(
            places=[Candidate.hit(p, request.here_ms) for _, p in best],
            hits=[
                Hit(passage_id=p.id, start_ms=p.start_ms, chapter=p.chapter, score=fused_like(s, rank))
                for rank, (s, p) in enumerate(best, start=1)
            ],
        )

    async def recall(self, request: Recall) -> Recalled:
        await self.answering(request)
        book = self.book(request.book)
        unheard = unheard_names(request.question, book.served.names, request.here_ms)
        later = asks_what_comes_later(request.question)
        untranscribed = book.served.not_transcribed_at(request.here_ms)
        if unheard or later:  # the guard's rules, as search applies them
            return Recalled(
                come_up=False,
                places=[],
                hits=[],
                unheard_names=unheard,
                asks_later=later,
                not_transcribed_here=untranscribed,
            )
        scored = [(overlap(request.question, heard_text(p, request.here_ms)), p) for p in book.passages]
        best = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], -s[1].start_ms))[: request.limit]
        return Recalled(
            not_transcribed_here=untranscribed and not best,
            come_up=bool(best),
            places=[Candidate.hit(p, request.here_ms, whole=True) for _, p in best],
            hits=[Hit(passage_id=p.id, start_ms=p.start_ms, chapter=p.chapter, score=s) for s, p in best],
        )

    async def recap(self, request: Recap) -> Recapped:
        """Search's own recap rules; only the sentence vectors are a stand-in (bags of words)."""
        await self.answering(request)
        book = self.book(request.book).served
        span = recaps.clamp_span(request.from_ms, request.to_ms, request.here_ms)
        sentences = recaps.span_sentences(book.passages, span, request.here_ms)
        candidates = recaps.recap_candidates(sentences)
        vectors = word_vectors([s.text for s in candidates])
        return Recapped(
            from_ms=span.from_ms,
            to_ms=span.to_ms,
            places=recaps.span_places(sentences, book.passages),
            sentences=recaps.recap_sentences(candidates, vectors, span, request.max_words),
        )

    async def check(self, request: CheckAnswer) -> CheckedAnswer:
        await self.answering(request)
        book = self.book(request.book).served
        return check_answer(request.answer, request.question, book.names, request.here_ms)

    async def hints(self, request: NameHints) -> HeardNames:
        await self.answering(request)
        book = self.book(request.book).served
        return HeardNames(names=heard_names(book.names, request.here_ms, request.limit))

    async def resolve(self, request: Resolve) -> Resolved:
        await self.answering(request)
        book = self.book(request.book)
        return Resolved(resolutions=[book.resolve(t, request.here_ms) for t in request.targets])

    async def catalog(self, request: CatalogRequest) -> Catalog:
        await self.answering(request)
        if request.book is not None:  # as search: a book it does not have is refused
            return Catalog(books=[self.book(request.book).info])
        if self.down:
            raise RuntimeError("search is down")
        return Catalog(books=[b.info for b in self.books.values()])

    async def register(self, broker: Broker) -> None:
        await serve_requests(broker, subjects.SEARCH_FIND, "search", FindPassage, self.find)
        await serve_requests(broker, subjects.SEARCH_RECALL, "search", Recall, self.recall)
        await serve_requests(broker, subjects.SEARCH_CHECK, "search", CheckAnswer, self.check)
        await serve_requests(broker, subjects.SEARCH_HINTS, "search", NameHints, self.hints)
        await serve_requests(broker, subjects.SEARCH_RECAP, "search", Recap, self.recap)
        await serve_requests(broker, subjects.SEARCH_RESOLVE, "search", Resolve, self.resolve)
        await serve_requests(broker, subjects.SEARCH_CATALOG, "search", CatalogRequest, self.catalog)


@dataclass
class PlayerDouble:
    """Positions kept in memory, and the player's offer rules (``bedside_player.domain.offer``)."""

    books: dict[str, DoubleBook]
    positions: dict[tuple[str, str], int] = field(default_factory=dict)
    rows: dict[tuple[str, str], list[Candidate]] = field(default_factory=dict)
    list_turns: dict[tuple[str, str], str] = field(default_factory=dict)
    """The turn that drew each list, as the player's state names it."""
    before_move: dict[tuple[str, str], int] = field(default_factory=dict)
    offers: list[OfferPositions] = field(default_factory=list)
    search_gone: bool = False
    """The player as it is with search absent: an offer, which search resolves, fails "unavailable"."""
    history: dict[tuple[str, str], list[HistoryEntry]] = field(default_factory=dict)
    """What a test says the lookup finds, newest first; the player's filters are tested in the player."""
    began: dict[tuple[str, str], list[HistoryEntry]] = field(default_factory=dict)
    """What a lookup of where each sitting began finds (``LocateFilter.began``), newest first."""
    clock_ms: int = 0
    """The player's clock, as a lookup says it looked (``Located.looked_at_ms``)."""
    lookups: list[LocateRequest] = field(default_factory=list)
    state_requests: int = 0
    paused: set[tuple[str, str]] = field(default_factory=set)
    """The listeners and books a test says are paused; every other plays."""
    asleep: dict[tuple[str, str], Asleep] = field(default_factory=dict)
    """The newest FellAsleep a test says the player's state carries."""
    timer_paused: set[tuple[str, str]] = field(default_factory=set)
    """The listeners and books a test says rest where the sleep timer paused them (the player's rule)."""
    commands: list[PlayerCommand] = field(default_factory=list)
    """Every command a turn sent, in order, but the note of its question, as a page would send it: the
    turn's reading of the request on an undo, a timer or a bookmark is kept apart, in ``heard``."""
    heard: list[Heard | None] = field(default_factory=list)
    """The turn's reading of the request each command carried (ADR 77), beside ``commands``."""
    questions_noted: list[NoteQuestion] = field(default_factory=list)
    sleep_timers: dict[tuple[str, str], SleepTimer] = field(default_factory=dict)
    """The running sleep timer of each listener and book, as the commands left it."""
    seq: int = 2
    """The newest event's sequence, of any listener: a move and a timer set are ordered by it."""
    last_move_seq: dict[tuple[str, str], int] = field(default_factory=dict)
    speeds: dict[tuple[str, str], float] = field(default_factory=dict)
    """How fast each listener's book plays, as the commands left it (1.0 when none set it)."""
    bookmarks: dict[tuple[str, str], tuple[Bookmark, ...]] = field(default_factory=dict)
    """Each listener's bookmarks in each book, oldest first, as the player's state keeps them."""

    def place(self, listener: str, book: str, position_ms: int) -> None:
        """The book put at ``position_ms`` (a move of the turn's, or a test's as a page's), the list gone."""
        self.seq += 1
        self.positions[(listener, book)] = position_ms
        self.last_move_seq[(listener, book)] = self.seq
        self.rows.pop((listener, book), None)
        self.list_turns.pop((listener, book), None)

    async def state(self, request: StateRequest) -> ListenerState:
        self.state_requests += 1
        key = (request.listener, request.book)
        if not any(listener == request.listener for listener, _ in self.positions):
            raise NotFound(f"there is no listener called {request.listener}")  # a listener placed nowhere
        return self._state_of(key)

    def _state_of(self, key: tuple[str, str]) -> ListenerState:
        return ListenerState(
            listener=key[0],
            book=key[1],
            position_ms=self.positions.get(
                key, 0
            ),  # a book not started is at its start, as the player has it
            playing=key not in self.paused,
            seq=self.seq,
            last_move_seq=self.last_move_seq.get(key, 0),
            rows=self.rows.get(key, []),
            list_turn_id=self.list_turns.get(key),
            asleep=self.asleep.get(key),
            still_where_timer_paused=key in self.timer_paused,
            sleep_timer=self.sleep_timers.get(key),
            speed=self.speeds.get(key, 1.0),
            bookmarks=bookmarks.newest_first(self.bookmarks.get(key, ())),
        )

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        """The player's own offer arithmetic on this book's resolutions; a preview changes nothing."""
        self.offers.append(request)
        if self.search_gone:
            raise Unavailable("the search service is not running")
        key = (request.listener, request.book)
        here = self.positions[key] if request.preview_at_ms is None else request.preview_at_ms
        book = self.books[request.book]
        resolutions = [book.resolve(target, here) for target in unique_targets(request.targets)]
        outcome = decide_offer(request, resolutions, here).outcome
        if request.preview_at_ms is not None:
            return outcome
        if outcome.outcome == "moved" and outcome.moved_to is not None:
            self.before_move[key] = here
            self.place(request.listener, request.book, outcome.moved_to.start_ms)
        elif outcome.outcome == "listed":
            self.rows[key] = outcome.rows
            self.list_turns[key] = request.turn_id
        return outcome

    async def command(self, request: CommandRequest) -> CommandResult:
        key = (request.listener, request.book)
        if isinstance(request.command, NoteQuestion):  # beside every turn: kept apart from what it did
            self.questions_noted.append(request.command)
            return CommandResult(accepted=True, seq=0, state=self._state_of(key))
        heard = (
            request.command.heard if isinstance(request.command, Undo | SetSleepTimer | AddBookmark) else None
        )
        self.commands.append(request.command.model_copy(update={"heard": None}) if heard else request.command)
        self.heard.append(heard)
        state = await self.state(StateRequest(listener=request.listener, book=request.book))
        if isinstance(request.command, SetSleepTimer):  # the player's own rule, so the turn reads its stop
            info = self.books[request.book].info
            at = PlayerState(
                listener=request.listener, book=request.book, position_ms=state.position_ms, speed=state.speed
            )
            try:
                made = set_sleep_timer(at, request.command, info.duration_ms, info.chapters, now_ms=0)
            except Invalid as refused:
                return CommandResult(accepted=False, seq=0, state=state, reason=str(refused))
            self.seq += 1
            made_by = made.model_dump(exclude={"kind", "request_key", "made_at_ms"})
            timer = SleepTimer(**made_by, set_seq=self.seq)
            self.sleep_timers[key] = timer
            return CommandResult(accepted=True, seq=2, state=state.model_copy(update={"sleep_timer": timer}))
        if isinstance(request.command, AddBookmark):  # the player's own rule, where the book is
            kept = self.bookmarks.get(key, ())
            try:
                added = bookmarks.add(kept, request.command, state.position_ms, now_ms=self.clock_ms)
            except bookmarks.BookmarkRefused as refused:
                raise InvalidRequest(str(refused)) from None  # as the player answers an Invalid
            self.seq += 1
            self.bookmarks[key] = bookmarks.with_added(kept, added, self.seq)
            return CommandResult(accepted=True, seq=self.seq, state=self._state_of(key))
        if isinstance(request.command, SetSpeed):
            self.speeds[key] = request.command.speed
            self.seq += 1
            return CommandResult(
                accepted=True, seq=self.seq, state=state.model_copy(update={"speed": request.command.speed})
            )
        if isinstance(request.command, CancelSleepTimer):
            self.sleep_timers.pop(key, None)
            return CommandResult(accepted=True, seq=2, state=state.model_copy(update={"sleep_timer": None}))
        if isinstance(request.command, Pause):
            return CommandResult(accepted=True, seq=2, state=state)
        if isinstance(request.command, CancelList):
            self.rows.pop(key, None)
            self.list_turns.pop(key, None)
            return CommandResult(accepted=True, seq=2, state=state.model_copy(update={"rows": []}))
        if isinstance(request.command, PressRow):  # the player's press: the row's place, and the list goes
            rows = self.rows.get(key, [])
            if request.command.row >= len(rows):
                return CommandResult(accepted=False, seq=0, state=state, reason="no such row on the list")
            self.before_move[key] = state.position_ms
            self.place(request.listener, request.book, rows[request.command.row].start_ms)
            moved = await self.state(StateRequest(listener=request.listener, book=request.book))
            return CommandResult(accepted=True, seq=2, state=moved)
        if not isinstance(request.command, Undo) or key not in self.before_move:
            return CommandResult(accepted=False, seq=0, state=state, reason="there is no move to undo")
        self.place(request.listener, request.book, self.before_move.pop(key))
        return CommandResult(
            accepted=True,
            seq=2,
            state=await self.state(StateRequest(listener=request.listener, book=request.book)),
        )

    async def locate(self, request: LocateRequest) -> Located:
        self.lookups.append(request)
        key = (request.listener, request.book)
        found = self.began.get(key, []) if request.began else self.history.get(key, [])
        return Located(
            newest=found[0] if found else None,
            count=len(found),
            earliest_index=len(found) - 1 if found else None,
            offset=request.offset,
            page=found[request.offset : request.offset + request.limit],
            looked_at_ms=self.clock_ms,
        )

    async def register(self, broker: Broker) -> None:
        await serve_requests(broker, subjects.PLAYER_LOCATE, "player", LocateRequest, self.locate)
        await serve_requests(broker, subjects.PLAYER_STATE, "player", StateRequest, self.state)
        await serve_requests(broker, subjects.PLAYER_OFFER, "player", OfferPositions, self.offer)
        await serve_requests(broker, subjects.PLAYER_COMMAND, "player", CommandRequest, self.command)
