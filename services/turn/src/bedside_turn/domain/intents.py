"""The keyless router's reading of an utterance: plain code, no I/O.

It recognises the few ways people ask to go somewhere or ask about the story, and
says nothing clever about anything else.
"""

import itertools
import re
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Literal

from bedside_contracts.turn import Direction, RecapArgs
from bedside_guard import FUNCTION_WORDS, capitalised_words, words_of

from bedside_turn.domain import numbers, spelling
from bedside_turn.domain.recap import FALLBACK_MINUTES, LAST_SITTING, RecapAsked, minutes_back, read_recap

UNIT_MS = {"second": 1_000, "sec": 1_000, "minute": 60_000, "min": 60_000, "hour": 3_600_000}


@dataclass(frozen=True)
class FindPlace:
    """Go to a moment described in words; ``direction`` when they said which way ("go back to ...")."""

    query: str
    direction: Direction | None = None


@dataclass(frozen=True)
class Chapter:
    n: int


@dataclass(frozen=True)
class ChapterTitled:
    """Go to the chapter the listener names by its title ("go back to the chapter called The Fire")."""

    title: str


SaidUnit = Literal["second", "minute"]


@dataclass(frozen=True)
class Jump:
    offset_ms: int
    unit_taken: SaidUnit | None = None
    """The unit Bedside took for a number said without one ("back 5": ``unit_for_number_alone``), so the
    reply says it; None when the listener said the unit, or no number ("go back a bit")."""
    amount_chosen: bool = False
    """No number said, and more than a bit ("go back a while"): the amount is Bedside's; the reply says it."""


@dataclass(frozen=True)
class ClockTime:
    position_ms: int
    minutes_seconds_ms: int | None = None
    """The same words read as minutes and seconds, when only two parts were said ("go to 3:20"):
    ``routing.clock_position`` takes this reading when the other is past the book's end."""


@dataclass(frozen=True)
class ShareOfBook:
    """'Halfway through the book', 'three quarters of the way through': a place by the book's length,
    or by the chapter playing's when ``of_chapter`` ("the middle of the chapter"), or by ``chapter``'s
    when one is named ("halfway through chapter 4")."""

    share: float
    of_chapter: bool = False
    chapter: int | None = None


@dataclass(frozen=True)
class IntoChapter:
    """'Ten minutes into chapter 5', 'two minutes into this chapter': a time from the start of the
    chapter named, or of the one playing when ``chapter`` is None."""

    into_ms: int
    chapter: int | None = None


@dataclass(frozen=True)
class ThisChapterStart:
    pass


@dataclass(frozen=True)
class ChapterEnd:
    """'Take me to the end of the chapter': the closing passage of the chapter playing, not the book's;
    'the end of chapter 3': that chapter's closing passage, not its start; 'the end of the last
    chapter': the closing passage of the chapter ``step`` from the one playing."""

    chapter: int | None = None
    step: int | None = None


@dataclass(frozen=True)
class NextChapter:
    """The chapter after (``step`` 1) or before (-1) the one playing: only the book knows which."""

    step: int


@dataclass(frozen=True)
class BookStart:
    pass


@dataclass(frozen=True)
class StartAgain:
    """'Start over', 'from the top': a start again with no start named. Taken as the chapter playing's,
    and the reply says so (the turn README says why); "start the book again" is ``BookStart``."""


@dataclass(frozen=True)
class BookEnd:
    pass


@dataclass(frozen=True)
class SkipOpening:
    """'Skip the intro': past the opening (the front matter, credits, a preface) to the first chapter."""


@dataclass(frozen=True)
class FinalChapter:
    """'Go to the final chapter': the book's last, which only its chapter list knows. "The last
    chapter" is the one before this (``NextChapter``), as "last night" is the one before."""


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class CancelThat:
    """ "Cancel that": what the turn just before did, taken back (a timer it set, a move it made);
    said after anything else, it asks nothing (``routing.cancelled_by_that``)."""


@dataclass(frozen=True)
class ClearList:
    """ "None of those", "stay here": the list on the screen taken off every device, the book left
    where it is."""


@dataclass(frozen=True)
class OtherOne:
    """'No, the other one': another of the places the last search found."""


@dataclass(frozen=True)
class GoThere:
    """'Take me there', 'play that part': the one place the last answer named (``routing.places_named``)."""

    show_only: bool = False
    """Asked where or when that was: the place goes on the screen, as a question never moves the book."""
    row_only: bool = False
    """ "That one": a row of a list on the screen, pressed if it is the only one."""


@dataclass(frozen=True)
class MoreOfThat:
    """'Tell me more', 'what else?': another heard place for the question the last answer answered."""


@dataclass(frozen=True)
class PressListed:
    """'The second one': a row of the list on the screen, by its place, as a press of it would
    (``row`` counts from 0; -1 is the last)."""

    row: int


@dataclass(frozen=True)
class Earlier:
    """A place from the listener's own history ("the last time I was in chapter 5")."""

    chapter: int | None = None
    device: str | None = None
    before_skip_ahead: bool = False
    fell_asleep: bool = False
    timer_paused: bool = False
    furthest: bool = False
    left_off: bool = False
    """Where they left off when they last stopped listening for a while ("where I was last night")."""
    sitting_began: bool = False
    """Where this time's listening began ("where I started tonight")."""
    began_last_time: bool = False
    """Where the listening before the last break of an hour or more began ("where I started last night")."""
    show_only: bool = False
    """Asked as a question ("where was I...?", "when did I last...?"): a question never moves
    the book, so the place goes on the screen to press."""
    how_long: bool = False
    """With ``fell_asleep``: "how long was I asleep?", how much of the book played on after it."""


@dataclass(frozen=True)
class EarlierAgain:
    """'The time before that': the next older match of the last lookup."""


@dataclass(frozen=True)
class Question:
    question: str


@dataclass(frozen=True)
class TwoQuestions:
    """'Who are Wren and Tamsin?': two who-questions in one breath, each answered as if asked alone (one
    search for both finds the passage of one)."""

    first: str
    second: str


LengthOf = Literal["chapter", "story", "book"]


@dataclass(frozen=True)
class TimeLeft:
    """'How long is left?': of the chapter playing and of the book, from the book's own times;
    ``length_of`` when they asked how long the chapter, the book or "this story" is (a chapter in a
    book of stories, the book in a novel: both are said)."""

    length_of: LengthOf | None = None


BookFact = Literal[
    "title", "author", "reader", "chapters", "chapters_left", "chapter_titles", "previous_title", "next_title"
]


@dataclass(frozen=True)
class AboutTheBook:
    """'Who wrote this?', 'who's reading it?', 'how many chapters are left?': what the cover and the
    chapter list say, which any player shows, so no spoiler and no passage read."""

    fact: BookFact


@dataclass(frozen=True)
class ChapterTitleAsked:
    """'What's chapter 6 called?': its title once begun, as the page shows it, else its number only."""

    n: int


@dataclass(frozen=True)
class NamesHeard:
    """'Who are the main characters?', 'who's who?': the names heard most so far, from the book's own
    table of names counted behind the line (search's, as the recogniser's hints are)."""


@dataclass(frozen=True)
class HeardBefore:
    """'Have I heard this before?': whether the listener has been further on than here (after going
    back, or dozing through a rewind), from the furthest place their history has them at."""


@dataclass(frozen=True)
class LastMoveAsked:
    """ "Why did it jump?", "who moved it?", "that's not where I was": told from the newest move in the
    listener's history, with undo offered; nothing moves."""


ListeningAbout = Literal["last_time", "this_sitting"]


@dataclass(frozen=True)
class ListeningAsked:
    """ "When did I last listen?", "how long have I been listening?": told from the listener's history
    on the stream's own times, not from the story."""

    about: ListeningAbout


@dataclass(frozen=True)
class WhereAmI:
    """'Where am I?', 'which chapter is this?', 'how far through am I?': the chapter playing and how far
    into it and into the book, from the book's own times (no passage read)."""


@dataclass(frozen=True)
class SayAgain:
    """'Say that again', 'sorry, what?' a moment after an answer: that answer again
    (``routing.answer_to_say_again``); later the same words ask about the book, which has played on."""


@dataclass(frozen=True)
class BothAsked:
    """'What chapter is this and how long is left?': two things the position, the cover, the chapter list,
    the sleep timer or the listener's history tell, asked in one breath; each is answered, as asked."""

    first: "Intent"
    second: "Intent"


@dataclass(frozen=True)
class SleepTimer:
    """'Sleep in 15 minutes', 'stop at the end of the chapter': the player's sleep timer."""

    after: int | Literal["chapter_end"]
    """Minutes of listening, or the end of a chapter."""
    chapter: int | None = None
    """With ``chapter_end``: the chapter named ("stop at the end of chapter 3"); None, the one playing."""
    chapter_step: int | None = None
    """With ``chapter_end``: the chapter this many after the one playing ("the end of the next chapter")."""


@dataclass(frozen=True)
class TimerAdded:
    """'Add ten minutes to the timer': minutes put on top of what the running sleep timer has left;
    with none running, a timer of those minutes. Fewer than none are taken off it ("shorten the timer
    by five minutes"), which starts no timer."""

    minutes: int


@dataclass(frozen=True)
class TimerAgain:
    """'Reset the timer': the running sleep timer's minutes again, counted from here."""


@dataclass(frozen=True)
class Together:
    """'Go back five minutes and stop in ten': a move, then the sleep timer or a pause, in one turn.
    The move goes first whatever the order said: a timer counts from where the book is. A pause with
    the timer ("pause and set a timer for ten minutes") is paused first, in the move's place."""

    move: "Intent"
    then: "SleepTimer | TimerAdded | CancelSleepTimer | Pause"


@dataclass(frozen=True)
class CancelSleepTimer:
    """'Cancel the sleep timer', 'turn the timer off'."""


@dataclass(frozen=True)
class Pause:
    """'Pause', 'stop', 'stop playing': the book pauses on every device."""


@dataclass(frozen=True)
class PlayOn:
    """'Play', 'resume', 'carry on': the book to play on. No command starts the sound from a turn (the
    player has none, and a page may start it only after a press on it), so it is answered honestly."""


@dataclass(frozen=True)
class Bookmark:
    """'Bookmark this': a mark Bedside does not keep; every device keeps the place, and history."""


@dataclass(frozen=True)
class OtherBook:
    """'Switch to Sherlock Holmes': another book, which a turn about this one cannot open."""


@dataclass(frozen=True)
class OtherDevice:
    """'Play it on the speaker': another device, which carries on from the same place once pressed."""

    device: str
    """The device as they named it ("kitchen speaker")."""


@dataclass(frozen=True)
class Volume:
    """'Louder', 'turn it down': the sound's loudness, which is the device's and not the book's."""


@dataclass(frozen=True)
class TimerAsked:
    """'When will it stop?', 'is the sleep timer on?': the player's running sleep timer, told."""


@dataclass(frozen=True)
class Speed:
    """'Slower', 'speed up': the reading speed, which no tool and no page control changes."""


CourtesySaid = Literal["thanks", "never_mind", "goodnight", "time_of_day", "still_awake"]


@dataclass(frozen=True)
class Courtesy:
    """'Thanks', 'never mind', 'goodnight', 'what time is it?': said to Bedside, asking nothing of the
    book."""

    said: CourtesySaid


@dataclass(frozen=True)
class SpoilerAsked:
    """'Give me a spoiler': what is ahead is the book's to tell, never Bedside's."""


@dataclass(frozen=True)
class SyncAsked:
    """'Sync my devices': every device already follows the one shared place."""


@dataclass(frozen=True)
class PlayingAsked:
    """'Is it playing?', 'is the book paused?': told from the player's state; ``why`` when they asked
    why it stopped ("why did it stop?"), which a sleep timer that ran out answers."""

    why: bool = False


@dataclass(frozen=True)
class Help:
    """'What can you do?', 'help': what may be asked, said with examples."""


@dataclass(frozen=True)
class TimerHowLong:
    """'Set a timer', 'sleep timer': a sleep timer asked for without saying for how long."""

    clock_said: bool = False
    """A time of day was said ("stop at 11pm"): the turn knows no listener's clock, so it asks again."""


@dataclass(frozen=True)
class Other:
    pass


Intent = (
    FindPlace
    | Chapter
    | ChapterTitled
    | Jump
    | ClockTime
    | ShareOfBook
    | IntoChapter
    | ThisChapterStart
    | ChapterEnd
    | NextChapter
    | BookStart
    | StartAgain
    | BookEnd
    | FinalChapter
    | SkipOpening
    | Undo
    | Earlier
    | EarlierAgain
    | OtherOne
    | GoThere
    | MoreOfThat
    | PressListed
    | ClearList
    | CancelThat
    | Question
    | TwoQuestions
    | RecapAsked
    | TimeLeft
    | WhereAmI
    | SayAgain
    | BothAsked
    | ListeningAsked
    | LastMoveAsked
    | HeardBefore
    | NamesHeard
    | AboutTheBook
    | ChapterTitleAsked
    | SleepTimer
    | TimerAdded
    | TimerAgain
    | Together
    | CancelSleepTimer
    | Pause
    | PlayOn
    | Volume
    | Bookmark
    | OtherBook
    | TimerAsked
    | Speed
    | Courtesy
    | Help
    | SpoilerAsked
    | SyncAsked
    | PlayingAsked
    | TimerHowLong
    | OtherDevice
    | Other
)

_NUMBER_SAID = numbers.SAID
_NUMBER = f"({_NUMBER_SAID})"
_BARE_NUMBER_SAID = numbers.SAID_AS_A_NUMBER
_UNIT = r"(?:second|sec|minute|min|hour)"
_AND_A_PART = r"(?:\s+and\s+a\s+(?:half|quarter))"
_QUARTER_HOUR = r"quarters?\s+(?:of\s+)?(?:an?\s+)?hour"
_QUARTERS = re.compile(rf"(?:(a|one|three)\s+)?{_QUARTER_HOUR}")


def _amount_in(unit: str) -> str:
    """One amount said in ``unit``: "20 minutes", "half an hour", "one and a half hours"."""
    quarters = rf"|(?:(?:a|one|three)\s+)?{_QUARTER_HOUR}" if unit == "hour" else ""
    return (
        rf"(?:(?:an?\s+)?half(?:\s+an?)?\s+{unit}|{_NUMBER_SAID}{_AND_A_PART}?\s+{unit}s?"
        rf"{_AND_A_PART}?{quarters})\b"
    )


_HOURS, _MINUTES, _SECONDS = _amount_in("hour"), _amount_in("(?:minute|min)"), _amount_in("(?:second|sec)")
_AND = r"\s+(?:and\s+)?"
_AMOUNT = (
    rf"(?:{_HOURS}(?:{_AND}{_MINUTES})?(?:{_AND}{_SECONDS})?|{_MINUTES}(?:{_AND}{_SECONDS})?|{_SECONDS})"
)
"""An amount of time said, as ``_said_amount_ms`` reads it: "20 minutes", "half an hour", "a half hour",
"one and a half hours", "an hour and a half", "an hour and a quarter", "a quarter of an hour", and in
two units, each smaller than the one before, "an hour and ten minutes" ("5 minutes and 20 minutes"
is two amounts: "go back 5 minutes and a 20 minute timer")."""
_SAID_AMOUNT = re.compile(rf"(?:(half)(?:\s+an?)?|{_NUMBER}({_AND_A_PART})?)\s+({_UNIT})s?({_AND_A_PART})?")
_BACK_SAID = ("back", "backward", "backwards", "rewind", "reverse")
_BACK = rf"(?:{'|'.join(_BACK_SAID)})"
_ROUGHLY = r"(?:(?:about|around|maybe|like|roughly|probably|only) )?"
_JUMP = re.compile(
    rf"\b({_BACK}|forward|forwards|ahead|skip(?!\s+{_BACK}\b)|on)\b(?:\s+\w+){{0,2}}?\s+(?:by\s+)?({_AMOUNT})"
)
"""The way, then the amount; "skip back" goes back."""
_WAY_SAID_LAST = re.compile(rf"\s+({_BACK}|forwards?|ahead)\b")
"""The way said after a "skip" and its amount: "skip 5 minutes back"."""
_JUMP_BY_CLOCK = re.compile(
    rf"^(?:(?:go|skip|jump|move) )?({_BACK}|forward|forwards|ahead) (?:by )?"
    r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?: please)?$"
)
"""A jump by an amount on the clock, with no "to" ("back 1:30", minutes and seconds); "back to 1:30" is
a place (``_CLOCK``)."""
_REPEAT_THE_LAST = re.compile(
    rf"^(?:(?:can|could) you )?(?:please )?(?:repeat|replay|play|read)(?: me)? (?:the|that) last ({_AMOUNT})"
    r"(?: again)?(?: please)?$"
)
"""Heard again by its length: "repeat the last 30 seconds" goes back that far."""
_JUMP_AMOUNT_FIRST = re.compile(rf"\b({_AMOUNT})\s+({_BACK}|forward|forwards|ahead|on)\b")
"""The amount said before the way ("half an hour back", "ten minutes forward")."""
_SMALL = (
    r"(?:for )?(?:just |only )?(?:a (?:little |tiny |wee |teeny )?(?:bit|touch)|a little(?: bit)?|a touch"
    r"|a tad|a smidge|a tick|a mo|a moment|slightly|some)(?: more)?"
)
_ASKED_OF_US = (
    r"^(?:(?:can|could|would) (?:you|we) |(?:let's|lets|i need to|i want to) |please )?(?:please )?(?:just )?"
)
_NO_MORE_SAID = r"(?: please| will you| would you| for me)?$"
_A_BIT = re.compile(
    rf"{_ASKED_OF_US}"
    r"(?:(?:go|skip|jump|move|take me|fast|keep going|pop|nip|hop) )?"
    r"(back|backwards?|rewind|forward|forwards|ahead|skip)"
    rf"(?: up| that(?: bit| part)?)?(?: {_SMALL})?{_NO_MORE_SAID}"
    rf"|{_ASKED_OF_US}(?:wind (?:it )?(back)|(back) it up|(rewind) it)(?: {_SMALL})?{_NO_MORE_SAID}"
    rf"|^(?:skip|go|move|jump) (on) {_SMALL}{_NO_MORE_SAID}"
)
"""An amount not said ("go back a bit", "rewind"): the page's own step, 30 seconds."""
_A_BIT_MORE = re.compile(
    r"^(?:go |skip |move |jump )?(?:(?:a )?(?:little |tiny )?bit |a little |even |just )?"
    r"(?:further|farther|more) (back|on|forward|ahead)(?: please)?$"
    r"|^(?:go |skip |move |jump )?(back|forward|on) (?:a )?(?:little |bit |touch )?(?:more|further|farther)"
    r"(?: please)?$"
    r"|^(?:go |skip |move |jump )?(back|forward|on) (?:once )?again(?: please)?$"
    r"|^(earlier|later)(?: please)?$"
    r"|^(?:go (?:back )?to )?(?:(?:just )?(?:a (?:little |tiny )?bit|a little|slightly)|just)"
    r" (earlier|later|before|after)(?: (?:that|there|than that))?(?: please)?$"
)
"""A step more, once moved ("further back", "go back a little more", "a bit before that"): the same
30 seconds, not the place before the move ("before that" alone is an undo)."""
A_BIT_MS = 30_000
_A_WHILE = re.compile(
    r"^(?:(?:go|skip|jump|move|take me) )?(back|backwards?|rewind|forward|forwards|ahead|on)"
    r" (?:(?:for )?a (?:little |good |long )?while|a ways?|quite a (?:bit|way|ways|while)|several minutes"
    r"|a (?:long|good|fair) (?:way|bit)|a chunk|a spell|a lot|loads|some (?:time|way))"
    r"(?: please)?$"
)
"""More than a bit, with no number ("go back a while", "back quite a way", "a long way"): ``A_WHILE_MS``."""
A_WHILE_MS = 5 * 60_000
_IN_THE_TEXT = re.compile(
    r"^(?:(?:go|skip|jump|move|take me) )?(back|backwards?|rewind|forward|forwards|ahead|on|skip)"
    rf" ({numbers.SAID}|the) (sentence|line|paragraph|page)s?(?: please)?$"
)
"""A step counted in the text ("go back a sentence", "skip forward a page"): the book is heard, not
read, so each is the time it takes to read aloud (``READ_ALOUD_MS``), and the reply says it."""
READ_ALOUD_MS = {"sentence": 10_000, "line": 10_000, "paragraph": 30_000, "page": 120_000}
_BACK_WORDS = frozenset({*_BACK_SAID, "earlier", "before"})
_SKIP_THIS_BIT = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?skip(?: over| past)? (?:this|that|the)"
    r" (?:boring )?(?:bit|part)(?: please)?$"
    r"|^(?:can we |can you |let's )?(?:skip (?:this|that)|move on)(?: please)?$"
    r"|^(?:this|this bit|this part)(?: is|'s) (?:so |really |very |a bit )?(?:boring|dull)$"
    r"|^skip(?: ahead| forward| on)? i(?: know|'ve heard| heard| remember) (?:this|that)"
    r"(?: bit| part)?(?: already)?$"
)
""""Skip this bit": the page's step forward, not a search of the book for "this bit"."""
_SKIP_OPENING = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:skip|skip past|skip over|go past|get past|jump past)"
    r"(?: the| this)? (?:intro|introduction|opening|opening credits|credits|preface|foreword|prologue"
    r"|front matter)(?: please)?$"
)
_JUST_HEARD = r"(?:that|the) last (?:bit|line|sentence|part|few seconds)"
_ASKED_FOR = (
    r"(?:(?:can|could|would|shall) (?:you|we)\s+|let's\s+|let us\s+|i(?:'d| would) like to\s+"
    r"|i (?:want|need) to\s+)?(?:please\s+)?"
)
"""How a request may start before its verb: "can we", "let's", "I'd like to", "please"."""
_POLITELY = rf"^{_ASKED_FOR}(?:go back and\s+)?"
_PLAY_THAT_AGAIN = re.compile(
    rf"{_POLITELY}(?:play|read|run|hear|listen to)(?: me)? (?:that|it|this)(?: bit| part| line| sentence)?"
    r" (?:back|again|over|once more)(?: please)?$"
    rf"|{_POLITELY}replay(?: that| it| this)?(?: please)?$"
    rf"|{_POLITELY}(?:play|replay|read|say|repeat|hear|listen to)(?: me)? {_JUST_HEARD}"
    r"(?: back| again| over)?(?: please)?$"
    rf"|^(?:i )?(?:missed|didn't (?:catch|hear|get)|did not (?:catch|hear|get)) (?:that|it|{_JUST_HEARD})$"
    r"|^run (?:that|it) (?:by|past) me again$"
    rf"|{_POLITELY}repeat(?: that| it| this| {_JUST_HEARD})?(?: again)?(?: please)?$"
    rf"|{_POLITELY}(?:(?:go|take me|skip|jump) )?back to the (?:start|beginning) of (?:the|that|this)"
    r" (?:sentence|line|paragraph|bit)(?: please)?$"
)
""""Play that again", "I missed that": the words just heard once more, so back the page's own step
(not a search of the book for "again", nor a recap read out in place of the narrator's voice)."""
_MISSED_STRETCH = re.compile(
    r"^(?:i (?:missed|didn't catch|did not catch|didn't hear|did not hear)|(?:re)?play|go over|listen to)"
    r" (?:the )?(?:last|past) (.+?)(?: again| back| over)?$"
)
"""A stretch missed or to hear again, said by its length ("I missed the last ten minutes", "replay the
last minute"): ``_missed_stretch``; "play the last chapter again" is the chapter before."""
_NUMBER_ALONE_JUMP = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:go|skip|jump|move|take me|take it|fast)[\s-]+)?"
    rf"({_BACK}|forwards?|ahead|skip)(?:\s+by)?(?:\s+another)?\s+({_BARE_NUMBER_SAID})(?:\s+more)?(?:,?\s+please)?$"
)
"""A move by a number said without a unit, read whole ("back 5", "skip forward 20", "fast forward 30"),
so a number that is a chapter's, a timer's or a clock's is never one."""
SECONDS_FROM = 10
"""A number said without a unit is seconds from here up, minutes below (``unit_for_number_alone``)."""
_WHAT_STARTS = (
    r"(?:it|this|that|the whole (?:thing|book|story)"
    r"|(?:(?:the|this|the current)\s+)?(?:book|audiobook|novel|story|chapter))"
)
_FROM_THE_TOP = (
    r"(?:from\s+the\s+(?:very\s+)?(?:top|start|beginning)(?:\s+of\s+(?:the\s+whole\s+thing|the\s+book))?"
    r"|from\s+the\s+(?:very\s+)?first\s+(?:line|page|word)"
    r"|from\s+scratch)"
)
_START_AGAIN = re.compile(
    r"^(?:(?:can|could|would) you\s+|(?:can|could|shall) we\s+|i (?:want|would like|'d like) to\s+)?"
    r"(?:please\s+)?(?:just\s+)?(?:"
    rf"(?:start|begin)(?:\s+{_WHAT_STARTS})?\s+(?:again|over)(?:\s+{_FROM_THE_TOP})?"
    r"|(?:(?:(?:go|take me|take it)\s+)?all\s+the\s+way\s+back"
    r"|rewind(?:\s+(?:it|the book|the story))?\s+all\s+the\s+way(?:\s+back)?)"
    r"(?:\s+to\s+the\s+(?:very\s+)?(?:start|beginning))?"
    r"|(?:i (?:want|would like|'d like) to\s+)?(?:hear|play|read|listen to)\s+(?:the|this|that)\s+"
    r"(?:chapter|story|book)\s+(?:again|over(?:\s+again)?|once more)"
    rf"|restart(?:\s+{_WHAT_STARTS})?(?:\s+{_FROM_THE_TOP})?"
    rf"|(?:start|begin|play|read|take)(?:\s+{_WHAT_STARTS})?(?:\s+(?:all\s+)?(?:over\s+)?again)?\s+{_FROM_THE_TOP}(?:\s+again)?"
    rf"|(?:(?:all\s+)?over\s+)?again\s+{_FROM_THE_TOP}"
    r"|(?:(?:go\s+)?back\s+)?(?:to|from)\s+the\s+(?:very\s+)?top"
    r"|(?:go\s+)?back\s+to\s+the\s+(?:very\s+)?(?:start|beginning)"
    r")(?:\s+of\s+(?:the|this)\s+(?:book|story|chapter))?(?:,?\s+please)?$"
)
"""Starting again, read whole: "start over", "play it from the top", "restart the book", "from the top of
the chapter". Which start it is, is ``_start_again``'s to say."""
_NAMES_CHAPTER = re.compile(r"\bchapter\b")
_NAMES_BOOK = re.compile(r"\b(?:book|audiobook|novel|story|whole thing|all the way)\b")
_CHAPTER = re.compile(rf"\bchapter\s+{_NUMBER}\b")
_CLOCK = re.compile(r"\b(?:to|at|from)\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\b")
_N = numbers.SAID_AS_A_NUMBER
_CLOCK_SAID = rf"(?:({_N}) hours?(?: and)?(?: ({_N})(?: minutes?)?)?|({_N}) minutes?|minute ({_N}))"
_INTO_THE_BOOK = r" (?:in|mark|point|into the (?:book|story))"
_SPOKEN_CLOCK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:go|skip|jump|move|take me|take it|fast forward|rewind|play|start)(?: (?:back|ahead|forwards?|on))?"
    rf" (?:to|from|at) (?:the )?(?:{_CLOCK_SAID}|(?P<amount>{_AMOUNT}))(?:{_INTO_THE_BOOK})?(?:,? please)?$"
)
"""A place on the book's clock said in words ("go to 2 hours 10 minutes", "skip to the 3 hour mark",
"back to 1 hour", "go to minute 45", "start at 10 minutes", "skip to 45 seconds", "go to an hour and
a half"): the "to" makes it a place, where "skip 45 minutes" is a move by that much."""
_CLOCK_PLACE_ALONE = re.compile(rf"^(?:the )?{_CLOCK_SAID}{_INTO_THE_BOOK}(?:,? please)?$")
"""The same said with no verb: "45 minutes in", "the 3 hour mark"."""
_INTO_CHAPTER = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:go|skip|jump|move|take me|take it|fast forward|rewind|play|start)"
    r"(?: (?:back|ahead|forwards?|on))? (?:to|from|at) )?(?:the )?"
    rf"(?:(?P<amount>{_AMOUNT}) (?:into|in) (?:(?:the|this) chapter|chapter (?P<chapter>{_BARE_NUMBER_SAID}))"
    rf"|chapter (?P<chapter_first>{_BARE_NUMBER_SAID}) (?:at |from )?(?P<amount_after>{_AMOUNT}) in)"
    r"(?: please)?$"
)
"""A time from a chapter's start ("ten minutes into chapter 5", "chapter 4, two minutes in"), where
"ten minutes into the book" is a place on the book's clock (``_SPOKEN_CLOCK``)."""
_SHARES = {"a third": 1 / 3, "a quarter": 0.25, "two thirds": 2 / 3, "three quarters": 0.75}
_SHARE_OF_BOOK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:go|skip|jump|move|take me|take it|fast forward|rewind)(?: (?:back|ahead|forwards?|on))? to )?"
    r"(?:the )?"
    rf"(?:halfway(?: point| mark)?|middle|({'|'.join(_SHARES)}) of the way"
    r"|(\d{1,2}|100) ?(?:%|percent)(?: mark)?)"
    r"(?: (?:through|into)(?: (?:the|this) (?:audio)?(book|story|chapter))?"
    r"| of (?:the|this) (?:audio)?(book|story|chapter))?"
    rf"(?:(?: through| into| of) chapter ({_BARE_NUMBER_SAID}))?"
    r"(?:,? please)?$"
)
"""A place by the share of the book or of the chapter said, the whole request ("skip to halfway
through the book", "the middle of the chapter", "go to 75%"): the length places it, where
"halfway through, when the horse is sold" is a moment to find."""
_UNDO = re.compile(
    r"\bundo\b|\b(?:go back|return) to where i was\b|\bwhere i was before\b"
    r"|^put me back (?:to )?where i was(?: listening)?$"
    r"|^(?:cancel|reverse|undo) (?:that|the last) (?:jump|move|skip)$|^reverse that$"
    r"|\bback to my (?:previous|last|old) (?:spot|place|position)\b"
    r"|\bbefore (?:that|you (?:moved|skipped|jumped))\b|\btake that back\b|\bgo back to before$"
    r"|\bback to where i was(?: before)?(?:,?\s+please)?$"
    r"|^(?:(?:oops|whoops)[\s,]+)?put (?:it|that|me|the book) back(?: (?:how|where|the way) it was)?"
    r"(?:,?\s+please)?$"
    # a correction straight after a move ("no, go back"): where they were, not the page's 30 s step
    r"|^(?:(?:no|nope)[\s,]+)*(?:no|nope|oops|whoops|wrong(?: place| spot| bit| part)?|that's wrong"
    r"|thats wrong"
    r"|that's not right)[\s,]+"
    r"(?:go|take me|bring me|put me|put it) back(?:,?\s+please)?$"
    r"|^(?:(?:no|nope)[\s,]+)*(?:(?:the )?wrong way|the other way|not that (?:far|way)"
    r"|(?:(?:that's|thats|that is|you went|you've gone|it went) )?(?:way |much )?too far"
    r"(?: back| forward| ahead)?)"
    r"(?:,?\s+please)?$"
)
_TIME_BEFORE = re.compile(
    r"\b(?:the )?(?:time|one|place) before that\b|\bearlier than that\b|\band before that\b"
    r"|^(?:what about |how about )?before that$"
)
_BEFORE_SKIP = re.compile(
    r"\bbefore i (?:last )?(?:skipped|jumped|fast[- ]?forwarded)(?: (?:ahead|forward|forwards|on))?\b"
    r"|\bbefore i (?:went|moved) (?:ahead|forward|forwards|on)\b"
)
_GO_BACK_TO = r"^(?:(?:can|could|would) you )?(?:please )?(?:go|take me|bring me|skip|jump) back to "
_FELL_ASLEEP = re.compile(
    r"\bwhere (?:did )?i (?:fall|fell|falling) asleep\b"
    r"|\bwhere (?:did )?i (?:doze[ds]?(?: off)?|(?:drift(?:ed)?|nod(?:ded)?) off)\b"
    r"|\bwhen i (?:fell asleep|dozed off|drifted off|nodded off)\b"
    r"|^(?:when|what time) did i (?:fall asleep|doze off|drift off|nod off)\b"
    r"|\bback (?:to )?(?:just )?before i (?:fell asleep|dozed off|drifted off|nodded off)\b"
    r"|\bwhere i was (?:just )?before i (?:fell asleep|dozed off|drifted off|nodded off|went to sleep)\b"
    rf"|{_GO_BACK_TO}(?:what |the (?:bit|part) (?:that )?)i missed(?: please)?$"
    r"|\b(?:back )?to (?:where|when) i was (?:still )?awake\b|\bthe last (?:thing|bit|part) i remember\b"
    r"|^(?:i )?(?:must have )?(?:fell asleep|dozed off|drifted off|nodded off)\b.*?[\s,]+"
    r"(?:go|take me|bring me|put me) back(?: there)?(?:,?\s+please)?$"
)
_HOW_LONG_ASLEEP = re.compile(
    r"^how long (?:(?:was i|have i been|had i been|i was) (?:asleep|sleeping|dozing|out)"
    r"|did i (?:sleep|doze|nap)|i slept)(?: for)?(?: last night| tonight)?$"
)
"""How long they slept, which Bedside knows only as where they fell asleep and how much of the book
played on after it, until the sleep timer paused it: those are told."""
_WHAT_PLAYS = r"(?:it|the book|the story|the audio|the audiobook|playback|the recording|the (?:sleep )?timer)"
_TIMER_PAUSED_END = r"(?: it| the book)?(?: last night| earlier| before)?(?: please)?$"
"""Nothing after the stop but filler: "where it stopped raining" is a moment of the story."""
_TIMER_PAUSED = re.compile(
    rf"\bwhere {_WHAT_PLAYS} (?:stopped|paused|ran out|cut out|cut off|went off|turned off|switched off)"
    rf"{_TIMER_PAUSED_END}"
    rf"|^where (?:did|has) {_WHAT_PLAYS}"
    rf" (?:stop|stopped|pause|paused|run out|ran out|cut out|go off|gone off){_TIMER_PAUSED_END}"
)
"""Where the sleep timer paused the book ("where did it stop?"), never a search for the words."""
_DOZE = r"(?:fell asleep|fallen asleep|dozed off|drifted off|nodded off)"
_COURTESY_WORD = (
    r"(?:(?:and |so )?(?:thanks?(?: you)?(?: so much| very much)?|thx|ta|cheers|good ?night|night night"
    r"|nighty night|ok(?:ay)?|x+))"
)
_ASKS_NOTHING_AFTER = re.compile(
    r"(?<!before)(?<!when)(?<!where)(?<!after)(?<!until)(?<!till)(?<!since)(?<!that)(?<!says)(?<!said)"
    r"[\s.!]+(?:(?:because |cause |'cause |as |since )?(?:i|we) (?:(?:must have |think i )?"
    r"(?:fell asleep|dozed(?: off)?|drifted off|nodded off|zoned out)"
    r"(?: (?:around|about) then| there| for a (?:bit|while|minute))?|missed .+|didn'?t (?:hear|catch|get) .+)"
    rf"|{_COURTESY_WORD}(?:[\s.!]+{_COURTESY_WORD})*)$"
)
"""Said after a request and asking nothing itself: why ("go back two minutes, I fell asleep"), or a
thanks or a goodnight ("pause, thank you")."""
_DOZED = re.compile(
    rf"^(?:i think |i guess |sorry )?i (?:must have |might have |think i )?{_DOZE}"
    rf"(?: {_ROUGHLY}(?P<ago>{_AMOUNT}) ago)?"
    r"(?: (?:so |and |then )?(?P<then>.+))?$"
)
"""A doze said with how long ago, or with a request after it ("I fell asleep, go back ten minutes")."""
_MOVE_FIRST = re.compile(
    r"^(?:(?:please|can you|could you) )?(?:go|take me|bring me|put me|skip|jump|rewind|play|back)\b"
)
_WHERE_I_DOZED_AGO = re.compile(
    rf"^(?:(?:go|take me|bring me|skip|jump) )?back to (?:where|when) i {_DOZE} {_ROUGHLY}(?P<ago>{_AMOUNT})"
    r" ago(?: please)?$"
)
_GO_THERE = re.compile(
    r"^(?:(?:yes|yeah|ok(?:ay)?|great|so|please)[,\s]+)*(?:(?:can|could|would) you |let's |i want to )?"
    r"(?:please )?(?:go on then )?"
    r"(?:(?:go|take me|bring me|put me|jump|skip)(?: back)?(?: there| to it)(?: again)?"
    r"|(?:play|start|pick up|carry on|go on)(?: (?:it|that))? from there"
    r"|(?:play|hear|listen to|(?:go|take me|bring me|jump|skip)(?: back)? to) (?:that|this) "
    r"(?:part|bit|passage|scene|moment|place|spot))(?:,? please)?$"
)
"""The one place the last answer named, pointed at: "take me there", "play that part". With "again"
after "that part" it is what was just heard (``_PLAY_THAT_AGAIN``). A bare "yes" is not one: said
to any answer, it would move the book."""
_THAT_ONE = re.compile(
    r"^(?:(?:yes|yeah|ok(?:ay)?)[,\s]+)?"
    r"(?:(?:play|pick|choose|press|try|(?:go|take me|bring me|jump|skip)(?: back)? to) )?(?:that|this) one"
    r"(?:,? please)?$"
)
"""A row of the list on the screen, pointed at: never the place a quote came from (a "that one" to an
answer is no consent to move)."""
_WHERE_THAT_WAS = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|wait)\s+)*(?:where|when) (?:was|did) (?:that|this)"
    r"(?: (?:part|bit|scene|moment))?(?: (?:happen|come|come up))?(?: in the (?:book|story))?$"
    r"|^(?:where|when) was (?:that|this)(?: (?:part|bit|scene|moment))? again$"
)
"""Where or when the place the last answer named is: shown, not moved to (``GoThere.show_only``)."""
_MORE_OF_THAT = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|yes|yeah)\s+)*(?:tell me more(?: about (?:that|it|him|her|them))?"
    r"|what else(?: (?:do i know|did i hear|is there))?|anything else)(?: please)?$"
)
"""More of what the last answer told ("tell me more", "what else?"): no subject of its own."""
_BACK_THERE = re.compile(
    r"^(?:(?:go|take me|bring me|put me) )?back(?: there| to (?:it|then|that))?(?: please)?$"
)
_HEARD_THIS = (
    r"(?:i think )?i(?:'ve| have)? (?:already )?heard (?:this|that)(?: (?:part|bit))?(?: (?:before|already))?"
)
_HOW_FAR_GOT = r"how far (?:did (?:i|we) get|had (?:i|we) got(?:ten)?|(?:i|we) got)"
"""How far they got: the furthest place they have been, or, said of the last time, where they stopped."""
_FURTHEST = re.compile(
    r"\bwhere (?:was i|i was|have i been|i've been|i got|did i get) (?:the )?furthest\b"
    r"|\b(?:my|the) furthest (?:point|position|place|spot)\b"
    r"|\bthe furthest i(?:'ve| have|ve)? (?:got|gotten|been|listened)\b"
    rf"|\b{_HOW_FAR_GOT}(?: before\b|(?: to| listening)?(?: (?:in|into|through) (?:the|this) (?:book|story))?"
    r"(?: then| so far)?[?.!]*$)"
    rf"|^{_HEARD_THIS} (?:so )?(?:skip|go|move|jump) (?:ahead|on|forward)(?: please)?$"
    rf"|{_GO_BACK_TO}where i (?:had )?got(?: up)? to(?: please)?$"
    r"|^(?:(?:go|take me|skip|jump|bring me) )?(?:back )?to (?:where i (?:had )?got(?: up)? to"
    r"|(?:my |the )?furthest(?: (?:point|place|spot|i got))?)(?: please)?$"
    r"|^skip (?:past )?what i(?:'ve| have)? (?:already )?heard(?: please)?$"
)
"""The place furthest into the book they have been, after going back to listen again."""
_LEFT_OFF = re.compile(
    r"\bwhere (?:i|we) (?:was|were|stopped|left off|finished|got to|got up to)(?: listening)?(?: up to)?"
    rf" {LAST_SITTING}\b"
    r"|\bwhere (?:was i|were we|did i|did we|had i|had we)(?: (?:stop|leave off|get to|get up to|finish))?"
    rf"(?: listening)?(?: up to)?(?: in (?:the|this) (?:book|story))? {LAST_SITTING}\b"
    r"|\bwhere i last (?:stopped|left off)\b"
    rf"|\b{LAST_SITTING}'s (?:spot|place|position)\b"
    r"|^(?:(?:can|could|would) you )?(?:please )?(?:(?:go|take me|skip|jump|bring me) )?(?:back )?to"
    r" (?:where|when) (?:i|we)"
    r" (?:left off|stopped|paused)(?: listening)?(?: please)?$"
    rf"|{_GO_BACK_TO}{LAST_SITTING}(?: please)?$"
    rf"|^(?:go|take me|skip|jump|bring me) to {LAST_SITTING}(?: please)?$"
    rf"|\b{_HOW_FAR_GOT}(?: listening)?(?: (?:in|into|through) (?:the|this) (?:book|story))? {LAST_SITTING}\b"
)
"""Where they left off the last time they stopped for a while: last night, yesterday, last time."""
_THIS_SITTING = r"(?: tonight| this (?:evening|morning|afternoon|time)| today)"
_TO_WHERE_WE = (
    r"^(?:(?:can|could|would) you )?(?:please )?(?:(?:go|take me|bring me|skip|jump) )?(?:back )?"
    r"to where (?:i|we)"
)


def _where_we_began(when: str) -> re.Pattern[str]:
    return re.compile(
        rf"{_TO_WHERE_WE} (?:started|began)(?: listening)?(?: from)?{when}(?: please)?$"
        rf"|^where did (?:i|we) (?:start|begin)(?: listening)?(?: from)?{when}(?: please)?$"
    )


_SITTING_BEGAN = _where_we_began(f"{_THIS_SITTING}?")
"""Where this time's listening began: "where the storm started" is a moment of the story, so only the
listener started."""
_LAST_SITTING_BEGAN = _where_we_began(f" {LAST_SITTING}")
_LAST_IN_CHAPTER = re.compile(
    rf"\b(?:last|previous) time i (?:was|listened|got) (?:in|to) chapter {_NUMBER}\b"
    rf"|\bi (?:was )?last (?:in|listened to|got to) chapter {_NUMBER}\b"
)
_LAST_ON_DEVICE = re.compile(
    r"\b(?:last|previous) time i (?:listened|played|was listening|was)(?: to it)? on (?:the|my) "
    r"([a-z0-9_-]+)\b|\bi last (?:listen|listened|play|played)(?: to it)? on (?:the|my) ([a-z0-9_-]+)\b"
    r"|^where (?:was i|were we)(?: up to)? on (?:the|my) ([a-z0-9_-]+)$"
    r"|^where did (?:i|we) (?:get to|get up to|stop|leave off) on (?:the|my) ([a-z0-9_-]+)$"
    r"|^(?:(?:go|take me|bring me|skip|jump) )?(?:back )?to where (?:i was|we were|i got to|i left off)"
    r" on (?:the|my) ([a-z0-9_-]+)(?: please)?$"
)
_THIS_CHAPTER = re.compile(
    r"\b(start|beginning)\s+of\s+(this|the|the current)\s+chapter\b|\b(?:restart|replay) (this|the) chapter\b"
    r"|^(?:go to )?(?:the )?(?:start|beginning) of chapter$|^(?:restart|replay) chapter$|^chapter start$"
    r"|\bwhere (?:this|the) chapter (?:started|starts|began|begins)\b"
)
_CHAPTER_END = re.compile(
    r"\b(?:the\s+)?(?:very\s+)?end\s+of\s+(?:this|the|the current|my)\s+chapter\b"
    r"|\b(?:this|the)\s+chapter'?s\s+end\b"
)
"""Read before "the end" (the book's), and after the sleep timer's "stop at the end of the chapter"."""
_NAMED_CHAPTER_END = re.compile(
    rf"\b(?:the\s+)?(?:very\s+)?end\s+of\s+chapter\s+{_NUMBER}\b|\bchapter\s+{_NUMBER}'s\s+end\b"
)
"""The end of a chapter named ("the end of chapter 3"): read before the chapter itself ("chapter 3")."""
_COUNTED_CHAPTER_END = re.compile(
    r"\b(?:the\s+)?(?:very\s+)?end\s+of\s+the\s+(?:(previous|prior|preceding|last)|next|following)\s+chapter\b"
)
"""The end of the chapter before this one or after it: read before "the last chapter", its start."""
_NEXT_CHAPTER = re.compile(
    r"\b(?:next|following) (?:chapter|story)\b|\bskip (?:this|the) (?:chapter|story)\b"
    r"|\b(?:chapter|story) after (?:this|this one|that)$"
    r"|\bskip (?:the )?rest of (?:this|the) (?:chapter|story)\b"
)
_PREVIOUS_CHAPTER = re.compile(
    r"\b(?:previous|prior|preceding|last) (?:chapter|story)\b|\bchapter before\b|\bback (?:a|one) chapter\b"
)
"""Read after the recaps: "what was in the previous chapter?" asks what it held, "go to the last
chapter" moves. In a book of stories a story is a chapter ("skip to the next story")."""
_FINAL_CHAPTER = re.compile(
    r"\b(?:final|very last) (?:chapter|story)\b|\blast (?:chapter|story) (?:of|in) (?:the|this) book\b"
    r"|\bbook'?s (?:final|last) (?:chapter|story)\b"
)
"""The book's last chapter, read before "the last chapter", which is the one before this."""
_PREVIOUS_CHAPTER_ALONE = re.compile(
    r"^(?:the )?(?:previous|prior|preceding|last) (?:chapter|story)(?: please)?$"
    r"|^(?:go )?back (?:a|one) chapter$"
)
"""Said alone, the chapter before is a command, as "next chapter" is: it moves back a chapter.
"Last chapter" alone is the chapter before too, never the book's final chapter: it is how
"the last chapter" reads in a recap, and a listener asks for the book's end as "the end"."""
_CHAPTERS_COUNTED = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:go|skip|jump|move|take me)\s+)?"
    rf"({_BACK}|forwards?|ahead|on|skip)(?:\s+({_BACK}|forwards?|ahead))?\s+{_ROUGHLY}({_NUMBER_SAID})\s+chapters?"
    rf"(?:\s+({_BACK}|forwards?|ahead|on))?(?:\s+please)?$"
)
"""Chapters counted from the one playing, said whole ("go back 2 chapters", "skip 3 chapters", "skip two
chapters back")."""
_BOOK_START = re.compile(
    r"\b(start|beginning)\s+of\s+the\s+(?:audio)?book\b|\bfrom the (very )?(start|beginning)\b"
)
_BOOK_START_ALONE = re.compile(
    r"(?:from\s+)?(?:the\s+)?(?:very\s+)?(?:start|beginning)(?:\s+of\s+(?:the|this)\s+(?:(?:audio)?book|story))?"
    r"|(?:the\s+)?(?:very\s+)?(?:first page|opening of the (?:book|story|novel))"
)
_BOOK_END_ALONE = re.compile(
    r"(?:the\s+)?(?:very\s+)?end(?:\s+of\s+(?:the|this)\s+(?:(?:audio)?book|story|recording))?"
    r"|(?:the\s+)?last (?:bit|part) of the book"
)
"""The start or the end of the book as the whole of what is asked for: "near the end, the governess
finding a coil of hair" or "the end of the night ride" is a moment to find, not the book's end."""
_TIME_LEFT = re.compile(
    r"\bhow (?:long|much|many minutes|many hours)(?: time)?(?: is|'s| are| have i got| do i have)?"
    r" (?:left|to go|remaining)\b(?! of\b)"
    r"|\bhow long (?:until|till|before|to) the end\b"
    r"|^how much longer(?: is (?:this|the) (?:chapter|book|story)| is (?:it|left|there))?$"
    r"|\bhow (?:much|long) of (?:the|this) (?:book|chapter|story)(?: is)? (?:left|to go|remaining)\b"
    r"|^is (?:this|it|that) the end(?: of (?:the|this) (?:book|story|chapter))?$"
    r"|^is the (?:book|story) (?:over|finished|done)$"
    r"|^(?:am i|are we) (?:nearly|almost) (?:done|finished|there|at the end)(?: (?:yet|now))?$"
    r"|^is (?:it|the book|the story|this chapter|the chapter) (?:nearly|almost)"
    r" (?:over|done|finished|the end)$"
    r"|^how long is the rest of (?:the|this) (?:book|chapter|story)$"
    r"|^is there (?:much|a lot) left$|^what(?:'s| is) left$"
    r"|^when (?:does|will) (?:this|the) (?:chapter|story|book) (?:end|finish)$"
    r"|^how (?:long|many minutes) (?:until|till|before) (?:this|the) (?:chapter|story|book)"
    r" (?:ends|is over|finishes)$"
    r"|^how (?:long|many minutes) (?:until|till|to|before) the next (?:chapter|story)$"
    r"|^how (?:long|much time) (?:have i got|do i have)(?: to go)?$"
)
_LENGTH_ASKED = re.compile(
    r"^how (?:long|many (?:hours|minutes)) is (?:this|the) (?:audio)?(book|chapter|story)"
    r"(?: (?:in total|altogether|overall|again))?$"
)
"""How long the chapter or the book is ("how long is this chapter?"), not something in the story."""
_LENGTHS: dict[str, LengthOf] = {"book": "book", "chapter": "chapter", "story": "story"}
_IN_THE_BOOK = r"(?: in (?:the|this) (?:book|story))?"
_THIS_BOOK = r"(?:this|it|the book|this book|the story|this story|the audiobook|this audiobook)"
_PREVIOUS_ONE = r"(?:last|previous|prior|preceding) (?:chapter|story)"
_CHAPTER_LIST = (
    r"(?:chapters|stories|(?:chapter|story) (?:titles|names)|(?:titles|names) of the (?:chapters|stories))"
)
_BOOK_FACTS: tuple[tuple[BookFact, re.Pattern[str]], ...] = (
    (
        "title",
        re.compile(
            rf"^what(?:'s|s| is) (?:the (?:title|name) of )?{_THIS_BOOK}(?: called)?(?: again)?$"
            r"|^(?:what|which) (?:book|story) is (?:this|it)(?: again)?$|^what am i listening to(?: again)?$"
        ),
    ),
    (
        "author",
        re.compile(
            rf"^who (?:wrote|is the author of|'s the author of|is the writer of) {_THIS_BOOK}(?: again)?$"
            r"|^who(?:'s| is) the (?:author|writer)(?: again)?$"
        ),
    ),
    (
        "reader",
        re.compile(
            rf"^who(?:'s| is) (?:reading|narrating)(?: {_THIS_BOOK})?(?: again)?$|^who reads {_THIS_BOOK}$"
        ),
    ),
    (
        "chapters_left",
        re.compile(
            r"^how many (?:more )?(?:chapters|stories) (?:are |is |have i got )?(?:left|to go|remaining)\b"
            r"|^how many more (?:chapters|stories)\b"
            r"|^(?:is (?:this|it)|are (?:we|you)|am i) (?:in |on |at |up to )?(?:the )?(?:last|final)"
            r" (?:chapter|story)(?: now)?$"
            r"|^(?:is|are) there (?:another|any more|more) (?:chapters?|stories|story)"
            r" (?:after|to come after) (?:this|this one|it)$"
        ),
    ),
    (
        "previous_title",
        re.compile(
            rf"^what(?: was| is|'s|s) the {_PREVIOUS_ONE} called(?: again)?$"
            rf"|^what(?: was| is|'s|s) the (?:name|title) of the {_PREVIOUS_ONE}(?: again)?$"
        ),
    ),
    (
        "next_title",
        re.compile(
            r"^what(?:'s|s| is| will be) (?:the (?:name|title) of )?the next (?:chapter|story)(?: called)?$"
            r"|^what (?:chapter|story) (?:is|comes) next$"
        ),
    ),
    (
        "chapter_titles",
        re.compile(
            r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
            r"(?:list|read(?: me| out)?|tell me|say|give me|name) (?:all )?"
            rf"(?:the |its |{_THIS_BOOK}'?s? )?{_CHAPTER_LIST}(?: (?:of|in) {_THIS_BOOK})?(?: please)?$"
            rf"|^what (?:are|were) (?:all )?(?:the |its )?{_CHAPTER_LIST}(?: called)?(?: again)?$"
            r"|^(?:(?:can i have|give me|read me|show me) )?(?:a )?list of (?:the |its |all the )?"
            rf"{_CHAPTER_LIST}(?: please)?$"
            rf"|^what (?:chapters|stories) (?:are there|are in {_THIS_BOOK}|does {_THIS_BOOK} have"
            r"|have i heard)$"
        ),
    ),
    (
        "chapters",
        re.compile(
            rf"^how many (?:chapters|stories)(?: are there| does {_THIS_BOOK} have| are in {_THIS_BOOK})?$"
            r"|^how many (?:chapters|stories) (?:have|did) (?:i|we) (?:listened to|heard|done|finished)$"
        ),
    ),
)
"""Asked alone (read whole), so "who wrote the letter?" stays a question about the story. Not "who is
the narrator?": in a story told by one of its people, that asks who they are."""
_SO_FAR = r"(?: (?:in (?:this|the) (?:book|story)|so far|again|now))*"
_NAMES_ASKED = re.compile(
    r"^(?:(?:can you )?(?:please )?(?:"
    rf"who (?:are|were) (?:all )?(?:the )?(?:main |important |other )?(?:characters|people){_SO_FAR}"
    rf"|who(?:'s| is) who{_SO_FAR}|remind me who(?:'s| is) who{_SO_FAR}"
    r"|who (?:have|did) (?:i|we) (?:meet|met|hear about|heard about)(?: so far)?"
    r"|(?:list|name|remind me of|tell me) (?:all )?(?:the )?(?:main )?(?:characters|characters' names"
    rf"|names of the characters|names so far){_SO_FAR}"
    rf"|what are (?:the )?(?:main )?characters(?:' names| called){_SO_FAR}"
    r"))(?: please)?$"
)
"""Who is who, asked alone: "who is in this chapter?" and "who is Ginger?" stay questions."""
_HEARD_BEFORE = re.compile(
    r"^(?:have|did) (?:i|we) (?:already )?(?:heard|hear|listened to|listen to) (?:this|that|it)"
    r"(?: (?:part|bit|chapter|one|story))?(?: (?:before|already))?$"
    r"|^(?:is|was) (?:this|that) (?:part |bit )?(?:new|new to me)$"
    rf"|^{_HEARD_THIS}$"
    r"|^(?:this|that|it) (?:sounds|seems) (?:very |so |really )?familiar$"
)
_WHERE_AM_I = re.compile(
    r"^(?:where|whereabouts)(?: in the (?:book|story))? (?:am i|are we)(?: (?:now|up to|at|right now))?"
    r"(?: in (?:the|this) (?:book|story|chapter))?(?: now)?$"
    r"|^(?:which|what) part of the (?:book|story) (?:is this|am i in|are we in)$|^chapter$"
    r"|^(?:tell me )?(?:what|which) chapter (?:this is|is playing|is on)(?: please)?$"
    r"|^what(?:'s| is) the chapter(?: now)?$|^what (?:part|bit|point) (?:am i|are we) (?:at|on|in|up to)$"
    r"|^what(?:'s| is) the chapter number$"
    r"|^what (?:percent|percentage) of the (?:book|story) have i (?:done|heard)$"
    r"|^(?:are we|am i) near the end of the (?:book|story)$"
    rf"|^where (?:have i|have we) got to{_IN_THE_BOOK}$"
    r"|^(?:what|which) chapter (?:is (?:this|it)|(?:am i|are we|is this) (?:in|on|at|up to))(?: now| again)?$"
    r"|^(?:what|which) chapter(?: now)?$|^what (?:percentage|percent) (?:through|into|of the (?:book|way))"
    r"(?: (?:am i|are we))?$"
    r"|^what (?:percentage|percent) (?:am i|are we) (?:through|into)(?: (?:the|this) (?:book|story))?$"
    r"|^what(?:'s|s| is) (?:the (?:name|title) of )?(?:this|the current) chapter(?: called)?(?: again)?$"
    r"|^what(?: time is it|'s the time| is the time) in the (?:book|story)$"
    rf"|^where (?:did i|did we) (?:leave off|get to|get up to|pause|stop(?: listening)?){_IN_THE_BOOK}$"
    r"|^where (?:was i|were we) up to$"
    rf"|^(?:percentage[ -]wise |roughly )?how far (?:through|into|along|in) (?:the (?:book|story) )?"
    rf"(?:am i|are we){_IN_THE_BOOK}$"
    r"|^how (?:far|many minutes|long) (?:into|through|in) (?:the|this) chapter (?:am i|are we)$"
    r"|^what(?:'s| is) my (?:position|place|spot)(?: in the (?:book|story))?$|^what time am i at$"
    r"|^what page (?:am i on|are we on|is this|is it)$"
    r"|^(?:am i|are we) (?:halfway|half way)(?: through(?: the (?:book|story))?)?(?: yet)?$"
    r"|^how much (?:of (?:the|this) (?:book|story) )?(?:have i|have we) (?:heard|listened to)(?: so far)?$"
    r"|^what (?:percentage|percent|share) (?:of (?:the|this) (?:book|story) )?(?:have i|have we)"
    r" (?:heard|listened to)$"
    r"|^how far (?:am i|are we|have i got|have we got|have i gotten)"
    rf"(?: (?:through|into|along|in) (?:the|this) (?:book|story))?$"
)
"""Asked alone, where the listener is in the book: read whole, so "where am I going?", "where was I when
the storm started?" or "what chapter does the storm start in?" stay the questions they were. "Where was
I?" is not here: half awake, it asks what was playing (a recap of the latest minutes)."""
_STOPS = r"(?:it|the book|the timer|the sleep timer|this)"
_TIMER_WITHOUT_LENGTH = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:set|start|put on|turn on|(?:pop|stick|whack|chuck|bung|throw) on)\s+)?(?:(?:a|the|my)\s+)?"
    r"(?:sleep\s+)?timer(?:\s+on)?(?:\s+please)?$"
    r"|^sleep(?: mode)?(?: please)?$"
    r"|^(?:stick|whack|chuck|bung|pop) (?:a|the) (?:sleep )?timer on$"
    r"|^(?:(?:set )?(?:a |the )?(?:sleep )?timer(?: for| to| in)?|sleep in) \d{1,2}:\d\d$"
    r"|^how (?:do|can) i (?:set|start|use) (?:a |the )?(?:sleep )?timer$"
)
_TIMER_ASKED = re.compile(
    r"^(?:"
    rf"(?:when|what time)(?:'s| (?:will|does|is)) {_STOPS} (?:going to |gonna )?"
    r"(?:stop|turn off|go off|switch off)"
    r"|when (?:are|will) you (?:going to |gonna )?stop(?: playing| reading)?"
    r"|time left on (?:the |my )?(?:sleep )?timer"
    r"|(?:when|what time) (?:will|does) the (?:sleep )?timer (?:end|finish|run out|go off)"
    r"|(?:(?:can|could) you tell me )?how (?:long|many minutes) (?:until|till|til|before)"
    r" (?:(?:it|the (?:sleep )?timer) (?:turns off|stops|goes off|switches off|shuts off|runs out|ends)"
    r"|the (?:sleep )?timer)"
    r"|is (?:the |my )?(?:sleep )?timer still (?:on|running|set|going)"
    rf"|how long (?:until|till|before) {_STOPS} (?:stops|turns off|goes off|switches off)"
    r"|(?:is(?: there)?|have i (?:got|set)) (?:the |my |a )?(?:sleep )?timer(?: on| set| running)?"
    r"|how (?:long|much time)(?:'s| is)? left on (?:the |my )?(?:sleep )?timer"
    r"|how (?:long|much time|many minutes) (?:is |are )?(?:left )?on (?:the |my )?(?:sleep )?timer"
    r"|how long(?: is|'s) (?:the |my )?(?:sleep )?timer(?: set for| on for| got left)?"
    r"|what(?: is|'s) (?:the |my )?(?:sleep )?timer (?:set (?:to|for|at)|at|on)"
    r"|what(?: is|'s) left on (?:the |my )?(?:sleep )?timer"
    rf"|when (?:is|will) {_STOPS} (?:be )?(?:stopping|going to stop|gonna stop|switching off|turning off)"
    r"|how long (?:until|till|before) (?:bed|bedtime|lights out)"
    r")(?: now| tonight)?$"
)
"""A question about the sleep timer (``read_playback`` reads no question as a timer to set)."""
_NEXT_OR_PREVIOUS_ALONE = re.compile(
    r"^(?:(?:go|skip|jump|move|take me)(?: on| back)? to )?(?:the )?(next|previous)(?: one)?(?: please)?$"
    r"|^(?:(?:go|skip|jump|move) )?(?:one )?chapter (?:(forward|ahead|on)|back)(?: please)?$"
    r"|^(?:(?:go|skip|jump|move) )?(?:(forward|ahead|on)|back|rewind|back up) (?:a|one) (?:whole )?chapter"
    r"(?: please)?$"
)
"""A player's buttons said aloud: the next or the previous chapter."""
_SPEED = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:go|read|play|talk) )?(?:a (?:bit|little) )?"
    r"(?:slower|faster|quicker|speed (?:it )?up|slow (?:it )?down)(?: a (?:bit|little|touch))?(?: please)?$"
    r"|\b(?:change|set|raise|lower) the (?:reading |playback )?speed\b|\bplayback speed\b"
    r"|^(?:(?:it's|its|it is|that's|thats|this is|he's|she's|you're) )?(?:too|a bit|a little|very|so)"
    r" (?:too )?(?:fast|slow|quick)(?: please)?$"
    r"|\b\d+(?:\.\d+)?\s?x(?: speed)?$|\b(?:double|half|normal) speed\b"
)
_GOODNIGHT = (
    r"(?:good ?ni(?:ght|te)|good knight|g'?night|night night|nighty? ni(?:ght|te)|night(?: all)?|nite"
    r"|sleep well"
    r"|bye(?: bye)?|see you tomorrow|(?:i'm |im |i am )?nodding off|(?:i'm |im |i am )?away to (?:my )?bed"
    r"|see ya|ta[- ]?ra|sweet dreams|sleepy time|(?:i'm |im |i am )?dropping off(?: now)?"
    r"|that's me(?: done)?(?: for (?:tonight|the night))?"
    r"|(?:i'm |im |i am )(?:so |really |very |getting )?(?:tired|sleepy)(?: now)?"
    r"|(?:i'm |im |i am )?(?:going|off) to (?:sleep|bed)(?: now)?|time (?:for bed|to sleep)(?: now)?"
    r"|z{3,}|(?:(?:i )?love you(?: bedside)?,? )?(?:good ?night|night)(?: x+)?)"
)
"""One way of saying goodnight; several may be said together ("time for bed, night")."""
_CANCEL_THAT = re.compile(
    r"^(?:(?:oh|no|oops|whoops|sorry)[,\s]+)?(?:cancel|scrap|scratch|drop) (?:that|it|this)(?:,?\s+please)?$"
)
_CLEAR_LIST = re.compile(
    r"^(?:(?:no|nah|oh|um|hmm) )*"
    r"(?:(?:none|neither)(?: of (?:them|those|these))?|not (?:any of )?(?:them|those|these)(?: ones)?)"
    r"(?: (?:please|thanks|thank you))?$"
    r"|^(?:please )?(?:clear|close|hide|dismiss|remove|get rid of|take away|cancel)"
    r" (?:(?:the|that|this) (?:list|choices|options)|those|these|them)(?: please)?$"
    r"|^(?:(?:i'll|i will|i'd rather|let's|i want to|i'm going to) )?(?:just )?"
    r"stay (?:here|where i am|where you are|put)(?: please)?$"
)
_COURTESIES: tuple[tuple[CourtesySaid, re.Pattern[str]], ...] = (
    (
        "thanks",
        re.compile(
            r"^(?:(?:great|perfect|lovely|brilliant|cool|nice|grand|ok(?:ay)?) )?"
            r"(?:thanks|thank you|cheers|ta)(?: (?:so|very) much| a lot| a million| for that| mate| love)?"
            r"(?: bedside)?"
            r"(?:,? (?:that's|that is|you're|you are) (?:perfect|great|lovely|brilliant|a star|the best))?$"
            r"|^many thanks$|^much appreciated$"
            r"|^(?:thanks|thank you)(?: (?:so|very) much)?,? (?:that's|that is)"
            r" (?:perfect|great|lovely|brilliant)$"
        ),
    ),
    (
        "never_mind",
        re.compile(
            r"^(?:never ?mind|forget it|cancel|no thanks|ok|okay|fine)$"
            r"|^(?:oops|whoops|my mistake|my bad|ignore (?:that|me)|(?:sorry,? )?wrong button"
            r"|i didn't mean (?:that|to))$"
        ),
    ),
    (
        "goodnight",
        re.compile(
            rf"^(?:(?:thanks|thank you|ok(?:ay)?|cheers)(?: and|\.)? )?{_GOODNIGHT}"
            rf"(?:[.,]? (?:and )?{_GOODNIGHT})*"
            r"(?: and (?:thanks|thank you))?(?: bedside)?$"
        ),
    ),
    (
        "time_of_day",
        re.compile(r"^(?:what(?: time is it|'s the time| is the time)|how late is it)(?: now| right now)?$"),
    ),
    (
        "still_awake",
        re.compile(
            r"^(?:(?:no|yes|yeah)\s+)?(?:i'm|im|i am) (?:still )?(?:awake|here|listening|up)(?: still| now)?$"
            r"|^(?:still|i'm still) (?:awake|here|listening)$"
            r"|^(?:i'm|im|i am) not (?:asleep|sleeping)(?: yet)?$"
        ),
    ),
)


def _courtesy_or_cancel(text: str) -> Courtesy | CancelThat | ClearList | None:
    if _CANCEL_THAT.match(text):
        return CancelThat()
    if _CLEAR_LIST.match(text):
        return ClearList()
    said = next((said for said, words in _COURTESIES if words.match(text)), None)
    return Courtesy(said) if said is not None else None


_HELP = re.compile(
    r"^(?:help|help me|what can you do|what can i (?:say|ask)(?: you)?|how does (?:this|it) work"
    r"|how do i use (?:this|you|it))(?: please)?$"
    r"|^(?:(?:hello|hi|hey)(?: there)?(?: bedside)?|bedside)$|^are you (?:there|awake|listening)$"
    r"|^is (?:anyone|anybody|someone) (?:there|listening)$|^(?:can|do) you hear me$"
)
"""Asked what Bedside does, or greeted: what may be asked, with examples."""
_SPOILER_ASKED = re.compile(
    r"^(?:(?:can|could|would) you )?(?:please )?(?:give me|tell me) (?:a |some )?spoilers?(?: please)?$"
    r"|^spoil (?:it|the (?:book|story|ending))(?: for me)?$"
    r"|^i (?:don'?t|do not) (?:care|mind) about spoilers$"
)
_SYNC_ASKED = re.compile(
    r"^(?:(?:can|could|would) you )?(?:please )?sync(?:hroni[sz]e)? (?:it |this |the book |my place )?"
    r"(?:with (?:my |the )?\w+|(?:my|the|all(?: my)?) devices)(?: please)?$"
)
_PLAYING_ASKED = re.compile(
    r"^is (?:(?:it|the book|this|the story) )?(?:still )?(?:playing|paused|stopped|on)(?: now| still)?$"
)
_WHY_STOPPED = re.compile(
    r"^why (?:did|has|does|is|'s) (?:it|the book|this|the story|the audio) (?:just )?"
    r"(?:stop|stopped|pause|paused)(?: playing| reading)?(?: on its own| by itself)?$"
    r"|^who (?:just )?(?:paused|stopped) (?:it|the book)$"
)
"""Asked why the book stopped, of the player and not the story: "why did the rain stop?" is a question."""
_OTHER_ONE = re.compile(
    r"\b(?:the )?other one\b|\bnot (?:that|this) one\b|\bwrong (?:one|place|bit)\b"
    r"|^(?:no,?\s+)?(?:that's|thats|that is)\s+"
    r"(?:not it|wrong|not right|not what i (?:meant|wanted|asked for))$"
)
_ROW_ORDINALS = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "fifth": 4,  # a list holds at most four: these are told how many it holds, not searched for
    "5th": 4,
    "sixth": 5,
    "6th": 5,
    "last": -1,
    "top": 0,
    "bottom": -1,
}
_ROW_NUMBERS = {
    "one": 0,
    "1": 0,
    "two": 1,
    "2": 1,
    "three": 2,
    "3": 2,
    "four": 3,
    "4": 3,
    "five": 4,
    "5": 4,
    "six": 5,
    "6": 5,
}
_PRESS_LISTED = re.compile(
    r"^(?:no,?\s+)?(?:(?:i meant|i mean|go to|take me to|play|pick|choose|press|try|it's|its|it was)\s+)?"
    rf"(?:(?:the\s+)?({'|'.join(_ROW_ORDINALS)})(?:\s+(?:one|place|row|option|result|choice))?"
    rf"|(?:number|option|row|place)\s+({'|'.join(_ROW_NUMBERS)}))(?:,?\s+please)?$"
)
"""A row of the list by its place, said whole ("the second one", "option 3"), so that "the first
time he falls" stays a moment to find and "the second chapter" a chapter."""
_QUESTION_START = re.compile(
    r"^(who|what|whats|what's|whatever|why|which|how|whose|is|was|were|did|does|do|has|had|are"
    r"|will(?! you\b)|(?:(?:can|could|would) you (?:please )?)?(?:tell me|remind me)|explain|quick question"
    r"|i (?:forget|forgot|lost track of|can'?t remember|don'?t remember) (?=who|what|where|why|which|how))\b"
)
_GOTO = re.compile(
    rf"^{_ASKED_FOR}"
    r"(?:(?P<verb>take me|bring me|go|jump|skip|get me|play|find|rewind|return|replay|hear|listen to)\b"
    r"(?:\s+right)?(?:\s+(?P<way>back|forward|ahead|again))?|(?P<way_alone>back|forward|ahead)(?=\s+to\b))"
    r"(?:\s+(?:to|from))?\s*"
    r"(?:(?:(?:the|a|that)\s+)?(?:part|bit|moment|scene|place|point|chapter)\s+)?"
    r"(?:where|when|with|about|that)?\s*"
)
_AGAIN = re.compile(r"(?:^|\s+)(?:over\s+)?again$")
"""A moment asked for "again" ("play the part where the horse dies again") is one already heard."""
_HEAR = {"hear", "listen to"}
_HEAR_THE_PART = re.compile(r"\b(?:hear|listen to) (?:the (?:part|bit|moment|scene) )?(?:where|when)\b")
""""Hear" or "listen to" names a moment only to hear it again or with "the part where": "I want to
hear the rest" and "listen to this" are not searches."""
_CHAPTER_TITLED = re.compile(
    r"^(?:.*\b(?:to|play|find)\s+)?(?:the\s+)?(?:chapter|story)\s+(?:(?:that's|that is|which is)\s+)?"
    r"(?:called|titled|named|entitled)\s+(?P<title>.+?)(?:\s+please)?$"
)
"""A chapter (in a book of stories, a story) named by its title, in a move or alone; a question about
it stays a question."""
_WHERE_PART = re.compile(
    r"^(?:where(?:'s| is)\s+)?the\s+(?:part|bit|moment|scene)\s+(?:where|when|with|about|that)\s+"
)
_ASKING_WHEN = re.compile(
    r"^(?:when|where)(?:'s|\s+(?:did|does|do|is|was|were|will|has|had|are|can|could|would|should)\b)"
)
_MOMENT = re.compile(
    r"^(?:the|that|a|an|this|those|his|her|their|where|when)\b|^\w{2,}ing\b"
    r"|^(?:near|nearly|towards?|right at|close to|early on|late in|halfway|about halfway|at the (?:very )?end"
    r"|at the (?:very )?(?:start|beginning)|in the middle)\b"
)
"""A description of a moment ("the runaway ride", "where the tree falls", "waiting in the dark")."""
_CANCEL_TIMER = re.compile(
    r"\b(?:cancel|stop|clear|remove|disable|kill|delete|forget|scrap|undo|get rid of|(?:turn|switch) off)\s+"
    r"(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\b"
    r"|\b(?:turn|switch)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\s+off\b"
    r"|^(?:the\s+)?(?:sleep\s+)?timer\s+off\b"
    r"|^(?:no|never mind the) (?:sleep )?timer\b|\bdon'?t stop\b|\bkeep (?:playing|going) tonight\b"
    r"|^don'?t (?:turn|switch) (?:it |the book )?off(?: please)?$"
    r"|^i don'?t (?:want|need) (?:a|the|any) (?:sleep )?timer\b"
)
_STOPPING = (
    r"\b(?:sleep|fall asleep|stop|pause|end|finish|turn (?:it |this |the book )?off"
    r"|switch (?:it |this |the book )?off|shut (?:it )?(?:off|down)|timer)\b"
)
"""A word of stopping the book, without which a time or a chapter's end is not a timer."""
_TIMER_CHAPTER_END = re.compile(
    _STOPPING
    + r".*\b(?:(?:at\s+)?(?:the\s+)?end\s+of\s+(?:(?:this|the|the current)\s+chapter|chapter$|this one|it$)"
    r"|at\s+the\s+next\s+chapter(?:\s+break)?$"
    r"|(?:after|when|once)\s+(?:this|the|the current)\s+chapter(?:\s+(?:ends|is over|finishes))?"
    r"|(?:(?:after|when|once)\s+(?:this|the current)\s+story(?:\s+(?:ends|is over|finishes))?"
    r"|at\s+the\s+end\s+of\s+(?:this|the current)\s+story)(?:\s+(?:please|tonight))?$"
    r"|(?:at\s+)?(?:this|the)\s+chapter'?s\s+end|(?:at\s+)?(?:the\s+)?chapter\s+end)\b"
    # "stop at the end", half asleep, is this chapter's end: never a move to the end of the book
    r"|" + _STOPPING + r".*\bat\s+the\s+end(?:,?\s+(?:please|tonight))?$"
    r"|^(?:an?\s+|the\s+)?end[\s-]of[\s-](?:the[\s-])?chapter\s+(?:sleep\s+)?timer(?: please)?$"
    r"|" + _STOPPING + r"\s+(?:after|when|once)\s+chapter$"
)
_STOP_WHEN_THE_CHAPTER_ENDS = re.compile(
    r"^(?:when (?:this|the) chapter (?:ends|is over|finishes)"
    r"|(?:at )?(?:the )?end of (?:(?:this|the) )?chapter),?"
    r" (?:then )?(?:stop|pause|sleep|turn (?:it )?off|off)(?: please)?$"
)
"""The chapter's end said first ("when this chapter ends, stop"), which no stopping word starts."""
_HOUR_SAID = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_TIMER_AT_A_CLOCK_TIME = re.compile(
    _STOPPING + r".*\b(?:at|by|around)\s+(?:midnight|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)"
    rf"|(?:{_NUMBER_SAID})\s+o'?clock|\d{{1,2}}[:.]\d\d|half (?:past )?{_HOUR_SAID}"
    rf"|{_HOUR_SAID} (?:thirty|fifteen|forty[- ]five)|\d{{1,2}})$"
)
"""A stop at a time of day ("stop at 11pm", "at midnight"): the listener's clock is not the turn's."""
_STOPS_AT_THE_END = re.compile(_STOPPING + r".*\bat\s+the\s+(?:very\s+)?end\b")
"""A stop asked for at the end ("stop at the end of the book"), which is no move there."""
_TIMER_COUNTED_CHAPTER_END = re.compile(
    _STOPPING + r".*\b(?:(?:at\s+)?the\s+end\s+of\s+the\s+next\s+chapter"
    r"|(?:after|when)\s+the\s+next\s+chapter(?:\s+(?:ends|is over|finishes))?"
    rf"|(?:after|in)\s+({_NUMBER_SAID})\s+more\s+chapters?|(?:after|in)\s+({_NUMBER_SAID})\s+chapters?)\b"
    r"|^(?:just\s+)?(?:play|read|keep (?:going|playing|reading)|go on|carry on)\s+(?:(?:un)?till?|to)\s+"
    r"the\s+end\s+of\s+the\s+next\s+chapter(?:,?\s+please)?$"
)
"""The end of a chapter counted from the one playing, as a timer: read before "the next chapter", a move."""
_GO_QUIET = r"(?:stop|sleep|pause|off|(?:turn|switch) (?:it )?off|go quiet)"
_PLAY_TO_THE_CHAPTER_END = re.compile(
    r"^(?:just\s+)?(?:"
    r"(?:only\s+)?(?:play|read(?: me)?|keep (?:going|playing|reading)|go on|carry on)\s+"
    r"(?:(?:un)?till?|to)\s+"
    r"(?:(?:the\s+)?end\s+of\s+(?:(?:this|the|the current)\s+)?chapter"
    r"|(?:this|the)\s+chapter\s+(?:ends|is over|finishes)|(?:this|the)\s+chapter'?s\s+(?:done|over|finished))"
    rf"(?:,?\s+(?:and\s+)?(?:then\s+)?{_GO_QUIET})?"
    rf"|(?:finish|play|read)\s+(?:(?:this|the)\s+)?chapter,?\s+(?:and\s+)?(?:then\s+)?{_GO_QUIET}"
    r"|(?:let (?:it|the book|the story) )?finish\s+(?:this|the)\s+chapter"
    rf"|let (?:this|the) chapter (?:finish|play out|end)(?:,?\s+(?:and\s+)?(?:then\s+)?{_GO_QUIET})?"
    rf"|let (?:it|the book|the story) finish\s+(?:this|the)\s+chapter,?\s+(?:and\s+)?(?:then\s+)?{_GO_QUIET}"
    rf"|(?:(?:un)?till?|off at)\s+(?:the\s+)?end\s+of\s+(?:(?:this|the|the current)\s+)?chapter"
    rf"(?:,?\s+(?:and\s+)?(?:then\s+)?{_GO_QUIET})?"
    rf"|(?:just )?(?:this|the) chapter,?\s+(?:and\s+)?then\s+{_GO_QUIET}"
    r"|(?:just|only) (?:this|the) (?:one )?chapter(?: tonight)?"
    r")(?:,?\s+please)?$"
)
"""Playing on to the chapter's end and no further, said without a word of stopping ("play until the end
of the chapter", "just finish this chapter"): the timer, where "the end of the chapter" alone is a move."""
_LISTENING_THROUGH = (
    r"(?:play|read(?: me)?|keep (?:going|playing|reading)|go on|carry on|listen)\s+(?:on\s+)?"
)
_A_NAMED_CHAPTER_LISTENED_TO = re.compile(
    r"^(?:(?:ok(?:ay)?|just|please|let me|i'll|i will|i want to|i'd like to)\s+)*(?:"
    rf"finish(?:\s+off)?\s+chapter\s+(?P<finished>{_NUMBER_SAID})"
    rf"|{_LISTENING_THROUGH}(?:(?:un)?till?|to)\s+(?:the\s+)?end\s+of\s+chapter\s+(?P<ended>{_NUMBER_SAID})"
    rf"|{_LISTENING_THROUGH}(?:un)?till?\s+chapter\s+(?P<reached>{_NUMBER_SAID})"
    r"|finish(?:\s+off)?\s+(?P<next>the\s+next\s+chapter)"
    rf")(?:,?\s+(?:and\s+)?(?:then\s+)?{_GO_QUIET})?(?:,?\s+please)?$"
)
"""A chapter named, or the next, listened to its end ("finish chapter 3", "play until chapter 4"):
the timer, where "chapter 3" or "the end of chapter 3" alone is a move there."""
_CHAPTERS_MORE = re.compile(
    rf"^(?:(?:ok(?:ay)?|just|play|read|give me)\s+)*({_NUMBER_SAID})\s+more\s+(?:chapters?|stories|story)"
    r"(?:,?\s+(?:and\s+)?(?:then\s+)?(?:stop|sleep|bed|pause))?(?:,?\s+please)?$"
)
"""Half asleep, chapters more ("just one more chapter"): the timer at the end of the chapter that many on."""
_TIMER_NAMED_CHAPTER_END = re.compile(
    _STOPPING + rf".*\b(?:(?:at\s+)?(?:the\s+)?end\s+of\s+chapter\s+{_NUMBER}"
    rf"|(?:after|when)\s+chapter\s+{_NUMBER}(?:\s+(?:ends|is over|finishes))?)\b"
    rf"|{_STOPPING}.*\b(?:at|when (?:it )?(?:gets to|reaches))\s+"
    rf"(?:the\s+(?:start|beginning)\s+of\s+)?chapter\s+{_NUMBER}$"
)
"""The end of a chapter named, as a timer: read before the chapter playing's end and before a move
to that chapter's end ("take me to the end of chapter 3" has no word of stopping). "Stop at chapter
11" stops as chapter 11 begins: at the end of chapter 10 (it moved the book to chapter 11)."""
_TIMER_MINUTES = re.compile(
    _STOPPING + rf".*?\b(?:in|after|for)\s+(?:another\s+|about\s+|like\s+|around\s+)?({_AMOUNT})"
    rf"|\b({_AMOUNT}|{_NUMBER_SAID}[\s-]{_UNIT})s?\s+(?:of\s+)?(?:sleep\s+)?timer\b"
    r"|^(?:(?:(?:set|change|make) )?(?:a |the )?(?:sleep |fall asleep )?timer (?:of |for |to )?"
    r"|sleep (?:mode )?|make it )"
    rf"({_AMOUNT})(?: instead)?(?:\s+please)?$"
)
_MORE_SAID = r"\b(?:more|another|extra|longer)\b"
"""Words that ask for listening on top of what the running timer has left."""
_TIMER_MORE = re.compile(
    rf"^(?=.*{_MORE_SAID})"
    r"(?:(?:ok(?:ay)?|just|give me|let me have|(?:can|could) i (?:have|get)|another|an extra)\s+)*"
    rf"(?:({_NUMBER_SAID})\s+more\s+({_UNIT})s?|({_AMOUNT}))(?:\s+more)?"
    r"(?:\s+(?:and |then |and then )?(?:stop|pause|turn (?:it )?off))?(?:\s+please)?$"
)
"""Half asleep, a little longer: "ten more minutes", "give me 5 more minutes please", "another half
hour then stop". More is on top of a running timer (``TimerAdded``), never a stop sooner than it; with
none running, a timer of that many minutes."""
_ON_THE_TIMER_SAID = re.compile(r"\b(?:on|onto|of|to) (?:the |my |a |that )?(?:sleep )?timer\b")
"""Minutes put on the sleep timer, which never move the book ("i'd love ten minutes on the timer")."""
_THEN_STOP = r"(?:,?\s+(?:and |then |and then )?(?:stop|sleep|pause|(?:turn|switch|shut) (?:it )?off))"
_LISTENING_ON = (
    r"(?:(?:keep|go on|carry on) (?:playing|reading|going)|(?:play|read)(?: on)?"
    r"|let (?:it|me|the book) (?:play|read|listen)(?: on)?|i(?:'ll| will) listen)"
)
_TIMER_LISTENING_FOR = re.compile(
    rf"^(?:(?:ok(?:ay)?|just|please)\s+)*(?:{_LISTENING_ON}\s+(?:for\s+)?|give (?:me|it)\s+|only\s+|just\s+)"
    rf"(?:another\s+|an extra\s+)?"
    rf"(?:(?P<amount>{_AMOUNT})|(?P<count>{_NUMBER_SAID})\s+more\s+(?P<unit>{_UNIT})s?)"
    rf"(?:\s+(?:more|longer))?(?:\s+tonight)?{_THEN_STOP}?(?:\s+please)?$"
    rf"|^(?P<amount_alone>{_AMOUNT}){_THEN_STOP}(?:\s+please)?$"
)
"""How long to keep listening, with no word of a timer: "give me twenty minutes", "play for half an
hour", "only ten minutes tonight", "ten minutes and then sleep"."""
_ON_THE_TIMER = r"\s+(?:to|on|onto)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer"
_ADDED_AMOUNT = (
    rf"(?:(?:another|an extra)\s+({_UNIT})\b"
    rf"|(?:another\s+|an extra\s+)?({_AMOUNT}|{_NUMBER_SAID}\s+more\s+{_UNIT}s?)(?:\s+more)?)"
)
"""What is put on a timer: an amount, or a unit alone after "another" or "an extra" ("an extra hour")."""
_TIMER_ADDED = re.compile(
    rf"\b(?:add|put on|put)\s+{_ADDED_AMOUNT}(?:{_ON_THE_TIMER}\b|(?:\s+please)?$)"
    rf"|\b(?:extend|lengthen)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\s+(?:(?:by|for)\s+)?{_ADDED_AMOUNT}"
    rf"|^make it (?:another|an extra)\s+({_AMOUNT})(?:\s+please)?$"
    rf"|^(?:(?:can|could) you )?(?:make|set) (?:the |my )?(?:sleep )?timer longer by ({_AMOUNT})"
    r"(?:\s+please)?$"
    r"|^top (?:up (?:the |my )?(?:sleep )?timer|(?:the |my )?(?:sleep )?timer up)"
    rf" (?:with|by) {_ADDED_AMOUNT}"
    r"(?:\s+please)?$"
    rf"|^add {_ADDED_AMOUNT} before it (?:switches|turns|goes) off$"
    rf"|^(?:sleep )?timer plus {_ADDED_AMOUNT}$|^bump (?:the |my )?(?:sleep )?timer up by {_ADDED_AMOUNT}$"
    rf"|^give (?:the |my )?(?:sleep )?timer {_ADDED_AMOUNT}$"
    rf"|^(?:(?:ok(?:ay)?|just|give me|i'd|i would|like|love|i want|(?:can|could) i (?:have|get))\s+)*"
    rf"{_ADDED_AMOUNT}{_ON_THE_TIMER}\b"
)
"""Minutes put on the running timer ("add ten minutes to the timer", "extend the timer by 10
minutes", "add another half hour"): read before a timer set, which "for ten minutes" also is."""
_TIMER_ADDED_BARE = re.compile(
    rf"^(?:add|put on) (?:another|an extra) ({_BARE_NUMBER_SAID})(?: more)?(?:{_ON_THE_TIMER})?(?: please)?$"
    rf"|^extend (?:it |the (?:sleep )?timer )?by ({_BARE_NUMBER_SAID})(?: please)?$"
    rf"|^(?:(?:add|put)\s+)?(?:another\s+|an extra\s+)?({_BARE_NUMBER_SAID})(?:\s+more)?{_ON_THE_TIMER}"
    r"(?: please)?$"
)
"""Minutes put on the timer said as a number alone ("add another 10", "extend the timer by 15", "10 more
on the timer")."""
_THE_TIMER = r"(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer"
_TAKEN_OFF = rf"(?:{_AMOUNT}|{_BARE_NUMBER_SAID})"
_TIMER_SHORTENED = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:"
    rf"(?:shorten|cut|reduce|trim)\s+{_THE_TIMER}\s+by\s+(?P<by>{_TAKEN_OFF})"
    rf"|(?:take|knock)\s+(?P<off>{_TAKEN_OFF})\s+off\s+{_THE_TIMER}"
    rf"|(?:make|set)\s+{_THE_TIMER}\s+(?:(?P<shorter>{_AMOUNT})\s+shorter|shorter\s+by\s+(?P<shorter_by>{_AMOUNT}))"
    r")(?:\s+please)?$"
)
"""Minutes taken off the running timer ("shorten the timer by five minutes", "take 10 off the timer"):
``TimerAdded`` of fewer; a number alone is minutes."""
_SLEEPY_OPENER = r"^(?:(?:actually|uh|um|er|oh|no|ok(?:ay)?|sorry)\s+)*"
_MINUTES_ALONE = rf"(?!(?:one|1)\b)(?!\d+\.){_BARE_NUMBER_SAID}"
"""A number said alone as the minutes of a timer: not "one" ("another one" is another place, not a
minute) nor a fraction."""
_TIMER_MADE = re.compile(
    rf"{_SLEEPY_OPENER}(?:make|change|set) (?:it|that)(?: to| for)? (?:({_AMOUNT})|({_MINUTES_ALONE}))"
    r"(?:\s+instead)?(?:\s+please)?$"
)
"""The timer just set changed ("make it ten", "set it to ten minutes instead"): a number alone is minutes."""
_TIMER_ADDED_SHORT = re.compile(
    rf"{_SLEEPY_OPENER}(?:add|plus|another) (?:({_AMOUNT})|({_MINUTES_ALONE}))(?:\s+more)?(?:\s+please)?$"
)
"""Minutes on top, said shortest ("add ten", "another ten", "plus ten minutes")."""
_TIMER_AGAIN = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:"
    r"(?:reset|restart|renew)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer(?:\s+again)?"
    r"|(?:start|set|run|do)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\s+(?:again|over)"
    r"|(?:the\s+)?same\s+(?:sleep\s+)?timer(?:\s+again)?"
    r")(?:\s+please)?$"
)
"""The running timer's minutes again from here ("reset the timer", "start the timer again")."""
_TIMER_BARE_MINUTES = re.compile(
    _STOPPING
    + rf".*?\b(?:in|after|for)\s+(?:another\s+|about\s+)?({_BARE_NUMBER_SAID})(?:\s+more)?(?:\s+please)?$"
    rf"|\btimer\s+(?:(?:to|on)\s+)?({_BARE_NUMBER_SAID})(?:\s+please)?$"
    rf"|^(?:set (?:the |my )?)?sleep\s+(?:to\s+)?({_BARE_NUMBER_SAID})$"
)
"""A number said alone after the words of a timer ("sleep in 20", "timer for 20", "timer 45"): minutes,
the unit a sleep timer is set in. Read to the end, so a number with a unit or a chapter is not one."""
_PAUSE = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:pause|stop|hold on|hold it|stop playing|stop reading|stop the book|pause the book|stop it|pause it"
    r"|(?:pause|stop)(?: it| the book| playing| reading)? for"
    rf" (?:now|tonight|a (?:bit|moment|sec|while)|{_AMOUNT})"
    r"|(?:i'll |ill |i will )?be (?:right )?back(?: in a (?:sec|second|moment|minute|bit))?|brb"
    r"|back in (?:a (?:sec|second|moment|minute|bit)|a few minutes|five minutes|5 minutes)"
    r"|turn (?:it |this |the book )?off|switch (?:it |this |the book )?off|shut up|be quiet|quiet|shh+|hush"
    r"|shush|off|done for (?:tonight|now|the night)|go (?:quiet|to sleep|to bed)(?: now)?"
    r"|wait|hang on|hold on|let's stop(?: here| there)?|(?:i think )?i'll stop(?: here| there)?"
    r"|(?:just |give me )?(?:one|a) (?:sec|second|moment|minute)|enough"
    r"|(?:stop|pause) (?:the|my) (?:speaker|phone|tablet|laptop)"
    r"|(?:stop|pause) (?:the|my|this) (?:story|audiobook|audio|recording|narration|reading)"
    r"|(?:pause|stop)(?: (?:pause|stop))+|(?:hit|press|push) (?:pause|stop)"
    r"|(?:stop|pause) (?:on )?(?:all|every) devices?|(?:stop|pause) everywhere"
    r"|(?:(?:that's|thats|that is|i've had) enough|that'll do|that will do)"
    r"(?: (?:for )?(?:tonight|today|now))?)"
    r"(?:\s+(?:now|please|it|the book|for now|for tonight|there|that|a (?:sec|second|moment|minute|bit)))*$"
)
_PLAY_ON = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:ok(?:ay)? |go on then,? )?(?:you can )?"
    r"(?:play|resume|continue|carry on|keep (?:going|playing|reading)|go on(?: then)?)"
    r"|unpause|un-pause|play on|(?:press|hit|push) play|(?:turn|put|switch) it (?:back )?on|pick up"
    r"|back on|go"
    r"|(?:ok(?:ay)?,? )?(?:i'm|im|i am) back"
    r"|start (?:playing|reading)|start(?=(?:\s+(?:it|now|please))*$))"
    r"(?:\s+(?:it|the book|the story|playing|reading|again|now|please|from here|some more|a bit more|playback"
    r"|(?:from )?where (?:i|we) (?:left off|stopped|was|were|got to)))*$"
)
"""Said whole, the book to play on: "play the bit where…" and "carry on from chapter 3" are places, and
"start it again" is not here (it is a start again, ``_START_AGAIN``)."""
_BOOKMARK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:add|set|make|put|drop|save|leave)?\s*(?:a\s+)?"
    r"bookmark(?:\s+(?:this|that|it|here|this (?:bit|part|place|spot)))?(?:\s+please)?$"
    r"|^(?:mark|save) (?:this|my) (?:place|spot|bit)(?:\s+please)?$"
)
_OTHER_BOOK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:switch|change)(?: to)? "
    r"(?:another|a different|the other|my other|the|my)?\s*(?:audio)?books?\b"
    r"|^(?:switch|change) to "
    r"(?!(?:the |a |my )?(?:chapter|next|previous|last|start|end|beginning|bit|part)\b)"
    r"|^(?:play|open|read|start) (?:another|a different|the other|my other) (?:audio)?book\b"
    r"|^(?:play|read|listen to|put on)(?: me)? something else$"
)
"""Another book by voice ("switch to Sherlock Holmes"), never "switch to chapter 3"."""
_DEVICE_KINDS = r"(?:speaker|phone|tablet|laptop|computer|ipad|kindle|echo|tv|radio|headphones)"
_OTHER_DEVICE = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:play|continue|carry on|keep (?:going|playing)|resume)(?: it| this| the book)? on (?:the|my)"
    r" (?P<named>[a-z0-9_-]+(?: (?!(?:please|instead|now)\b)[a-z0-9_-]+)?)"
    r"|(?:switch|move|change|send|transfer)(?: it| this| the book| over)? (?:to|onto) (?:the|my)"
    rf" (?P<kind>(?:[a-z0-9_-]+ )?{_DEVICE_KINDS}))"
    r"(?: please| instead| now)*$"
)
"""Playing on another device ("play it on the speaker", "switch to my phone"): a switch names a kind
of device, so "switch to Sherlock Holmes" stays another book."""
_VOLUME = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:make it |a bit |a little )?(?:louder|quieter|softer)"
    r"|(?:turn|crank) (?:it|the (?:volume|sound|book)) (?:up|down)|(?:turn )?(?:the )?volume (?:up|down)"
    r"|(?:(?:it's|its|it is|that's|thats|that is) (?:too|very|a bit|a little)|(?:way |much |far )?too)"
    r" (?:loud|quiet|soft)"
    r"|i can'?t hear (?:it|that|you|the book|anything)"
    r"|(?:change|raise|lower) the (?:volume|sound))"
    r"(?:\s+(?:please|a bit|a little|a touch))*$"
)
_NOT_OF_THE_BOOK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:"
    r"tell me a joke|sing(?: me)?(?: a song)?|what(?:'s| is) the (?:weather|news|forecast)"
    r"(?: like)?(?: (?:today|tomorrow|tonight|now))?"
    r"|play (?:me )?(?:some )?(?:music|songs?|the radio|a podcast|white noise|rain sounds|radio \w+)"
    r"|play (?:me )?some (?!more\b)\w+(?: \w+){0,2}"
    r"|set an alarm\b.*|wake me (?:up )?(?:at|in)\b.*|remind me to\b.*|(?:call|text|message) \w+"
    r"|turn (?:on|off) the (?:lights?|tv|telly|heating|fan)"
    r")(?:\s+please)?$"
)
"""What people ask a general assistant, which no tool of a book does: said plainly, not searched for in
the book (a model, when there is one, answers it)."""
_FILLER = re.compile(
    r"^(?:ok(?:ay)?|um+|uh+|erm*|hm+|ah+|hey|so|and|oh|please|bedside|like|shh+|briefly|ugh+|oi|yeah|yes|yep)"
    r"(?:[,\s]|\.\.\.|…)+"
    r"|^(?:wait|hang on|sorry|actually|well|alright|right|excuse me|(?:no )?i'm (?:still )?awake),\s*"
)
"""Words said before what is asked; those that can be what is asked ("wait a minute", "sorry?") only
when a comma, a pause, follows them ("wait, what happened to Ginger?")."""


_SOUNDS_LIKE_A_NUMBER = {
    "won": "one",
    "to": "two",
    "too": "two",
    "tree": "three",
    "free": "three",
    "for": "four",
    "fore": "four",
    "fie": "five",
    "ate": "eight",
    "tin": "ten",
}
"""A number as dictation writes it, where nothing but a number can stand: after a way or a timer said
first, before a unit or at the end ("go back won minute", "sleep in to hours", "rewind ate"), after
"chapter", "number" or "option" at the end; never inside a sentence ("when John went back for hours")."""
_SAID_AS_A_WORD_TOO = frozenset({"to", "too", "for", "fore"})
"""Words a request may end with as themselves ("... and set a timer too", a clip cut short at "go back
to"): a number only before a unit."""
_COMMAND_SAID = (
    r"^((?:(?:ok|okay|please|can you|could you|just) )*(?:(?:go|skip|jump|move|fast) )?"
    r"(?:back|forward|forwards|ahead|rewind|skip)"
    r"|(?:(?:ok|okay|please|just) )*(?:sleep|stop|pause|timer|set a timer|set the timer)(?: in| for| after)?"
    r"|add|extend(?: the timer)?(?: by)?)"
)
_UNIT_ENDS = r"(?: please| and\b| then\b|,|$)"
"""Where a unit said ends what is asked ("back won minute", "... and sleep in 20"): a unit with more
after it is a place ("skip to minute 5") or a moment ("back to minutes before the fire")."""
_TYPED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(typed), said)
    for typed, said in (
        (r"^-\s*(?=\d)", "back "),
        (r"^\+\s*(?=\d[^,]*\bon (?:the |my )?(?:sleep )?timer\b)", "add "),
        (r"^\+\s*(?=\d)", "forward "),
        (r"\b(?:chapter|chap|chpt|ch)\.?\s*(?=\d)", "chapter "),
        (r"\b(?:chap|chpt|ch)\.?$", "chapter"),
        (r"\b(\d{1,3})\s?(?:h|hrs?)(?=\d)", r"\1 hours "),
        (r"\b(\d{1,3})\s?(?:s|secs?)\b", r"\1 seconds"),
        (r"\b(\d{1,3})\s?(?:m|mins?)\b", r"\1 minutes"),
        (r"\b(\d{1,3})\s?(?:h|hrs?)\b", r"\1 hours"),
        (r"\bhr\b", "hour"),
        (r"\b(?:fwd|ffwd|ff)\b", "forward"),
        (r"^paws\b", "pause"),
        (r"\bu\b", "you"),
        (r"\br\b", "are"),
        (r"\bwich\b", "which"),
        (r"^(?:wear|were) (?=am i|are we)", "where "),
        (r"\bfastforward\b", "fast forward"),
        (r"\b(?:rew|rw|rr)\b", "rewind"),
        (r"\bbk\b", "back"),
        (r"\bslp\b", "sleep"),
        (r"\bsleeptimer\b", "sleep timer"),
        (r"^un ?pause$", "play"),
        (r"\bwhr\b", "where"),
        (r"\bwots\b", "what's"),
        (rf"\b(an|one|won|half an|\d+) our(?={_UNIT_ENDS})", r"\1 hour"),
        (r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten) ours\b", r"\1 hours"),
        (r"\b(back|ahead|forward|rewind|skip|in|for) have an? hour\b", r"\1 half an hour"),
        *(
            (
                rf"{_COMMAND_SAID} {heard}(?= (?:more )?(?:minute|hour|second|min)s?{_UNIT_ENDS}"
                rf"{'' if heard in _SAID_AS_A_WORD_TOO else '| please$|$'})",
                rf"\1 {meant}",
            )
            for heard, meant in _SOUNDS_LIKE_A_NUMBER.items()
        ),
        *(
            (
                rf"\bchapter ((?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety) )?{heard}$",
                rf"chapter \1{meant}",
            )
            for heard, meant in _SOUNDS_LIKE_A_NUMBER.items()
        ),
        *((rf"^(number|option) {heard}$", rf"\1 {meant}") for heard, meant in _SOUNDS_LIKE_A_NUMBER.items()),
        (r"^((?:the )?(?:first|second|third|fourth|fifth|last|next|other|that)) won$", r"\1 one"),
        (r"\btimer 4 (?=\d)", "timer for "),
        (r"\b(\d+)\s*-\s*(?=\d+ (?:minutes?|seconds?|hours?)\b)", r"\1 to "),
        (r"\b(\S+) or so (?=(?:minutes?|seconds?|hours?)\b)", r"\1 "),
        (r"\ba (minute|hour) or two\b", r"2 \1s"),
        (r"\b(back|forward|ahead|rewind|skip) a couple$", r"\1 2"),
        (r"\b(back|forward|ahead|rewind|skip) a few$", r"\1 3"),
        (r"\b(take me|go|bring me) back where\b", r"\1 back to where"),
        (r"^hour timer$", "an hour timer"),
        (r"\bive\b", "i've"),
        (r"\balseep\b", "asleep"),
        (r"\bcoupla\b", "couple of"),
        (r"^(couple|few) more\b", r"a \1 more"),
        (r"\b(back|forward|ahead|rewind|skip) couple\b", r"\1 a couple of"),
        (r"^wher\b", "where"),
        (r"^off in ", "stop in "),
        (r"^in (\S+(?: minutes?| hours?)?),? (?:stop|pause|sleep|off)$", r"stop in \1"),
        (r"\bback wards\b", "backwards"),
        (r"\b(after|in) (?:to|too) (more )?chapters\b", r"\1 2 \2chapters"),
        (r"^revert$", "undo"),
        (r"^skip (?:the |this )?chapter$", "next chapter"),
        (r"^extend(?: it)? (?:by )?(?=\d)", "extend the timer by "),
        (r"\bdidnt\b", "didn't"),
        (r"\btil\b", "till"),
        (r"\babit\b", "a bit"),
        (r"\blil\b", "little"),
        (r"\bhappend\b", "happened"),
        (r"\bwaht\b", "what"),
        (r"\bmis\b(?= out\b|$)", "miss"),
        (r"\b(go|take me|bring me|skip|jump) their$", r"\1 there"),
        (r"\b(skip|go|jump|fast forward|move) a head\b", r"\1 ahead"),
        (r"\bfast for ?word\b", "fast forward"),
        (r"^und(?:ue)?$", "undo"),
        (r"\bto far$", "too far"),
        (r"\b(why|where|what|how|who)'d\b", r"\1 did"),
        (r"\bprev\b", "previous"),
        (r"^tl;? ?dr$", "recap"),
        (r"\bhw\b", "how"),
        (r"\b(\d+)ish\b", r"\1"),
        (r"\b(?:pls|plz)\b", "please"),
        (r"^(?:thx|ty|tysm|ty ?vm)$", "thanks"),
        (r"^gn$", "goodnight"),
        (r"\b(?:wot|wat|wht)(?=\b|'s\b)", "what"),
        (r"\b(who|where|what|how)s\b", r"\1's"),
        (r"\b(why|where|what|how|who)d\b", r"\1 did"),
        (r"\bwhys\b", "why is"),
        (r"\b(fell|fall|falling|was|were|been|am) a sleep\b", r"\1 asleep"),
        (
            r"\b(start|started|begin|began|listen\w*|stop|stopped|miss|missed|asleep|sleep|slept) to night\b",
            r"\1 tonight",
        ),
        (r"\bthe end on\b", "the end of"),
        (r"^cancell?ed\b", "cancel"),
        (r"^(stop|sleep|pause) at (?=\S+(?: \S+)? (?:minutes?|hours?)(?: please)?$)", r"\1 in "),
    )
)
"""Shorthand typed on the page, as it would be said: "ch 5", "back 30s", "fwd 2m", "prev", "thx"; a
number a recogniser wrote as the word it sounds like ("sleep in to minutes", "go to chapter to", "back
won minute", "half an our"), only beside a unit, a chapter or a row, where the word itself means
nothing; a range or a rough amount as its larger number ("5-10 minutes", "ten or so minutes"); and
a word it wrote as two ("where did I fall a sleep", "where did I start to night") or as one near it
("stop at the end on chapter 3", "cancelled the timer", "stop at fifteen minutes")."""
_UNIT_LEFT_UNSAID = re.compile(
    rf"\b{_NUMBER_SAID}\s+(?P<unit>hour|minute|min)s?\s+(?:and\s+)?{_BARE_NUMBER_SAID}\b"
    r"(?!\s*(?:seconds?|secs?|minutes?|mins?|hours?|:|%|percent|more)\b)"
)
"""A second part said without its unit, "1 minute 30", "2 hours 15": the next unit down; not one with
"more" after it, which is a second request ("back 5 minutes and 10 more on the timer")."""
_NEXT_UNIT = {"hour": "minutes", "minute": "seconds", "min": "seconds"}


_BUTTON_SAID = {"⏸": "pause", "⏯": "play", "▶": "play"}
_BUTTONS = re.compile("[⏸⏯▶]\ufe0f?")
"""A player's button typed as its symbol: what it does."""
_PICTURES = re.compile("[\u2300-\u23ff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+")
"""Emoji typed beside the words ("sleep in 20 😴", "thanks 🙏"): they ask nothing."""
_FILLER_INSIDE = re.compile(
    r"(?:(?<=\s)|^)(?:um+|uh+|erm+|er"
    rf"|like(?= (?:half|{numbers.SAID_AS_A_NUMBER}|a (?:couple|few)|an? (?:hour|minute))\b))"
    r"(?:\s+|(?:\.{2,}|…)\s*|$)"
)
"""A recogniser's hesitations wherever they fall: "can you um pause", "back uh... five minutes"."""
_TRAILING_OFF = re.compile(r"\s*(?:\.{2,}|…)\s*(?=\w)")
"""A pause written as an ellipsis inside what is said ("back... five minutes"): it ends no request."""


_COUNT = rf"(?:{numbers.SAID_AS_A_NUMBER}|an?)"
_PUT_RIGHT = r"(?:no,? wait|no|nope|sorry|actually|i mean|or rather|make (?:it|that))"
_AMOUNT_EITHER = re.compile(
    rf"\b{numbers.SAID_AS_A_NUMBER} (?:or|to) (?P<more>{numbers.SAID_AS_A_NUMBER}) (?P<unit>{_UNIT}s?)\b"
)
"""An amount said as a range ("three or four minutes", "five to ten minutes"): the larger, so going
back, nothing of what they missed is left out."""
_CHAPTER_CORRECTED = re.compile(
    rf"\bchapter {numbers.SAID_AS_A_NUMBER},? (?:(?:{_PUT_RIGHT}|wait),? )+(?:chapter )?"
    rf"(?P<then>{numbers.SAID_AS_A_NUMBER})(?=$|,| please\b| instead\b| and\b)"
)
"""A chapter put right as it is said ("go to chapter 12, no, 11"): the second."""
_AMOUNT_CORRECTED = re.compile(
    rf"\b{_COUNT} (?P<unit>{_UNIT}s?),? (?:{_PUT_RIGHT},? )+"
    rf"(?P<then>{numbers.SAID_AS_A_NUMBER})(?: (?P<unit_then>{_UNIT}s?))?(?=$|,| please\b| instead\b| and\b)"
)
"""An amount put right as it is said ("back five minutes... no, ten"): the second, in the first's unit
unless it says its own. Only a number ending what is said, or followed by its unit, puts one right:
"the last ten minutes no one told me" and "thirty minutes... wait a minute" put nothing right."""
_WAY_SAID = r"(?:back(?:wards?)?|forwards?|ahead)"
_AMOUNT_WORD = (
    rf"(?:{numbers.SAID_AS_A_NUMBER}|{_UNIT}s?|chapters?"
    r"|an?|by|of|or|so|half|quarter|few|couple|bit|little|more)"
)
"""The words an amount is said in ("half an hour", "a couple of minutes", "a chapter", "a bit")."""
_WAY_CORRECTED = re.compile(
    rf"\b{_WAY_SAID}(?P<amount>(?: {_AMOUNT_WORD}){{0,6}}),? (?:(?:{_PUT_RIGHT}|wait),? )+"
    rf"(?:(?:go|skip|jump|take me|move) )?(?P<then>{_WAY_SAID})(?P<rest>(?: please)?$| \S.*$)"
)
"""A way put right as it is said ("forward five minutes... no, back", "back, no, forward two minutes"): the
second way, with the first one's amount unless the second says its own."""


def _way_put_right(said: re.Match[str]) -> str:
    if said["rest"].strip() in ("", "please"):
        return f"{said['then']}{said['amount']}{said['rest']}"
    return f"{said['then']}{said['rest']}"


_JOINED_BY_A_SIGN = re.compile(r"\s+[&+]\s+")
_TIMER_JOINED_UNSAID = re.compile(
    r"\b(\d+ ?(?:minutes?|mins?|seconds?|secs?|hours?|hrs?))"
    r" (?=(?:sleep|stop|pause) in\b|(?:set )?a timer\b|timer \d)"
)
"""A move and a timer written as one, as dictation does ("back 5 minutes sleep in 20", "back 5 min +
timer 20")."""


def _with_pauses(utterance: str) -> str:
    """The words as meant, lower case: hesitations and the fillers before them off, a range or a
    way or a chapter or an amount put right as the one meant (``_AMOUNT_EITHER``, ``_WAY_CORRECTED``,
    ``_CHAPTER_CORRECTED``, ``_AMOUNT_CORRECTED``), and a recogniser's commas and full stops kept:
    where one request ends and another starts (``_move_and_timer``)."""
    text = _PICTURES.sub(
        " ", _BUTTONS.sub(lambda button: f" {_BUTTON_SAID[button[0][0]]} ", utterance.lower())
    )
    text = re.sub(r"\s+", " ", _TRAILING_OFF.sub(" ", _FILLER_INSIDE.sub("", text))).strip().replace("’", "'")
    text = re.sub(r"[!.?,;]+$", "", text).strip()
    while (stripped := _FILLER.sub("", text)) != text:
        text = stripped
    text = _TIMER_JOINED_UNSAID.sub(r"\1 and ", _JOINED_BY_A_SIGN.sub(" and ", text))
    text = _WAY_CORRECTED.sub(_way_put_right, text)
    text = _CHAPTER_CORRECTED.sub(lambda said: f"chapter {said['then']}", text)
    text = _AMOUNT_EITHER.sub(lambda said: f"{said['more']} {said['unit']}", text)
    return _AMOUNT_CORRECTED.sub(lambda said: f"{said['then']} {said['unit_then'] or said['unit']}", text)


def normalise(utterance: str) -> str:
    # a recogniser's pauses go: "back, five minutes"
    text = re.sub(r"\s*,(?!\d)\s*", " ", _with_pauses(utterance))
    for typed, said in _TYPED:
        text = typed.sub(said, text)
    text = _UNIT_LEFT_UNSAID.sub(lambda said: f"{said[0]} {_NEXT_UNIT[said['unit']]}", text)
    return numbers.ordinal_chapters_as_numbers(numbers.numbers_as_said(text))


number_of = numbers.number_of


def _said_amount_ms(said: str) -> float:
    """An amount of time as said (``_AMOUNT``), in milliseconds: "20 minutes", "half an hour",
    and a half wherever it is said, "one and a half hours" or "an hour and a half"; the parts of
    one said in two units added ("1 hour 30 minutes")."""
    in_minutes = _QUARTERS.sub(lambda q: "45 minutes" if q.group(1) == "three" else "15 minutes", said)
    parts = list(_SAID_AMOUNT.finditer(in_minutes.replace("-", " ")))
    assert parts, said  # only ever given what _AMOUNT matched
    return sum(_amount_part_ms(*part.groups()) for part in parts)


def _amount_part_ms(
    half: str | None, number: str | None, part_before: str | None, unit: str, part_after: str | None
) -> float:
    if half:
        return 0.5 * UNIT_MS[unit]
    assert number is not None
    parts = sum(0.25 if "quarter" in part else 0.5 for part in (part_before, part_after) if part)
    return (number_of(number) + parts) * UNIT_MS[unit]


def said_amount_ms(text: str) -> float | None:
    """The amount of time ``text`` starts with, in milliseconds (``_said_amount_ms``), or None."""
    said = re.match(_AMOUNT, text)
    return _said_amount_ms(said.group(0)) if said else None


def _step_not_counted_in_time(text: str) -> Jump | None:
    """A move whose amount is not a time: "a bit" (the page's step), "a while", "a page"."""
    if a_bit := _A_BIT.match(text) or _A_BIT_MORE.match(text):
        said = next(word for word in a_bit.groups() if word)
        return Jump(offset_ms=(-1 if said in _BACK_WORDS else 1) * A_BIT_MS)
    if a_while := _A_WHILE.match(text):
        return Jump(offset_ms=(-1 if a_while.group(1) in _BACK_WORDS else 1) * A_WHILE_MS, amount_chosen=True)
    if in_the_text := _IN_THE_TEXT.match(text):
        direction, count, unit = in_the_text.groups()
        # "skip forward the page": "a page" as a recogniser hears it
        counted = 1 if count == "the" else number_of(count)
        step_ms = (-1 if direction in _BACK_WORDS else 1) * counted * READ_ALOUD_MS[unit]
        return Jump(offset_ms=int(step_ms), amount_chosen=True)
    return None


def read(utterance: str, *, whole: bool = True) -> Intent:
    """What the listener is asking for, as far as plain code can tell; ``whole`` False reads one half
    of two requests said together, which is not split again.

    Words that read as nothing, or as a search of the book, are read again with a command word's
    slip put right ("pasue", "go bakc 30 seconds"), and taken so only when that reads as a command,
    or as a search that says its way where the words as typed said none ("go bak to where ...") and
    whose moment is in the words as typed. A moment's words keep the capitals of names the listener
    wrote inside the sentence: search tells a name not heard yet by them (adr/0066)."""
    match intent := _meant(utterance, whole):
        case FindPlace(query=query) if not names_a_moment(query, capitalised_words(utterance)):
            return Other()
        case FindPlace(query=query):
            return replace(intent, query=_names_capitalised(query, utterance))
        case Together(move=FindPlace(query=query) as move):
            return replace(intent, move=replace(move, query=_names_capitalised(query, utterance)))
    return intent


_TELLS_NO_MOMENT = FUNCTION_WORDS - {"say", "says", "said", "no", "up", "down", "over", "out", "off", "all"}
"""Words no moment is told by: "where he says no", "when she was down", "when it was all over" are
moments; "where he was", "where we were" are the listener's own place, not the story's."""
_SAYS_NO_MOMENT = re.compile(
    rf"{numbers.SAID_AS_A_NUMBER}|ones?|bits?|parts?|bobs?|chapters?|(?:minute|hour|second|min)s?"
    r"|more|further|little"
)
_A_NUMBER_TELLS = re.compile(
    rf"\b(?:was|were|is|turned|aged?) (?:\d+|{numbers.SAID_AS_A_NUMBER})\b|\b\d{{4}}\b"
)
"""A number that tells a moment: an age or the like ("when she was ten"), a year ("1945"); "the 4
one" and "go back to twenty" are commands misheard."""
_FEW_WORDS = 3
"""A longer description is searched whatever its words: "where he was on his own" tells a moment."""


def names_a_moment(query: str, capitalised: AbstractSet[str] = frozenset()) -> bool:
    """Whether a search's words could tell a moment of the story: "the for one", "will you", "for
    minutes" (a command misheard, of a few words all saying nothing) do not, and searched they find
    whatever passage is nearest; a name the listener capitalised ("take me to Will") or a number told
    as one (``_A_NUMBER_TELLS``) does."""
    said = words_of(query.lower())
    return (
        len(said) > _FEW_WORDS
        or _A_NUMBER_TELLS.search(query.lower()) is not None
        or any(
            word in capitalised or (word not in _TELLS_NO_MOMENT and not _SAYS_NO_MOMENT.fullmatch(word))
            for word in said
        )
    )


def _names_capitalised(query: str, utterance: str) -> str:
    """``query`` with the words the listener capitalised inside the sentence capitalised again;
    as it was when they capitalised most of their words (Title Case tells no name from the rest)."""
    names = capitalised_words(utterance)
    if len(names) * 2 > len(set(words_of(utterance))):
        return query
    return re.sub(r"[a-z]+", lambda word: word[0].capitalize() if word[0] in names else word[0], query)


_WHO_SLIPPED = re.compile(r"^(?:hoo|whoo|hu|woh)(?=s\b|'s\b| is\b| was\b| are\b| were\b)", re.IGNORECASE)
""""Hoo is ambrose": the question word with one slip, which the command words' mending leaves alone."""


def _meant(utterance: str, whole: bool) -> Intent:
    if whole and _WHO_SLIPPED.match(utterance.strip()):
        asked = _read_as_typed(_WHO_SLIPPED.sub("who", utterance.strip()), whole)
        if isinstance(asked, Question | TwoQuestions):
            return asked
    as_typed = _read_as_typed(utterance, whole)
    if not whole or not isinstance(as_typed, Other | FindPlace):
        return as_typed
    mended = spelling.respelled(utterance)
    as_meant = _read_as_typed(mended, whole) if mended is not None else None
    if as_meant is not None and not isinstance(as_meant, Other | FindPlace | Question):
        return as_meant
    if isinstance(as_meant, FindPlace) and _way_mended(as_typed, as_meant, normalise(utterance)):
        return as_meant
    if (described := _moment_then_back(as_typed, normalise(utterance))) is not None:
        return described
    if isinstance(as_typed, Other) and (among := _asked_among_asides(utterance)) is not None:
        return among
    return as_typed


def _way_mended(as_typed: Other | FindPlace, as_meant: FindPlace, typed: str) -> bool:
    """The respelling said the way ("go bak to ...") where the words as typed said none, and only
    the way word changed: the moment is in the words as typed."""
    way_unsaid = isinstance(as_typed, Other) or as_typed.direction is None
    return as_meant.direction is not None and way_unsaid and as_meant.query in typed


_THEN_BACK = re.compile(
    r"^(?P<moment>.+?) (?:(?:so|and|ok|okay) )?(?:(?:can|could|would|will) you )?(?:please )?"
    r"(?:take me|bring me|go|put me|skip|jump) back(?: to)? (?:that|this|there|it)"
    r"(?: (?:bit|part|scene|moment|place|spot))?(?: please)?$"
)
_THE_BIT_WHERE = re.compile(
    r"\bthe (?:bit|part|scene|moment) (?:where|when) (?P<moment>.+?)"
    r"(?=(?<!\bdr)(?<!\bmr)(?<!\bmrs)(?<!\bms)(?<!\bst)\.\s|\s+(?:and )?then (?:i|we|it)\b|$)"
)
"""The moment a listener remembers, up to the end of its sentence ("Dr." is none) or where they go on
about themselves ("and then I don't know", "then it all went fuzzy")."""
_LISTENING_TO = re.compile(r"^(?:i was|i've been|we were) (?:listening to|hearing) ")


def _moment_then_back(as_typed: Other | FindPlace, text: str) -> FindPlace | None:
    """'The man who drank too much and fell, can you take me back to that bit': the moment said
    first and the way after it, as a sleepy listener tells it; read as nothing, or as a search for
    all of it with no way said. A moment of fewer than three words is no moment ("ugh no")."""
    if isinstance(as_typed, FindPlace) and as_typed.direction is not None:
        return None
    said = _THEN_BACK.match(text)
    if said is None:
        return None
    # "I think I fell asleep, I remember the bit where the horse ..., and then I don't know": the bit
    bit = _THE_BIT_WHERE.search(said["moment"])
    for described in ([bit["moment"]] if bit else []) + [_LISTENING_TO.sub("", said["moment"])]:
        moment = _read_as_typed(f"take me back to {described}", whole=False)
        if isinstance(moment, FindPlace) and len(moment.query.split()) >= 3:
            return moment
    return None


def _asked_among_asides(utterance: str) -> Intent | None:
    """'Hang on, hit pause, someone's at the door': the one request said among words that ask
    nothing (parted by a recogniser's commas or full stops), when the whole reads as nothing."""
    parts = [part for part in re.split(r"\s*(?:[,;]|\.(?!\d))\s*", _with_pauses(utterance)) if part]
    if len(parts) < 2:
        return None
    readings = (read(part, whole=False) for part in parts)
    asked = [said for said in readings if not isinstance(said, Other | Courtesy)]
    if not asked or any(said != asked[0] for said in asked):
        return None
    return asked[0] if isinstance(asked[0], _TAKEN_AMONG_ASIDES) else None


def _read_as_typed(utterance: str, whole: bool) -> Intent:
    text = normalise(utterance)
    asked = utterance.strip().endswith("?")
    if not text or _NOT_OF_THE_BOOK.match(text):
        return Other()
    if (
        said_first := (whole and _doze_said(text) is None and _back_over_a_recap(_with_pauses(utterance)))
        or _asked_before_what_asks_nothing(text, whole)
        or (
            whole
            and (
                _move_and_timer(_with_pauses(utterance))
                or _two_asked(_with_pauses(utterance))
                or _two_who_questions(utterance)
            )
        )
        or read_playback(text)
    ):
        return said_first
    if _TIMER_WITHOUT_LENGTH.match(text):
        return TimerHowLong()
    if _TIMER_AT_A_CLOCK_TIME.search(text):
        return TimerHowLong(clock_said=True)
    if _PLAY_THAT_AGAIN.match(text):  # before a goto, which reads "play" as the start of a place
        return Jump(offset_ms=-A_BIT_MS)
    if _PLAY_ON.match(text):  # before a goto, which reads "play" as the start of a place
        return PlayOn()
    if _VOLUME.match(text):
        return Volume()
    if _BOOKMARK.match(text):
        return Bookmark()
    if device := _OTHER_DEVICE.match(text):
        return OtherDevice(device["named"] or device["kind"])
    if _OTHER_BOOK.match(text):
        return OtherBook()
    if _TIMER_ASKED.match(text):
        return TimerAsked()
    if _SPEED.search(text):
        return Speed()
    if aside := _aside(text):
        return aside
    if courtesy := _courtesy_or_cancel(text):
        return courtesy
    if moved := _NEXT_OR_PREVIOUS_ALONE.match(text):
        return NextChapter(step=1 if moved.group(1) == "next" or moved.group(2) or moved.group(3) else -1)
    if dozed := _doze_said(text):  # before the history's doze, which knows only the sleep timer's
        return dozed
    if earlier := read_earlier(text):
        return earlier
    if position := _asked_of_the_position(text):  # before the recaps: "which chapter is this" is none
        return position
    if listening := next((about for about, said in _LISTENING_ASKED if said.match(text)), None):
        return ListeningAsked(listening)
    if _WHY_MOVED.match(text):
        return LastMoveAsked()
    if about := _about_the_book(text):
        return about
    if counted := _chapter_counted_alone(text):  # before the recaps, which read the words alone as one
        return counted
    if counted := _chapters_counted(text):
        return counted
    if step := _step_not_counted_in_time(text):
        return step
    if _UNDO.search(text):
        return Undo()
    if _OTHER_ONE.search(text):
        return OtherOne()
    if (pointed := _pointing_back(text)) is not None:
        return pointed
    if listed := _PRESS_LISTED.match(text):
        ordinal, number = listed.groups()
        return PressListed(row=_ROW_ORDINALS[ordinal] if ordinal else _ROW_NUMBERS[number])
    if recap := read_recap(text, number_of, said_amount_ms):  # "what did I miss", "the last chapter"
        return recap
    if _TIME_LEFT.search(text):
        return TimeLeft()
    if length := _LENGTH_ASKED.match(text):
        return TimeLeft(length_of=_LENGTHS[length.group(1)])
    in_passing = _said_in_passing(text)
    # a place said on the clock first: "skip to 45 minutes in" is no move by 45 minutes
    if (
        not in_passing
        and not _ON_THE_TIMER_SAID.search(text)
        and (
            jump := _spoken_clock(text)
            or _share_of_book(text)
            or _into_chapter(text)
            or _jump_said(text)
            or _jump_by_number_alone(text)
            or _missed_stretch(text)
        )
    ):
        return jump
    if _SKIP_OPENING.match(text):  # before a goto, which would search the book for "the intro"
        return SkipOpening()
    if _SKIP_THIS_BIT.match(text):  # before a goto, which would search the book for "this bit"
        return Jump(offset_ms=A_BIT_MS)
    if start := _start_again(text):  # before a goto, which would search the book for "it from the top"
        return start
    if _THIS_CHAPTER.search(text):
        return ThisChapterStart()
    if chapter := _chapter_moved_to(text) or _chapter_named(text):
        return chapter
    if not in_passing and (clock := _CLOCK.search(text)):
        h, m, s = int(clock.group(1)), int(clock.group(2)), int(clock.group(3) or 0)
        short = (h * 60 + m) * 1000 if clock.group(3) is None and m < 60 else None
        return ClockTime(position_ms=((h * 60 + m) * 60 + s) * 1000, minutes_seconds_ms=short)
    if _BOOK_START_ALONE.fullmatch(place := _place_asked_for(text)):
        return StartAgain() if _THIS_STORY.search(place) else BookStart()
    if _BOOK_END_ALONE.fullmatch(place) and not _STOPS_AT_THE_END.search(text):
        return BookEnd()
    if (goto := _GOTO.match(text)) and (
        goto["verb"] not in _HEAR or _AGAIN.search(text) or _HEAR_THE_PART.search(text)
    ):
        return _moment_to_go_to(text, goto)
    if where := _WHERE_PART.match(text):
        return FindPlace(query=text[where.end() :].strip())
    if _QUESTION_START.match(text) or _ASKING_WHEN.match(text) or asked:
        return Question(question=utterance.strip())
    if _MOMENT.match(text) and len(text.split()) >= 2:
        return FindPlace(query=text)
    return _asked_after_an_opener(utterance, text, whole) or Other()


_ABOUT_THE_STORY = re.compile(r"^(?:who|what|whats|what's|why|which|whose|was|were|did|does|had)\b")
_DESCRIBING = re.compile(r"\b(?:where|when)\s*$")


def _said_in_passing(text: str) -> bool:
    """Whether a time or an amount in ``text`` is part of what is asked, not a move: said in a
    question about the story ("who went back 2 minutes later?", "what did he do at 1:30?") or in a
    moment described ("go back to where the lamp glowed at 1:30")."""
    if _ABOUT_THE_STORY.match(text):
        return True
    goto = _GOTO.match(text)
    return goto is not None and _DESCRIBING.search(goto.group(0)) is not None


def _pointing_back(text: str) -> GoThere | MoreOfThat | None:
    """Words that mean the last answer: its place ("take me there", "where was that?") or more of it."""
    if _GO_THERE.match(text):
        return GoThere()
    if _THAT_ONE.match(text):
        return GoThere(row_only=True)
    if _WHERE_THAT_WAS.match(text):
        return GoThere(show_only=True)
    return MoreOfThat() if _MORE_OF_THAT.match(text) else None


def _asked_before_what_asks_nothing(text: str, whole: bool) -> Intent | None:
    """'Go back two minutes, I fell asleep', 'pause, thank you': the move or the playback asked for
    (``_ASKS_NOTHING_AFTER``), not a recap of the doze, a courtesy, or a search for "thanks"."""
    after = _ASKS_NOTHING_AFTER.search(text)
    if after is None or after.start() == 0:
        return None
    asked = read(text[: after.start()], whole=whole)
    return asked if isinstance(asked, (*_MOVES, *_PLAYBACK, Together)) else None


_OPENER = re.compile(
    r"^(?:(?:oh |no )?wait|hang on|hold on|sorry|actually|well|alright|all right|excuse me)\s+"
)
"""What ``_FILLER`` takes off only before a comma, said with none: a recogniser may write no pause."""


def _asked_after_an_opener(utterance: str, text: str, whole: bool) -> Intent | None:
    """'Wait go back', 'sorry who is the coachman': what follows the opener, when it reads as a
    request; a question keeps the listener's words whole, as after "wait," it does."""
    opener = _OPENER.match(text)
    if opener is None:
        return None
    asked = read(text[opener.end() :], whole=whole)
    if isinstance(asked, Other):
        return None
    return Question(question=utterance.strip()) if isinstance(asked, Question) else asked


_THE_BOOK = r"(?:it|the book|this|the audiobook|my place)"
_WHY_MOVED = re.compile(
    rf"^why (?:did|has|does|is) {_THE_BOOK} (?:just )?"
    r"(?:jump(?:ed)?|move[ds]?|skip(?:ped)?|gone|go|change[ds]?|playing from here)"
    r"(?: (?:back|ahead|forward|on))?(?: on its own| by itself)?$"
    rf"|^who (?:just )?(?:moved|changed) {_THE_BOOK}$"
    rf"|^(?:did )?(?:someone|somebody|anyone|anybody) (?:just )?(?:move|moved|change|changed) {_THE_BOOK}$"
    r"|^(?:the book|it) (?:just )?(?:jumped|moved|skipped)(?: (?:back|ahead|forward|on))?"
    r"(?: on its own| by itself)?$"
    r"|^(?:that's|thats|that is|this is|this's|it's) not where i (?:was|left off|stopped)$"
    r"|^(?:that|this) (?:isn't|is not|wasn't) where i (?:was|left off|stopped)$"
    r"|^i didn'?t (?:ask for that|move it|do that)$"
    r"|^where was i (?:just )?before(?: that| all (?:this|that)| (?:i|it|you) (?:moved|jumped|skipped)"
    r"(?: it)?)?$"
)
"""Asked what moved the shared place, or where the book was before ("where was I before?": a question
never moves, and the answer offers undo); "go back to where I was" stays an undo (``_UNDO``)."""
_THIS_BOOK_OR_IT = r"(?: to (?:this|the|it|this book|the book|this story))?"
_LISTENING_ASKED: tuple[tuple[ListeningAbout, re.Pattern[str]], ...] = (
    (
        "last_time",
        re.compile(
            rf"^when (?:did i (?:last )?listen{_THIS_BOOK_OR_IT}(?: last)?"
            rf"|was i last listening{_THIS_BOOK_OR_IT}|did i (?:last )?stop listening(?: last time)?)$"
            rf"|^how long(?: has it been| is it)? since i (?:last )?listened{_THIS_BOOK_OR_IT}$"
        ),
    ),
    (
        "this_sitting",
        re.compile(
            rf"^how long (?:have i been|was i|am i) listening{_THIS_BOOK_OR_IT}(?: for)?"
            r"(?: (?:tonight|today|now|this time))?$"
            r"|^when did i (?:start|begin) listening(?: (?:tonight|today|this time))?$"
        ),
    ),
)
"""When they listened, asked alone: "how long have I been listening to Ginger's story?" stays a question."""


def _aside(text: str) -> Help | SpoilerAsked | SyncAsked | PlayingAsked | None:
    """Said of Bedside or the player, not of the story: help, a spoiler asked for, syncing, whether it
    plays."""
    if _HELP.match(text):
        return Help()
    if _SPOILER_ASKED.match(text):
        return SpoilerAsked()
    if _SYNC_ASKED.match(text):
        return SyncAsked()
    if _WHY_STOPPED.match(text):
        return PlayingAsked(why=True)
    return PlayingAsked() if _PLAYING_ASKED.match(text) else None


def _asked_of_the_position(text: str) -> WhereAmI | HeardBefore | None:
    if _WHERE_AM_I.match(text):
        return WhereAmI()
    return HeardBefore() if _HEARD_BEFORE.match(text) else None


_CHAPTER_TITLE_ASKED = re.compile(
    rf"^what(?: was| is|'s|s) (?:the (?:name|title) of )?(?:chapter|story) ({_NUMBER_SAID})"
    r"(?: called)?(?: again)?$"
)


def _about_the_book(text: str) -> AboutTheBook | ChapterTitleAsked | NamesHeard | None:
    """What the cover, the chapter list or the table of names says, asked alone."""
    if _NAMES_ASKED.match(text):
        return NamesHeard()
    if asked := _CHAPTER_TITLE_ASKED.match(text):
        return ChapterTitleAsked(int(number_of(asked.group(1))))
    fact = next((fact for fact, said in _BOOK_FACTS if said.match(text)), None)
    return AboutTheBook(fact) if fact else None


_FINAL_CHAPTER_ALONE = re.compile(rf"^(?:the )?(?:{_FINAL_CHAPTER.pattern})(?:,? please)?$")


def _chapter_counted_alone(text: str) -> NextChapter | ChapterEnd | FinalChapter | None:
    """ "The previous chapter", "the end of the last chapter", "the last chapter of the book", said
    alone: moves, not recaps."""
    if _PREVIOUS_CHAPTER_ALONE.match(text):
        return NextChapter(step=-1)
    if _FINAL_CHAPTER_ALONE.match(text):
        return FinalChapter()
    return _end_of_a_counted_chapter(text, alone=True)


def _end_of_a_counted_chapter(text: str, *, alone: bool = False) -> ChapterEnd | None:
    said = _COUNTED_CHAPTER_END.fullmatch(text) if alone else _COUNTED_CHAPTER_END.search(text)
    return ChapterEnd(step=-1 if said.group(1) else 1) if said else None


def _chapter_moved_to(text: str) -> FinalChapter | ChapterEnd | NextChapter | None:
    """The end of a chapter, the next or the previous, or the book's last; none in a question ("what
    happens in the next chapter?" moves nothing)."""
    if _QUESTION_START.match(text):
        return None
    if _FINAL_CHAPTER.search(text):
        return FinalChapter()
    if counted_end := _end_of_a_counted_chapter(text):
        return counted_end
    if named_end := _NAMED_CHAPTER_END.search(text):
        return ChapterEnd(chapter=int(number_of(named_end.group(1) or named_end.group(2))))
    if _CHAPTER_END.search(text):
        return ChapterEnd()
    if _NEXT_CHAPTER.search(text):
        return NextChapter(step=1)
    if _PREVIOUS_CHAPTER.search(text):
        return NextChapter(step=-1)
    return None


def _chapter_named(text: str) -> Chapter | ChapterTitled | None:
    """A chapter named by its number or its title; none in a question ("who died in chapter 3?")."""
    if _QUESTION_START.match(text):
        return None
    if chapter := _CHAPTER.search(text):
        return Chapter(n=int(number_of(chapter.group(1))))
    if titled := _CHAPTER_TITLED.match(text):
        return ChapterTitled(title=titled.group("title").strip("\"'“”‘’ "))
    return None


JOINTS_TRIED = 4
"""How many "and"s are tried as the joint of two requests: a description may hold a few ("where the
horse and cart stop"), and each try reads both halves."""
_THEN = r"(?:and\s+then|and|then|after\s+that)\s+"
_JOINT = re.compile(rf"\s*(?:[,;!?]+(?!\d)\s*|[.]+\s+)(?:{_THEN})?|\s+{_THEN}")
"""Where one request ends and the next starts: "and", "then", or a recogniser's comma or full stop."""
_PLAYBACK = (SleepTimer, TimerAdded, CancelSleepTimer, Pause)
"""What may be said with a move, either way round (``Together``)."""
_MOVES = (
    Jump,
    Chapter,
    ChapterTitled,
    ClockTime,
    ShareOfBook,
    IntoChapter,
    ThisChapterStart,
    ChapterEnd,
    NextChapter,
    BookStart,
    StartAgain,
    FinalChapter,
    SkipOpening,
    Earlier,
    FindPlace,
)


_TAKEN_AMONG_ASIDES = (*(move for move in _MOVES if move is not FindPlace), *_PLAYBACK, PlayOn, Undo)
"""A request that may be taken from among asides: a search or a question may be what they are about."""


def _two_halves(text: str) -> Iterator[tuple[tuple[str, str], tuple[Intent, Intent], str]]:
    """Each way ``text`` parts in two requests: the words of each half, each half read alone, and the
    words joining them. An "and" inside an amount ("an hour and a half") joins no two requests."""
    amounts = [said.span() for said in re.finditer(_AMOUNT, text)]
    for joint in itertools.islice(_JOINT.finditer(text), JOINTS_TRIED):
        if any(start <= joint.start() < end for start, end in amounts):
            continue
        said = text[: joint.start()].strip(), text[joint.end() :].strip()
        yield said, (read(said[0], whole=False), read(said[1], whole=False)), joint.group().strip(" ,;.!?")


def _back_over_a_recap(text: str) -> Jump | RecapAsked | None:
    """A jump back and a recap said together, either way round: the jump, which plays again what the
    recap would tell (one turn never both tells and moves: the turn rules), when the jump says how far
    and the recap says no amount ("go back 30 seconds, what just happened"), or when neither says one
    and the recap is the plain one ("rewind and tell me what happened"). Else the recap says what it
    covers and is that recap ("rewind and tell me what happened in the last 20 minutes", "what just
    happened? go back"); so is "what I missed" with a jump of no amount ("what happened while I
    dozed off, take me back", "go back and tell me what I missed"), which asks for the doze."""
    for said, halves, _ in _two_halves(text):
        read_with_words = list(zip(halves, said, strict=True))
        backs = [(half, words) for half, words in read_with_words if isinstance(half, Jump)]
        recaps = [(half.args, words) for half, words in read_with_words if isinstance(half, RecapAsked)]
        if not backs or backs[0][0].offset_ms >= 0 or not recaps:
            continue
        (back, back_said), (recap, recap_said) = backs[0], recaps[0]
        if re.search(_AMOUNT, recap_said):
            return None
        how_far_said = re.search(_AMOUNT, back_said) is not None
        if how_far_said or recap == RecapArgs(span="last_minutes", minutes=FALLBACK_MINUTES):
            return back
        # "go back and tell me what I missed" asks for the doze; "I fell asleep, go back" and "go back,
        # I fell asleep" tell of it
        asks = halves[0] is back and not recap_said.startswith("i ")
        return RecapAsked(recap) if asks else None
    return None


_NO_ONE = (
    r"(?!(?:mr|mrs|miss|ms|dr|i|me|you|we|us|he|she|they|it|him|her|them|this|that"
    r"|why|what|when|where|how|who|whom|which)\b)"
)
_SOMEONE = rf"(?:the |mr\.? |mrs\.? |ms\.? |miss |dr\.? )?{_NO_ONE}[\w'-]+"
"""One person as a who-question names them: a name, or "the keeper"; never a title alone, a pronoun or
a question word ("who is he and who is she"). More words may be one person ("Jack and Jill's
mother"), so they are asked whole."""
_WHO_AND = r"[?,.]?\s+and\s+"
_TWO_WHO = re.compile(
    rf"^who (?:are|were) (?P<first>{_SOMEONE}){_WHO_AND}(?P<second>{_SOMEONE})(?: again)?[?.!]*$"
    rf"|^who(?:'s|s| is| was) (?P<one>{_SOMEONE}){_WHO_AND}who(?:'s|s| is| was) (?P<other>{_SOMEONE})"
    r"(?: again)?[?.!]*$",
    re.IGNORECASE,
)


def _two_who_questions(utterance: str) -> TwoQuestions | None:
    """'Who are Wren and Tamsin?', 'who is Wren and who is Tamsin': each asked alone, the names as
    written (search tells a name by its capitals)."""
    said = _TWO_WHO.match(utterance.strip())
    if said is None:
        return None
    first, second = (said["first"], said["second"]) if said["first"] else (said["one"], said["other"])
    return TwoQuestions(f"who is {first}?", f"who is {second}?")


_A_CHAPTER_PLAYED_THEN_A_STOP = re.compile(
    r"^(?P<move>(?:(?:ok(?:ay)?|just|please|(?:can|could) you)\s+)*(?:play|read|listen to|put on)\s.+?)"
    rf",?\s+(?:and\s+|then\s+|and\s+then\s+){_GO_QUIET}"
    r"(?:\s+(?:after (?:it|that)|at the end(?: of it)?"
    r"|when it(?:'s| is) (?:done|over|finished)|when it ends))?"
    r"(?:,?\s+please)?$"
)
"""A chapter played and then a stop ("play chapter 4 and stop"): the stop is at that chapter's end, where
"go to chapter 4 and stop" goes there and pauses."""


def _move_and_timer(text: str) -> Together | None:
    """A move and a timer (or a pause) said together, either way round; each half read alone. "At the
    end of the chapter, stop" is one timer, not a move to the chapter's end and a pause now."""
    if _STOP_WHEN_THE_CHAPTER_ENDS.match(text):
        return None
    if played := _A_CHAPTER_PLAYED_THEN_A_STOP.match(normalise(text)):
        move = read(played["move"], whole=False)
        if isinstance(move, Chapter | ChapterTitled | NextChapter | FinalChapter):
            return Together(move=move, then=SleepTimer(after="chapter_end"))
    for said, halves, joined_by in _two_halves(text):
        moving = next((i for i, half in enumerate(halves) if isinstance(half, _MOVES)), None)
        timers = [half for half in halves if isinstance(half, _PLAYBACK)]
        if moving is not None and timers and not _a_clause(halves[moving], said[moving], joined_by):
            return Together(move=halves[moving], then=timers[0])
        # A pause asked for and then the timer ("pause and set a timer for ten"): paused at once, the
        # timer counting the listening after it. Said after a timer, a stop is the timer's own ("read
        # for ten minutes then stop"), unless the timer is cancelled; a "hold on" is no pause asked
        # for, nor a stop before a comma alone ("hold on, add ten minutes", "stop, sleep in 20").
        if joined_by not in ("and", "then", "and then"):
            continue
        paused = 1 if isinstance(halves[1], Pause) and isinstance(halves[0], CancelSleepTimer) else 0
        pause, timer = halves[paused], halves[1 - paused]
        if (
            isinstance(pause, Pause)
            and isinstance(timer, SleepTimer | TimerAdded | CancelSleepTimer)
            and not _WAITING.match(said[paused])
        ):
            return Together(move=pause, then=timer)
    return None


_WAITING = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:wait|hold on|hold it|hang on|brb"
    r"|(?:just |give me )?(?:one|a) (?:sec|second|moment|minute)|(?:i'll |i will )?be (?:right )?back)\b"
)
"""A pause that asks only for a moment ("hold on", "one sec"): said before a timer, it asks for the timer."""
_CLAUSE = re.compile(r"^(?:when|once|after|as soon as|until|till|before|if)\b")


def _a_clause(move: Intent, move_said: str, joined_by: str) -> bool:
    """Whether a moment described is a clause of the timer, not a place to go: said as one ("when the
    horse dies, then stop in five"), or parted from it by more than one "and" or "then" ("when this
    chapter ends, stop"; "finish the chapter and then go quiet"). "Go back to before the storm" is a
    place: the clause is read in what was said, not in the moment searched for."""
    return isinstance(move, FindPlace) and (
        bool(_CLAUSE.match(move_said)) or joined_by not in ("and", "then")
    )


_TOLD_BY_PLAIN_CODE = (
    WhereAmI,
    TimeLeft,
    AboutTheBook,
    ChapterTitleAsked,
    TimerAsked,
    PlayingAsked,
    ListeningAsked,
    LastMoveAsked,
    HeardBefore,
)
"""What plain code alone answers and may be asked with another of them (``BothAsked``)."""


_IT_CALLED = re.compile(r"^what(?:'s|s| is) it called(?: again)?$")


def _two_asked(text: str) -> Intent | None:
    """Two asks said together, each half read alone. One asked twice is one ask: "is it playing and why
    did it stop" is told once, with why; the time left twice ("how long is this chapter and how much is
    left") is the one ask the whole sentence says, and the chapter's length and the book's are both
    lengths, said together."""
    for joint in itertools.islice(_JOINT.finditer(text), JOINTS_TRIED):
        first_said, second_said = text[: joint.start()], text[joint.end() :]
        first, second = read(first_said, whole=False), read(second_said, whole=False)
        if not (isinstance(first, _TOLD_BY_PLAIN_CODE) and isinstance(second, _TOLD_BY_PLAIN_CODE)):
            continue
        match first, second:
            case PlayingAsked(), PlayingAsked():
                return PlayingAsked(why=first.why or second.why)
            case TimeLeft(length_of="chapter" | "book"), TimeLeft(length_of="chapter" | "book"):
                return TimeLeft(length_of="story") if first != second else first
            case TimeLeft(), TimeLeft():
                return None
            case WhereAmI(), AboutTheBook(fact="title") if "chapter" in first_said and _IT_CALLED.match(
                second_said.strip()
            ):
                return first  # "it" is the chapter just asked of, whose title is said with where they are
        return first if first == second else BothAsked(first=first, second=second)
    return None


def _timer_at_the_end_listened_to(listened: re.Match[str]) -> SleepTimer:
    if listened["next"]:
        return SleepTimer(after="chapter_end", chapter_step=1)
    if listened["reached"]:  # stopped as that chapter begins: at the end of the one before it
        return SleepTimer(after="chapter_end", chapter=max(1, int(number_of(listened["reached"])) - 1))
    return SleepTimer(after="chapter_end", chapter=int(number_of(listened["finished"] or listened["ended"])))


def read_playback(text: str) -> SleepTimer | TimerAdded | TimerAgain | CancelSleepTimer | Pause | None:
    """A sleep timer, its cancelling or a pause; never from a question ("when will it stop?")."""
    if _QUESTION_START.match(text) or _ASKING_WHEN.match(text):
        return None
    if _CANCEL_TIMER.search(text):
        return CancelSleepTimer()
    if _TIMER_AGAIN.match(text):
        return TimerAgain()
    if made := _TIMER_MADE.match(text):
        return SleepTimer(after=_minutes_said(made))
    if shortened := _TIMER_SHORTENED.match(text):
        said = next(group for group in shortened.groups() if group)
        taken = _said_amount_ms(said) / 60_000 if re.search(_UNIT, said) else number_of(said)
        return TimerAdded(minutes=-max(1, round(taken)))
    if added := _TIMER_ADDED_SHORT.match(text):
        return TimerAdded(minutes=_minutes_said(added))
    if added := _TIMER_ADDED_BARE.match(text):
        said = next(group for group in added.groups() if group)
        return TimerAdded(minutes=max(1, round(number_of(said))))
    if added := _TIMER_ADDED.search(text):
        said = next(group for group in added.groups() if group).replace(" more ", " ")
        said = f"one {said}" if re.fullmatch(_UNIT, said) else said
        return TimerAdded(minutes=max(1, round(_said_amount_ms(said) / 60_000)))
    if counted := _TIMER_COUNTED_CHAPTER_END.search(text):
        more, chapters = counted.groups()  # "after 2 more chapters" past this one; "after 2 chapters" with it
        step = int(number_of(more)) if more else int(number_of(chapters)) - 1 if chapters else 1
        return SleepTimer(after="chapter_end", chapter_step=step if step > 0 else None)  # 0: this one's end
    if _PAUSE.match(text):  # before the timers: "pause for ten minutes" is no timer of ten
        return Pause()
    if more := _CHAPTERS_MORE.match(text):
        return SleepTimer(after="chapter_end", chapter_step=int(number_of(more.group(1))))
    if listened := _A_NAMED_CHAPTER_LISTENED_TO.match(text):
        return _timer_at_the_end_listened_to(listened)
    if named := _TIMER_NAMED_CHAPTER_END.search(text):
        ending, reaching = named.group(1) or named.group(2), named.group(3)
        # stopped as chapter n begins: at the end of the one before it
        chapter = int(number_of(ending)) if ending else max(1, int(number_of(reaching)) - 1)
        return SleepTimer(after="chapter_end", chapter=chapter)
    if (
        _TIMER_CHAPTER_END.search(text)
        or _PLAY_TO_THE_CHAPTER_END.match(text)
        or _STOP_WHEN_THE_CHAPTER_ENDS.match(text)
    ):
        return SleepTimer(after="chapter_end")
    if timer := _TIMER_MINUTES.search(text):
        said = timer.group(1) or timer.group(2) or timer.group(3)
        return SleepTimer(after=max(1, round(_said_amount_ms(said) / 60_000)))
    if more := _TIMER_MORE.match(text):
        said = more.group(3) or f"{more.group(1)} {more.group(2)}"
        return TimerAdded(minutes=max(1, round(_said_amount_ms(said) / 60_000)))
    if listening := _TIMER_LISTENING_FOR.match(text):
        said = listening["amount"] or listening["amount_alone"] or f"{listening['count']} {listening['unit']}"
        minutes = max(1, round(_said_amount_ms(said) / 60_000))
        return TimerAdded(minutes) if re.search(_MORE_SAID, listening[0]) else SleepTimer(after=minutes)
    if bare := _TIMER_BARE_MINUTES.search(text):
        return SleepTimer(after=max(1, round(number_of(next(said for said in bare.groups() if said)))))
    return None


def _minutes_said(said: re.Match[str]) -> int:
    """The whole minutes of an amount said (group 1) or of a number said alone (group 2)."""
    amount, number = said.groups()
    return max(1, round(_said_amount_ms(amount) / 60_000 if amount else number_of(number)))


_LENGTH_ALONE = re.compile(
    r"^(?:(?:ok(?:ay)?|oh|just|about|around|maybe|say|for|in|after)\s+)*"
    r"(?:(?:at|to|till|until)\s+(?=(?:the\s+)?end\b))?"  # only before an end: "at 11" is a time of day
    rf"(?P<length>{_AMOUNT}|{_BARE_NUMBER_SAID}|{_NUMBER_SAID}\s+(?:more\s+)?chapters?"
    rf"|(?:the\s+)?end\s+of\s+(?:(?:the|this)\s+)?(?:next\s+)?chapter(?:\s+{_NUMBER_SAID})?|(?:the\s+)?end)"
    r"(?:\s+(?:please|thanks|thank you))?$"
)
"""A length of listening and nothing more: "20 minutes", "20", "the end of the chapter"."""


_SAY_AGAIN = re.compile(
    r"^(?:sorry |pardon )?(?:(?:can|could|would) you )?(?:please )?"
    r"(?:say (?:that|it) again|repeat (?:that|it|yourself|what you said)|what did you (?:just )?say"
    r"|what was that|come again|pardon(?: me)?|sorry what|what|huh|sorry|say again|again"
    r"|(?:i )?(?:didn't|did not) (?:catch|hear|get) (?:that|it|you|what you said))(?: again)?(?: please)?$"
)


def asks_to_hear_it_again(utterance: str) -> bool:
    """Whether ``utterance`` asks to hear again what was just said ("say that again", "sorry, what?"):
    Bedside's answer, if it has just given one (``SayAgain``), else the book's latest words."""
    return _SAY_AGAIN.match(normalise(utterance)) is not None


def timer_length_alone(utterance: str) -> SleepTimer | None:
    """A length said alone, read as the sleep timer the whole sentence ("stop after 20 minutes") sets:
    the answer to "For how long?" (``routing.asked_how_long``). Said at any other time, the words keep
    their own reading ("the end of the chapter" is a move there)."""
    said = _LENGTH_ALONE.match(normalise(utterance))
    # "the end" alone is the chapter's, as "stop at the end" is; "stop after the end" is no timer
    timer = (
        read_playback(f"stop {'at' if said['length'].endswith('end') else 'after'} {said['length']}")
        if said
        else None
    )
    return timer if isinstance(timer, SleepTimer) else None


_MORE_ALONE = re.compile(
    r"^(?:(?:ok(?:ay)?|and|just|um+|uh+|er+|now|maybe)\s+)*(?:"
    rf"another\s+(?P<amount>{_AMOUNT}|{_UNIT})|(?P<count>{_NUMBER_SAID})\s+more\s+(?P<unit>{_UNIT})s?"
    rf"|(?P<amount_first>{_AMOUNT})\s+more"
    r"|(?:a\s+)?(?:(?:little|tiny)\s+)?(?:bit\s+)?(?:more|further)"
    r")(?:,?\s+please)?$"
)


def more_said_alone(utterance: str) -> int | None:
    """An amount said with "more" or "another" and nothing else ("another minute", "a bit more"), in
    milliseconds: just after a move by an amount it is that move again (``routing.moved_by_just_now``);
    at any other time the words keep their own reading (minutes on the timer)."""
    said = _MORE_ALONE.match(normalise(utterance))
    if said is None:
        return None
    amount = said["amount"] or said["amount_first"] or (said["count"] and f"{said['count']} {said['unit']}")
    if not amount:
        return A_BIT_MS
    return round(_said_amount_ms(f"one {amount}" if re.fullmatch(_UNIT, amount) else amount))


def _place_asked_for(text: str) -> str:
    """What a request names once its way of asking to go ("take me to", "skip to", "please") is off."""
    goto = _GOTO.match(text)
    return re.sub(r"(?:,?\s+please)+$", "", text[goto.end() :] if goto else text).strip()


def _moment_to_go_to(text: str, goto: re.Match[str]) -> FindPlace | Other:
    """The moment after a "go to" ("take me back to where the horse dies"), and which way it lies."""
    query = re.sub(r"(?:,?\s+please)+$", "", text[goto.end() :].strip())
    direction = _direction(goto)
    if (heard_again := _AGAIN.sub("", query)) != query:  # to hear it again, it was heard
        query, direction = heard_again, direction or "back"
    return FindPlace(query=query, direction=direction) if len(query) >= 3 else Other()


def _direction(goto: re.Match[str]) -> Direction | None:
    """Which way a "go to" said it goes: "go back to", "rewind to", "replay", "skip ahead to"."""
    way = goto["way"] or goto["way_alone"]
    if goto["verb"] in {"rewind", "return", "replay"} or way == "back":
        return "back"
    return "forward" if way in {"forward", "ahead"} else None


def _jump_said(text: str) -> Jump | None:
    """A jump by an amount said, the way before the amount ("back an hour and a half") or, not in
    a question, after it ("half an hour back"), or on the clock ("back 1:30")."""
    if repeated := _REPEAT_THE_LAST.match(text):
        return Jump(offset_ms=-int(_said_amount_ms(repeated.group(1))))
    if by_clock := _JUMP_BY_CLOCK.match(text):
        way, first, second, third = by_clock.groups()
        hours, minutes, seconds = (0, first, second) if third is None else (first, second, third)
        sign = -1 if re.fullmatch(_BACK, way) else 1
        return Jump(offset_ms=sign * ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000)
    said = _JUMP.search(text)
    if said is not None:
        way, amount = said.group(1, 2)
        if way == "skip" and (said_last := _WAY_SAID_LAST.match(text, said.end())):  # "skip 5 minutes back"
            way = said_last.group(1)
    elif not _QUESTION_START.match(text) and (said := _JUMP_AMOUNT_FIRST.search(text)) is not None:
        amount, way = said.group(1, 2)
    else:
        return None
    sign = -1 if re.fullmatch(_BACK, way) else 1
    return Jump(offset_ms=int(sign * _said_amount_ms(amount)))


def _share_of_book(text: str) -> ShareOfBook | None:
    said = _SHARE_OF_BOOK.match(text)
    if said is None:
        return None
    share, percent, through, of, chapter = said.groups()
    of_chapter = "chapter" in (through, of)
    named = int(number_of(chapter)) if chapter else None
    if percent is not None:
        return ShareOfBook(int(percent) / 100, of_chapter, named)
    half = 0.5  # "halfway" and "the middle" alike
    return ShareOfBook(_SHARES[share] if share else half, of_chapter, named)


def _into_chapter(text: str) -> IntoChapter | None:
    said = _INTO_CHAPTER.match(text)
    if said is None:
        return None
    chapter = said["chapter"] or said["chapter_first"]
    into_ms = _said_amount_ms(said["amount"] or said["amount_after"])
    return IntoChapter(round(into_ms), int(number_of(chapter)) if chapter else None)


def _spoken_clock(text: str) -> ClockTime | None:
    """A place on the clock said in words, with a verb or alone."""
    said = _SPOKEN_CLOCK.match(text) or _CLOCK_PLACE_ALONE.match(text)
    if said is None:
        return None
    if amount := said.groupdict().get("amount"):
        return ClockTime(position_ms=round(_said_amount_ms(amount)))
    hours, minutes, minutes_alone, minute_named = (
        number_of(part) if part else 0 for part in said.groups()[:4]
    )
    return ClockTime(position_ms=round((hours * 60 + (minutes or minutes_alone or minute_named)) * 60_000))


def _missed_stretch(text: str) -> Jump | None:
    """'I missed the last few minutes': back over them, as "I missed that" goes back over the last
    words (a recap is asked for: "what did I miss?")."""
    missed = _MISSED_STRETCH.match(text)
    if missed is None:
        return None
    said = missed.group(1)
    amount = said_amount_ms(said) or said_amount_ms(f"a {said}") or said_amount_ms(f"one {said}")
    return Jump(offset_ms=-int(amount)) if amount else None


def _chapters_counted(text: str) -> NextChapter | None:
    said = _CHAPTERS_COUNTED.match(text)
    if said is None or (count := int(number_of(said.group(3)))) <= 0:
        return None
    way = said.group(4) or said.group(2) or said.group(1)  # "skip back 2 chapters": the later word says
    return NextChapter(step=-count if re.fullmatch(_BACK, way) else count)


def unit_for_number_alone(number: float) -> SaidUnit:
    """The unit of a move said with a number and no unit ("back 5", "skip forward 20").

    Under ten it is minutes: a few seconds is less than a sentence, not worth asking for aloud, and at
    2am "back 5" means the minutes missed. From ten it is seconds: the steps a player's skip buttons
    take (10, 15, 30, 45 s), which is how "rewind 10" and "skip forward 30" are meant. Either may be
    wrong, so the reply says the unit taken (``speech.for_number_alone``), and undo puts it back.
    """
    return "minute" if number < SECONDS_FROM else "second"


def _jump_by_number_alone(text: str) -> Jump | None:
    """A move by a number said without a unit, in the unit ``unit_for_number_alone`` takes."""
    said = _NUMBER_ALONE_JUMP.match(text)
    if said is None:
        return None
    way, said_number = said.group(1, 2)
    number = number_of(said_number)
    if number <= 0:  # "back 0" moves nowhere
        return None
    sign = -1 if re.fullmatch(_BACK, way) else 1
    unit = unit_for_number_alone(number)
    return Jump(offset_ms=int(sign * number * UNIT_MS[unit]), unit_taken=unit)


def _start_again(text: str) -> StartAgain | ThisChapterStart | BookStart | None:
    """Starting again: the chapter's start when the chapter is named, the book's when the book is (or
    "the beginning", which alone has always meant the book's), else ``StartAgain``."""
    if not _START_AGAIN.match(text):
        return None
    if _NAMES_CHAPTER.search(text):
        return ThisChapterStart()
    if (_NAMES_BOOK.search(text) or _BOOK_START.search(text)) and not _THIS_STORY.search(text):
        return BookStart()
    return StartAgain()


_THIS_STORY = re.compile(r"\bthis story\b")
"""In a book of stories "this story" is the one playing, a chapter; in a novel, the book: taken as the
chapter's start, as "start over" is, and the reply says how to start the book instead."""


def _doze_said(text: str) -> Intent | None:
    """A doze said with how long ago it was: the minutes since are what was missed ("I dozed off twenty
    minutes ago"), or how far to go back ("... go back"); said with a move, the move. None leaves a doze
    alone to the sleep timer's estimate (``read_earlier``, ``read_recap``)."""
    if where := _WHERE_I_DOZED_AGO.match(text):
        return Jump(offset_ms=-round(_said_amount_ms(where["ago"])))
    dozed = _DOZED.match(text)
    if dozed is None:
        return None
    ago_ms = round(_said_amount_ms(dozed["ago"])) if dozed["ago"] else None
    then = dozed["then"]
    missed = RecapAsked(RecapArgs(span="last_minutes", minutes=minutes_back(ago_ms))) if ago_ms else None
    if then is None:
        return missed
    if _BACK_THERE.match(then):
        return Jump(offset_ms=-ago_ms) if ago_ms else None
    asked = read(then, whole=False)
    if isinstance(asked, _MOVES) and _MOVE_FIRST.match(then):
        return asked
    return missed if isinstance(asked, RecapAsked) else None


def read_earlier(text: str) -> Earlier | EarlierAgain | None:
    """A request for a place from the listener's history, read before undo ("where I was before...")."""
    if _TIME_BEFORE.search(text):
        return EarlierAgain()
    asking = bool(_QUESTION_START.match(text) or _ASKING_WHEN.match(text)) and not _GOTO.match(text)
    if chapter := _LAST_IN_CHAPTER.search(text):
        said = next(number for number in chapter.groups() if number)
        return Earlier(chapter=int(number_of(said)), show_only=asking)
    if device := _LAST_ON_DEVICE.search(text):
        return Earlier(device=next(named for named in device.groups() if named), show_only=asking)
    if _BEFORE_SKIP.search(text):
        return Earlier(before_skip_ahead=True, show_only=asking)
    if _HOW_LONG_ASLEEP.match(text):
        return Earlier(fell_asleep=True, show_only=True, how_long=True)
    if _FELL_ASLEEP.search(text):
        return Earlier(fell_asleep=True, show_only=asking)
    if _TIMER_PAUSED.search(text):
        return Earlier(timer_paused=True, show_only=asking)
    if _FURTHEST.search(text):
        return Earlier(furthest=True, show_only=asking)
    if _LEFT_OFF.search(text):
        return Earlier(left_off=True, show_only=asking)
    if _SITTING_BEGAN.match(text):
        return Earlier(sitting_began=True, show_only=asking)
    if _LAST_SITTING_BEGAN.match(text):
        return Earlier(began_last_time=True, show_only=asking)
    return None
