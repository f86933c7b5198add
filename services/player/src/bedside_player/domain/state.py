"""A listener's state in one book, and ``evolve``: how one event changes it.

The state is a projection of the stream. ``seq`` is the stream sequence of the newest
event applied, so the stream, never a device's clock, orders everything.

``PlayerState`` is an immutable named tuple rather than a frozen dataclass: replay builds
one per event, and a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` (ADR 39).
"""

from collections.abc import Iterable
from typing import NamedTuple

from bedside_contracts.player import (
    Asleep,
    Bookmark,
    BookmarkAdded,
    BookmarkRemoved,
    DeviceJoined,
    DeviceLeft,
    FellAsleep,
    ListCancelled,
    ListenerRetired,
    ListenerState,
    ListOffered,
    MoveCause,
    Moved,
    Paused,
    PlayerEvent,
    PositionReported,
    QuestionAsked,
    RowPressed,
    Seeked,
    SleepTimer,
    SleepTimerCancelled,
    SleepTimerSet,
    SpeedSet,
)
from bedside_guard import Candidate

from bedside_player.domain import bookmarks, sleep
from bedside_player.domain.heard_twice import (
    GotoMade,
    RequestMade,
    bookmark_added,
    goto_made,
    timer_set,
    undo_made,
)
from bedside_player.domain.playing import (
    PlayingDevice,
    SpeedChanged,
    plays_now,
    speed_changes_after,
    speed_changes_since,
    with_report,
)


class PlayerState(NamedTuple):
    listener: str
    book: str
    position_ms: int = 0
    playing: bool = False
    seq: int = 0
    last_move_seq: int = 0
    before_move_ms: int | None = None
    """Where the book was just before the last move: what undo goes back to."""
    last_report_seq: int = 0
    last_reporter: str | None = None
    other_report_seq: int = 0
    """The newest report by a device other than ``last_reporter`` (0 when there is none)."""
    rows: tuple[Candidate, ...] = ()
    list_turn_id: str | None = None
    devices: tuple[str, ...] = ()
    events: int = 0
    sleep_timer: SleepTimer | None = None
    asleep: Asleep | None = None
    last_touch_ms: int = 0
    """Where the book was at the newest touch, request or joining device: when someone was awake."""
    players: tuple[PlayingDevice, ...] = ()
    """The devices that reported playing since the book last paused, less those that left (ADR 45),
    each with when it was last heard playing (ADR 48)."""
    last_move_cause: MoveCause | None = None
    """What made the move at ``last_move_seq``: every device tells an undo as an undo."""
    retired: bool = False
    """The listener was removed: the stream ends here, and ``decide`` refuses everything after."""
    last_move_device: str | None = None
    """The device whose request made the move at ``last_move_seq`` (None: none named)."""
    last_goto: GotoMade | None = None
    """The newest question's move that another device may hear again (ADR 77)."""
    last_undo: RequestMade | None = None
    """The newest turn's undo that another device may hear again (ADR 77)."""
    last_timer_set: RequestMade | None = None
    """The newest turn's sleep timer that another device may hear again (ADR 77)."""
    speed: float = 1.0
    """How fast every device plays the book (ADR 82)."""
    speed_changes: tuple[SpeedChanged, ...] = ()
    """The changes of speed since the newest report, each when and from what: where a playing book has
    got to counts the time at each speed it played at."""
    bookmarks: tuple[Bookmark, ...] = ()
    """The listener's bookmarks in this book, oldest first (ADR 83)."""
    last_bookmark_added: RequestMade | None = None
    """The newest bookmark, when a turn's, that another device may hear again (ADR 77)."""

    def public(self, now_ms: int) -> ListenerState:
        """The state as devices are told it at ``now_ms``: a book whose players have all gone
        quiet is told as paused (ADR 48)."""
        playing = plays_now(self.playing, self.players, now_ms)
        return ListenerState(
            listener=self.listener,
            book=self.book,
            position_ms=self.position_ms,
            playing=playing,
            seq=self.seq,
            last_move_seq=self.last_move_seq,
            last_move_cause=self.last_move_cause,
            undo_to_ms=self.before_move_ms,
            rows=[row.seen_from(self.position_ms) for row in self.rows],
            list_turn_id=self.list_turn_id,
            last_move_device=self.last_move_device,
            devices=list(self.devices),
            sleep_timer=self.sleep_timer,
            asleep=self.asleep,
            # the stream's own word: a book played on from the pause, then gone quiet, is told paused
            # and yet does not rest where the timer left it
            still_where_timer_paused=sleep.still_where_timer_paused(
                self.asleep, self.last_move_cause, self.playing, self.position_ms
            ),
            retired=self.retired,
            speed=self.speed,
            bookmarks=bookmarks.newest_first(self.bookmarks),
        )

    def placed_seq(self) -> int:
        """The sequence of the newest event that put the book somewhere: a report or a move (0: none)."""
        return max(self.last_report_seq, self.last_move_seq)

    def newest_news_for(self, device: str) -> int:
        """The newest sequence that put the book somewhere ``device`` did not put it itself.

        Any move counts; of the reports, only other devices' do: a device's own reports
        still in flight are not news to it.
        """
        others_report = self.other_report_seq if self.last_reporter == device else self.last_report_seq
        return max(self.last_move_seq, others_report)


def listening_to(states: Iterable[PlayerState]) -> str | None:
    """The book of a listener's current position: of their books' states, the one placed newest
    on the stream (a device joining, a timer or a list places nothing). None before any."""
    newest = max(states, key=PlayerState.placed_seq, default=None)
    return newest.book if newest is not None and newest.placed_seq() > 0 else None


def _reported(state: PlayerState, seq: int, event: PositionReported) -> PlayerState:
    """A report, counted and applied in one construction of the state: most events are
    reports. The fields go by position, in the class's order (keywords cost twice as much)."""
    same_reporter = event.device == state.last_reporter
    players = with_report(state.players, event.device, event.playing, event.heard_at_ms)
    return PlayerState(
        state.listener,
        state.book,
        event.position_ms,  # position_ms
        event.playing,  # playing
        seq,  # seq
        state.last_move_seq,
        state.before_move_ms,
        seq,  # last_report_seq
        state.last_reporter if same_reporter else event.device,  # last_reporter
        state.other_report_seq if same_reporter else state.last_report_seq,  # other_report_seq
        state.rows,
        state.list_turn_id,
        state.devices,
        state.events + 1,  # events
        state.sleep_timer,
        state.asleep and sleep.doze_played_to(state.asleep, event.position_ms),
        event.position_ms if event.pressed else state.last_touch_ms,  # someone awake (ADR 24)
        players,
        state.last_move_cause,
        state.retired,
        state.last_move_device,
        state.last_goto,
        state.last_undo,
        state.last_timer_set,
        state.speed,
        # only those since this report count, and a paused book counts none
        speed_changes_after(state.speed_changes, event.heard_at_ms if event.playing else None),
        state.bookmarks,
        state.last_bookmark_added,
    )


def _moved(state: PlayerState, seq: int, event: Seeked | Moved | RowPressed, cause: MoveCause) -> PlayerState:
    to_ms = event.position_ms if isinstance(event, Seeked) else event.to_ms
    timer = state.sleep_timer and sleep.after_a_move(
        state.sleep_timer, event.from_ms, to_ms, event.chapter_end_ms, event.book_end_ms
    )
    return state._replace(
        position_ms=to_ms,
        before_move_ms=event.from_ms,
        last_move_seq=seq,
        last_move_cause=cause,
        last_move_device=event.device,
        sleep_timer=timer,
        speed_changes=(),  # where it plays on to counts from the move's place
        # played to where the move left from (newer than any report of it), then moved
        asleep=state.asleep
        and sleep.doze_after_a_move(sleep.doze_played_to(state.asleep, event.from_ms), to_ms),
    )


def _without_list(state: PlayerState) -> PlayerState:
    return state._replace(rows=(), list_turn_id=None)


def _fell_asleep(state: PlayerState, seq: int, event: FellAsleep) -> PlayerState:
    asleep = Asleep(
        paused_at_ms=event.paused_at_ms, asleep_at_ms=event.asleep_at_ms, seq=seq, device=event.device
    )
    # the pause is the listener's last word on where the book is: reports from before it are stale
    return state._replace(
        position_ms=event.paused_at_ms,
        before_move_ms=None,  # the place before a drowsy move means nothing in the morning
        playing=False,
        last_move_seq=seq,
        last_move_cause="fell_asleep",
        last_move_device=event.device,
        sleep_timer=None,
        asleep=asleep,
        players=(),
        speed_changes=(),
    )


def _paused(state: PlayerState, seq: int, event: Paused) -> PlayerState:
    """A pause asked for by the listener (ADR 46): the sleep timer's pause, with no sleep in it."""
    # as with the timer's pause, reports from before it are stale: every device takes the state and pauses
    return state._replace(
        position_ms=event.paused_at_ms,
        playing=False,
        last_move_seq=seq,
        last_move_cause="paused",
        last_move_device=event.device,
        last_touch_ms=event.paused_at_ms,
        players=(),
        speed_changes=(),
    )


def _left(state: PlayerState, seq: int, event: DeviceLeft) -> PlayerState:
    """A playing device went away; when it was the last, its pause is applied as its report."""
    if event.paused_at_ms is None:
        players = tuple(player for player in state.players if player.device != event.device)
        return state._replace(seq=seq, events=state.events + 1, players=players)
    paused = PositionReported(
        device=event.device, position_ms=event.paused_at_ms, playing=False, basis_seq=event.basis_seq
    )
    return _reported(state, seq, paused)


def evolve(state: PlayerState, event: PlayerEvent | None, seq: int) -> PlayerState:
    """The state after ``event``, which the stream stored at ``seq``.

    An event at or below the state's own sequence has been applied already and changes
    nothing, so applying the same event from two sources (an append's ack and the feed)
    is harmless. ``None`` is a message on the subject that fits no event (a newer copy's kind
    of event): only the sequence moves on, since the next append must name the subject's last.
    """
    if seq <= state.seq:
        return state
    if event is None:
        return state._replace(seq=seq)
    if isinstance(event, PositionReported):
        return _reported(state, seq, event)
    if isinstance(event, DeviceLeft):
        return _left(state, seq, event)
    state = state._replace(seq=seq, events=state.events + 1)
    match event:
        case Seeked():
            seeked = _moved(state, seq, event, "seeked")
            seeked = seeked._replace(last_touch_ms=event.position_ms)
            return _without_list(seeked) if event.withdrew_list else seeked
        case Moved():
            moved = _moved(state, seq, event, event.cause)._replace(
                last_touch_ms=event.to_ms, last_goto=goto_made(event, seq), last_undo=undo_made(event, seq)
            )
            # a goto ends the turn that made it; an older list on the screen is obsolete
            return _without_list(moved) if event.cause == "goto" or event.withdrew_list else moved
        case ListOffered():
            return state._replace(
                rows=tuple(event.rows), list_turn_id=event.turn_id, last_touch_ms=state.position_ms
            )
        case RowPressed():
            moved = _moved(state, seq, event, "pressed")
            return moved._replace(rows=(), list_turn_id=None, last_touch_ms=event.to_ms)
        case ListCancelled():
            return state._replace(rows=(), list_turn_id=None, last_touch_ms=state.position_ms)
        case DeviceJoined():
            if event.device in state.devices:
                return state
            return state._replace(devices=(*state.devices, event.device), last_touch_ms=state.position_ms)
        case SleepTimerSet():
            timer = SleepTimer(
                after=event.after,
                stop_at_ms=event.stop_at_ms,
                set_seq=seq,
                device=event.device,
                chapter=event.chapter,
                book_ends_first=event.book_ends_first,
                past_end_ms=event.past_end_ms,
            )
            return state._replace(
                sleep_timer=timer, last_touch_ms=state.position_ms, last_timer_set=timer_set(event, seq)
            )
        case SpeedSet():
            changed = None if event.made_at_ms is None else SpeedChanged(event.made_at_ms, state.speed)
            reporter = next((p for p in state.players if p.device == state.last_reporter), None)
            reported_at = reporter.heard_at_ms if reporter is not None else None
            return state._replace(
                speed=event.speed,
                speed_changes=speed_changes_since(state.speed_changes, reported_at, changed),
                sleep_timer=event.sleep_timer,
                last_touch_ms=state.position_ms,
            )
        case SleepTimerCancelled():
            return state._replace(sleep_timer=None, last_touch_ms=state.position_ms)
        case FellAsleep():
            return _fell_asleep(state, seq, event)
        case Paused():
            return _paused(state, seq, event)
        case QuestionAsked():
            return state._replace(last_touch_ms=event.position_ms)
        case BookmarkAdded():
            # someone awake while the book is where it is (ADR 24), as a device joining; the place
            # marked may be another device's, far from it. The book does not move.
            return state._replace(
                bookmarks=bookmarks.with_added(state.bookmarks, event, seq),
                last_touch_ms=state.position_ms,
                last_bookmark_added=bookmark_added(event, seq),
            )
        case BookmarkRemoved():
            return state._replace(bookmarks=bookmarks.without(state.bookmarks, event))
        case ListenerRetired():
            # Nothing plays for a listener who is gone; where the book was stays, for history.
            return state._replace(retired=True, playing=False, players=(), rows=(), list_turn_id=None)
    raise AssertionError(f"unhandled event {event!r}")
