"""The turn rules, in one place: what one turn may still do after what it has done.

A ``Turn`` is plain state with no I/O. Tools ask it before they act and tell it what
happened after; it keeps every call with its arguments and the result the model read,
and the time each step took, for the TurnCompleted event.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from bedside_contracts.turn import AskedBack, SpeedChangedByTurn, Step, ToolCallRecord, TurnOutcome

from bedside_turn.domain.history import Told

AFTER_RECALL = (
    "Refused: this turn already answered a question from what they have heard (recall), "
    "and a question never moves the book or puts up a list. Answer them out loud now; "
    "if they want to go somewhere as well, they can ask for it next."
)
AFTER_MOVE = (
    "Refused: the book has already been moved in this turn, and one turn moves it once. "
    "Tell them briefly where they are now; if it is the wrong place they can say so next."
)
TOO_MANY_CALLS = "Refused: this turn has used all its tool calls. Answer with what you already have."
TOO_LATE = (
    "Refused: the listener stopped waiting for this answer and was told it failed, so nothing may"
    " change now. Say only that it took too long."
)

MAX_TOOL_CALLS = 8
"""A turn that needs more than this is lost; the listener is better served by a short answer."""


@dataclass(frozen=True)
class MayOffer:
    """Permission to call the player's offer; ``may_move`` is False once a list is up."""

    may_move: bool


@dataclass(frozen=True)
class Refused:
    text: str


@dataclass
class Turn:
    """One turn's state: which tools ran, what they did, and how long each step took."""

    turn_id: str
    recalled: bool = False
    came_up: bool = False
    moved: bool = False
    listed: bool = False
    offer_refused: bool = False
    told: Told | None = None
    """Plain code answered without reading a passage (where they are, from the book's own times, or
    what Bedside can do), or said where a move put the book; remembered for the model by its kind
    alone (``history.remembered_speech``)."""
    played: bool = False
    """The sleep timer was set or cancelled, or the book paused: neither a move nor an offer, so
    it is never refused by one and never blocks one."""
    declined: bool = False
    """Plain code said it cannot do what was asked (start the sound, change the volume)."""
    not_yet: bool = False
    """A place was asked for by a name not heard yet, and the rest of the words found nothing (adr/0066)."""
    timer_replaced: bool = False
    """A sleep timer set in this turn took the place of one already running (``Exchange.timer_replaced``)."""
    timer_set_seq: int | None = None
    """The player's sequence of the sleep timer this turn set (``Exchange.timer_set_seq``)."""
    speed_changed: SpeedChangedByTurn | None = None
    """The speed this turn changed (``Exchange.speed_changed``)."""
    said_again: TurnOutcome | None = None
    """The last answer was said again, word for word ("say that again"): what it came to then."""
    asked: AskedBack | None = None
    """The answer asks the listener something back, which their next words may answer."""
    answer_by_ms: int | None = None
    """When the asker stops waiting (``Ask.answer_by_ms``)."""
    rows: list[str] = field(default_factory=list)
    calls: list[ToolCallRecord] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    def may_change(self, now_ms: int) -> Refused | None:
        """Nothing changes once the asker has stopped waiting: they were told the request failed,
        and a move made after it (34 s late, over a place they chose since) would be a stranger's."""
        if self.answer_by_ms is not None and now_ms > self.answer_by_ms:
            return Refused(TOO_LATE)
        return None

    def may_call(self) -> Refused | None:
        if len(self.calls) >= MAX_TOOL_CALLS:
            return Refused(TOO_MANY_CALLS)
        return None

    def may_offer(self) -> MayOffer | Refused:
        """The exclusions on offer_positions. A list drawn earlier is not a refusal: it blocks a move."""
        if self.recalled:
            return Refused(AFTER_RECALL)
        if self.moved:
            return Refused(AFTER_MOVE)
        return MayOffer(may_move=not self.listed)

    def note_recall(self, came_up: bool) -> None:
        self.recalled = True
        self.came_up = self.came_up or came_up

    def note_offer(self, outcome: str, rows: list[str]) -> None:
        """What the player made of an offer. The last list wins; a refusal changes nothing."""
        if outcome == "moved":
            self.moved = True
            self.rows = rows
        elif outcome == "listed":
            self.listed = True
            self.rows = rows
        else:
            self.offer_refused = True

    def note_playback(self, accepted: bool) -> None:
        if accepted:
            self.played = True
        else:
            self.offer_refused = True

    def record(self, call: ToolCallRecord) -> None:
        self.calls.append(call)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time one step of the turn (a model round, a tool call, loading history)."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.steps.append(Step(name=name, ms=round((time.perf_counter() - started) * 1000, 3)))

    def outcome(self, *, failed: bool = False, unsaid: bool = False) -> TurnOutcome:
        """What the turn came to, for the reply and the event; ``failed``: a service let it down;
        ``unsaid``: the answer it built was not spoken (it could not be checked, or plain code's
        words may have stood for the failure), and only what was done is said
        (``speech.after_failure``).

        A failure that left nothing done is "failed", not "unsure"; what was done still counts,
        and what was only told (an answer, a refusal) counts only if it was said.
        """
        if self.moved:
            return "moved"
        if self.listed:
            return "listed"
        if unsaid:
            return "answered" if self.played else "failed"
        if self.said_again is not None:
            return self.said_again
        if self.recalled:
            return "answered" if self.came_up else "not_yet"
        if self.not_yet:
            return "not_yet"
        if self.told is not None or self.played:
            return "answered"
        if self.offer_refused or self.declined:
            return "refused"
        return "failed" if failed else "unsure"
