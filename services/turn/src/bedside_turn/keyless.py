"""The keyless router: with no model, plain code drives the same tools under the same rules."""

import functools
from collections.abc import Callable

from bedside_contracts.player import (
    LONGEST_SLEEP_MINUTES,
    MAX_BOOKMARKS_PER_BOOK,
    ListenerState,
    LocateRequest,
    StateRequest,
)
from bedside_contracts.search import BookInfo, CatalogRequest, NameHints, Resolve, Target, chapter_at
from bedside_contracts.turn import WORDS_TAKEN, Direction, Exchange, PlaybackAction
from bedside_guard import OPENING_CHAPTER, Passage, names_as_said
from bedside_runtime.clock import wall_clock_ms

from bedside_turn.domain import bookmarks, history, intents, playback, sittings, speech
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.chapters import (
    after_the_opening,
    already_at_its_end,
    end_of_the_words_ms,
    final_chapter,
    titled_chapter,
)
from bedside_turn.domain.earlier import where_they_are
from bedside_turn.domain.intents import Intent
from bedside_turn.domain.last_move import last_move
from bedside_turn.domain.own_words import OwnWords
from bedside_turn.domain.routing import (
    CancelledByThat,
    PastTheChapterEnd,
    asked_afresh,
    cancelled_by_that,
    chapter_asked_by_title,
    chapters_called,
    clock_position,
    earlier_args,
    last_lookup,
    list_still_meant,
    lists_one_row,
    may_name_chapters_otherwise,
    named_place_args,
    names_another_book,
    once_more_back,
    other_places,
    place_in_a_chapter,
    places_named,
    plausible_ids,
    question_answered,
    rows_not_pressed,
    said_as_chapters,
    searches_for,
    still_the_newest,
    title_asked_to_play,
    undo_may_take_back,
)
from bedside_turn.tools import ToolBox

_NO_TOOL_DOES: dict[type[Intent], str] = {
    intents.PlayOn: speech.PRESS_PLAY,
    intents.Volume: speech.VOLUME_IS_THE_DEVICES,
    intents.WakeUpAsked: speech.CANNOT_WAKE_YOU,
    intents.BookmarkRemoval: speech.BOOKMARKS_REMOVED_ON_THE_PAGE,
    intents.OtherBook: speech.OTHER_BOOK_ON_THE_PAGE,
    intents.SpoilerAsked: speech.NO_SPOILERS,
    intents.SyncAsked: speech.ALREADY_SHARED,
}
"""What plain code says, in both modes, to what no tool can do (``routing.model_may_answer``)."""


def _no_tool_does(intent: Intent) -> str:
    if isinstance(intent, intents.OtherDevice):
        return speech.on_another_device(intent.device)
    return _NO_TOOL_DOES[type(intent)]


async def run_keyless(
    tools: ToolBox,
    utterance: str,
    intent: Intent | None = None,
    earlier: list[Exchange] | None = None,
    *,
    read_again: bool = True,
) -> str:
    """Route ``utterance`` to the tools and say what came of it. A move is said with the time it came
    to, the listener's position: the model reads later only that the book was moved (ADR 75).
    ``read_again`` False: ``intent`` is one half of ``utterance``, not read again by the book's chapter
    names (``_answer_half``)."""
    intent = intent or intents.read(utterance)
    if read_again and isinstance(intent, intents.Other | intents.Question | intents.FindPlace):
        utterance, intent = await _chapters_by_their_own_name(tools, utterance, intent)
    if isinstance(intent, intents.SayAgain) and earlier:
        said = await _say_again(tools, utterance, earlier)
    else:
        said = await _route(tools, utterance, intent, earlier)
    if tools.turn.told is None:
        tools.turn.told = tools.told_by_moving()
    return said


async def _route(tools: ToolBox, utterance: str, intent: Intent, earlier: list[Exchange] | None) -> str:
    if isinstance(intent, intents.FindPlace | intents.Other) and await _names_another_book(tools, utterance):
        tools.turn.declined = True
        return speech.OTHER_BOOK_ON_THE_PAGE
    match intent:
        case intents.OtherOne():
            others = rows_not_pressed(earlier or []) or other_places(earlier or [], tools.here_ms)
            return await _offer_again(tools, others, speech.NO_OTHER)
        case intents.GoThere(row_only=True):
            return await _that_row(tools, earlier or [])
        case intents.GoThere(show_only=show_only):
            return await (_show_there if show_only else _go_there)(tools, earlier or [])
        case intents.MoreOfThat():
            return await _more_of_that(tools, earlier or [])
        case intents.Together() | intents.BothAsked() | intents.TwoQuestions():
            return await _two_said_together(tools, utterance, intent, earlier)
        case intents.FindPlace(query=query) | intents.Question(question=query) if len(query) > WORDS_TAKEN:
            tools.turn.declined = True
            return speech.SAY_IT_SHORTER
        case intents.FindPlace(query=query, direction=direction):
            return await _find_place(tools, query, direction, utterance)
        case intents.Question(question=question):
            await tools.run("recall", {"question": question})
            if not tools.recalled:
                return speech.not_yet(tools.unheard_names, tools.asks_later, tools.not_transcribed_here)
            return speech.quoting(tools.recalled[0], tools.recalled_as or question)
        case recaps.RecapAsked(args=args):
            await tools.run("recap", args.model_dump(exclude_none=True))
            if tools.recapped is None:  # the call was refused or failed: nothing was read
                return speech.TROUBLE
            return recaps.spoken_recap(*tools.recapped)
        case intents.PressListed(row=row):
            return await _press(tools, row)
        case intents.Undo():
            return await _undo_the_newest(tools, utterance, earlier or [])
        case intents.CancelThat():
            return await _cancel_that(tools, earlier or [])
        case intents.Earlier():
            return await _asked_earlier(tools, intent)
        case intents.EarlierAgain():
            previous = last_lookup(earlier or [])
            if previous is None:
                return speech.NO_LOOKUP_BEFORE
            return await _earlier(tools, once_more_back(previous), speech.NO_EARLIER_BEFORE)
        case intents.TimeLeft():
            return await _time_left(tools, intent)
        case intents.WhereAmI():
            return await _told_from_the_book(
                tools,
                history.Told.WHERE,
                lambda book, here: speech.where_you_are(here, book.duration_ms, book.chapters),
            )
        case intents.HeardBefore():
            return await _heard_before(tools)
        case intents.ListeningAsked() | intents.LastMoveAsked() | intents.PlayingAsked():
            return await _told_by_the_player(tools, intent)
        case intents.NamesHeard():
            return await _names_heard(tools)
        case intents.AboutTheBook(fact=fact):
            return await _told_from_the_book(
                tools, history.Told.ABOUT_THE_BOOK, lambda book, here: speech.about_the_book(fact, book, here)
            )
        case intents.ChapterTitleAsked(n=n):
            return await _told_from_the_book(
                tools, history.Told.ABOUT_THE_BOOK, lambda book, here: speech.titled_as(book, here, n)
            )
        case intents.SleepTimer(after="chapter_end", chapter=chapter, chapter_step=step):
            named = {"chapter": chapter, "chapter_step": step}
            said = {key: value for key, value in named.items() if value is not None}
            return await _playback(tools, {"action": "sleep_timer", "chapter_end": True, **said})
        case intents.SleepTimer() | intents.TimerAdded() | intents.TimerAgain():
            return await _timer_in_minutes(tools, intent)
        case intents.CancelSleepTimer() | intents.Pause() | intents.ClearList():
            return await _playback(tools, {"action": _PLAYER_ACTION[type(intent)]})
        case intents.Speed(to=to, by=by):
            return await _speed(tools, to, by)
        case (
            intents.PlayOn()
            | intents.Volume()
            | intents.WakeUpAsked()
            | intents.BookmarkRemoval()
            | intents.OtherBook()
            | intents.OtherDevice()
            | intents.SpoilerAsked()
            | intents.SyncAsked()
        ):
            tools.turn.declined = True
            return _no_tool_does(intent)
        case intents.TimerHowLong(clock_said=clock_said):
            tools.turn.declined = True
            tools.turn.asked = "timer_length"
            return speech.TIMER_NOT_BY_THE_CLOCK if clock_said else speech.TIMER_HOW_LONG
        case intents.Bookmark() | intents.ToBookmark() | intents.BookmarksAsked():
            return await _bookmarks(tools, intent)
        case intents.Help():
            return _what_i_can_do(tools)
        case intents.Courtesy(said=said):
            tools.turn.told = history.Told.COURTESY
            return await _courtesy(tools, said)
        case intents.TimerAsked():
            tools.turn.told = history.Told.TIMER
            return await _timer_now(tools)
        case intents.Other():
            return speech.CANNOT_HELP
    return await _named_place(tools, intent, utterance)


_PLAYER_ACTION: dict[type[Intent], PlaybackAction] = {
    intents.CancelSleepTimer: "cancel_sleep_timer",
    intents.Pause: "pause",
    intents.ClearList: "clear_list",
}
"""The playback tool's action for each request that is one of the player's own commands and nothing more."""


async def _two_said_together(
    tools: ToolBox,
    utterance: str,
    intent: intents.Together | intents.BothAsked | intents.TwoQuestions,
    earlier: list[Exchange] | None,
) -> str:
    """Each request answered as if said alone: a move before its timer (a timer counts from the place),
    its question or its recap, two asks in the order asked."""
    if isinstance(intent, intents.TwoQuestions):
        answered = await _answer_half(tools, utterance, intents.Question(intent.first), earlier)
        tools.next_request()
        return f"{answered} {await _answer_half(tools, utterance, intents.Question(intent.second), earlier)}"
    if isinstance(intent, intents.BothAsked):
        asked = intents.each_asked(intent)
        # a place of the history is shown by an offer, which the turn rules refuse after a recall or a
        # recap: it is shown first ("what did I miss, how long was I out", or of three asks), and said in
        # the order asked
        said: dict[int, str] = {}
        for part in sorted(range(len(asked)), key=lambda part: not isinstance(asked[part], intents.Earlier)):
            said[part] = await _answer_half(tools, utterance, asked[part], earlier)
        # answers in the turn's own words stay its own (OwnWords.__add__): nothing of the book to check
        return functools.reduce(
            lambda told, then: told + OwnWords(" ") + then, (said[part] for part in range(len(asked)))
        )
    # A question goes after the move, whichever was said first, and is answered from where the move left
    # the book: the line is the listener's place, so a question answered before a move back could quote
    # what lies ahead of where they end up. A move forward draws a covered row and moves nothing, so the
    # question is answered where the listener is or further back, from what they have heard. The turn
    # rules agree: an offer after a recall is refused. A recap goes after the move too, but tells the stretch
    # its words named where they asked (ToolBox.recap): "what did I miss" after a move back to where they
    # fell asleep would otherwise all lie ahead. Two said with a move are ``then`` as BothAsked, in order.
    moved = await _answer_half(tools, utterance, intent.move, earlier)
    tools.next_request()
    then: Intent | None = intent.then
    if _stops_at_the_chapter_gone_to(intent) and tools.turn.offer_refused:
        # "play chapter 9 and stop" in a book of four: no timer for the chapter playing; a question
        # said beside it ("who is Tamsin, play chapter 9 and stop") is answered still
        then = _without_the_stop(intent.then)
    if then is None:
        return moved
    return f"{moved} {await _answer_half(tools, utterance, then, None)}"


async def _answer_half(tools: ToolBox, utterance: str, half: Intent, earlier: list[Exchange] | None) -> str:
    """One of two requests said together. A question is read by the book's chapter names from its own
    words ("what happens in part 1" beside a move is a recap of chapter 1); one read so as a move after
    the book has moved this turn ("where does part 2 start") is said not to be done, as the turn rules
    move the book once a turn. Any other half is routed as read, with the whole ``utterance`` for the
    routes that look at the words as said (another book's title, a search, a place named) and not read by
    chapter names again, which would read both requests again."""
    if isinstance(half, intents.Question):
        said, read = await _chapters_by_their_own_name(tools, half.question, half)
        if intents.moves_the_book(read) and (offered := _offered_once_already(tools)):
            return offered
        return await run_keyless(tools, said, read, earlier, read_again=False)
    if intents.moves_the_book(half) and (offered := _offered_once_already(tools)):
        return offered  # "go back 5 minutes, next chapter and sleep in 20"
    if isinstance(half, intents.WakeUpAsked):
        return speech.NO_ALARM  # beside a pause or a timer just set, the timer offered is no help
    return await run_keyless(tools, utterance, half, earlier, read_again=False)


def _offered_once_already(tools: ToolBox) -> str | None:
    """What a second move said in one breath is told when the first moved the book or put up a list: the
    turn rules refuse one after a move, and a second list would take the first's place unsaid."""
    if tools.turn.moved:
        return speech.MOVED_ONCE_ALREADY
    return speech.SHOWN_ONCE_ALREADY if tools.turn.listed else None


_STOP_AT_THE_CHAPTER_END = intents.SleepTimer(after="chapter_end")


def _stops_at_the_chapter_gone_to(intent: intents.Together) -> bool:
    """A move to a chapter, and a stop at the end of the chapter it goes to ("play chapter 4 and stop"),
    alone or beside another ask ("who is Tamsin, play chapter 4 and stop"): a row of it pressed later
    moves the timer there with it (the player's rule)."""
    return isinstance(
        intent.move, intents.Chapter | intents.ChapterTitled | intents.NextChapter | intents.FinalChapter
    ) and _STOP_AT_THE_CHAPTER_END in intents.each_asked(intent.then)


def _without_the_stop(then: Intent) -> Intent | None:
    """What was said beside a move besides the stop at the end of the chapter it goes to, if anything."""
    kept = [asked for asked in intents.each_asked(then) if asked != _STOP_AT_THE_CHAPTER_END]
    return functools.reduce(intents.BothAsked, kept) if kept else None


async def _cancel_that(tools: ToolBox, earlier: list[Exchange]) -> str:
    """ "Cancel that": what the turn just before did; its speed only while the book plays at it still and
    has not moved since, as undo has it (``routing.still_the_newest``): a speed chosen on the page since
    is the listener's newer word."""
    taken = cancelled_by_that(earlier, wall_clock_ms())
    if taken in ("speed", "speed_taken_back"):
        taken = still_the_newest(earlier[-1], await _now(tools))
    return await _take_back(tools, taken, earlier)


async def _take_back(tools: ToolBox, taken: CancelledByThat | None, earlier: list[Exchange]) -> str:
    """What "cancel that" or "undo" takes back: a timer set, a move made, a list shown, the speed
    changed; a timer that replaced another is said, with how to cancel it, never cancelled (the one
    before would be lost); a speed set back by the turn before is left as it is, and said so."""
    match taken:
        case "speed" if earlier and (changed := earlier[-1].speed_changed) is not None:
            said = await _playback(tools, {"action": "speed", "speed": changed.before})
            if tools.turn.speed_changed is not None:
                tools.turn.speed_changed = tools.turn.speed_changed.model_copy(update={"took_back": True})
            return said
        case "speed_taken_back" if earlier and (changed := earlier[-1].speed_changed) is not None:
            # carried on, so undo said once more is told the same again, never the player's undo of a move
            tools.turn.speed_changed = changed
            tools.turn.told = history.Told.NOTHING_MORE_TO_UNDO
            return playback.nothing_more_to_undo((await _now(tools)).speed)
        case "timer":
            return await _playback(tools, {"action": "cancel_sleep_timer"})
        case "move":
            return await _undo(tools)
        case "list":
            return await _playback(tools, {"action": "clear_list"})
        case "timer_changed":
            tools.turn.told = history.Told.TIMER
            return await _timer_now(tools) + playback.TO_CANCEL_IT
    tools.turn.told = history.Told.COURTESY
    return await _courtesy(tools, "never_mind")


async def _undo_the_newest(tools: ToolBox, utterance: str, earlier: list[Exchange]) -> str:
    """ "Undo": the timer or the list the turn just before made, while it is still the newest thing
    done (``routing.still_the_newest``); else the player's undo of the last move."""
    last = undo_may_take_back(utterance, earlier, wall_clock_ms())
    if last is None:
        return await _undo(tools)
    now = await tools.backends.state(StateRequest(listener=tools.listener, book=tools.book))
    taken = still_the_newest(last, now)
    return await (_take_back(tools, taken, earlier) if taken is not None else _undo(tools))


def _what_i_can_do(tools: ToolBox) -> str:
    tools.turn.told = history.Told.WHAT_I_CAN_DO
    return speech.WHAT_I_CAN_DO


async def _bookmarks(
    tools: ToolBox, asked: intents.Bookmark | intents.ToBookmark | intents.BookmarksAsked
) -> str:
    """A bookmark made, gone to or listed (ADR 83): plain code in both modes, the places being where the
    listener is and was."""
    match asked:
        case intents.Bookmark(title=title):
            return await _bookmark_this(tools, title)
        case intents.ToBookmark(title=title):
            return await _to_bookmark(tools, title)
    return await _bookmarks_listed(tools)


async def _bookmark_this(tools: ToolBox, title: str | None) -> str:
    """A bookmark where the book has got to, said with its place, or why none was made."""
    if tools.preview:
        tools.turn.declined = True
        return speech.BOOKMARK_PREVIEW
    made, reason = await tools.add_bookmark(title)
    if made is None:
        tools.turn.declined = True
        full = len(await tools.bookmarks()) >= MAX_BOOKMARKS_PER_BOOK
        return speech.BOOKMARKS_FULL if full else speech.bookmark_refused(reason)
    tools.turn.told = history.Told.BOOKMARKED
    book = await tools.book_info()
    return speech.bookmarked(made.at_ms, chapter_at(book.chapters, made.at_ms) if book else None, made.title)


async def _to_bookmark(tools: ToolBox, title: str | None) -> str:
    """The newest bookmark, or the newest one by the title said, offered as a time named is."""
    kept = await tools.bookmarks()
    if not kept:
        tools.turn.declined = True
        return speech.NO_BOOKMARKS_YET
    chosen = kept[0] if title is None else bookmarks.titled(kept, title)
    if chosen is None:
        tools.turn.declined = True
        return speech.no_bookmark_titled(title or "", bookmarks.titles_kept(kept))
    await tools.offer_bookmark(chosen)
    if tools.already_at is not None:
        return speech.ALREADY_THERE
    return speech.at_bookmark(chosen.title, tools.last_offer, tools.preview)


async def _bookmarks_listed(tools: ToolBox) -> str:
    """How many bookmarks there are, and the newest few with their places and titles."""
    kept = await tools.bookmarks()
    book = await tools.book_info()
    tools.turn.told = history.Told.BOOKMARKS
    return speech.bookmarks_listed(kept, book.chapters if book else [])


async def _courtesy(tools: ToolBox, said: intents.CourtesySaid) -> str:
    """Thanks and the like in a fixed sentence; goodnight and "I'm still awake" with what the running
    sleep timer will do, which the player's state says."""
    if said not in ("goodnight", "still_awake"):
        return speech.COURTESY[said]
    now = await tools.backends.state(StateRequest(listener=tools.listener, book=tools.book))
    if said == "still_awake":
        return playback.still_awake(now.sleep_timer, now.playing, tools.here_ms, now.speed)
    if now.sleep_timer is None:
        return speech.COURTESY["goodnight"]
    return speech.GOODNIGHT + playback.timer_now(now.sleep_timer, tools.here_ms, now.speed)


async def _now(tools: ToolBox) -> ListenerState:
    return await tools.backends.state(StateRequest(listener=tools.listener, book=tools.book))


async def _time_left(tools: ToolBox, asked: intents.TimeLeft) -> str:
    speed = (await _now(tools)).speed
    return await _told_from_the_book(
        tools,
        history.Told.TIME_LEFT,
        lambda book, here: speech.time_left(
            here,
            book.duration_ms,
            book.chapters,
            asked.length_of,
            chapter=asked.chapter,
            chapter_said=asked.chapter_said,
            speed=speed,
        ),
    )


async def _timer_now(tools: ToolBox) -> str:
    now = await _now(tools)
    return playback.timer_now(now.sleep_timer, tools.here_ms, now.speed)


async def _speed(tools: ToolBox, to: float | None, by: float | None) -> str:
    """A speed asked for, through the same tool the model has; one the player has not, said so."""
    if to is None and by is None:
        tools.turn.declined = True
        return playback.SPEED_HOW
    if not playback.speed_there_is(to):
        tools.turn.declined = True
        return playback.NO_SUCH_SPEED
    return await _playback(
        tools, {"action": "speed", "speed": to} if to is not None else {"action": "speed", "speed_by": by}
    )


async def _timer_in_minutes(
    tools: ToolBox, intent: intents.SleepTimer | intents.TimerAdded | intents.TimerAgain
) -> str:
    """A timer of minutes, set by the same tool as any: minutes said, minutes put on the running timer
    ("add ten minutes"), or the running timer's minutes again from here ("reset the timer")."""
    match intent:
        case intents.SleepTimer(after=int(minutes)):
            pass
        case intents.TimerAdded(minutes=added):
            now = await _now(tools)
            if now.sleep_timer is None and added < 0:  # nothing to take minutes off
                tools.turn.told = history.Told.TIMER
                return playback.NO_TIMER
            minutes = playback.with_minutes_added(now.sleep_timer, tools.here_ms, added, now.speed)
        case _:
            now = await _now(tools)
            timer = now.sleep_timer
            if timer is None:
                tools.turn.told = history.Told.TIMER
                return playback.NO_TIMER_TO_RESTART
            if timer.after == "chapter_end":  # a chapter's end stays where it was: told, not set again
                tools.turn.told = history.Told.TIMER
                return playback.timer_now(timer, tools.here_ms, now.speed)
            minutes = timer.after
    if minutes > LONGEST_SLEEP_MINUTES:
        return playback.TOO_LONG
    return await _playback(tools, {"action": "sleep_timer", "minutes": minutes})


async def _playback(tools: ToolBox, args: dict[str, object]) -> str:
    """The sleep timer, a pause, a list taken away or the speed, through the same tool the model has."""
    await tools.run("playback", args)
    if tools.no_chapter is not None:
        return speech.no_chapter_counted(tools.no_chapter)
    done = tools.played
    if done is None:  # refused before the player was asked (bad minutes)
        return speech.TROUBLE
    if not done.accepted and done.args.chapter is not None and (book := await tools.book_info()):
        return playback.no_named_chapter_end(done.args.chapter, book.chapters)
    return playback.spoken(done)


async def _told_from_the_book(tools: ToolBox, told: history.Told, say: Callable[[BookInfo, int], str]) -> str:
    """A sentence from the book's catalog entry and the position (``say``); ``told`` keeps what was
    said (the position among it) out of what the model later reads of this turn."""
    book = await tools.book_info()
    if book is None:
        return speech.TROUBLE
    tools.turn.told = told
    return say(book, tools.here_ms)


async def _heard_before(tools: ToolBox) -> str:
    """Whether the listener's history has them further on than here: its furthest place."""
    furthest = await tools.backends.locate(
        LocateRequest(listener=tools.listener, book=tools.book, furthest=True, limit=1)
    )
    reached = furthest.newest.position_ms if furthest.newest is not None else None
    return await _told_from_the_book(
        tools, history.Told.HEARD_BEFORE, lambda book, here: speech.heard_before(reached, here, book.chapters)
    )


async def _told_by_the_player(
    tools: ToolBox, intent: intents.ListeningAsked | intents.LastMoveAsked | intents.PlayingAsked
) -> str:
    """Whether it plays, when they last listened, how long this sitting has lasted, or what last moved
    the book: the player's state, or its history of breaks and moves measured against its clock."""
    if isinstance(intent, intents.PlayingAsked):
        state = await tools.backends.state(StateRequest(listener=tools.listener, book=tools.book))
        timer_paused = intent.why and state.still_where_timer_paused
        return await _told_from_the_book(
            tools,
            history.Told.WHERE,
            lambda book, here: speech.why_stopped(state.playing, timer_paused, here, book.chapters),
        )
    if isinstance(intent, intents.LastMoveAsked):
        moved = await tools.backends.locate(_newest(tools, moves=True))
        tools.turn.told = history.Told.LAST_MOVE
        return last_move(moved.newest, moved.looked_at_ms)
    stopped = await tools.backends.locate(_newest(tools, left_off=True))
    began = await tools.backends.locate(_newest(tools, began=True))
    tools.turn.told = history.Told.LISTENING
    if intent.about == "last_time":
        return sittings.last_listened(began.newest, stopped.newest, began.looked_at_ms)
    return sittings.this_sitting(began.newest, stopped.newest, began.looked_at_ms)


def _newest(tools: ToolBox, **only: bool) -> LocateRequest:
    """The player's lookup of the newest entry of the listener's history that ``only`` names."""
    return LocateRequest(listener=tools.listener, book=tools.book, limit=1, **only)


async def _names_heard(tools: ToolBox) -> str:
    """The names heard most so far: search's table of the book's names, counted behind the line."""
    asked = NameHints(book=tools.book, here_ms=tools.here_ms, limit=speech.NAMES_SAID)
    names = (await tools.backends.hints(asked)).names
    tools.turn.told = history.Told.NAMES_HEARD
    return speech.names_heard(names)


def _no_such_place(asked: intents.Earlier) -> str:
    """What is said when the history holds no place like the one asked for."""
    if asked.fell_asleep:
        return speech.NO_ASLEEP
    if asked.timer_paused:
        return speech.NO_TIMER_PAUSE
    return speech.NO_LEFT_OFF if asked.left_off or asked.began_last_time else speech.NO_EARLIER


async def _earlier(tools: ToolBox, args: dict[str, object], nothing: str) -> str:
    """Offer a place from the history; ``nothing`` is said when the history has no such place."""
    record = await tools.run("offer_positions", args)
    if tools.already_at == "that_place":
        return speech.ALREADY_THERE
    if record.refused and tools.last_offer is None:
        return nothing
    return speech.for_offer(tools.last_offer, tools.preview)


async def _asked_earlier(tools: ToolBox, asked: intents.Earlier) -> str:
    """A place from the history. Where they fell asleep with no sleep timer pause to say: where this
    time's listening began, shown and never moved to, as all the history tells (asked the next
    evening, it is this evening's start)."""
    args = earlier_args(asked)
    if asked.began_last_time:
        began = await tools.backends.locate(_newest(tools, began=True))
        stopped = await tools.backends.locate(_newest(tools, left_off=True))
        back = sittings.back_to_last(began.newest, stopped.newest)
        if back is None:
            return speech.NO_LEFT_OFF
        args["times_back"] = back
    said = await _earlier(tools, args, _no_such_place(asked))
    if asked.how_long and said != speech.NO_ASLEEP and (asleep := await tools.asleep()) is not None:
        return f"{speech.slept_through(asleep.paused_at_ms - asleep.asleep_at_ms)} {said}"
    if not asked.fell_asleep or said != speech.NO_ASLEEP:
        return said
    record = await tools.run("offer_positions", {"sitting_began": True, "show_only": True})
    shown = tools.last_offer
    if record.refused or tools.already_at is not None or shown is None or len(shown.rows) != 1:
        return speech.NO_ASLEEP
    return speech.asleep_unknown(shown.rows[0])


async def _go_there(tools: ToolBox, earlier: list[Exchange]) -> str:
    """'Take me there': the one row the last answer listed, else the one place it named, else the one
    row of a list a recent turn drew; several is "which one?"."""
    if lists_one_row(earlier) and await tools.press_listed(0) is None:
        return speech.for_offer(tools.last_offer, tools.preview)
    there = places_named(earlier)
    if len(there) > 1:
        return speech.CHOOSE_ONE
    if not there:
        return await _that_row(tools, earlier)
    return await _offer_again(tools, there, speech.NO_PLACE_NAMED)


async def _say_again(tools: ToolBox, utterance: str, earlier: list[Exchange]) -> str:
    """The last answer again: its words, or, remembered only by what it told, that told afresh."""
    afresh = asked_afresh(earlier[-1])
    if afresh is not None:
        return await _route(tools, utterance, afresh, earlier)
    tools.turn.said_again = earlier[-1].outcome
    return earlier[-1].speech


async def _that_row(tools: ToolBox, earlier: list[Exchange]) -> str:
    """The one row of a list a recent turn drew, pressed; several is "which one?"."""
    shown, drawn_by = await tools.list_shown()
    if shown and list_still_meant(drawn_by, earlier):
        return await _press(tools, 0) if shown == 1 else speech.CHOOSE_ONE
    return speech.NO_PLACE_NAMED


async def _show_there(tools: ToolBox, earlier: list[Exchange]) -> str:
    """'Where was that?': the place the last answer named, on the screen to press."""
    there = places_named(earlier)
    if not there:
        return speech.NO_PLACE_NAMED
    await tools.run("offer_positions", {"ids": there, "show_only": True})
    return speech.for_offer(tools.last_offer, tools.preview)


async def _more_of_that(tools: ToolBox, earlier: list[Exchange]) -> str:
    """'Tell me more': the last answer's question recalled again, and a heard place it did not quote."""
    asked = question_answered(earlier)
    if asked is None:
        return speech.MORE_OF_WHAT
    question, quoted = asked
    await tools.run("recall", {"question": question})  # the same places in the same order
    others = [place for place in tools.recalled if place.passage_id not in quoted]
    return speech.quoting(others[0], tools.recalled_as or question) if others else speech.NOTHING_MORE


async def _undo(tools: ToolBox) -> str:
    """The player's undo, said with where it put the book."""
    await tools.undo()
    if tools.preview and not tools.turn.recalled:
        return speech.PREVIEW_UNDO
    if tools.undone is None:
        return speech.NO_UNDO if not tools.turn.recalled else speech.CANNOT_HELP
    return tools.undone


async def _press(tools: ToolBox, row: int) -> str:
    """A row of the list on the screen pressed aloud, as the page presses it."""
    listed = await tools.press_listed(row)
    if listed is not None:
        return speech.not_on_the_list(listed)
    if tools.last_offer is not None and tools.last_offer.outcome == "refused":  # the player's one refusal
        return speech.LIST_CHANGED  # of a row it has: another device drew a new list meanwhile
    return speech.for_offer(tools.last_offer, tools.preview)


async def _find_place(tools: ToolBox, query: str, direction: Direction | None, utterance: str) -> str:
    """A moment described: a chapter begun whose title alone was said, the way said, is its start
    (``chapter_asked_by_title``); anything else is found in the book."""
    book = await tools.book_info()
    titled = chapter_asked_by_title(book.chapters if book else [], query, tools.here_ms, direction)
    if titled is None:
        return await _find_and_offer(tools, query, direction, utterance)
    await tools.run("offer_positions", {"chapter": titled.n})
    return speech.for_offer(tools.last_offer, tools.preview)


async def _chapters_by_their_own_name(tools: ToolBox, utterance: str, intent: Intent) -> tuple[str, Intent]:
    """In a book whose titles call its chapters parts (``routing.chapters_called``), "go to part 2" is
    read as "go to chapter 2"; the book's titles are read only for words that may be such a name."""
    if not may_name_chapters_otherwise(utterance) or (book := await tools.book_info()) is None:
        return utterance, intent
    if (called := chapters_called(book.chapters)) is None:
        return utterance, intent
    said = said_as_chapters(utterance, called)
    return (said, intents.read(said)) if said != utterance else (utterance, intent)


async def _names_another_book(tools: ToolBox, utterance: str) -> bool:
    """``routing.names_another_book``, the library read only for words that ask to play something."""
    if (asked := title_asked_to_play(utterance)) is None or (book := await tools.book_info()) is None:
        return False
    catalog = await tools.backends.catalog(CatalogRequest())
    return names_another_book(asked, book.title, [b.title for b in catalog.books])


async def _offer_again(tools: ToolBox, ids: list[int], nothing: str) -> str:
    """Places an earlier turn found, offered by their passages; ``nothing`` when there are none."""
    if not ids:
        return nothing
    await tools.run("offer_positions", {"ids": ids})
    return speech.for_offer(tools.last_offer, tools.preview)


async def _find_and_offer(tools: ToolBox, query: str, direction: Direction | None, said: str) -> str:
    """The finds ``searches_for`` names, in turn, until one gives a plausible place to offer.
    ``said``: the listener's words, whose names not heard yet are said back as they said them."""
    plausible: list[int] = []
    for heard_only in searches_for(direction):
        await tools.run(
            "find_passage", {"query": query, "heard_only": True} if heard_only else {"query": query}
        )
        plausible = plausible_ids(tools.hits, tools.here_ms, direction)
        if plausible:
            break
    # Names not heard yet were left out of the search: said back as recall says them, whether or
    # not the book has them, before what the rest of the words found (adr/0066).
    unheard = names_as_said(said, tools.unheard_in_query)
    not_yet = speech.not_yet(unheard, asks_later=False) if unheard else ""
    if not plausible and not_yet:
        tools.turn.not_yet = True
        return not_yet
    if not plausible:
        book = await tools.book_info()
        transcribing = book is not None and book.transcript is not None
        return speech.NOT_FOUND_WHILE_TRANSCRIBING if transcribing else speech.NOT_FOUND
    # a place where the book is would be a covered row "further on" for the very place they are at
    here = {hit.passage_id for hit in tools.hits if where_they_are(hit.start_ms, tools.here_ms)}
    elsewhere = plausible if tools.preview else [found for found in plausible if found not in here]
    if not elsewhere:
        tools.turn.note_offer("refused", [])
        return speech.ALREADY_THERE
    await tools.run("offer_positions", {"ids": elsewhere})
    offered = speech.for_offer(tools.last_offer, tools.preview)
    return f"{not_yet} {offered}" if not_yet else offered


async def _named_place(tools: ToolBox, intent: Intent, utterance: str) -> str:
    """A chapter, a time, a jump, the end of the chapter or of the book: one candidate for the same offer."""
    args = named_place_args(intent)
    past_the_end: int | None = None  # the book's length, when the time said is not in it
    if isinstance(intent, intents.ClockTime) and (book := await tools.book_info()) is not None:
        at = clock_position(intent, book.duration_ms)
        if at is None:
            past_the_end = book.duration_ms
        else:
            args = {"position_ms": at}
    if (
        isinstance(intent, intents.ShareOfBook | intents.IntoChapter)
        and (book := await tools.book_info()) is not None
    ):
        placed = place_in_a_chapter(intent, book, tools.here_ms)
        if isinstance(placed, PastTheChapterEnd):
            tools.turn.declined = True
            return speech.past_the_chapter_end(placed.chapter, placed.length_ms)
        args = placed
    if isinstance(intent, intents.ChapterTitled):
        book = await tools.book_info()
        titled = titled_chapter(book.chapters, intent.title, tools.here_ms) if book is not None else None
        if titled is None:  # a title ahead, or none the book has: the words as any moment described
            return await _find_and_offer(tools, intent.title, None, utterance)
        args = {"chapter": titled.n}
    if isinstance(intent, intents.FinalChapter | intents.SkipOpening):
        listed = await _listed_chapter(tools, intent)
        if isinstance(listed, str):
            return listed
        args = listed
    if args is None:
        match intent:
            case intents.BookEnd():
                last = await _last_passage(tools)
                if last is None:
                    return speech.NOT_FOUND
                if already_at_its_end(last, tools.here_ms):  # an offer would move the book back
                    tools.turn.declined = True
                    return speech.AT_BOOK_END
                args = {"ids": [last.id]}
            case _:
                return speech.CANNOT_HELP
    await tools.run("offer_positions", args)  # the player refuses a time past the end itself
    if tools.no_chapter is not None:
        return speech.no_chapter_counted(tools.no_chapter)
    if tools.at_chapter_end:
        return speech.AT_CHAPTER_END
    if tools.no_end_without_words:
        return speech.NO_END_WITHOUT_WORDS
    if tools.already_at == "chapter_start":
        return speech.AT_CHAPTER_START
    if tools.already_at == "book_start":
        return speech.BOOK_NOT_BEGUN
    if tools.already_at == "no_distance":
        return speech.NO_DISTANCE
    refused = tools.last_offer is None or tools.last_offer.outcome == "refused"
    if isinstance(intent, intents.Jump) and intent.offset_ms < 0 and tools.last_offer is not None and refused:
        # The player answered, refusing: search resolves a jump back to no place only when nothing lies
        # behind the line, at the book's very start (a service that failed is said by the turn instead).
        return speech.NOTHING_BEFORE_START
    if past_the_end is not None and refused:
        return speech.past_the_end(past_the_end)
    match intent:
        case intents.Jump(unit_taken=str(unit)):
            return speech.for_number_alone(intent.offset_ms, unit, tools.last_offer, tools.preview)
        case intents.Jump(amount_chosen=True):
            return speech.for_amount_chosen(
                intent.offset_ms, speech.unit_chosen(intent.offset_ms), tools.last_offer, tools.preview
            )
        case intents.Jump():
            return speech.for_amount_said(intent.offset_ms, tools.last_offer, tools.preview)
        case intents.StartAgain():
            return speech.for_start_again(tools.last_offer, tools.preview)
    return speech.for_offer(tools.last_offer, tools.preview)


async def _listed_chapter(
    tools: ToolBox, intent: intents.FinalChapter | intents.SkipOpening
) -> dict[str, object] | str:
    """The offer for the final chapter, or for the first after the opening, from the chapter list;
    what to say instead when the book has none or the listener is already past it."""
    book = await tools.book_info()
    chapters = book.chapters if book is not None else []
    playing = chapter_at(chapters, tools.here_ms)
    if isinstance(intent, intents.FinalChapter):
        if (final := final_chapter(chapters)) is None:
            return speech.NO_CHAPTERS
        if playing is not None and playing.n == final.n:
            tools.turn.told = history.Told.WHERE
            return speech.in_the_last_chapter(final.n)
        return {"chapter": final.n}
    if (first := after_the_opening(chapters)) is None:
        tools.turn.declined = True
        return speech.NO_OPENING
    if playing is not None and playing.n != OPENING_CHAPTER:
        tools.turn.told = history.Told.WHERE
        return speech.past_the_opening(playing.n)
    return {"chapter": first.n}


async def _last_passage(tools: ToolBox) -> Passage | None:
    """The book's final passage: "the end" starts there, not on its last millisecond."""
    book = await tools.book_info()
    if book is None:
        return None
    end = Target(position_ms=end_of_the_words_ms(book.chapters, book.silent_chapters, book.duration_ms))
    resolved = await tools.backends.resolve(Resolve(book=tools.book, here_ms=tools.here_ms, targets=[end]))
    return resolved.resolutions[0].passage if resolved.resolutions else None
