"""The five tools as the model (or the keyless router) calls them.

Arguments arrive as untrusted JSON and are validated against the contracts; a bad one
becomes a tool error the model can read, never an exception. The listener's position
is held here and passed to search and player; it is printed in no result.
"""

import time
from dataclasses import dataclass, field
from typing import Any

from bedside_contracts.player import (
    AddBookmark,
    Asleep,
    Bookmark,
    CommandRequest,
    CommandResult,
    Heard,
    LocateRequest,
    OfferOutcome,
    OfferPositions,
    PressRow,
    StateRequest,
    listening_ms,
)
from bedside_contracts.player import Undo as UndoCommand
from bedside_contracts.search import (
    BookInfo,
    CatalogRequest,
    ChapterInfo,
    FindPassage,
    Hit,
    Recall,
    Recap,
    Recapped,
    Resolve,
    Target,
)
from bedside_contracts.turn import (
    TOOL_ARGS,
    FindPassageArgs,
    OfferPositionsArgs,
    PlaceRef,
    PlaybackArgs,
    RecallArgs,
    RecapArgs,
    SpeedChangedByTurn,
    Step,
    ToolCallRecord,
)
from bedside_guard import Candidate, Passage, chapter_name, names_as_said
from bedside_runtime.clock import wall_clock_ms
from bedside_runtime.errors import CallFailed, NotFound, RemoteFailure
from pydantic import ValidationError

from bedside_turn.backends import Backends
from bedside_turn.domain import chapters, earlier, history, playback, speech
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.bookmarks import without_its_place
from bedside_turn.domain.chapters import NoSuchChapter
from bedside_turn.domain.own_words import OwnWords
from bedside_turn.domain.rules import MayOffer, Refused, Turn
from bedside_turn.domain.tool_results import (
    ALREADY_AT,
    ALREADY_AT_CHAPTER_END,
    NO_CHAPTER_PLAYING,
    NO_DISTANCE,
    NO_END_WITHOUT_WORDS,
    NO_MATCH,
    NO_WORDS_IN_SPAN,
    NOT_TRANSCRIBED_IN_SPAN,
    NOTHING_IN_SPAN,
    AlreadyAt,
    moved_line,
    no_chapter_line,
    not_yet_line,
    outcome_lines,
    shown_lines,
    targets_of,
    tool_error,
    with_chapter,
    with_chapter_end,
    with_earlier_place,
)


@dataclass
class ToolBox:
    """The tools of one turn, bound to one listener, one book and the line."""

    turn: Turn
    backends: Backends
    listener: str
    book: str
    here_ms: int
    preview: bool = False
    device: str | None = None
    """The device the request came from, named on a sleep timer the turn sets."""
    request_key: str | None = None
    """The request as the turn read it (``routing.request_key``), and the newest sequence of the
    stream when it was asked: with the device, the player tells the same request heard on two
    devices from a new one (ADR 77)."""
    basis_seq: int | None = None
    asked_at_ms: int | None = None
    """The player's clock when it took the question: another device's same request is judged by it."""
    hits: list[Hit] = field(default_factory=list)
    """The newest find_passage hits with their scores, for the keyless router (never the model)."""
    recalled: list[Candidate] = field(default_factory=list)
    """The heard places the newest recall read, best first, for the keyless router's answer."""
    recalled_as: str = ""
    """The newest recall's question as search read it (a name said as it sounds, as the book writes
    it; ``Recalled.read_as``): the keyless answer quotes the sentence it bears on."""
    unheard_names: list[str] = field(default_factory=list)
    """Names of the last recall's question that have not come up, whole and as the listener wrote them."""
    unheard_in_query: list[str] = field(default_factory=list)
    """The words of the newest find's query taken as names not heard yet, left out of the search
    (adr/0066), for the keyless router to say back as the listener said them."""
    asks_later: bool = False
    """The newest recall's question asks what happens further on, for the keyless router's answer."""
    not_transcribed_here: bool = False
    """The newest recall was asked in a chapter not transcribed yet, for the keyless router's answer."""
    last_offer: OfferOutcome | None = None
    first_offer: OfferOutcome | None = None
    """The first of two requests' offer, which ``next_request`` takes from ``last_offer``: what the turn
    did, said if the second's call fails."""
    recapped: tuple[recaps.ChosenSpan, Recapped] | None = None
    """The newest recap's span and what search read of it, for the keyless router's answer."""
    no_chapter: NoSuchChapter | None = None
    """A chapter counted past the first or the last (refused), for the keyless router's answer."""
    at_chapter_end: bool = False
    """The end of the chapter was asked for from inside its closing passage (refused): for the
    keyless router's answer."""
    no_end_without_words: bool = False
    """The end of a chapter in which nothing was heard was asked for (refused: it has no closing
    passage): for the keyless router's answer."""
    already_at: AlreadyAt | None = None
    """The place asked for is where the book is (refused): the start of the chapter playing or of
    the book before any of it was heard, or a place from the history. For the keyless router's answer."""
    played: playback.PlaybackDone | None = None
    """The newest playback call's outcome, for the keyless router's answer."""
    undone: OwnWords | None = None
    """Where the player's undo put the book back in this turn, said (``speech.undone``)."""
    asked_here_ms: int = field(init=False)
    """Where the listener was when they asked, which ``next_request`` leaves: a recap's words name its
    stretch from there ("what I missed", "the last ten minutes"), whatever move was said with it."""

    def __post_init__(self) -> None:
        self.asked_here_ms = self.here_ms

    def heard(self) -> Heard | None:
        """The request as read, on a command of the player's (an undo, a timer, a bookmark) as on an offer
        (ADR 77)."""
        if self.request_key is None:
            return None
        return Heard(request_key=self.request_key, basis_seq=self.basis_seq, asked_at_ms=self.asked_at_ms)

    def next_request(self) -> None:
        """Ready for the second of two requests said together: read from where the first moved the
        book (a preview moved nothing), with nothing the first's calls found taken for the second's."""
        moved = self.last_offer.moved_to if self.last_offer and self.last_offer.outcome == "moved" else None
        if moved is not None and not self.preview:
            self.here_ms = moved.start_ms
        # the second's offer, if the turn rules refuse it, is not to be said as the first's
        self.first_offer, self.last_offer = self.last_offer, None
        self.hits, self.recalled, self.unheard_names, self.unheard_in_query = [], [], [], []
        self.recalled_as = ""
        self.asks_later = self.not_transcribed_here = self.at_chapter_end = self.no_end_without_words = False
        self.recapped = self.no_chapter = self.already_at = None

    def say_what_was_done(self) -> OwnWords | None:
        """What this turn did (a move, a list, a timer), said without the book's words, as what the
        turn says: ``turn.told`` becomes what these words tell (None: nothing, or there are none)."""
        offer = self.last_offer if self.last_offer is not None else self.first_offer
        said = speech.done_in_own_words(offer, self.played, undone=self.undone, preview=self.preview)
        self.turn.told = self.told_by_moving() if said is not None else None
        return said

    def told_by_moving(self) -> history.Told | None:
        return history.told_by_moving(
            moved=self.turn.moved, undone=self.undone is not None, preview=self.preview
        )

    async def run(self, name: str, arguments: Any) -> ToolCallRecord:
        """Run one tool call and record it on the turn, whatever becomes of it."""
        started = time.perf_counter()
        args = arguments if isinstance(arguments, dict) else {"_": arguments}
        lines, places, refused = await self._dispatch(name, args)
        return self._recorded(name, args, lines, started, refused, places=places)

    async def _dispatch(self, name: str, args: dict[str, Any]) -> tuple[list[str], list[PlaceRef], bool]:
        if (limit := self.turn.may_call()) is not None:
            return [limit.text], [], True
        model = TOOL_ARGS.get(name)
        if model is None:
            return (
                [f"Tool error: there is no tool called {name[:40]!r}; use {', '.join(TOOL_ARGS)}."],
                [],
                True,
            )
        try:
            parsed = model.model_validate(args)
        except ValidationError as error:
            return [tool_error(error)], [], True
        changes = isinstance(parsed, OfferPositionsArgs | PlaybackArgs)
        if changes and (late := self.turn.may_change(wall_clock_ms())) is not None:
            return [late.text], [], True
        try:
            if isinstance(parsed, FindPassageArgs):
                return (*await self.find_passage(parsed), False)
            if isinstance(parsed, RecallArgs):
                return (*await self.recall(parsed), False)
            if isinstance(parsed, RecapArgs):
                return await self.recap(parsed)
            if isinstance(parsed, PlaybackArgs):
                return await self.playback(parsed)
            assert isinstance(parsed, OfferPositionsArgs)
            return await self.offer_positions(parsed)
        except RemoteFailure as error:
            if error.failure.code == "not_found":  # no such book: asking again will not help
                raise NotFound(error.failure.error) from None
            return (
                [
                    f"Tool error: the {name} service could not answer ({error.failure.code}). "
                    "Tell them something went wrong and to try again."
                ],
                [],
                True,
            )
        except CallFailed:  # no copy running, or no answer in time
            return (
                [f"Tool error: {name} got no answer in time. Tell them to try again in a moment."],
                [],
                True,
            )

    async def find_passage(self, args: FindPassageArgs) -> tuple[list[str], list[PlaceRef]]:
        asked = FindPassage(
            book=self.book, here_ms=self.here_ms, query=args.query, heard_only=args.heard_only
        )
        found = await self.backends.find(asked)
        self.hits = list(found.hits)
        self.unheard_in_query = list(found.unheard_names)
        said = names_as_said(args.query, found.unheard_names)
        not_yet = [not_yet_line(said, False)] if said else []  # only what was heard was searched
        if not found.places:
            return not_yet or [NO_MATCH], []
        lines, refs = shown_lines(found.places)
        return lines + not_yet, refs

    async def recall(self, args: RecallArgs) -> tuple[list[str], list[PlaceRef]]:
        recalled = await self.backends.recall(
            Recall(book=self.book, here_ms=self.here_ms, question=args.question)
        )
        came_up = recalled.come_up and bool(recalled.places)
        self.turn.note_recall(came_up)
        self.recalled_as = recalled.read_as
        if not came_up:
            self.recalled = []
            self.unheard_names = names_as_said(args.question, recalled.unheard_names)
            self.asks_later = recalled.asks_later
            self.not_transcribed_here = recalled.not_transcribed_here
            return [not_yet_line(self.unheard_names, self.asks_later, self.not_transcribed_here)], []
        self.recalled = list(recalled.places)
        return shown_lines(recalled.places, whole=True)

    async def asleep(self) -> Asleep | None:
        """The newest time the sleep timer paused the book, from the player's state."""
        return (await self.backends.state(StateRequest(listener=self.listener, book=self.book))).asleep

    async def recap(self, args: RecapArgs) -> tuple[list[str], list[PlaceRef], bool]:
        """The heard passages of the stretch asked for (``recap.choose_span``), as the model reads them.

        Search reads only the span, clamped to the line where they asked: after a move back said with it
        ("take me back to where I fell asleep and tell me what I missed") the stretch its words named would
        lie ahead, and nothing of it would be told. It counts as a recall for the rules. A chapter the book
        does not have is refused, and nothing is read.
        """
        book = await self.book_info()
        chapters = book.chapters if book is not None else []
        pending = book.transcript.pending if book is not None and book.transcript is not None else []
        silent = book.silent_chapters if book is not None else []
        asleep = await self.asleep() if args.span in ("since_asleep", "before_asleep", "last_time") else None
        left_off = None
        if args.span == "last_time":
            lookup = LocateRequest(listener=self.listener, book=self.book, left_off=True, limit=1)
            stopped = (await self.backends.locate(lookup)).newest
            left_off = stopped.position_ms if stopped is not None else None
        chosen = recaps.choose_span(
            args, self.asked_here_ms, chapters, asleep, left_off, pending=pending, silent=silent
        )
        if chosen.missing:
            self.recapped = (
                chosen,
                Recapped(from_ms=self.asked_here_ms, to_ms=self.asked_here_ms, places=[], sentences=[]),
            )
            self.turn.declined = True
            return [chosen.told], [], True
        recapped = await self.backends.recap(
            Recap(
                book=self.book,
                here_ms=self.asked_here_ms,
                from_ms=chosen.from_ms,
                to_ms=chosen.to_ms,
                max_words=recaps.SPOKEN_WORDS,
            )
        )
        self.recapped = (chosen, recapped)
        self.turn.note_recall(bool(recapped.places))
        if not recapped.places:
            unread = {"not_transcribed": NOT_TRANSCRIBED_IN_SPAN, "no_words": NO_WORDS_IN_SPAN}
            return [unread.get(chosen.unread, NOTHING_IN_SPAN)], [], False
        refs = [PlaceRef(line=1 + i, place=place, kind="line") for i, place in enumerate(recapped.places)]
        return [f"{chosen.told}, in story order:", *(ref.text() for ref in refs)], refs, False

    async def offer_positions(self, args: OfferPositionsArgs) -> tuple[list[str], list[PlaceRef], bool]:
        permit = self.turn.may_offer()
        if isinstance(permit, Refused):
            return [permit.text], [], True
        targets = targets_of(args)
        ending = args.chapter_end
        ended = args.chapter  # with chapter_end, the chapter whose end is meant; None: the one playing
        if args.chapter_step is not None:
            counted = await self._counted_chapter(args.chapter_step)
            if isinstance(counted, int) and ending and ended is None:
                ended = counted
            elif isinstance(counted, int) and args.chapter_step == 0 and await self._still_at_start(counted):
                # The start of the chapter playing, none of it heard yet: where they are already, so
                # it is no row (a covered one ahead). Other places named stand without it.
                if not targets:
                    return self._already_at("chapter_start")
            elif isinstance(counted, int):
                targets = with_chapter(targets, counted)
            elif not targets:
                self.no_chapter = counted
                self.turn.note_offer("refused", [])
                return [NO_CHAPTER_PLAYING if counted is None else no_chapter_line(counted)], [], True
            else:
                ending = False  # the end of a chapter not in the book is no place: the others stand
        if targets == [NO_DISTANCE]:  # "go back 0 seconds": a row for it would be "further on" of here
            return self._already_at("no_distance")
        if not ending and (start := await self._start_where_they_are(targets)) is not None:
            return self._already_at(start)
        if ending:
            at_end, ended = await self._end_meant(ended)
            if (
                ended is not None
                and (book := await self.book_info()) is not None
                and ended in book.silent_chapters
            ):
                self.no_end_without_words = True
                self.turn.note_offer("refused", [])
                return [NO_END_WITHOUT_WORDS], [], True
            # From inside the closing passage (or the pause after it) its start is behind: an offer
            # would move the book back. Else the chapter's end is offered as the chapter named, so a
            # row for it ahead says "end of chapter 3" (search resolves it as that chapter's closing
            # passage), and one for a chapter search cannot find is refused naming the book's chapters.
            if ended is not None and not at_end:
                targets = with_chapter_end(targets, ended)
            elif not targets:
                self.at_chapter_end = at_end
                self.turn.note_offer("refused", [])
                return [ALREADY_AT_CHAPTER_END if self.at_chapter_end else NO_CHAPTER_PLAYING], [], True
        if (lookup := earlier.lookup_for(args, self.listener, self.book)) is not None:
            found = (await self.backends.locate(lookup)).page
            at_ms = earlier.place_of(found[0], args) if found else None
            if at_ms is not None and not targets and earlier.where_they_are(at_ms, self.here_ms):
                return self._already_at("that_place")
            if at_ms is not None:
                targets = with_earlier_place(targets, at_ms)
            elif not targets:
                self.turn.note_offer("refused", [])
                return [earlier.nothing_earlier(args)], [], True
        if args.show_only:
            permit = MayOffer(may_move=False)
        outcome = await self.backends.offer(
            OfferPositions(
                listener=self.listener,
                book=self.book,
                turn_id=self.turn.turn_id,
                targets=targets,
                may_move=permit.may_move,
                device=self.device,
                preview_at_ms=self.here_ms if self.preview else None,
                heard=self.heard(),
            )
        )
        self.last_offer = outcome
        lines, places = outcome_lines(outcome, permit, self.preview)
        rows = [row.label() for row in ([outcome.moved_to] if outcome.moved_to else outcome.rows)]
        self.turn.note_offer(outcome.outcome, rows)
        return lines, places, outcome.outcome == "refused"

    def _already_at(self, place: AlreadyAt) -> tuple[list[str], list[PlaceRef], bool]:
        self.already_at = place
        self.turn.note_offer("refused", [])
        return [ALREADY_AT[place]], [], True

    async def _start_where_they_are(self, targets: list[Target]) -> AlreadyAt | None:
        """Which start the one place asked for is, when it is where the listener is already: the
        chapter playing's or the book's, none of it heard yet ("chapter 2" in its lead-in). Offered, it
        would be a covered row for the place the page shows."""
        if len(targets) != 1 or (targets[0].chapter is None and targets[0].position_ms != 0):
            return None
        asked = targets[0]
        if asked.chapter is not None and await self._counted_chapter(0) != asked.chapter:
            return None
        first = await self._passage_at(asked)
        if first is None or not chapters.still_at_its_start(first, self.here_ms):
            return None
        return "chapter_start" if asked.chapter is not None else "book_start"

    async def _counted_chapter(self, step: int) -> int | NoSuchChapter | None:
        """The chapter ``step`` from the one playing (``chapters.counted_from_the_clock``); None when
        the book has no chapters."""
        return chapters.counted_from_the_clock(await self._chapters(), self.here_ms, step)

    async def _still_at_start(self, chapter: int) -> bool:
        """Whether none of ``chapter`` is behind the line (``chapters.still_at_its_start``)."""
        first = await self._passage_at(Target(chapter=chapter))
        return first is not None and chapters.still_at_its_start(first, self.here_ms)

    async def _end_meant(self, chapter: int | None) -> tuple[bool, int | None]:
        """Whether the listener is at the end already (``chapters.already_at_its_end`` of the chapter
        playing, by its closing passage: search's ``chapter_end`` target), and the chapter whose end
        is meant (``chapter``, else the one playing; None in a book without chapters)."""
        playing = chapters.counted_from_the_clock(await self._chapters(), self.here_ms, 0)
        ended = chapter if chapter is not None else playing if isinstance(playing, int) else None
        if ended is None or ended != playing:
            return False, ended
        closing = await self._passage_at(Target(chapter_end=ended))
        return closing is not None and chapters.already_at_its_end(closing, self.here_ms), ended

    async def _passage_at(self, target: Target) -> Passage | None:
        resolved = await self.backends.resolve(
            Resolve(book=self.book, here_ms=self.here_ms, targets=[target])
        )
        return resolved.resolutions[0].passage if resolved.resolutions else None

    async def book_info(self) -> BookInfo | None:
        """The book's catalog entry; None when search serves it without a length (nothing to place)."""
        catalog = await self.backends.catalog(CatalogRequest(book=self.book))
        return next((b for b in catalog.books if b.id == self.book and b.duration_ms > 0), None)

    async def _chapters(self) -> list[ChapterInfo]:
        book = await self.book_info()
        return book.chapters if book is not None else []

    async def playback(self, args: PlaybackArgs) -> tuple[list[str], list[PlaceRef], bool]:
        """Set or cancel the sleep timer, pause, or set the speed: the player's own commands, as the page
        sends them."""
        if args.chapter_step is not None:
            counted = await self._counted_chapter(args.chapter_step)
            if not isinstance(counted, int):
                self.no_chapter = counted
                self.turn.note_playback(False)
                return [NO_CHAPTER_PLAYING if counted is None else no_chapter_line(counted)], [], True
            args = args.model_copy(update={"chapter": counted, "chapter_step": None})
        if self.preview:
            speed_now = speed = 1.0
            if args.action == "speed":  # said from the listener's own speed, as "faster" counts from it
                speed_now = (
                    await self.backends.state(StateRequest(listener=self.listener, book=self.book))
                ).speed
                speed = playback.speed_meant(args, speed_now)
            changed = args.action != "speed" or speed != speed_now
            self.played = playback.PlaybackDone(args, True, changed, previewed=True, speed=speed)
            self.turn.note_playback(True)
            return playback.preview_lines(args), [], False
        # the player's reply says neither whether anything changed nor what a new timer replaced
        before = await self.backends.state(StateRequest(listener=self.listener, book=self.book))
        command = playback.command_for(args, self.device, self.heard(), before.speed)
        changes = playback.changes(args, before)
        speed = before.speed
        try:
            result = await self.backends.command(
                CommandRequest(listener=self.listener, book=self.book, command=command)
            )
            accepted, changed, reason = result.accepted, changes, result.reason
            timer, speed = result.state.sleep_timer, result.state.speed
            stop_in_ms = (
                listening_ms(timer.stop_at_ms - result.state.position_ms, speed)
                if timer is not None
                else None
            )
            ends_first = timer is not None and timer.book_ends_first
        except RemoteFailure as error:
            if error.failure.code != "invalid":
                raise
            accepted, changed, reason, stop_in_ms, ends_first = False, False, error.failure.error, None, False
        if accepted and changed and args.action == "speed":
            self.turn.speed_changed = SpeedChangedByTurn(before=before.speed, to=speed, seq=result.seq)
        if accepted and args.action == "sleep_timer":
            args = playback.as_running(args, timer)
            self.turn.timer_replaced |= before.sleep_timer is not None
            self.turn.timer_set_seq = timer.set_seq if timer is not None else None
        self.turn.note_playback(accepted)
        self.played = playback.PlaybackDone(
            args, accepted, changed, reason, stop_in_ms, ends_first, speed=speed
        )
        return playback.lines(self.played), [], not accepted

    async def _move_command(self, command: PressRow | UndoCommand) -> tuple[CommandResult | None, str]:
        """The player's answer to a move command of plain code's when it took it, and why not: a
        command it finds invalid is refused like one it declines; any other failure is the turn's."""
        if (late := self.turn.may_change(wall_clock_ms())) is not None:
            return None, late.text
        try:
            result = await self.backends.command(
                CommandRequest(listener=self.listener, book=self.book, command=command)
            )
        except RemoteFailure as error:
            if error.failure.code != "invalid":
                raise
            return None, error.failure.error
        return (result if result.accepted else None), result.reason

    async def _move_made(self, taken: CommandResult) -> tuple[int, int | None]:
        """Where a move command the player took put the book, and the chapter there as the player's
        history names it; the place alone when the newest move there is another (a later one)."""
        moves = await self.backends.locate(
            LocateRequest(listener=self.listener, book=self.book, moves=True, limit=1)
        )
        if moves.newest is not None and moves.newest.seq == taken.seq:
            return moves.newest.position_ms, moves.newest.chapter
        return taken.state.position_ms, None

    def _recorded(
        self,
        name: str,
        arguments: dict[str, Any],
        lines: list[str],
        started: float,
        refused: bool,
        *,
        places: list[PlaceRef] | None = None,
    ) -> ToolCallRecord:
        """A call kept with the turn's calls, a tool's or one of plain code's own (undo, a row pressed)."""
        record = ToolCallRecord(
            name=name,
            arguments=arguments,
            lines=lines,
            places=places or [],
            ms=round((time.perf_counter() - started) * 1000, 3),
            refused=refused,
        )
        self.turn.record(record)
        self.turn.steps.append(Step(name=f"tool {name}", ms=record.ms))
        return record

    async def list_shown(self) -> tuple[int, str | None]:
        """How many rows the list on the screen has (0: no list), and the turn that drew it."""
        state = await self.backends.state(StateRequest(listener=self.listener, book=self.book))
        return len(state.rows), state.list_turn_id

    async def press_listed(self, row: int) -> int | None:
        """Press a row of the list on the screen (``row`` from 0, -1 the last), as the page does:
        "the second one" said instead of pressed. ``last_offer`` says where the book went; the answer
        is how many rows the list had when the row asked for is not one of them (0: no list), else None.

        Not a tool the model has: it is read by plain code. It is a move, so the same rule holds."""
        started = time.perf_counter()
        state = await self.backends.state(StateRequest(listener=self.listener, book=self.book))
        rows = [listed.seen_from(self.here_ms) for listed in state.rows]
        index = row if row >= 0 else len(rows) + row
        if not 0 <= index < len(rows):
            return len(rows)
        permit = self.turn.may_offer()
        pressed = rows[index]
        if isinstance(permit, Refused):
            lines, refused = [permit.text], True
        elif self.preview:
            self.last_offer = OfferOutcome(outcome="moved", moved_to=pressed)
            lines, refused = [moved_line(pressed, preview=True)], False
        else:
            taken, reason = await self._move_command(
                PressRow(row=index, list_turn_id=state.list_turn_id, device=self.device)
            )
            accepted = taken is not None
            refused = not accepted
            self.last_offer = OfferOutcome(
                outcome="moved" if accepted else "refused",
                moved_to=pressed if accepted else None,
                reason=reason,
            )
            self.turn.note_offer(self.last_offer.outcome, [pressed.label()] if accepted else [])
            lines = [moved_line(pressed, preview=False) if accepted else f"Refused: {reason}."]
        self._recorded("press_listed", {"row": index}, lines, started, refused)
        return None

    async def add_bookmark(self, title: str | None) -> tuple[Bookmark | None, str]:
        """A bookmark where the player has the book got to now (ADR 83), made on the asking device: the
        one made, or None and the player's reason. Not a tool the model has; the model reads that one was
        made, never where: it is where the listener is (ADR 75). A preview makes none."""
        started = time.perf_counter()
        made: Bookmark | None = None
        late = None
        if self.preview:
            reason = "a preview adds no bookmark"
        elif (late := self.turn.may_change(wall_clock_ms())) is not None:
            reason = late.text
        else:
            # with the request as read, another device's copy of it makes none (ADR 77)
            command = AddBookmark(device=self.device, title=title, heard=self.heard())
            try:
                result = await self.backends.command(
                    CommandRequest(listener=self.listener, book=self.book, command=command)
                )
                reason = result.reason
                if result.accepted:
                    made = next((mark for mark in result.state.bookmarks if mark.seq == result.seq), None)
            except RemoteFailure as error:
                if error.failure.code != "invalid":
                    raise
                reason = error.failure.error
        lines = ["Bookmarked where the book had got to."] if made is not None else [f"Refused: {reason}."]
        self._recorded("add_bookmark", {}, lines, started, made is None)
        # a turn past its time says nothing of why: the refusal's words are the model's instructions
        return made, "" if late is not None else reason

    async def bookmarks(self) -> list[Bookmark]:
        """The listener's bookmarks in this book, newest first, from the player's state."""
        return (await self.backends.state(StateRequest(listener=self.listener, book=self.book))).bookmarks

    async def offer_bookmark(self, bookmark: Bookmark) -> ToolCallRecord:
        """An offer of a bookmark's place, as of a time named: a move (undo takes it back) or a covered row
        for one further on, under the same rules. Recorded by the bookmark's id: its time is a place the
        listener was, which the model never reads (ADR 75)."""
        started = time.perf_counter()
        lines, places, refused = await self._dispatch("offer_positions", {"position_ms": bookmark.at_ms})
        return self._recorded(
            "offer_bookmark",
            {"bookmark": bookmark.seq},
            without_its_place(lines),
            started,
            refused,
            places=places,
        )

    async def undo(self) -> ToolCallRecord:
        """Put the book back where it was before the last move (the player's undo command).

        Not a tool the model has: "undo that" is read by plain code. It is a move, so the
        same rule holds: a turn that already moved, or answered a question, does not undo.
        """
        started = time.perf_counter()
        permit = self.turn.may_offer()
        refused = True
        if isinstance(permit, Refused):
            lines = [permit.text]
        elif self.preview:
            lines = ["Preview only: undo would put the book back where it was before the last move."]
        else:
            taken, reason = await self._move_command(UndoCommand(device=self.device, heard=self.heard()))
            refused = taken is None
            if taken is not None:
                position_ms, chapter = await self._move_made(taken)
                self.undone = speech.undone(position_ms, chapter)
                self.turn.note_offer("moved", ["where you were before the last move"])
                # the chapter only: the listener's own position is printed nowhere the model reads
                where = "" if chapter is None else f", in {chapter_name(chapter)}"
                lines = [f"Moved: the book is back where it was before the last move{where}."]
            else:
                self.turn.note_offer("refused", [])
                lines = [f"Refused: {reason or 'there is no move to undo'}."]
        return self._recorded("undo", {}, lines, started, refused)
