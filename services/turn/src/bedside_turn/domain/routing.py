"""The router's decisions that need no I/O: who answers, and what the keyless router offers.

The router itself (``bedside_turn.keyless``) calls the tools; these say with what.
"""

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Literal

from bedside_contracts.common import LONGEST_BOOK_MS
from bedside_contracts.player import ListenerState
from bedside_contracts.search import BookInfo, ChapterInfo, Hit, chapter_at
from bedside_contracts.turn import (
    EARLIER_PLACE_FIELDS,
    Direction,
    Exchange,
    OfferPositionsArgs,
    PlaybackArgs,
    RecallArgs,
    ToolCallRecord,
)
from bedside_guard import MAX_ROWS, OPENING_CHAPTER, ahead_of
from pydantic import BaseModel

from bedside_turn.domain import history, intents, numbers
from bedside_turn.domain.chapters import chapter_by_title_alone, title_words
from bedside_turn.domain.intents import Intent
from bedside_turn.domain.recap import RecapAsked

MIN_SCORE = 0.0325
"""A hit scoring below this is not offered: 1/61 + 1/62, so a passage both rankings put in
their top two is always offered, whatever the book's size (measured: the turn README)."""


def model_may_answer(intent: Intent, earlier: Sequence[Exchange] = ()) -> bool:
    """Whether a model, when there is one, answers this: not an undo nor "the second one" (a row of
    the list on the screen pressed by voice), nor "that one", nor "go there" when the last answer
    listed one row (pressing it), nor "cancel that" (what the turn before did), commands and not
    judgements;
    not "where am I?", "how long is left?", "have I heard this before?" nor "when did I last listen?",
    which only the position and its history answer, and the model is never told it (ADR 75);
    not "halfway through the book" nor "ten minutes into chapter 5", which the book's and the
    chapter's lengths place, as plain code's arithmetic; not "the chapter called The Fire", which the
    chapter list names exactly; not "who wrote this?" nor "how many chapters are left?", which the
    book's catalog entry answers, nor "when will it stop?", "add ten minutes to the timer" or "reset the
    timer", which the player's sleep timer does, nor "the final chapter" or "skip the intro", which the
    chapter list does; not "play", "louder", "slower", "switch to another book" nor "play it on the
    speaker", which no tool can do, so plain code's honest answer is all there is to say; not "bookmark
    this", "go to my bookmark" nor "list my bookmarks", whose places are where the listener is and was
    (ADR 83), which the model never reads;
    not "say that again" just after an answer, which is said again as it was;
    not "where did I start last night?", whose sitting plain code counts from the history's breaks;
    not "thanks" nor "goodnight", whose answer names the running sleep timer the model is not told, nor
    "stop at midnight", which no tool sets and no clock of the listener's the turn has places;
    not a move by a number without a unit ("back 5"), nor by no number ("go back a while"), nor a start
    again with no start named ("start over"): which unit, which amount and which start are plain code's
    rules, and its reply says which it took;
    nor two asks said together of which plain code answers one ("where am I and what did I miss"), nor a
    move said with one ("go back 2 minutes and add ten minutes to the timer"): the whole breath is plain
    code's, as the model would drop the part it is not given the means to do, or do it wrong."""
    if isinstance(intent, intents.Jump):
        return intent.unit_taken is None and not intent.amount_chosen
    if isinstance(intent, intents.TimerHowLong):
        return not intent.clock_said
    if isinstance(intent, intents.GoThere):  # "that one" is a row of the list, never a quote's place
        return not intent.row_only and not lists_one_row(earlier)
    if isinstance(intent, intents.Earlier):
        return not intent.began_last_time
    if isinstance(intent, intents.BothAsked):  # "who is Oskar and what did I miss": the model may do both
        return model_may_answer(intent.first, earlier) and model_may_answer(intent.second, earlier)
    if isinstance(
        intent, intents.Together
    ):  # "go back 2 minutes and add ten minutes to the timer": no tool adds
        return model_may_answer(intent.move, earlier) and model_may_answer(intent.then, earlier)
    return not isinstance(
        intent,
        intents.Undo
        | intents.CancelThat
        | intents.ClearList
        | intents.SayAgain
        | intents.ChapterTitled
        | intents.PressListed
        | intents.ShareOfBook
        | intents.IntoChapter
        | intents.WhereAmI
        | intents.ListeningAsked
        | intents.LastMoveAsked
        | intents.PlayingAsked
        | intents.SpoilerAsked
        | intents.SyncAsked
        | intents.HeardBefore
        | intents.TimeLeft
        | intents.AboutTheBook
        | intents.ChapterTitleAsked
        | intents.TimerAsked
        | intents.TimerAdded
        | intents.TimerAgain
        | intents.FinalChapter
        | intents.SkipOpening
        | intents.PlayOn
        | intents.Volume
        | intents.WakeUpAsked
        | intents.Bookmark
        | intents.ToBookmark
        | intents.BookmarksAsked
        | intents.BookmarkRemoval
        | intents.OtherBook
        | intents.OtherDevice
        | intents.Speed
        | intents.Courtesy
        | intents.StartAgain,
    )


_MAY_HOLD_A_NAME = (
    intents.FindPlace | intents.Question | intents.TwoQuestions | intents.ChapterTitled | intents.Other
)


def needs_the_books_names(heard: str) -> bool:
    """Whether a spoken request, heard without the book's names as hints, may hold one and is heard
    again with them: a moment described, a question of the story, a chapter's title, or words read as
    nothing (a name heard wrong). A command plain code reads (a move, the timer, undo) names no one,
    and the names only make its words worse (ADR 74)."""
    return _may_hold_a_name(intents.read(heard))


def _may_hold_a_name(asked: Intent) -> bool:
    """Whether a request, or any of those said together ("who is Oskar and go back 5 minutes": the
    question), may name someone."""
    if isinstance(asked, intents.BothAsked):
        return _may_hold_a_name(asked.first) or _may_hold_a_name(asked.second)
    if isinstance(asked, intents.Together):
        return _may_hold_a_name(asked.move) or _may_hold_a_name(asked.then)
    return isinstance(asked, _MAY_HOLD_A_NAME)


def reads_history(intent: Intent, *, with_model: bool) -> bool:
    """Whether the turn needs the stored exchanges: a model reads them; plain code only for
    "the other one", "take me there", "tell me more", "the time before that", "cancel that" and "undo"
    (which may take back the timer or the list the turn before made)."""
    return with_model or isinstance(
        intent,
        intents.OtherOne
        | intents.GoThere
        | intents.MoreOfThat
        | intents.EarlierAgain
        | intents.CancelThat
        | intents.Undo,
    )


_PLAY_A_TITLE = re.compile(
    r"^(?:(?:can|could) you\s+)?(?:please\s+)?(?:play|open|read|listen to|put on|start)\s+(?:me\s+)?"
    r"(?P<title>.+?)(?:\s+please)?[.!?]?$"
)


def title_asked_to_play(utterance: str) -> tuple[str, ...] | None:
    """The words of what ``utterance`` asks to play ("play black beauty"), a title's words without
    articles; None when it asks nothing of the kind."""
    asked = _PLAY_A_TITLE.match(utterance.strip().lower())
    return title_words(asked["title"]) if asked is not None else None


def names_another_book(asked: tuple[str, ...], this_title: str, titles: Sequence[str]) -> bool:
    """Whether the words ``title_asked_to_play`` read are the title of a book of the library other
    than this one: a search of this book for them would offer places in it. The titles are the
    library's, which the page lists: no spoiler."""
    return asked != title_words(this_title) and any(asked == title_words(title) for title in titles)


_CHAPTER_WORDS = "part|book|section|volume|letter|stave"
_TITLED_BY_NUMBER = re.compile(rf"^({_CHAPTER_WORDS})\s+(\w+)$", re.IGNORECASE)
_NAMED_BY_NUMBER = re.compile(rf"\b({_CHAPTER_WORDS})(?=\s+(\w+))", re.IGNORECASE)


def _number_said(word: str) -> int | None:
    """A chapter's number as a title or a listener writes it: digits, words or a Roman numeral."""
    if word.isdigit():
        return int(word)
    try:
        return int(numbers.number_of(word.lower()))
    except (KeyError, ValueError):
        return numbers.roman_value(word.lower()) if word.lower() != "i" or word == "I" else None


def chapters_called(chapters: Sequence[ChapterInfo]) -> str | None:
    """The word a book's own titles call its chapters ("Part 2", "Book IV"), when every chapter past
    the opening is titled by that one word and its own number: a listener says "part 2" for it."""
    called: set[str] = set()
    for chapter in (c for c in chapters if c.n != OPENING_CHAPTER):
        titled = _TITLED_BY_NUMBER.match(chapter.title.strip())
        if titled is None or _number_said(titled[2]) != chapter.n:
            return None
        called.add(titled[1].lower())
    return called.pop() if len(called) == 1 else None


def may_name_chapters_otherwise(utterance: str) -> bool:
    """Whether ``utterance`` has a word a book may call its chapters by, before a number
    (``chapters_called``), so that the book's titles are worth reading."""
    return any(_number_said(said[2]) is not None for said in _NAMED_BY_NUMBER.finditer(utterance))


def said_as_chapters(utterance: str, called: str) -> str:
    """``utterance`` with the book's word for its chapters, before a number, read as "chapter"
    ("go to part 2"); the word otherwise stays ("the part where the ice cracks")."""

    def chapter_if_numbered(said: re.Match[str]) -> str:
        numbered = said[1].lower() == called and _number_said(said[2]) is not None
        return "chapter" if numbered else said[1]

    return _NAMED_BY_NUMBER.sub(chapter_if_numbered, utterance)


ANSWERED_WITHIN_MS = 5 * 60_000
"""A question put to the listener is answered within this, or not at all: "the end of the chapter"
said the next night is a move, not the answer to a "For how long?" left unanswered."""


def asked_how_long(earlier: Sequence[Exchange], now_ms: int) -> bool:
    """Whether the last answer, a moment ago, asked for the sleep timer's length (plain code's
    ``intents.TimerHowLong``), so that a length said alone now answers it
    (``intents.timer_length_alone``). A model that asked in its own words reads the answer itself."""
    last = answered_just_now(earlier, now_ms)
    return last is not None and last.asked == "timer_length"


def answered_just_now(
    earlier: Sequence[Exchange], now_ms: int, within_ms: int = ANSWERED_WITHIN_MS
) -> Exchange | None:
    """The last exchange, when it was answered within ``within_ms`` of ``now_ms``: what words said now
    may answer or take back ("For how long?", "cancel that")."""
    last = earlier[-1] if earlier else None
    if last is None or last.answered_at_ms is None or now_ms - last.answered_at_ms > within_ms:
        return None
    return last


MOVED_AGAIN_WITHIN_MS = 2 * 60_000
"""A step said alone ("another minute") this soon after a move by an amount goes on with that move;
later it is minutes on the timer, as it is at any other time."""
MORE_OF_A_MOVE_MS = 60_000
"""A step alone of at most this, or of twice the move, is more of the move: "another minute" after "go
back 30 seconds" goes on back, "five more minutes" after it asks for five more minutes of listening
(the usual way to lengthen the sleep timer), not a move back to the start."""


def moved_by_just_now(earlier: Sequence[Exchange], now_ms: int) -> int | None:
    """How far the last turn, a moment ago, moved the book by an amount ("go back 1 minute": -60,000);
    None when it did anything else."""
    last = answered_just_now(earlier, now_ms, MOVED_AGAIN_WITHIN_MS)
    if last is None or last.outcome != "moved":
        return None
    offsets = [
        offer.offset_ms
        for call in last.calls
        if not call.refused and (offer := call.args_as(OfferPositionsArgs)) is not None and offer.offset_ms
    ]
    return offsets[-1] if offsets else None


SAID_AGAIN_WITHIN_MS = 45_000
"""An answer takes up to about twenty seconds to say: "say that again" this soon after it asks for
the answer; later, for the book's latest words, which have played on since."""


def answer_to_say_again(earlier: Sequence[Exchange], now_ms: int) -> Exchange | None:
    """The answer "say that again" asks for now: the last, just given, unless it was given from further
    on than the listener is now (its words are left out: ``history.guard_again``)."""
    last = answered_just_now(earlier, now_ms, SAID_AGAIN_WITHIN_MS)
    return None if last is None or last.speech == history.REPLY_LEFT_OUT else last


def may_answer_the_turn_before(utterance: str) -> bool:
    """Whether what was said may mean something else just after another turn: a length alone (the
    answer to "For how long?"), a step alone (more of a move), or asking to hear the answer again."""
    return (
        intents.timer_length_alone(utterance) is not None
        or intents.more_said_alone(utterance) is not None
        or intents.asks_to_hear_it_again(utterance)
    )


def meant_after(
    utterance: str, intent: Intent, earlier: Sequence[Exchange], now_ms: int
) -> tuple[Intent, Exchange | None]:
    """What ``utterance``, read alone as ``intent``, means after the exchanges ``earlier``, and the
    answer it asks to hear again, if it does."""
    if (length := intents.timer_length_alone(utterance)) is not None and asked_how_long(earlier, now_ms):
        intent = length
    more = intents.more_said_alone(utterance)
    moved = moved_by_just_now(earlier, now_ms) if more is not None else None
    if more is not None and moved is not None and more <= max(MORE_OF_A_MOVE_MS, 2 * abs(moved)):
        intent = intents.Jump(offset_ms=more if moved > 0 else -more)
    repeated = answer_to_say_again(earlier, now_ms) if intents.asks_to_hear_it_again(utterance) else None
    return (intents.SayAgain(), repeated) if repeated is not None else (intent, None)


_CHANGES_NOTHING = (
    intents.WhereAmI
    | intents.TimeLeft
    | intents.BothAsked
    | intents.ListeningAsked
    | intents.LastMoveAsked
    | intents.HeardBefore
    | intents.NamesHeard
    | intents.AboutTheBook
    | intents.ChapterTitleAsked
    | intents.TimerAsked
    | intents.PlayingAsked
    | intents.SyncAsked
    | intents.SpoilerAsked
    | intents.Courtesy
    | intents.BookmarksAsked
    | intents.BookmarkRemoval
    | intents.Help
)


def asked_afresh(last: Exchange) -> intents.Intent | None:
    """What to answer again for "say that again" after ``last``: None for its very words; an answer
    remembered only by what it told (the position, the timer) is given afresh from now, a move's as
    where the book is, and never by doing again what it did. A two-part answer is given whole, each part
    so: what one turn remembers is the last part's kind alone ("where am I and when will it stop" is
    remembered as told of the timer), and it was said again as that part alone."""
    told = history.told_of(last)
    if told is None:
        return None
    asked = intents.read(last.utterance)
    match asked:
        case intents.BothAsked(first=first, second=second) | intents.Together(move=first, then=second):
            # two moves ("back 1 minute and then forward 2 minutes") are each where the book is: told once
            told_first, told_second = _told_again(first), _told_again(second)
            return told_first if told_first == told_second else intents.BothAsked(told_first, told_second)
    if told is history.Told.TIMER:
        return intents.TimerAsked()
    if told is history.Told.BOOKMARKED:  # told afresh as the list, the newest first: never made again
        return intents.BookmarksAsked()
    return asked if isinstance(asked, _CHANGES_NOTHING) else intents.WhereAmI()


def _told_again(asked: intents.Intent) -> intents.Intent:
    """One part of a two-part answer told afresh from now: an ask that changes nothing (or an alarm,
    which Bedside has not) asked again; the timer set, or the book paused, told as it stands; a bookmark
    made, as the list, never made again (as one said alone: ``asked_afresh``); a move, as where the book
    is; two parts said with a move ("who is Oskar, go back 5 minutes and sleep in 20"), each so."""
    if isinstance(asked, intents.BothAsked):
        return intents.BothAsked(_told_again(asked.first), _told_again(asked.second))
    if isinstance(asked, intents.Bookmark):
        return intents.BookmarksAsked()
    if isinstance(asked, _CHANGES_NOTHING | intents.Question | RecapAsked | intents.WakeUpAsked):
        return asked
    if isinstance(
        asked, intents.SleepTimer | intents.TimerAdded | intents.TimerAgain | intents.CancelSleepTimer
    ):
        return intents.TimerAsked()
    return intents.PlayingAsked() if isinstance(asked, intents.Pause) else intents.WhereAmI()


CancelledByThat = Literal["timer", "timer_changed", "move", "list", "speed", "speed_taken_back"]


def cancelled_by_that(earlier: Sequence[Exchange], now_ms: int) -> CancelledByThat | None:
    """What "cancel that" takes back, a moment after the turn just before: the sleep timer it set
    ("sleep in 15"), the speed it changed, the move it made, or the list it put up; None after anything
    else (then it asks nothing).
    "timer_changed": the timer it set took the place of one running (minutes added, started again, a
    new length): cancelled, the timer before would be lost with it, and the book would play all night.
    "speed_taken_back": the turn before set the speed back, taking back a change: taken back in turn,
    the speed would flip at each "undo"; there is nothing more to undo."""
    last = answered_just_now(earlier, now_ms)
    if last is None:
        return None
    if any(_sets_a_timer(call) for call in last.calls):
        return "timer_changed" if last.timer_replaced else "timer"
    if last.speed_changed is not None and last.outcome != "moved":
        return "speed_taken_back" if last.speed_changed.took_back else "speed"
    if last.outcome == "listed":
        return "list"
    return "move" if last.outcome == "moved" else None


_NAMES_A_MOVE = re.compile(
    r"\b(?:went|gone|moved?|put me|jumped|skipped|too far|where i was|go back|back to)\b"
)
"""Words of undoing a move ("put me back", "you went too far"): such an undo is always the move's."""
_NOT_MOVES = ("paused", "fell_asleep")
"""Causes of the player's ``last_move_seq`` that put the book nowhere new."""


def undo_may_take_back(utterance: str, earlier: Sequence[Exchange], now_ms: int) -> Exchange | None:
    """The turn just before, when "undo" may take back the timer or the list it made rather than the
    player's last move: said with no word of a move, just after a turn that moved nothing."""
    last = answered_just_now(earlier, now_ms)
    if last is None or last.outcome == "moved" or _NAMES_A_MOVE.search(intents.normalise(utterance)):
        return None
    taken = cancelled_by_that(earlier, now_ms)
    return last if taken in ("timer", "timer_changed", "list", "speed", "speed_taken_back") else None


def still_the_newest(last: Exchange, state: ListenerState) -> CancelledByThat | None:
    """What undo takes back of what ``last`` made, as the player's state has it now: its list while it
    is still on the screen (not pressed or replaced since); its timer unless the book has moved since
    (scrubbed, pressed), and told, not cancelled, when it replaced one or another has replaced it; the
    speed it changed while the book has not moved since and plays at that speed still (a change that took
    back another: nothing more to take back)."""
    if (changed := last.speed_changed) is not None:
        untouched = state.speed == changed.to and state.last_move_seq <= changed.seq
        if not untouched:
            return None
        return "speed_taken_back" if changed.took_back else "speed"
    if last.outcome == "listed":
        return "list" if state.rows and state.list_turn_id == last.turn_id else None
    timer = state.sleep_timer
    if timer is None or (state.last_move_cause not in _NOT_MOVES and state.last_move_seq > timer.set_seq):
        return None
    return "timer" if timer.set_seq == last.timer_set_seq and not last.timer_replaced else "timer_changed"


def _sets_a_timer(call: ToolCallRecord) -> bool:
    playback = call.args_as(PlaybackArgs)
    return playback is not None and playback.action == "sleep_timer" and not call.refused


def plausible_ids(hits: list[Hit], here_ms: int, direction: Direction | None = None) -> list[int]:
    """The hits worth offering, best first: those scoring at least ``MIN_SCORE``, at most four.

    A direction said ("go back to ...") keeps those on its side of the line, when any are: a sleepy
    listener going back wants what they heard, and covered rows ahead would only say it comes again.
    """
    strong = [hit for hit in hits if hit.score >= MIN_SCORE]
    if direction is not None:
        strong = [hit for hit in strong if lies_the_way_said(hit.start_ms, here_ms, direction)] or strong
    return [hit.passage_id for hit in strong][:MAX_ROWS]


def searches_for(direction: Direction | None) -> tuple[bool, ...]:
    """The finds a described moment is looked for with, in turn, each ``heard_only`` or not, until
    one gives a plausible hit. Going back, what was heard is searched first: ranked among
    themselves, a heard moment is not outscored by its likes ahead."""
    return (True, False) if direction == "back" else (False,)


def lies_the_way_said(start_ms: int, here_ms: int, direction: Direction) -> bool:
    """Whether a place starting at ``start_ms`` is on the side of the line ``direction`` names."""
    return ahead_of(start_ms, here_ms) == (direction == "forward")


def chapter_asked_by_title(
    chapters: Sequence[ChapterInfo], query: str, here_ms: int, direction: Direction | None
) -> ChapterInfo | None:
    """The chapter a described moment names by its title alone (``chapter_by_title_alone``), when it
    lies the way said; None sends the words to be found in the book."""
    titled = chapter_by_title_alone(chapters, query, here_ms)
    if titled is None or (
        direction is not None and not lies_the_way_said(titled.start_ms, here_ms, direction)
    ):
        return None
    return titled


def named_place_args(intent: Intent) -> dict[str, object] | None:
    """The offer for a place the listener named outright (a chapter counted from the one playing is
    counted by the tool); None when finding it needs the book."""
    match intent:
        case intents.Chapter(n=n):
            return {"chapter": n}
        case intents.Jump(offset_ms=offset):  # "back 99999 minutes" goes as far as any book can
            return {"offset_ms": max(-LONGEST_BOOK_MS, min(offset, LONGEST_BOOK_MS))}
        case intents.ClockTime(position_ms=at):
            return {"position_ms": at}
        case intents.BookStart():
            return {"position_ms": 0}
        case intents.ThisChapterStart() | intents.StartAgain():
            return {"chapter_step": 0}
        case intents.ChapterEnd(step=int(step)):
            return {"chapter_step": step, "chapter_end": True}
        case intents.ChapterEnd(chapter=None):
            return {"chapter_end": True}
        case intents.ChapterEnd(chapter=n):
            return {"chapter": n, "chapter_end": True}
        case intents.NextChapter(step=step):
            return {"chapter_step": step}
    return None


def chapter_bounds(book: BookInfo, chapter: int | None, here_ms: int) -> tuple[int, int] | None:
    """Where the chapter named starts and ends on the clock, or the one playing when none is named (a
    book without chapters is one); None for a chapter named that the book does not have."""
    if chapter is not None:
        named = next((c for c in book.chapters if c.n == chapter), None)
        return (named.start_ms, named.end_ms) if named is not None else None
    playing = chapter_at(book.chapters, here_ms)
    return (playing.start_ms, playing.end_ms) if playing is not None else (0, book.duration_ms)


def share_position(said: intents.ShareOfBook, book: BookInfo, here_ms: int) -> int | None:
    """Where a share of the book, of the chapter playing or of the chapter named lies on the clock
    ("halfway through the chapter", "the middle of chapter 4"). None for a chapter named that the
    book does not have."""
    of_a_chapter = said.of_chapter or said.chapter is not None
    bounds = chapter_bounds(book, said.chapter, here_ms) if of_a_chapter else (0, book.duration_ms)
    if bounds is None:
        return None
    start, end = bounds
    return start + round((end - start) * said.share)


@dataclass(frozen=True)
class PastTheChapterEnd:
    """A time into a chapter that it does not reach; None for the chapter playing."""

    chapter: int | None
    length_ms: int


def place_in_a_chapter(
    said: intents.ShareOfBook | intents.IntoChapter, book: BookInfo, here_ms: int
) -> dict[str, object] | PastTheChapterEnd:
    """The offer for a share of the book or of a chapter, or for a time into a chapter; a chapter the
    book lacks is offered by its number, for the player to refuse with the chapters it has."""
    if isinstance(said, intents.ShareOfBook):
        at = share_position(said, book, here_ms)
    elif (bounds := chapter_bounds(book, said.chapter, here_ms)) is None:
        at = None
    elif said.into_ms >= bounds[1] - bounds[0]:
        return PastTheChapterEnd(said.chapter, bounds[1] - bounds[0])
    else:
        at = bounds[0] + said.into_ms
    return {"position_ms": at} if at is not None else {"chapter": said.chapter}


def clock_position(said: intents.ClockTime, duration_ms: int) -> int | None:
    """Where a time the listener said is in a book ``duration_ms`` long, or None if not in it.

    Two parts ("3:20") are hours and minutes, unless that is past the end and minutes and
    seconds are not: in a 22-minute book "go to 3:20" means three minutes in.
    """
    for at in (said.position_ms, said.minutes_seconds_ms):
        if at is not None and at < duration_ms:
            return at
    return None


EARLIER_KEYS = (*EARLIER_PLACE_FIELDS, "times_back", "show_only")


def earlier_args(intent: intents.Earlier) -> dict[str, object]:
    args: dict[str, object] = {"show_only": intent.show_only}
    if intent.chapter is not None:
        args["earlier_chapter"] = intent.chapter
    if intent.device is not None:
        args["earlier_device"] = intent.device
    if intent.before_skip_ahead:
        args["before_skip_ahead"] = True
    if intent.fell_asleep:
        args["fell_asleep"] = True
    if intent.timer_paused:
        args["timer_paused"] = True
    if intent.furthest:
        args["furthest"] = True
    if intent.left_off:
        args["left_off"] = True
    if intent.sitting_began or intent.began_last_time:  # which sitting's start: ``sittings.back_to_last``
        args["sitting_began"] = True
    return args


def last_lookup(earlier: list[Exchange]) -> dict[str, object] | None:
    """The earlier-place arguments of the newest turn that asked for one ("the time before that")."""
    for exchange in reversed(earlier):
        for call in reversed(exchange.calls):
            offer = call.args_as(OfferPositionsArgs)
            if offer is not None and offer.model_fields_set & set(EARLIER_PLACE_FIELDS):
                return offer.model_dump(include=set(EARLIER_KEYS), exclude_unset=True)
    return None


def once_more_back(previous: dict[str, object]) -> dict[str, object]:
    """For "the time before that": the same lookup, one match further back."""
    back = previous.get("times_back", 0)
    return {**previous, "times_back": (back if isinstance(back, int) else 0) + 1}


def places_named(earlier: list[Exchange]) -> list[int]:
    """The passages the last answer named, for "take me there": the heard one a recall quoted, or
    those an offer listed by passage; none when it named no place."""
    if not earlier:
        return []
    for call in earlier[-1].calls:
        if call.refused:
            continue
        if call.name == "recall":
            told = question_answered(earlier)
            return told[1][-1:] if told else []
        if (offer := call.args_as(OfferPositionsArgs)) is not None:
            return offer.ids
    return []


def _recall_in(exchange: Exchange) -> tuple[str, list[int]] | None:
    """The question an exchange recalled and the passages it found, best first."""
    for call in exchange.calls:
        if not call.refused and (recall := call.args_as(RecallArgs)) is not None:
            return recall.question, [
                ref.place.passage_id for ref in call.places if ref.place.passage_id is not None
            ]
    return None


def question_answered(earlier: list[Exchange]) -> tuple[str, list[int]] | None:
    """The question the last answer recalled, and the passages quoted for it in order: the best one
    when it was asked, then one more for each "tell me more" after it (the best not quoted yet, as
    ``keyless`` chooses). None when the last answer recalled nothing."""
    run: list[tuple[Exchange, list[int]]] = []
    asked = ""
    for exchange in reversed(earlier):
        recalled = _recall_in(exchange)
        if recalled is None or (run and recalled[0] != asked):
            break
        asked = recalled[0]
        run.append((exchange, recalled[1]))
    if not run:
        return None
    quoted: list[int] = []
    for exchange, found in reversed(run):
        if exchange.utterance == asked:  # asked afresh: its best place is quoted again
            quoted = []
        quoted.extend(next(([i] for i in found if i not in quoted), []))
    return asked, quoted


LIST_STILL_MEANT_TURNS = 2
"""A list on the screen that "go there" may mean: one drawn by the last turn or the one before it
("where am I?" asked between); an older one may be hours old and about something else."""


def list_still_meant(drawn_by: str | None, earlier: Sequence[Exchange]) -> bool:
    """Whether the list on the screen, drawn by turn ``drawn_by``, is recent enough for "go there"."""
    return drawn_by is not None and drawn_by in {e.turn_id for e in earlier[-LIST_STILL_MEANT_TURNS:]}


def lists_one_row(earlier: Sequence[Exchange]) -> bool:
    """Whether the last answer put a list of one row on the screen: "go there" then presses it."""
    if not earlier or earlier[-1].outcome != "listed":
        return False
    offers = [call for call in earlier[-1].calls if call.name == "offer_positions" and not call.refused]
    return bool(offers) and len([ref for ref in offers[-1].places if ref.kind == "row"]) == 1


def rows_not_pressed(earlier: Sequence[Exchange]) -> list[int]:
    """After a row of a list was pressed aloud in the last turn, the passages of that list's other
    rows, in their order: what "no, the other one" means then. Empty otherwise."""
    if not earlier:
        return []
    pressed = [call for call in earlier[-1].calls if call.name == "press_listed" and not call.refused]
    if not pressed or not isinstance(row := pressed[-1].arguments.get("row"), int):
        return []
    for exchange in reversed(earlier[:-1]):
        rows = [
            ref.place.passage_id
            for call in exchange.calls
            if call.name == "offer_positions" and not call.refused
            for ref in call.places
            if ref.kind == "row"
        ]
        if rows:
            return [passage for i, passage in enumerate(rows) if i != row and passage is not None]
    return []


def other_places(earlier: list[Exchange], here_ms: int) -> list[int]:
    """The places the newest search found that its turn did not offer, best first (at most four).

    The way that search's request said ("go back to the fire") still holds: "no, the other one" is
    another place that way, when the search found any."""
    for exchange in reversed(earlier):
        found_at = {
            ref.place.passage_id: ref.place.start_ms
            for call in exchange.calls
            if call.name == "find_passage"
            for ref in call.places
            if ref.place.passage_id is not None
        }
        if not found_at:
            continue
        offered = {
            i
            for call in exchange.calls
            if not call.refused and (offer := call.args_as(OfferPositionsArgs)) is not None
            for i in offer.ids
        }
        others = [i for i in found_at if i not in offered]
        if (way := exchange.direction) is not None:
            others = [i for i in others if lies_the_way_said(found_at[i], here_ms, way)] or others
        return others[:MAX_ROWS]
    return []


def way_said(intent: intents.Intent) -> Direction | None:
    """The way a request said its moment lies, kept with its exchange for "no, the other one": a
    moment described ("go back to the storm"), alone or with a timer said after it."""
    moment = intent.move if isinstance(intent, intents.Together) else intent
    return moment.direction if isinstance(moment, intents.FindPlace) else None


def request_key(intent: intents.Intent, utterance: str) -> str:
    """The request as read, as a key, for the player to tell one request heard by two devices from two
    requests (ADR 77): the same however each device's recogniser wrote it ("go back 2 minutes", "Go back
    two minutes."). Words read as nothing in particular are told apart by their words. A digest: as
    short for the longest question as for "undo", and no words of the listener's kept in the event."""
    read: object = ["words", intents.normalise(utterance)] if isinstance(intent, intents.Other) else intent
    # str for a kind of value no intent holds yet: a key, never a failed turn
    canonical = json.dumps(
        _as_data(read), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _as_data(value: object) -> object:
    """An intent as plain data, its kind by name: one reading is one text, however Python prints it."""
    if is_dataclass(value) and not isinstance(value, type):
        return {"kind": type(value).__name__} | {
            f.name: _as_data(getattr(value, f.name)) for f in fields(value)
        }
    if isinstance(value, BaseModel):  # a recap's arguments, as the model's tool takes them
        return {"kind": type(value).__name__} | value.model_dump(mode="json")
    if isinstance(value, tuple | list):
        return [_as_data(item) for item in value]
    if isinstance(value, str):  # a title or a place as a recogniser capitalised it: one request however
        return value.casefold()
    return value
