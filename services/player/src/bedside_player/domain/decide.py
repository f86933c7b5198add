"""``decide``: what a command does to a listener's state, as an event. The chronology lives here.

The stream is the clock. ``basis_seq`` is the newest sequence a device had seen when it
spoke. A *report* ("I am at X") is passive progress: it is refused as stale when the
stream holds a newer position the device had not seen, a move by anyone or a report by
another device after its basis; its own reports in flight are not news to it. A *seek* is
the listener's deliberate choice on that device: it is refused only when a move came
after its basis, so a deliberate rewind on an up-to-date device always wins over passive
progress; a skip (a seek that says how far it goes) from a device that had not seen another's
progress goes that far from where the book has got to (``sought``). A report that stops a
playing book is a press of pause, deliberate as a seek is: stale only by another device's
progress, it pauses the book where that progress got to (``pressed_pause_meanwhile``). A
refusal carries the current state; nothing is appended. Device clocks decide nothing.
"""

from collections.abc import Sequence

from bedside_contracts.player import (
    AddBookmark,
    CancelList,
    CancelSleepTimer,
    DeviceJoined,
    DeviceLeft,
    FellAsleep,
    JoinDevice,
    LeaveDevice,
    ListCancelled,
    ListenerRetired,
    ListenerState,
    Moved,
    NoteQuestion,
    Pause,
    Paused,
    PlayerCommand,
    PlayerEvent,
    PositionReported,
    PressRow,
    QuestionAsked,
    RemoveBookmark,
    Report,
    RowPressed,
    Seek,
    Seeked,
    SetSleepTimer,
    SetSpeed,
    SleepTimerCancelled,
    SleepTimerSet,
    SpeedSet,
    TimerRanOut,
    Undo,
)
from bedside_contracts.search import ChapterInfo
from bedside_guard import clock

from bedside_player.domain import bookmarks, sleep
from bedside_player.domain.playing import heard_lately, reached
from bedside_player.domain.state import PlayerState


class Refused(Exception):
    """A command that is well formed but cannot be applied now; nothing is appended."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Stale(Refused):
    """A device spoke without knowing of the last move: it must take the current state."""


class Retired(Stale):
    """The listener was removed: the device takes the state their stream ended with, which says so."""


class Invalid(Refused):
    """A command that can never be right (a place past the end, a row that is not there)."""


class Missing(Invalid):
    """A command naming something the state does not hold (a bookmark removed already)."""


def check_position(position_ms: int, book_end_ms: int | None) -> None:
    if position_ms < 0:
        raise Invalid(f"position_ms must not be negative (got {position_ms})")
    if book_end_ms is not None and position_ms > book_end_ms:
        raise Invalid(
            f"position_ms {position_ms} is past the end of the book ({book_end_ms} ms, {clock(book_end_ms)})"
        )


def check_basis(state: PlayerState, basis_seq: int, *, skip: bool = False) -> None:
    """The rule for a seek (and an undo): a move after the basis makes it stale. Not a skip ("back
    30 s"), which says how far it goes, and goes that far from where the book has got to (``sought``)."""
    if basis_seq > state.seq:
        raise Invalid(
            f"basis_seq {basis_seq} is newer than anything in this book's stream (the newest is {state.seq})"
        )
    if basis_seq < state.last_move_seq and not skip:
        raise Stale(
            f"the book was moved at sequence {state.last_move_seq}, after this device's basis {basis_seq}; "
            "take the current state and seek there"
        )


def check_report_basis(state: PlayerState, device: str, basis_seq: int) -> None:
    """The rule for a report: a move, or another device's report, after the basis makes it stale."""
    check_basis(state, basis_seq)
    newer = state.newest_news_for(device)
    if basis_seq < newer:
        raise Stale(
            f"another device reported a position at sequence {newer}, after this device's basis {basis_seq}; "
            "take the current state and play on from there"
        )


def pressed_pause_meanwhile(state: PlayerState, command: Report) -> bool:
    """A report that stops a playing book, stale only by another device's progress: the listener
    pressed pause on this device while the other's report was on its way. The pause is theirs, as a
    seek would be (a move after the basis still refuses it, ``check_basis``), but not its place:
    the book pauses where it has got to (``paused_where``), never dragged back to this device's.
    Refused, the press would be undone: the page would take the state and play on. Only a press
    (``pressed``): a pause the device made itself is a stale report like any other."""
    if command.playing or not state.playing or not command.pressed:
        return False
    check_basis(state, command.basis_seq)
    return command.basis_seq < state.newest_news_for(command.device)


def withdraws_list(state: PlayerState) -> bool:
    """Whether the listener's own move (a seek, an undo) takes down the list on the screen.

    It does, whenever there is one: its rows were drawn for a question asked at another
    place, and a press after moving elsewhere would surprise. The move records it
    (``withdrew_list``), so every device and every replay agrees; an event stored before
    this rule says nothing and withdraws nothing. A pressed row ends its list itself, and a
    goto ends its own turn's (``evolve``); a report, a timer's pause or a new list of the
    same turn (which replaces it) withdraw nothing.
    """
    return bool(state.rows)


def set_sleep_timer(
    state: PlayerState,
    command: SetSleepTimer,
    book_end_ms: int | None,
    chapters: Sequence[ChapterInfo],
    now_ms: int,
) -> SleepTimerSet:
    """Fix the stop as a book time now, from where the book is when the timer is set; a turn's timer
    records what was asked and when, for another device that heard the same (``heard_twice``)."""
    if command.after == "chapter_end" and command.chapter is not None:
        named = sleep.named_chapter_end_stop(chapters, command.chapter, book_end_ms)
        if named is None:
            raise Invalid(f"this book has no chapter {command.chapter}")
        if named <= state.position_ms:
            raise Invalid(f"chapter {command.chapter} has ended already; set the timer in minutes")
        stop = named
    elif command.after == "chapter_end":
        found = sleep.chapter_end_stop(chapters, state.position_ms, book_end_ms)
        if found is None:
            raise Invalid("this book has no chapter end to stop at; set the timer in minutes")
        stop = found
    else:
        stop = sleep.minutes_stop(state.position_ms, command.after, book_end_ms, state.speed)
    if stop <= state.position_ms:
        raise Invalid("the book is at its end: there is nothing left for a sleep timer to stop")
    past_end_ms = None
    if command.after != "chapter_end" and sleep.book_ends_first(
        state.position_ms, command.after, book_end_ms, state.speed
    ):
        past_end_ms = sleep.minutes_reach(state.position_ms, command.after, state.speed)
    return SleepTimerSet(
        device=command.device,
        after=command.after,
        stop_at_ms=stop,
        chapter=command.chapter,
        book_ends_first=past_end_ms is not None,
        past_end_ms=past_end_ms,
        request_key=command.heard.request_key if command.heard else None,
        made_at_ms=now_ms if command.heard else None,
    )


def set_speed(state: PlayerState, command: SetSpeed, now_ms: int, book_end_ms: int | None) -> SpeedSet | None:
    """The new speed, with a running timer as it leaves it, from where the book has got to now; the
    speed it plays at already changes nothing."""
    if command.speed == state.speed:
        return None
    timer = state.sleep_timer and sleep.after_a_speed_change(
        state.sleep_timer, paused_where(state, now_ms, book_end_ms), state.speed, command.speed, book_end_ms
    )
    return SpeedSet(device=command.device, speed=command.speed, sleep_timer=timer, made_at_ms=now_ms)


def timer_ran_out(state: PlayerState, command: TimerRanOut, book_end_ms: int | None) -> FellAsleep | None:
    """The pause, once: a second device reporting the same run-out changes nothing, nor does the
    run-out of a timer set again since (told late, by a device that was out of reach)."""
    timer = state.sleep_timer
    if timer is None or command.timer_seq not in (None, timer.set_seq):
        return None
    check_position(command.position_ms, book_end_ms)
    check_basis(state, command.basis_seq)
    paused = sleep.paused_at(command.position_ms, timer.stop_at_ms)
    return FellAsleep(
        device=command.device,
        paused_at_ms=paused,
        asleep_at_ms=sleep.asleep_at(state.last_touch_ms, paused),
        basis_seq=command.basis_seq,
    )


def pause(state: PlayerState, command: Pause, now_ms: int, book_end_ms: int | None) -> Paused | None:
    """A pause asked for by the listener away from any device (ADR 46), recorded as the sleep
    timer's pause is, where the book was when they asked (``paused_where``). A paused book
    changes nothing; one whose devices went quiet is still paused, in case one plays unheard."""
    if not state.playing:
        return None
    return Paused(device=command.device, paused_at_ms=paused_where(state, now_ms, book_end_ms))


def add_bookmark(
    state: PlayerState, command: AddBookmark, now_ms: int, book_end_ms: int | None
) -> PlayerEvent:
    """A bookmark where the device is, or, asked with no place (the turn), where the book has got to."""
    if command.position_ms is None:
        at_ms = paused_where(state, now_ms, book_end_ms)
    else:
        check_position(command.position_ms, book_end_ms)
        at_ms = command.position_ms
    try:
        return bookmarks.add(state.bookmarks, command, at_ms, now_ms)
    except bookmarks.BookmarkRefused as refused:
        raise Invalid(str(refused)) from None


def remove_bookmark(state: PlayerState, command: RemoveBookmark) -> PlayerEvent:
    try:
        return bookmarks.remove(state.bookmarks, command)
    except bookmarks.BookmarkRefused as refused:
        raise Missing(str(refused)) from None


def paused_where(state: PlayerState, now_ms: int, book_end_ms: int | None) -> int:
    """Where a playing book has got to at ``now_ms``: the newest report plus the time since, when
    that report is the newest word on where the book is (after a move, the move's place), never
    past the end of the book or a running sleep timer's stop, which would have paused it there."""
    reporter = None
    if state.last_report_seq > state.last_move_seq:
        reporter = next((p for p in state.players if p.device == state.last_reporter), None)
    stops = [book_end_ms] if book_end_ms is not None else []
    if state.sleep_timer is not None and state.sleep_timer.stop_at_ms > state.position_ms:
        stops.append(state.sleep_timer.stop_at_ms)
    ceiling = min(stops, default=None)
    return reached(
        state.position_ms, reporter, now_ms, ceiling, speed=state.speed, speed_changes=state.speed_changes
    )


def told_joining(
    told: ListenerState, state: PlayerState, device: str, now_ms: int, book_end_ms: int | None
) -> ListenerState:
    """The state as a device joining is told it: a book playing elsewhere is where it has got to by now
    (``paused_where``), not at its newest report, up to a report's interval behind, from which the
    new device started and jumped forward at the next report. Told only to it: every other device
    hears the join as a repeat of the report (ADR 44), and the stream is unchanged. A device whose
    own report is the newest (a tab reopened after it died playing) is told where it last was: the
    time since is time nobody heard."""
    if not told.playing or state.last_reporter == device:
        return told
    return told.model_copy(update={"position_ms": paused_where(state, now_ms, book_end_ms)})


def sought(state: PlayerState, command: Seek, now_ms: int, book_end_ms: int | None) -> int:
    """Where a seek puts the book: the place chosen, except a skip ("back 30 s") from a device that
    had not seen another's progress or move, which goes as far from where the book has got to. Its
    own sum was made from a stale place: a phone paused at 0:36:19 while a tablet played on to
    0:37:03 went back 1:14, and took the tablet with it."""
    if command.by_ms is None or command.basis_seq >= state.newest_news_for(command.device):
        return command.position_ms
    skipped = paused_where(state, now_ms, book_end_ms) + command.by_ms
    return max(0, skipped if book_end_ms is None else min(skipped, book_end_ms))


def left_from(state: PlayerState, command: Seek | Undo, book_end_ms: int | None) -> int:
    """Where a seek or an undo leaves from: where its device says it had played to, which is newer
    than any report of it, unless another device's word came since; else the book's recorded place."""
    device, basis_seq = command.device, command.basis_seq
    if command.from_ms is None or device is None or basis_seq is None:
        return state.position_ms
    if basis_seq < state.newest_news_for(device):
        return state.position_ms
    check_position(command.from_ms, book_end_ms)
    return command.from_ms


def leave(
    state: PlayerState, command: LeaveDevice, book_end_ms: int | None, now_ms: int
) -> DeviceLeft | None:
    """A playing device going away (ADR 45). While another device plays, the book plays on; the
    last one leaves it paused where it was heard last: the device's position when a report of
    it would be taken, else where the stream last placed the book. A device that was not
    playing changes nothing. Another device that has gone quiet plays nothing (ADR 48)."""
    if all(player.device != command.device for player in state.players):
        return None
    others = [p for p in state.players if p.device != command.device and heard_lately(p, now_ms)]
    if others:
        return DeviceLeft(device=command.device, basis_seq=command.basis_seq)
    check_position(command.position_ms, book_end_ms)
    try:
        check_report_basis(state, command.device, command.basis_seq)
        paused = command.position_ms
    except Stale:
        paused = state.position_ms
    return DeviceLeft(device=command.device, paused_at_ms=paused, basis_seq=command.basis_seq)


REMOVED = "this listener was removed from Bedside; nothing more is recorded for them"


def refuse_if_retired(state: PlayerState) -> None:
    """A removed listener's stream ends with their retirement: every command after it is refused."""
    if state.retired:
        raise Retired(REMOVED)


def retire(state: PlayerState) -> ListenerRetired | None:
    """The event that ends a removed listener's stream in one book (None when it has ended)."""
    return None if state.retired else ListenerRetired()


def decide(
    state: PlayerState,
    command: PlayerCommand,
    *,
    now_ms: int,
    book_end_ms: int | None = None,
    chapters: Sequence[ChapterInfo] = (),
) -> PlayerEvent | None:
    """The event ``command`` makes from ``state``, or None when it changes nothing.

    ``now_ms`` is the player's clock (ms since the epoch): a report is stamped with it, and
    it tells a device still playing from one gone quiet (ADR 48). ``book_end_ms`` is the
    book's length, where known, for positions past the end; ``chapters`` are the book's, for
    a timer that stops at the end of one. Raises ``Stale`` (``Retired`` among them) or ``Invalid``.
    """
    refuse_if_retired(state)

    def chapter_end_ms(to_ms: int) -> int | None:
        return sleep.chapter_end_after_move(state.sleep_timer, to_ms, chapters, book_end_ms)

    match command:
        case Report():
            check_position(command.position_ms, book_end_ms)
            if pressed_pause_meanwhile(state, command):
                return Paused(device=command.device, paused_at_ms=paused_where(state, now_ms, book_end_ms))
            check_report_basis(state, command.device, command.basis_seq)
            return PositionReported(
                device=command.device,
                position_ms=command.position_ms,
                playing=command.playing,
                basis_seq=command.basis_seq,
                device_clock=command.device_clock,
                heard_at_ms=now_ms,
                pressed=command.pressed,
            )
        case Seek():
            check_position(command.position_ms, book_end_ms)
            check_basis(state, command.basis_seq, skip=command.by_ms is not None)
            to_ms = sought(state, command, now_ms, book_end_ms)
            if to_ms == state.position_ms and not state.playing and not state.rows:
                return None  # where a paused book stands already: no move, no history row
            return Seeked(
                device=command.device,
                from_ms=left_from(state, command, book_end_ms),
                position_ms=to_ms,
                basis_seq=command.basis_seq,
                device_clock=command.device_clock,
                withdrew_list=withdraws_list(state),
                chapter_end_ms=chapter_end_ms(to_ms),
                book_end_ms=book_end_ms,
            )
        case PressRow():
            if not state.rows:
                raise Invalid("there is no list on the screen to press")
            if command.list_turn_id is not None and command.list_turn_id != state.list_turn_id:
                raise Stale(
                    "the list on the screen changed before the row was pressed; choose from the new one"
                )
            if command.row >= len(state.rows):
                raise Invalid(f"the list has {len(state.rows)} rows; row {command.row} is not one of them")
            to_ms = state.rows[command.row].start_ms
            return RowPressed(
                row=command.row,
                from_ms=state.position_ms,
                to_ms=to_ms,
                device=command.device,
                turn_id=state.list_turn_id,
                chapter_end_ms=chapter_end_ms(to_ms),
                book_end_ms=book_end_ms,
            )
        case CancelList():
            return ListCancelled(device=command.device) if state.rows else None
        case Undo():
            if state.before_move_ms is None:
                raise Invalid("nothing to undo: the book has not been moved")
            if command.basis_seq is not None:
                check_basis(state, command.basis_seq)
            return Moved(
                cause="undo",
                from_ms=left_from(state, command, book_end_ms),
                to_ms=state.before_move_ms,
                device=command.device,
                request_key=command.heard.request_key if command.heard else None,  # a turn's, for heard_twice
                made_at_ms=now_ms if command.heard else None,
                withdrew_list=withdraws_list(state),
                chapter_end_ms=chapter_end_ms(state.before_move_ms),
                book_end_ms=book_end_ms,
            )
        case JoinDevice():
            if command.device in state.devices:
                return None
            return DeviceJoined(device=command.device, device_clock=command.device_clock)
        case LeaveDevice():
            return leave(state, command, book_end_ms, now_ms)
        case SetSleepTimer():
            return set_sleep_timer(state, command, book_end_ms, chapters, now_ms)
        case SetSpeed():
            return set_speed(state, command, now_ms, book_end_ms)
        case CancelSleepTimer():
            return SleepTimerCancelled(device=command.device) if state.sleep_timer else None
        case TimerRanOut():
            return timer_ran_out(state, command, book_end_ms)
        case Pause():
            return pause(state, command, now_ms, book_end_ms)
        case NoteQuestion():
            if state.sleep_timer is None:
                return None  # setting a timer is a sign of its own: no sign before it counts
            return QuestionAsked(
                turn_id=command.turn_id, position_ms=paused_where(state, now_ms, book_end_ms)
            )
        case AddBookmark():
            return add_bookmark(state, command, now_ms, book_end_ms)
        case RemoveBookmark():
            return remove_bookmark(state, command)
    raise AssertionError(f"unhandled command {command!r}")
