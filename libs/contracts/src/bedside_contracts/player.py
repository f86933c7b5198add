"""The player's contracts: its events, its commands, its bus requests and its HTTP bodies.

``StateRequest``, ``ListenerState``, ``OfferPositions`` and ``OfferOutcome`` are what the
turn service uses. The events are the player's stream: every change of a listener's state
in a book is one of them, appended to ``player.{listener}.{book}``. The stream sequence,
not anything inside an event, says which came first.
"""

from typing import Annotated, Literal

from bedside_guard import MAX_ROWS, Candidate
from pydantic import Field, StringConstraints, model_validator

from bedside_contracts.common import LONGEST_BOOK_MS, Contract, Millis, Name
from bedside_contracts.ingest import IngestJob, JobState, TranscriptionProgress
from bedside_contracts.search import MissingChapter, Target, TranscriptCoverage

Seq = Annotated[int, Field(ge=0, description="a JetStream stream sequence; 0 is 'nothing yet'")]
TurnId = Annotated[str, Field(min_length=1, max_length=64)]
DeviceClock = Annotated[
    int | None, Field(default=None, description="the device's own clock (ms since the epoch); recorded only")
]
BookEndThen = Annotated[
    int | None,
    Field(
        default=None,
        ge=0,
        description="the book's length, where known, when the move was made: a running minutes timer"
        " carried past it stops at the book's end",
    ),
]
ChapterEndStop = Annotated[
    int | None,
    Field(
        default=None,
        ge=0,
        description="with a chapter-end sleep timer running, where it stops once the book has moved "
        "(sleep.chapter_end_after_move), decided where the chapters are known; None with no such "
        "timer, and in moves stored before it was carried",
    ),
]


LONGEST_SLEEP_MINUTES = 600
"""The longest sleep timer in minutes: ten hours, a whole night and more."""
SleepMinutes = Annotated[int, Field(ge=1, le=LONGEST_SLEEP_MINUTES)]
SleepAfter = Annotated[
    SleepMinutes | Literal["chapter_end"],
    Field(description="minutes of listening from now, or the end of the chapter playing now"),
]


class StateRequest(Contract):
    listener: Name
    book: Name
    listener_must_exist: bool = Field(
        default=False,
        description="refuse a listener nobody made (not_found) instead of answering the state every "
        "listener starts from; a caller with no device behind it (the terminal) asks so",
    )


class ListeningRequest(Contract):
    """Which of ``books`` the listener is listening to (the books the asking copy's catalog holds)."""

    listener: Name
    books: list[Name]


class BookListenedToRequest(Contract):
    """Which book ``listener`` is listening to, of every book there is (``PLAYER_LISTENING``: asked
    from the terminal, which knows no book; answered with ``Listening``)."""

    listener: Name


class Listening(Contract):
    """The book of the listener's current position; None before they have been placed in any."""

    book: Name | None = None


PAST_END = (
    "with book_ends_first: where the minutes would stop were the book longer; a move counts from it, so "
    "minutes the book's end cut are had again when the book moves back (None: stored before it was kept)"
)

SLOWEST_SPEED = 0.5
FASTEST_SPEED = 3.0
Speed = Annotated[
    float,
    Field(
        ge=SLOWEST_SPEED,
        le=FASTEST_SPEED,
        description="how fast the recording plays, as a multiple of the narrator's pace (1.0)",
    ),
]


def listening_ms(book_ms: int, speed: float) -> int:
    """How long ``book_ms`` of the book takes to hear at ``speed``: the one sum from book time to the
    listener's own (a sleep timer's minutes, what is left, said or shown)."""
    return round(book_ms / speed)


def book_ms_heard_in(listening: int, speed: float) -> int:
    """How much of the book ``listening`` milliseconds of listening at ``speed`` play."""
    return round(listening * speed)


class SleepTimer(Contract):
    """A sleep timer that is running: the book time at which the playing device pauses."""

    after: SleepAfter
    stop_at_ms: Millis = Field(
        description="fixed when it was set, and moved with the book: minutes keep what they had left "
        "(sleep.after_a_move); a chapter end is its last millisecond, before the next's start, of the "
        "chapter a move lands in (a chapter named keeps its end while it is ahead)"
    )
    set_seq: int = Field(ge=1, description="the stream sequence of the SleepTimerSet")
    device: Name
    chapter: int | None = Field(
        default=None, description="with chapter_end: the chapter named whose end it stops at"
    )
    book_ends_first: bool = Field(
        default=False,
        description="minutes that reach the book's end: the stop is the book's end (the player's "
        "rule, sleep.book_ends_first; the turn and the page say so from this, not their own sums)",
    )
    past_end_ms: Millis | None = Field(default=None, description=PAST_END)


AUDIO_COMES_TO_REST_MS = 1_000
"""How far past the sleep timer's pause a paused device may report the book and still be resting
there: audio stops a few hundred milliseconds after it is told to. Further on, someone listened on."""


class Asleep(Contract):
    """The newest time the sleep timer ran out: where the book paused and where hearing stopped."""

    paused_at_ms: Millis
    asleep_at_ms: Millis = Field(
        description="the estimate: the book time of the last touch or request before the pause"
    )
    seq: int = Field(ge=1)
    device: Name
    reheard_to_ms: Millis | None = Field(
        default=None,
        description="how far the doze has been played again, in one run from where they fell asleep or "
        "before (a skip ahead ends the run): what they missed starts there; at the pause, nothing is missed",
    )
    replaying: bool = Field(
        default=False,
        description="the book was last moved to within what has been heard of the doze: reports extend "
        "``reheard_to_ms``",
    )

    def missed_from_ms(self) -> int:
        """Where what they missed starts: where they fell asleep, or as far as it has been heard again."""
        return self.asleep_at_ms if self.reheard_to_ms is None else max(self.asleep_at_ms, self.reheard_to_ms)

    def rests_at(self, position_ms: int) -> bool:
        """Whether the book at ``position_ms`` still rests where this pause left it."""
        return abs(position_ms - self.paused_at_ms) <= AUDIO_COMES_TO_REST_MS


PAGE_DEVICE_KINDS = {"iphone": "iPhone", "ipad": "iPad", "android": "Android device", "browser": "browser"}
"""The kinds the page names a device by, ``<kind>-<four letters>`` (``web/state.js``), as said aloud."""
_KINDS_MEANT = {
    "phone": {"iphone", "android"},
    "mobile": {"iphone", "android"},
    "tablet": {"ipad", "android"},
    "computer": {"browser"},
    "laptop": {"browser"},
    "desktop": {"browser"},
    **{kind: {kind} for kind in PAGE_DEVICE_KINDS},
}
"""The word a listener says for a device ("on my phone") and the kinds of the page's names it means."""


def _page_kind(device: str) -> str | None:
    kind, _, letters = device.partition("-")
    return kind if kind in PAGE_DEVICE_KINDS and len(letters) == 4 and letters.isalnum() else None


def device_meant(said: str, device: str) -> bool:
    """Whether ``device`` is the one a listener means by ``said``: its name, or the word for its kind
    when the page made the name ("phone" for "iphone-x7k2")."""
    return device == said or _page_kind(device) in _KINDS_MEANT.get(said, set())


def device_spoken(device: str) -> str:
    """A device as said aloud: by its kind when the page made its name, else by the name it was given."""
    kind = _page_kind(device)
    return PAGE_DEVICE_KINDS[kind] if kind is not None else device


BOOKMARK_TITLE_CHARS = 80
"""The longest title a bookmark may have: a few words to know it by, not a note."""
MAX_BOOKMARKS_PER_BOOK = 100
"""The most bookmarks a listener keeps in one book; one more is refused, never an older one dropped."""
BookmarkTitle = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=BOOKMARK_TITLE_CHARS)
]


class Bookmark(Contract):
    """A place the listener marked in a book: where they were, which they had heard."""

    seq: int = Field(ge=1, description="the stream sequence of its BookmarkAdded: the bookmark's id")
    at_ms: Millis
    title: BookmarkTitle | None = None
    device: Name | None = Field(default=None, description="the device it was made on; None: none named")
    added_at_ms: int | None = Field(
        default=None, ge=0, description="the player's clock (ms since the epoch) when it was made"
    )


MoveCause = Literal["seeked", "pressed", "goto", "undo", "fell_asleep", "paused"]
"""What made a move: a device's seek, a row pressed, a question's goto, an undo, the sleep timer,
a pause asked for aloud."""


class ListenerState(Contract):
    """One listener's state in one book: the projection of their stream."""

    listener: Name
    book: Name
    position_ms: Millis
    playing: bool
    seq: int = Field(ge=0, description="stream sequence of the newest event that made this state")
    last_move_seq: int = Field(ge=0)
    last_move_cause: MoveCause | None = Field(
        default=None, description="what made the move at last_move_seq, so every device can tell it the same"
    )
    undo_to_ms: Millis | None = Field(
        default=None,
        description="where undo goes back to: the place before the last seek, goto, row pressed or undo "
        "(a pause is no move for undo); None: no such move yet",
    )
    rows: list[Candidate] = Field(default_factory=list, description="the list on the screen, if any")
    list_turn_id: str | None = None
    last_move_device: Name | None = Field(
        default=None,
        description="the device whose request made the move at last_move_seq (a question's: the device it "
        "was asked on), so a page tells another device's move made while its own question is out; None: "
        "made by no device named (the command line, or an older event)",
    )
    devices: list[Name] = Field(default_factory=list, description="devices that have joined, in order")
    sleep_timer: SleepTimer | None = None
    asleep: Asleep | None = None
    still_where_timer_paused: bool = Field(
        default=False,
        description="the book rests where the sleep timer paused it: nothing has moved it or played on "
        "from it since (the player's rule, sleep.still_where_timer_paused; every device and the turn "
        "offer where they fell asleep, and name the timer as why it stopped, from this alone)",
    )
    retired: bool = Field(default=False, description="the listener was removed: nothing more is accepted")
    speed: Speed = Field(
        default=1.0,
        description="how fast every device plays this book for this listener (ADR 82); absent from a state "
        "told by a player copy older than it, which is no word on the speed: a page keeps the one playing",
    )
    bookmarks: list[Bookmark] = Field(
        default_factory=list, description="the listener's bookmarks in this book, newest first (ADR 83)"
    )


OFFER_WAITS = 2
"""How many request timeouts (``request_timeout_s``, the same in every service) a caller waits for
an offer's answer: the player waits one on search, which resolves the places, then does its own
work. The turn waits this long for the player, and a player copy as long for the copy that owns
the listener, so neither gives up before the failure naming search can reach it."""


MAX_TARGETS = 8
"""The most places one offer may name."""


REQUEST_KEY_CHARS = 64
RequestKey = Annotated[str, Field(pattern=f"^[0-9a-f]{{{REQUEST_KEY_CHARS}}}$")]
"""A request as the turn read it, as a key (``routing.request_key``): the same for one reading, the
same length for any, and none of the listener's words."""


ASKED_AT = (
    "the player's clock (ms since the epoch) when it took the question, beside basis_seq: a request a "
    "turn carries out seconds later is still the one asked then (ADR 77); None from a caller without one"
)


class Heard(Contract):
    """A turn's request as it read it, and when the player took it, on an offer or on a command the turn
    carries it out by (an undo, a sleep timer set): one request heard by two devices is done once (ADR 77).
    Apart from a device's own ``basis_seq``: a turn's undo is not refused for a move it did not know of."""

    request_key: RequestKey = Field(
        description="the request as the turn read it, as an opaque key, the same however a device's "
        "recogniser wrote it"
    )
    basis_seq: Seq | None = Field(
        default=None, description="the newest sequence of the stream when the player took the question"
    )
    asked_at_ms: int | None = Field(default=None, ge=0, description=ASKED_AT)


class OfferPositions(Contract):
    """The one way a goto ends. The player resolves, deduplicates and decides."""

    listener: Name
    book: Name
    turn_id: str = Field(min_length=1, max_length=64)
    targets: list[Target] = Field(min_length=1, max_length=MAX_TARGETS)
    may_move: bool = True
    device: Name | None = Field(
        default=None, description="the device the question was asked on: a move it makes names it"
    )
    preview_at_ms: Millis | None = Field(
        default=None,
        description="decide as if the listener were here, and change nothing (the CLI's --at)",
    )
    heard: Heard | None = Field(
        default=None,
        description="a turn's question: another device's same request on the same basis, or just after, "
        "is this one heard twice (ADR 77)",
    )


class OfferOutcome(Contract):
    """What became of an offer. ``rows`` are guard Candidates; a row ahead is covered."""

    outcome: Literal["moved", "listed", "refused"]
    rows: list[Candidate] = Field(default_factory=list)
    moved_from_ms: int | None = None
    moved_to: Candidate | None = None
    reason: str = ""
    unresolved: list[str] = Field(default_factory=list)
    missing_chapter: MissingChapter | None = None
    """A refusal because the chapter named is not in the book: search's own finding, passed on
    so that plain code can say what the model reads in ``reason``."""


# ---------------------------------------------------------------- events (the stream)


PRESSED = (
    "the listener pressed play or pause on this device, a sign of someone awake (ADR 24); a report of "
    "progress, or of a pause the device made itself (at a sleep timer's stop, at the end), says False"
)


class PositionReported(Contract):
    """A device says where it is. ``basis_seq`` is the newest sequence the device had seen."""

    kind: Literal["reported"] = "reported"
    device: Name
    position_ms: Millis
    playing: bool
    basis_seq: Seq
    pressed: bool = Field(default=False, description=PRESSED)
    device_clock: DeviceClock = None
    heard_at_ms: int | None = Field(
        default=None,
        ge=0,
        description="the player's clock (ms since the epoch) when it took the report: a playing device "
        "not heard for a while has gone (ADR 48); None in reports stored before",
    )


class Seeked(Contract):
    """The listener moved the book themselves on a device (a scrub, a skip back)."""

    kind: Literal["seeked"] = "seeked"
    device: Name
    from_ms: Millis
    position_ms: Millis
    basis_seq: Seq
    device_clock: DeviceClock = None
    withdrew_list: bool = Field(
        default=False, description="a list was on the screen, drawn for another place: this move took it down"
    )
    chapter_end_ms: ChapterEndStop = None
    book_end_ms: BookEndThen = None


class Moved(Contract):
    """The book was moved for the listener: by a goto of a turn, or by undo."""

    kind: Literal["moved"] = "moved"
    cause: Literal["goto", "undo"]
    from_ms: Millis
    to_ms: Millis
    turn_id: str | None = None
    device: Name | None = None
    request_key: RequestKey | None = Field(
        default=None,
        description="a turn's goto or undo: the request as the turn read it (OfferPositions, Heard)",
    )
    made_at_ms: int | None = Field(
        default=None,
        ge=0,
        description="with request_key: the move's time on the player's clock (ms since the epoch)",
    )
    withdrew_list: bool = Field(
        default=False,
        description="an undo took down a list that was on the screen (a goto ends its own turn's)",
    )
    chapter_end_ms: ChapterEndStop = None
    book_end_ms: BookEndThen = None


class ListOffered(Contract):
    """A list of places went on the screen; it replaces any list before it."""

    kind: Literal["listed"] = "listed"
    rows: list[Candidate] = Field(min_length=1, max_length=MAX_ROWS)
    turn_id: TurnId


class RowPressed(Contract):
    """A row of the list was pressed: the book moves there and the list goes."""

    kind: Literal["pressed"] = "pressed"
    row: int = Field(ge=0, lt=MAX_ROWS)
    from_ms: Millis
    to_ms: Millis
    device: Name | None = None
    turn_id: str | None = None
    chapter_end_ms: ChapterEndStop = None
    book_end_ms: BookEndThen = None


class ListCancelled(Contract):
    """The list was dismissed; nothing else changes."""

    kind: Literal["cancelled"] = "cancelled"
    device: Name | None = None


class DeviceJoined(Contract):
    """A device started following this book for this listener."""

    kind: Literal["joined"] = "joined"
    device: Name
    device_clock: DeviceClock = None


class DeviceLeft(Contract):
    """A device that was playing went away (its page was closed). When no other device was
    playing, the book paused at ``paused_at_ms`` (ADR 45); otherwise it plays on elsewhere."""

    kind: Literal["left"] = "left"
    device: Name
    paused_at_ms: Millis | None = None
    basis_seq: Seq


class SleepTimerSet(Contract):
    """A device set the sleep timer; ``stop_at_ms`` is fixed now, as a book time."""

    kind: Literal["timer_set"] = "timer_set"
    device: Name
    after: SleepAfter
    stop_at_ms: Millis
    chapter: int | None = None
    """With ``chapter_end``: the chapter named, when the listener named one."""
    book_ends_first: bool = False
    """Minutes that reach the book's end: ``stop_at_ms`` is the book's end (``sleep.book_ends_first``)."""
    past_end_ms: Millis | None = Field(default=None, description=PAST_END)
    request_key: RequestKey | None = Field(
        default=None, description="a turn's timer: the request as the turn read it (Heard)"
    )
    made_at_ms: int | None = Field(
        default=None,
        ge=0,
        description="with request_key: when it was set, on the player's clock (ms since the epoch)",
    )


class SpeedSet(Contract):
    """The listener chose how fast the book plays, on every device."""

    kind: Literal["speed_set"] = "speed_set"
    device: Name | None = None
    speed: Speed
    sleep_timer: SleepTimer | None = Field(
        default=None,
        description="the running timer as the new speed leaves it (sleep.after_a_speed_change): minutes "
        "keep the listening they had left, so their stop moves in the book; None when none runs",
    )
    made_at_ms: int | None = Field(
        default=None,
        ge=0,
        description="the player's clock (ms since the epoch) at the change: a playing book got on at the "
        "speed before until then",
    )


class SleepTimerCancelled(Contract):
    kind: Literal["timer_cancelled"] = "timer_cancelled"
    device: Name


class FellAsleep(Contract):
    """The timer ran out: the playing device paused the book at ``paused_at_ms``."""

    kind: Literal["fell_asleep"] = "fell_asleep"
    device: Name
    paused_at_ms: Millis
    asleep_at_ms: Millis
    basis_seq: Seq


class Paused(Contract):
    """The listener asked for a pause (by voice, through the turn): the book paused at
    ``paused_at_ms``, the newest place a device reported. Recorded as a sleep timer's pause is,
    without a guess at sleep (ADR 46)."""

    kind: Literal["paused"] = "paused"
    device: Name | None = None
    paused_at_ms: Millis


class QuestionAsked(Contract):
    """The listener asked a turn something while a sleep timer ran: someone was awake with the book
    at ``position_ms``, where it had got to then, for the asleep estimate (ADR 24)."""

    kind: Literal["asked"] = "asked"
    turn_id: TurnId
    position_ms: Millis


class ListenerRetired(Contract):
    """The listener was removed (``bedside listener remove``): the last event of each of their
    books' streams. Their events stay, replayable; every command after it is refused, and their
    devices are told by the state it makes (``retired``)."""

    kind: Literal["retired"] = "retired"


class BookmarkAdded(Contract):
    """The listener marked where the book was on their device (ADR 83)."""

    kind: Literal["bookmark_added"] = "bookmark_added"
    at_ms: Millis
    title: BookmarkTitle | None = None
    device: Name | None = None
    added_at_ms: int | None = Field(
        default=None, ge=0, description="the player's clock (ms since the epoch) when it was made"
    )
    request_key: RequestKey | None = Field(
        default=None, description="a turn's bookmark: the request as the turn read it (Heard)"
    )


class BookmarkRemoved(Contract):
    """The listener removed a bookmark, named by the sequence of its ``BookmarkAdded``."""

    kind: Literal["bookmark_removed"] = "bookmark_removed"
    bookmark_seq: int = Field(
        ge=1, description="the stream sequence of the BookmarkAdded it removes (renumbered by a migration)"
    )
    device: Name | None = None


PlayerEvent = Annotated[
    PositionReported
    | Seeked
    | Moved
    | ListOffered
    | RowPressed
    | ListCancelled
    | DeviceJoined
    | DeviceLeft
    | SleepTimerSet
    | SleepTimerCancelled
    | SpeedSet
    | FellAsleep
    | Paused
    | QuestionAsked
    | ListenerRetired
    | BookmarkAdded
    | BookmarkRemoved,
    Field(discriminator="kind"),
]
EventKind = Literal[
    "reported",
    "seeked",
    "moved",
    "listed",
    "pressed",
    "cancelled",
    "joined",
    "left",
    "timer_set",
    "timer_cancelled",
    "speed_set",
    "fell_asleep",
    "paused",
    "asked",
    "retired",
    "bookmark_added",
    "bookmark_removed",
]
MOVE_KINDS: frozenset[str] = frozenset({"seeked", "moved", "pressed"})
"""Events that move the book; a report made before the newest of them is stale."""


# ---------------------------------------------------------------- commands
# A command a device sends over HTTP is its body there and the op its route names: the command
# extends the body, so the two keep one set of fields.


class ReportBody(Contract):
    device: Name
    position_ms: Millis = Field(description="where the device is; checked against the book's length")
    playing: bool
    basis_seq: Seq
    device_clock: DeviceClock = None
    pressed: bool = Field(default=False, description=PRESSED)


class Report(ReportBody):
    op: Literal["report"] = "report"


MovedFrom = Annotated[
    Millis | None,
    Field(
        description="where this device had played to when the listener moved it, newer than its last "
        "report: the move leaves from there (where undo goes back to) while nothing newer came from "
        "another device",
    ),
]


class SeekBody(Contract):
    device: Name
    position_ms: Millis
    basis_seq: Seq
    device_clock: DeviceClock = None
    by_ms: int | None = Field(
        default=None,
        ge=-LONGEST_BOOK_MS,
        le=LONGEST_BOOK_MS,
        description="a skip (back 30 s): this far from where the book is; ``position_ms`` is where the "
        "device believed that to be, and the player counts from where the book has got to when it "
        "had not seen another device's progress",
    )
    from_ms: MovedFrom = None


class Seek(SeekBody):
    op: Literal["seek"] = "seek"


class PressBody(Contract):
    row: int = Field(ge=0, lt=MAX_ROWS)
    device: Name | None = None
    list_turn_id: str | None = Field(
        default=None,
        max_length=64,
        description="the list the row was read from (ListenerState.list_turn_id): a press of a list "
        "another device has since replaced is refused with the new one, never applied to its rows",
    )


class PressRow(PressBody):
    op: Literal["press"] = "press"


class CancelList(Contract):
    op: Literal["cancel"] = "cancel"
    device: Name | None = None


class UndoBody(Contract):
    device: Name | None = None
    basis_seq: Seq | None = Field(
        default=None,
        description="the newest sequence the device had seen: a move since makes the undo stale "
        "(a second tap, or another device's undo, would undo the undo); None from a caller without one",
    )
    from_ms: MovedFrom = None


class Undo(UndoBody):
    op: Literal["undo"] = "undo"
    heard: Heard | None = Field(default=None, description="a turn's undo: the request as it read it")


class JoinDevice(Contract):
    op: Literal["join"] = "join"
    device: Name
    device_clock: DeviceClock = None


class LeaveBody(Contract):
    device: Name
    position_ms: Millis
    basis_seq: Seq


class LeaveDevice(LeaveBody):
    """The device's page is going away (a beacon on ``pagehide``), where it was playing."""

    op: Literal["leave"] = "leave"


class SleepTimerBody(Contract):
    device: Name
    after: SleepAfter


class SetSleepTimer(SleepTimerBody):
    """Pause after ``after`` minutes of listening, or at the end of the chapter playing now, or of
    the chapter named in ``chapter`` ("stop at the end of chapter 3", said to a turn; the page's
    chips send no chapter)."""

    op: Literal["sleep_timer"] = "sleep_timer"
    chapter: int | None = Field(
        default=None, ge=0, description="with after chapter_end: the chapter whose end to stop at"
    )
    heard: Heard | None = Field(default=None, description="a turn's timer: the request as it read it")

    @model_validator(mode="after")
    def _chapter_only_with_its_end(self) -> "SetSleepTimer":
        if self.chapter is not None and self.after != "chapter_end":
            raise ValueError("a chapter names where a chapter ends; it goes with after chapter_end")
        return self


class SpeedBody(Contract):
    device: Name | None = None
    speed: Speed


class SetSpeed(SpeedBody):
    """Play the book this fast on every device."""

    op: Literal["speed"] = "speed"


class CancelSleepTimer(Contract):
    op: Literal["cancel_sleep_timer"] = "cancel_sleep_timer"
    device: Name


class TimerRanOutBody(Contract):
    device: Name
    position_ms: Millis = Field(description="where the device paused; put back on the stop if past it")
    basis_seq: Seq
    timer_seq: Seq | None = Field(
        default=None,
        description="the ``set_seq`` of the timer that ran out: told late, another timer set since "
        "is not run out by it",
    )


class TimerRanOut(TimerRanOutBody):
    """The playing device reached the timer's stop and paused at ``position_ms``."""

    op: Literal["timer_ran_out"] = "timer_ran_out"


class Pause(Contract):
    """Pause the book on every device where it was last heard (a turn's "pause" or "stop")."""

    op: Literal["pause"] = "pause"
    device: Name | None = None


class NoteQuestion(Contract):
    """A turn was asked something of this book (not "as if at" another place): a sign of someone
    awake, which the player keeps only while a sleep timer runs."""

    op: Literal["question"] = "question"
    turn_id: TurnId


class BookmarkBody(Contract):
    device: Name | None = None
    position_ms: Millis | None = Field(
        default=None,
        description="where the book is on the device, checked against the book's length; None (a caller "
        "with no device of its own, the turn): where the player has the book got to now",
    )
    title: BookmarkTitle | None = Field(default=None, description="a few words to know it by")


class AddBookmark(BookmarkBody):
    """Mark where the book is now; refused once the book holds ``MAX_BOOKMARKS_PER_BOOK``."""

    op: Literal["add_bookmark"] = "add_bookmark"
    heard: Heard | None = Field(default=None, description="a turn's bookmark: the request as it read it")


class RemoveBookmark(Contract):
    """Remove the bookmark whose ``BookmarkAdded`` the stream stored at ``bookmark_seq``."""

    op: Literal["remove_bookmark"] = "remove_bookmark"
    bookmark_seq: int = Field(ge=1)
    device: Name | None = None


PlayerCommand = Annotated[
    Report
    | Seek
    | PressRow
    | CancelList
    | Undo
    | JoinDevice
    | LeaveDevice
    | SetSleepTimer
    | CancelSleepTimer
    | SetSpeed
    | TimerRanOut
    | Pause
    | NoteQuestion
    | AddBookmark
    | RemoveBookmark,
    Field(discriminator="op"),
]


class CommandRequest(Contract):
    """PLAYER_COMMAND: one command for one listener in one book."""

    listener: Name
    book: Name
    command: PlayerCommand


class CommandResult(Contract):
    """Accepted (with the state's sequence after it: the event it made, or the newest there was when it
    had nothing to change) or refused with the state."""

    accepted: bool
    seq: int = Field(ge=0)
    state: ListenerState
    reason: str = ""


# ---------------------------------------------------------------- history


class HistoryEntry(Contract):
    seq: int = Field(ge=1)
    kind: EventKind
    position_ms: int = Field(ge=0, description="where the book was after this event")
    from_ms: int | None = Field(default=None, ge=0, description="where the book was before it, for a move")
    chapter: int | None = None
    device: str | None = None
    cause: MoveCause | None = Field(
        default=None, description="for a move: what made it (the state's own word)"
    )
    asleep_at_ms: int | None = Field(
        default=None, ge=0, description="for a fell_asleep entry: the estimate of when hearing stopped"
    )
    placed: bool = Field(
        default=False,
        description="the event put the book somewhere: a report, a move, a pause, the last player leaving",
    )
    stored_at_ms: int | None = Field(
        default=None,
        description="when the stream stored the event, in epoch milliseconds: the server's clock, never a "
        "device's (order is still the sequence)",
    )


class HistoryRequest(Contract):
    """PLAYER_HISTORY: newest first; ``limit`` is the most recent N before ``before_seq``."""

    listener: Name
    book: Name
    limit: int = Field(default=20, ge=1, le=1000)
    before_seq: int | None = Field(default=None, ge=1)
    kind: EventKind | None = None


class History(Contract):
    entries: list[HistoryEntry]


class LocateFilter(Contract):
    """The filters and the page of a history lookup (the HTTP lookup's query): matches newest first.

    With no ``kind``, only entries that place the book (``placed``: reports, moves, pauses) match. The
    filters combine: every one given must hold.
    """

    kind: EventKind | None = None
    chapter: int | None = Field(
        default=None, ge=0, description="the book was in this chapter after the event"
    )
    device: Name | None = None
    direction: Literal["forward", "back"] | None = Field(
        default=None, description="only moves that went this way (a skip ahead, a rewind)"
    )
    visit_ends: bool = Field(
        default=False,
        description="only the last entry of each stay in a chapter that the book has since left",
    )
    left_off: bool = Field(
        default=False,
        description="only the last placing entry before each break in listening of an hour or more "
        "(the stream's own times): where the listener left off each time",
    )
    began: bool = Field(
        default=False,
        description="only the first placing entry after each such break, and the very first: where "
        "each sitting began",
    )
    moves: bool = Field(
        default=False,
        description="only the events that moved the book (a seek, a goto, a row pressed: MOVE_KINDS)",
    )
    furthest: bool = Field(
        default=False,
        description="the matches furthest into the book first (ties: the newest), not the newest first",
    )
    offset: int = Field(
        default=0, ge=0, le=100_000, description="a match's own index; 0 is the newest (or the furthest)"
    )
    limit: int = Field(default=20, ge=1, le=1000)


class LocateRequest(LocateFilter):
    """PLAYER_LOCATE: a lookup in one listener's history of one book."""

    listener: Name
    book: Name


class Located(Contract):
    """A lookup over history: the newest match (with ``furthest``, the furthest), how many matched,
    where the earliest (the last in that order) is.

    ``page`` holds matches from index ``offset`` (0 is the newest); an index is a match's
    own, so paging from it is right at any page size.
    """

    newest: HistoryEntry | None
    count: int = Field(ge=0)
    earliest_index: int | None
    offset: int = Field(ge=0)
    page: list[HistoryEntry]
    looked_at_ms: int = Field(
        description="the player's clock when it looked, in epoch milliseconds: what an entry's "
        "stored_at_ms is measured against ('an hour ago')"
    )


# ---------------------------------------------------------------- HTTP bodies


class DeviceBody(Contract):
    device: Name | None = None


class JoinBody(Contract):
    device: Name


class TurnBody(Contract):
    device: Name | None = None
    utterance: str = Field(min_length=1, max_length=1000)


PAIRING_CODE_PATTERN = r"^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$"
"""Two groups of five Crockford base32 letters (no I, L, O or U): easy to read off a screen."""
PairingCode = Annotated[str, Field(pattern=PAIRING_CODE_PATTERN)]


class PairBody(Contract):
    """A one-time pairing code (``bedside pair`` prints it), traded for a device credential."""

    code: PairingCode


class Session(Contract):
    """Who a request acts for, and by what: a listener token, or a device credential (a cookie); and
    how long this player waits for a question's answer, so a page waits a little longer, never less."""

    listener: Name
    via: Literal["token", "device"]
    turn_timeout_ms: int = Field(gt=0, description="a typed question's answer is waited for this long")
    spoken_turn_timeout_ms: int = Field(gt=0, description="a question said aloud is waited for this long")


class Accepted(Contract):
    seq: int = Field(ge=0)
    state: ListenerState


class RefusedReply(Contract):
    error: str
    state: ListenerState


class FieldError(Contract):
    """One part of a request that did not fit its schema; what was sent is never echoed."""

    loc: list[str | int]
    msg: str
    type: str


class ErrorReply(Contract):
    """Every 4xx and 5xx of the HTTP API: a sentence for people, and the fields at fault."""

    detail: str
    fields: list[FieldError] = Field(default_factory=list)


class ChapterView(Contract):
    """A chapter as this listener may see it: a title only once they have reached it."""

    n: int
    start_ms: int
    end_ms: int
    title: str | None = None
    ahead: bool = Field(
        default=False,
        description="ahead of the listener's position (the guard's word): its title is not shown yet",
    )


class BookmarkView(Bookmark):
    chapter: int | None = Field(default=None, description="the chapter it is in (its number: a place)")


class Bookmarks(Contract):
    """``GET .../bookmarks``: a listener's bookmarks in one book, newest first."""

    bookmarks: list[BookmarkView]
    most: int = Field(default=MAX_BOOKMARKS_PER_BOOK, description="how many one book keeps at most")


class BookView(Contract):
    id: Name
    title: str
    author: str = ""
    narrator: str = ""
    duration_ms: int
    has_audio: bool
    has_cover: bool = False
    estimated: bool = Field(default=False, description="the times are estimated from the text, not heard")
    chapters: list[ChapterView] = Field(default_factory=list)
    transcript: TranscriptCoverage | None = Field(
        default=None, description="how far the recording's transcript has got, while it is being made"
    )


# ---------------------------------------------------------------- listeners


class ListenersRequest(Contract):
    """PLAYER_LISTENERS: the listeners there are (not those removed)."""


class ListenerList(Contract):
    listeners: list[Name]


class RemoveListener(Contract):
    """PLAYER_REMOVE_LISTENER: retire a listener (``ListenerRetired`` on each of their books'
    streams), revoke their token and devices. The last listener is not removed."""

    listener: Name


class ListenerRemoved(Contract):
    listener: Name
    books: list[Name] = Field(description="the books whose streams now end with the retirement")
    devices: int = Field(ge=0, description="device credentials revoked")


class AddingBook(Contract):
    """A book being made of files sent from the page, as the page follows it: ingest's job without
    the paths on ingest's disk."""

    job: Name
    state: JobState
    book: Name | None = Field(
        default=None, description="the book being made: its first chapters play before it is done"
    )
    served: bool | None = Field(
        default=False,
        description="the book plays now: search serves a version of it (the whole book once done, "
        "an interim one before); a job done is served a moment later, once search has indexed it; "
        "None: search could not be asked just now",
    )
    reason: str = Field(default="", description="why it failed or stopped")
    note: str = Field(default="", description="once done, what the listener should know of the book made")
    progress: TranscriptionProgress | None = None

    @classmethod
    def of(cls, job: IngestJob) -> "AddingBook":
        done = job.state == "done"
        return cls(
            job=job.job,
            state=job.state,
            book=job.book if done else job.request.book,
            reason=job.reason,
            note=job.note,
            progress=job.progress,
        )
