"""What a listener can ask for, as the keyless router reads it: one frozen dataclass per kind of request."""

from dataclasses import dataclass
from typing import Literal

from bedside_contracts.turn import Direction

from bedside_turn.domain.recap import RecapAsked


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
ChapterSaid = Literal["next", "previous", "final"]
"""A chapter named by where it lies: after or before the one playing, or the book's last."""


@dataclass(frozen=True)
class TimeLeft:
    """'How long is left?': of the chapter playing and of the book, from the book's own times;
    ``length_of`` when they asked how long the chapter, the book or "this story" is (a chapter in a
    book of stories, the book in a novel: both are said)."""

    length_of: LengthOf | None = None
    chapter: int | None = None
    """With ``length_of`` "chapter": the chapter named ("how long is chapter 6?"), else the one playing. A
    length is a time on the chapter list the page shows, never the book's words, so it is told of a
    chapter ahead too, by its number."""
    chapter_said: ChapterSaid | None = None
    """With ``length_of`` "chapter": a chapter named by where it lies ("how long is the next chapter?"),
    counted from the one playing, or the book's final one; its number is said with its length."""


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
    the sleep timer or the listener's history tell, asked in one breath; or one of them, or a question of
    the story, with a recap ("who is Oskar and what did I miss"); or a recap or a question with the sleep
    timer set or cancelled ("what did I miss and sleep in 20 minutes"), or with a place of the history
    asked about ("what did I miss, how long was I out"). Each is answered, as asked."""

    first: "Intent"
    second: "Intent"


def each_asked(asked: "Intent") -> list["Intent"]:
    """The asks of a ``BothAsked``, three when one of its two is itself two ("what did I miss, who is Oskar
    and sleep in 20"), in the order asked."""
    if isinstance(asked, BothAsked):
        return [*each_asked(asked.first), *each_asked(asked.second)]
    return [asked]


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
    the timer ("pause and set a timer for ten minutes") is paused first, in the move's place. A question
    of the story with a move ("who is Oskar and go back 5 minutes") is answered after it, from where
    the move left the book (``keyless._two_said_together`` says why); a recap ("what did I miss and take
    me back to where I fell asleep") is told after it too, of the stretch its words named where they
    asked (``tools.ToolBox.recap``). Two of these said with a move ("who is Oskar, go back 5 minutes and
    sleep in 20") are ``then`` as ``BothAsked``, done after the move in the order asked. What plain code
    tells ("go back 5 minutes and where am I") is told after the move too, of the place it left. A pause
    or a play takes the move's place beside an ask ("pause and how long is left", "play and who is Wren"),
    and a speed beside a timer ("sleep in 20 minutes at 1.5x"): set first, as the timer
    counts listening at it. A bookmark beside a move is ``move`` or ``then`` in the order said: it marks
    where the listener is when they say it ("bookmark this and go back 30 seconds")."""

    move: "Intent"
    then: "Intent"
    """What is done after ``move``: one of the asks above, or a second move ("back 5 minutes and then
    forward 2 minutes"), which a turn that has moved does not make, and says so."""


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
    """'Bookmark this', 'bookmark this as the storm': a bookmark where the book has got to (ADR 83)."""

    title: str | None = None
    """The words to know it by, as said ("the storm"); None: none said."""


@dataclass(frozen=True)
class ToBookmark:
    """'Go to my bookmark', 'the bookmark called the storm': the newest bookmark, or the one by its title."""

    title: str | None = None


@dataclass(frozen=True)
class BookmarksAsked:
    """'List my bookmarks', 'what bookmarks do I have?': how many, and the newest few."""


@dataclass(frozen=True)
class BookmarkRemoval:
    """'Delete my bookmark': told where bookmarks are removed (the page), none removed aloud."""


@dataclass(frozen=True)
class OtherBook:
    """'Switch to Sherlock Holmes': another book, which a turn about this one cannot open."""


@dataclass(frozen=True)
class OtherDevice:
    """'Play it on the speaker': another device, which carries on from the same place once pressed."""

    device: str
    """The device as they named it ("kitchen speaker")."""


@dataclass(frozen=True)
class WakeUpAsked:
    """'Wake me up in 10 minutes', 'set an alarm for 7': an alarm, which Bedside has not; it can only stop
    the book, and says so."""


@dataclass(frozen=True)
class Volume:
    """'Louder', 'turn it down': the sound's loudness, which is the device's and not the book's."""


@dataclass(frozen=True)
class TimerAsked:
    """'When will it stop?', 'is the sleep timer on?': the player's running sleep timer, told."""


@dataclass(frozen=True)
class Speed:
    """'Slower', '1.5x', 'normal speed': how fast the book plays, said as a speed (``to``) or a change
    of the one playing (``by``); neither when only the speed was named ("change the speed")."""

    to: float | None = None
    by: float | None = None


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
    | WakeUpAsked
    | Bookmark
    | ToBookmark
    | BookmarksAsked
    | BookmarkRemoval
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
