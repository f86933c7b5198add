"""The sleep timer and the pause as a turn asks for them: plain code, no I/O.

Neither is a move nor an offer (``rules.Turn.note_playback``). What is said of a timer names
no time ahead and no chapter but one the listener named: its stop is a place they have not
reached. How much of the book is left is no secret (the page shows its length), so a timer the
book's end cuts short is said as the book ending first (``ends_first``): the player says so on the
timer it set (``SleepTimer.book_ends_first``), by the one rule the page reads too.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bedside_contracts.player import (
    FASTEST_SPEED,
    SLOWEST_SPEED,
    CancelList,
    CancelSleepTimer,
    Heard,
    ListenerState,
    Pause,
    SetSleepTimer,
    SetSpeed,
    SleepTimer,
    listening_ms,
)
from bedside_contracts.search import ChapterInfo
from bedside_contracts.turn import PlaybackArgs
from bedside_guard import OPENING_CHAPTER, chapter_name

from bedside_turn.domain.lengths import said_length, said_speed
from bedside_turn.domain.own_words import OwnWords

VOICE_DEVICE = "voice"
"""The device named on a timer set by a turn that came with none (the CLI, a test)."""

TOO_LONG = OwnWords("I can set the sleep timer for up to ten hours.")
NO_CHAPTER_END_TO_STOP = OwnWords("I can't find a chapter end to stop at; try a number of minutes.")
OTHER_STOPS = "I can stop at the end of this chapter, or after a number of minutes."
NO_NAMED_CHAPTER_END = OwnWords(
    "I can't stop at the end of that chapter: it has ended already, or the book has none by that number. "
    + OTHER_STOPS
)
"""When the chapter list could not be read to say which."""


def no_named_chapter_end(n: int, chapters: Sequence[ChapterInfo]) -> OwnWords:
    """Why the player refused a timer for the end of chapter ``n``, as the chapter list tells it: a
    chapter the book has was refused for having ended. The end of an opening the book does not have
    was asked as "stop at chapter 1": in such a book chapter 1 begins it."""
    has_it = any(c.n == n for c in chapters)
    if n == OPENING_CHAPTER and not has_it:
        return OwnWords(f"Chapter 1 has begun already. {OTHER_STOPS}")
    why = "it has ended already" if has_it else f"the book has no chapter {n}"
    return OwnWords(f"I can't stop at the end of {chapter_name(n)}: {why}. {OTHER_STOPS}")


NOT_DONE = OwnWords("I couldn't do that just now.")
STOP_AT_CHAPTER_END = OwnWords("I'll stop at the end of this chapter.")
NO_TIMER = OwnWords("There's no sleep timer running.")
TIMER_OFF = OwnWords("The sleep timer is off.")
ALREADY_PAUSED = OwnWords("The book is already paused.")
PAUSED = OwnWords("Paused.")
LIST_CLEARED = OwnWords("All right, the list is gone. The book stays where it is.")
NO_LIST = OwnWords("There's no list on the screen. The book stays where it is.")


@dataclass(frozen=True)
class PlaybackDone:
    """What the player made of one playback call."""

    args: PlaybackArgs
    accepted: bool
    changed: bool
    """False when the player had nothing to change (no timer to cancel, a book already paused)."""
    reason: str = ""
    stop_in_ms: int | None = None
    """Listening left until the stop of the timer the player set (its state after the command)."""
    book_ends_first: bool = False
    """The player's word that the timer it set stops at the book's end, before the minutes asked."""
    previewed: bool = False
    """Asked as if elsewhere (``bedside ask --at``): what the player would be sent, not sent."""
    speed: float = 1.0
    """How fast the book plays once the player took the command."""


def ends_first(done: PlaybackDone) -> int | None:
    """The listening left when the player says the book ends before the minutes asked, else None:
    the timer stops there, and saying the minutes would overstate."""
    if not done.accepted or done.args.minutes is None or done.stop_in_ms is None:
        return None
    return done.stop_in_ms if done.book_ends_first else None


def speed_meant(args: PlaybackArgs, speed_now: float) -> float:
    """The speed ``args`` asks for from ``speed_now``: as said, or changed by as much, held to the
    slowest and the fastest there are ("faster" at the fastest stays there)."""
    asked = args.speed if args.speed is not None else speed_now + (args.speed_by or 0.0)
    return min(FASTEST_SPEED, max(SLOWEST_SPEED, round(asked, 2)))


def command_for(
    args: PlaybackArgs, device: str | None, heard: Heard | None = None, speed_now: float = 1.0
) -> SetSleepTimer | CancelSleepTimer | Pause | CancelList | SetSpeed:
    """The player's own command for ``args``: the same the page's buttons send, a timer with the request
    as read (``heard``: another device's copy of it is not set again, ADR 77); a request from no device
    (the terminal) is no copy of another device's. A speed changed by an amount is counted from
    ``speed_now``, the state's."""
    if args.action == "speed":
        return SetSpeed(device=device, speed=speed_meant(args, speed_now))
    if args.action == "sleep_timer":
        after = "chapter_end" if args.chapter_end else args.minutes
        assert after is not None  # PlaybackArgs holds one of the two
        heard_on_a_device = heard if device else None
        return SetSleepTimer(
            device=device or VOICE_DEVICE, after=after, chapter=args.chapter, heard=heard_on_a_device
        )
    if args.action == "cancel_sleep_timer":
        return CancelSleepTimer(device=device or VOICE_DEVICE)
    if args.action == "clear_list":
        return CancelList(device=device)
    return Pause(device=device)


def as_running(args: PlaybackArgs, timer: SleepTimer | None) -> PlaybackArgs:
    """A timer of minutes said as the player has it running once it took ``args``: when the same request
    heard on another device was set first, its minutes ("add ten minutes" reckoned before that one was
    added would say ten more), so both devices say the same (ADR 77)."""
    if args.minutes is None or timer is None or not isinstance(timer.after, int):
        return args
    return args.model_copy(update={"minutes": timer.after})


def changes(args: PlaybackArgs, state: ListenerState) -> bool:
    """Whether ``args`` has anything to change in ``state``: a timer to cancel, a book playing, a list."""
    if args.action == "cancel_sleep_timer":
        return state.sleep_timer is not None
    if args.action == "clear_list":
        return bool(state.rows)
    if args.action == "pause":
        return state.playing
    if args.action == "speed":
        return speed_meant(args, state.speed) != state.speed
    return True


BOUNDS = (SLOWEST_SPEED, FASTEST_SPEED)
SPEEDS_THERE_ARE = f"from {SLOWEST_SPEED:g} to {FASTEST_SPEED:g} times the narrator's pace"
SPEED_HOW = OwnWords(
    'Say how fast: "faster", "a bit slower", "1.5 times speed" or "normal speed"; '
    f"I can play it {SPEEDS_THERE_ARE}."
)
NO_SUCH_SPEED = OwnWords(f"I can play the book {SPEEDS_THERE_ARE}.")


def speed_there_is(speed: float | None) -> bool:
    """Whether a speed said is one the player plays at (a speed changed by an amount always is)."""
    return speed is None or SLOWEST_SPEED <= speed <= FASTEST_SPEED


def duration(minutes: int) -> str:
    """Minutes as said aloud: "15 minutes", "an hour", "2 hours", "90 minutes"."""
    if minutes % 60 == 0:
        hours = minutes // 60
        return "an hour" if hours == 1 else f"{hours} hours"
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def lines(done: PlaybackDone) -> list[str]:
    """The tool result the model reads."""
    if not done.accepted:
        return [f"Refused: {done.reason or 'the player could not do that'}."]
    match done.args.action:
        case "sleep_timer" if done.args.chapter is not None:
            return [
                f"Done: the sleep timer will pause the book at the end of {chapter_name(done.args.chapter)}."
            ]
        case "sleep_timer" if done.args.chapter_end:
            return ["Done: the sleep timer will pause the book at the end of the chapter playing."]
        case "sleep_timer" if (left := ends_first(done)) is not None:
            return [
                f"Done: the book ends in {said_length(left)}, sooner than the {done.args.minutes} minutes "
                "asked, so the sleep timer will pause the book at its end."
            ]
        case "sleep_timer":
            return [f"Done: the sleep timer will pause the book after {duration(done.args.minutes or 0)}."]
        case "cancel_sleep_timer" if not done.changed:
            return ["Done: there was no sleep timer running."]
        case "cancel_sleep_timer":
            return ["Done: the sleep timer is off."]
        case "clear_list" if not done.changed:
            return ["Done: there was no list on the screen."]
        case "clear_list":
            return ["Done: the list is off every screen; the book did not move."]
        case "speed" if not done.changed:
            return [f"Done: the book already plays at {said_speed(done.speed)}; nothing changed."]
        case "speed":
            return [f"Done: the book plays at {said_speed(done.speed)} on every device."]
        case _ if not done.changed:
            return ["Done: the book was already paused."]
        case _:
            return ["Done: the book is paused on every device."]


def spoken(done: PlaybackDone) -> OwnWords:
    """The keyless answer: one short sentence of the turn's own words."""
    if done.previewed:
        return OwnWords(f"Preview only (nothing was changed): {spoken(replace(done, previewed=False))}")
    if not done.accepted:
        if done.args.action == "sleep_timer" and done.args.chapter is not None:
            return NO_NAMED_CHAPTER_END
        if done.args.action == "sleep_timer" and done.args.chapter_end:
            return NO_CHAPTER_END_TO_STOP
        return NOT_DONE
    match done.args.action:
        case "sleep_timer" if done.args.chapter is not None:
            return OwnWords(f"I'll stop at the end of {chapter_name(done.args.chapter)}.")
        case "sleep_timer" if done.args.chapter_end:
            return STOP_AT_CHAPTER_END
        case "sleep_timer" if (left := ends_first(done)) is not None:
            return OwnWords(f"The book ends in {said_length(left)}, so I'll stop there.")
        case "sleep_timer":
            return OwnWords(f"I'll stop in {duration(done.args.minutes or 0)}.")
        case "cancel_sleep_timer" if not done.changed:
            return NO_TIMER
        case "cancel_sleep_timer":
            return TIMER_OFF
        case "clear_list":
            return LIST_CLEARED if done.changed else NO_LIST
        case "speed" if not done.changed and done.args.speed is None and done.speed in BOUNDS:
            way = "fast" if done.speed == FASTEST_SPEED else "slow"
            return OwnWords(f"It's playing at {said_speed(done.speed)} already, as {way} as it goes.")
        case "speed" if not done.changed:
            return OwnWords(f"It's playing at {said_speed(done.speed)} already.")
        case "speed":
            return OwnWords(f"Now playing at {said_speed(done.speed)}.")
        case _ if not done.changed:
            return ALREADY_PAUSED
        case _:
            return PAUSED


def nothing_more_to_undo(speed: float) -> OwnWords:
    """ "Undo" again once a speed change was taken back: the speed before is playing, and stays."""
    return OwnWords(f"There's nothing more to undo: it's playing at {said_speed(speed)} again.")


def preview_lines(args: PlaybackArgs) -> list[str]:
    return [f"Preview only: {args.action.replace('_', ' ')} would go to the player; nothing was changed."]


NO_TIMER_TO_RESTART = OwnWords(
    'There\'s no sleep timer running to start again. Say how long, for example "sleep in 20 minutes".'
)


def with_minutes_added(timer: SleepTimer | None, here_ms: int, added: int, speed: float = 1.0) -> int:
    """ "Add ten minutes to the timer": the minutes of a timer set from here that stops ``added``
    minutes after the running one would (before it, taken off); with none running, ``added`` alone.
    At least a minute: a stop at once would be a pause."""
    if timer is None:
        return max(1, added)
    left_ms = listening_ms(max(0, timer.stop_at_ms - here_ms), speed)
    return max(
        1, -(-left_ms // 60_000) + added
    )  # a part of a minute left counts whole: never sooner than asked


def still_awake(timer: SleepTimer | None, playing: bool, here_ms: int, speed: float = 1.0) -> OwnWords:
    """ "I'm still awake": what the book will do now, and how to keep it going (the turn cannot start
    the sound: a page may only after a press on it)."""
    if not playing:
        return OwnWords("Good. Press play to carry on; I can't start the sound myself.")
    if timer is None:
        return OwnWords("Good. No sleep timer is set, so the book plays on.")
    return OwnWords(f'Good. {timer_now(timer, here_ms, speed)} Say "add ten minutes" to keep going longer.')


TO_CANCEL_IT = OwnWords(' To turn it off, say "cancel the sleep timer".')
"""After "cancel that" to a timer changed, not set: which timer to cancel is the listener's to say."""


def timer_now(timer: SleepTimer | None, here_ms: int, speed: float = 1.0) -> OwnWords:
    """ "When will it stop?": the running sleep timer as the player holds it, in the turn's own words:
    how long until it stops is listening, at ``speed``."""
    if timer is None:
        return OwnWords("There's no sleep timer on.")
    left = said_length(listening_ms(max(0, timer.stop_at_ms - here_ms), speed))
    if timer.after == "chapter_end":  # how long is what a sleepy listener asking wants to hear
        which = "this chapter" if timer.chapter is None else chapter_name(timer.chapter)
        return OwnWords(f"The sleep timer stops the book at the end of {which}, in {left}.")
    if timer.book_ends_first:
        return OwnWords(f"The book ends first, in {left}; it stops there.")
    return OwnWords(f"The sleep timer stops the book in {left}.")
