"""Moves said outright: a jump by an amount, a chapter, a time on the book's clock, a share of the
book, a place from the listener's own history."""

import re

from bedside_contracts.turn import Direction

from bedside_turn.domain import numbers
from bedside_turn.domain.intents.kinds import (
    BookStart,
    Chapter,
    ChapterEnd,
    ChapterTitled,
    ClockTime,
    Earlier,
    EarlierAgain,
    FinalChapter,
    FindPlace,
    IntoChapter,
    Jump,
    NextChapter,
    Other,
    SaidUnit,
    ShareOfBook,
    StartAgain,
    ThisChapterStart,
)
from bedside_turn.domain.intents.wording import (
    AMOUNT,
    ASKING_WHEN,
    BARE_NUMBER_SAID,
    NOT_MEANT,
    NUMBER,
    NUMBER_SAID,
    QUESTION_START,
    REFUSING,
    UNIT,
    UNIT_MS,
    amount_ms,
    normalise,
    number_of,
    said_amount_ms,
)
from bedside_turn.domain.recap import CHAPTER_BEFORE_LAST, LAST_SITTING

_BACK_SAID = ("back", "backward", "backwards", "rewind", "reverse")
_BACK = rf"(?:{'|'.join(_BACK_SAID)})"
ROUGHLY = r"(?:(?:about|around|maybe|like|roughly|probably|only) )?"
_WAY_WORD = rf"(?:{_BACK}|forwards?|ahead)\b"
_JUMP = re.compile(
    rf"\b({_BACK}|forward|forwards|ahead|skip(?!\s+{_BACK}\b)|on)\b(?:\s+(?!{_WAY_WORD})\w+){{0,2}}?"
    rf"\s+(?:by\s+)?({AMOUNT})"
)
"""The way, then the amount; "skip back" goes back. A way said between them is the nearer one, the
one meant: "it jumped forward, go back ten minutes"."""
_WAY_NOT_MEANT = re.compile(
    rf"\s*\b{NOT_MEANT}\s+(?:fast\s+)?(?:{_BACK}|forwards?|ahead)\b,?"
    rf"|\s*\b{REFUSING}\s+(?:(?:go|skip|jump|move|fast)\s+)?(?:{_BACK}|forwards?|ahead)\b"
    rf"(?:\s+(?:by\s+)?{AMOUNT})?,?"
)
"""A way said only to be refused ("back, not forward, 10 minutes", "don't go back ten minutes, go
forward"): no way of the jump."""
_WAY_SAID_LAST = re.compile(rf"\s+({_BACK}|forwards?|ahead)\b")
"""The way said after a "skip" and its amount: "skip 5 minutes back"."""
_JUMP_BY_CLOCK = re.compile(
    rf"^(?:(?:go|skip|jump|move) )?({_BACK}|forward|forwards|ahead) (?:by )?"
    r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?: please)?$"
)
"""A jump by an amount on the clock, with no "to" ("back 1:30", minutes and seconds); "back to 1:30" is
a place (``CLOCK``)."""
_REPEAT_THE_LAST = re.compile(
    rf"^(?:(?:can|could) you )?(?:please )?(?:repeat|replay|play|read)(?: me)? (?:the|that) last ({AMOUNT})"
    r"(?: again)?(?: please)?$"
)
"""Heard again by its length: "repeat the last 30 seconds" goes back that far."""
_AN_AMOUNT_AGO = re.compile(
    rf"^(?:(?:go|take me|bring me|skip|jump|play from)\s+)?(?:back\s+)?(?:to\s+)?{ROUGHLY}({AMOUNT})\s+ago"
    r"(?:\s+please)?$"
)
"""A place said as a time ago ("go to ten minutes ago"): that far back, not words to search for."""
_JUMP_AMOUNT_FIRST = re.compile(rf"\b({AMOUNT})\s+({_BACK}|forward|forwards|ahead|on)\b")
"""The amount said before the way ("half an hour back", "ten minutes forward")."""
_SMALL = (
    r"(?:for )?(?:just |only )?(?:a (?:little |tiny |wee |teeny )?(?:bit|touch)|a little(?: bit)?|a touch"
    r"|a tad|a smidge|a tick|a mo|a moment|slightly|some)(?: more)?"
)
_ASKED_OF_US = (
    r"^(?:(?:can|could|would) (?:you|we) |(?:let's|lets|i need to|i want to) |please )?(?:please )?"
    r"(?:maybe )?(?:just )?"
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
ASKED_FOR = (
    r"(?:(?:can|could|would|shall) (?:you|we)\s+|let's\s+|let us\s+|i(?:'d| would) like to\s+"
    r"|i (?:want|need) to\s+)?(?:please\s+)?"
)
"""How a request may start before its verb: "can we", "let's", "I'd like to", "please"."""
_MISSED_STRETCH = re.compile(
    r"^(?:i (?:missed|didn't catch|did not catch|didn't hear|did not hear)|(?:re)?play|go over|listen to)"
    r" (?:the )?(?:last|past) (.+?)(?: again| back| over)?$"
)
"""A stretch missed or to hear again, said by its length ("I missed the last ten minutes", "replay the
last minute"): ``missed_stretch``; "play the last chapter again" is the chapter before."""
_NUMBER_ALONE_JUMP = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:go|skip|jump|move|take me|take it|fast)[\s-]+)?"
    rf"({_BACK}|forwards?|ahead|skip)(?:\s+by)?(?:\s+another)?\s+({BARE_NUMBER_SAID})(?P<x> ?x)?(?:\s+more)?"
    r"(?:,?\s+please)?$"
)
"""A move by a number said without a unit, read whole ("back 5", "skip forward 20", "fast forward 30"),
so a number that is a chapter's, a timer's or a clock's is never one. An "x" after a whole number of two
or more ("go back 2x") says no unit either, and no speed after a move's way: the reply says the unit
taken."""
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
the chapter". Which start it is, is ``start_again``'s to say."""
_NAMES_CHAPTER = re.compile(r"\bchapter\b")
_NAMES_BOOK = re.compile(r"\b(?:book|audiobook|novel|story|whole thing|all the way)\b")
_CHAPTER = re.compile(rf"\bchapter\s+{NUMBER}\b")
_N = numbers.SAID_AS_A_NUMBER
_CLOCK_SAID = rf"(?:({_N}) hours?(?: and)?(?: ({_N})(?: minutes?)?)?|({_N}) minutes?|minute ({_N}))"
_INTO_THE_BOOK = r" (?:in|mark|point|into the (?:book|story))"
_SPOKEN_CLOCK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:go|skip|jump|move|take me|take it|fast forward|rewind|play|start)(?: (?:back|ahead|forwards?|on))?"
    rf" (?:to|from|at) (?:the )?(?:{_CLOCK_SAID}|(?P<amount>{AMOUNT}))(?:{_INTO_THE_BOOK})?(?:,? please)?$"
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
    rf"(?:(?P<amount>{AMOUNT}) (?:into|in) (?:(?:the|this) chapter|chapter (?P<chapter>{BARE_NUMBER_SAID}))"
    rf"|chapter (?P<chapter_first>{BARE_NUMBER_SAID}) (?:at |from )?(?P<amount_after>{AMOUNT}) in)"
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
    rf"(?:(?: through| into| of) chapter ({BARE_NUMBER_SAID}))?"
    r"(?:,? please)?$"
)
"""A place by the share of the book or of the chapter said, the whole request ("skip to halfway
through the book", "the middle of the chapter", "go to 75%"): the length places it, where
"halfway through, when the horse is sold" is a moment to find."""
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
HEARD_THIS = (
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
    rf"|^{HEARD_THIS} (?:so )?(?:skip|go|move|jump) (?:ahead|on|forward)(?: please)?$"
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
    rf"\b(?:last|previous) time i (?:was|listened|got) (?:in|to) chapter {NUMBER}\b"
    rf"|\bi (?:was )?last (?:in|listened to|got to) chapter {NUMBER}\b"
)
_LAST_ON_DEVICE = re.compile(
    r"\b(?:last|previous) time i (?:listened|played|was listening|was)(?: to it)? on (?:the|my) "
    r"([a-z0-9_-]+)\b|\bi last (?:listen|listened|play|played)(?: to it)? on (?:the|my) ([a-z0-9_-]+)\b"
    r"|^where (?:was i|were we)(?: up to)? on (?:the|my) ([a-z0-9_-]+)$"
    r"|^where did (?:i|we) (?:get to|get up to|stop|leave off) on (?:the|my) ([a-z0-9_-]+)$"
    r"|^(?:(?:go|take me|bring me|skip|jump) )?(?:back )?to where (?:i was|we were|i got to|i left off)"
    r" on (?:the|my) ([a-z0-9_-]+)(?: please)?$"
)
_CHAPTER_END = re.compile(
    r"\b(?:the\s+)?(?:very\s+)?end\s+of\s+(?:this|the|the current|my)\s+chapter\b(?!\s+before\b)"
    r"|\b(?:this|the)\s+chapter'?s\s+end\b"
)
"""Read before "the end" (the book's), and after the sleep timer's "stop at the end of the chapter"."""
_BACK_TO_A_CHAPTER_END = re.compile(
    rf"\b{_BACK}\s+(?:up\s+)?(?:to\s+)?(?:the\s+)?(?:very\s+)?end\s+of\s+(?:this|the|the current|my)"
    r"\s+chapter(?:\s+please)?$"
)
"""Back to "the end of the chapter": this chapter's end is ahead, so it is the end of the one before."""
_END_OF_THE_CHAPTER_BEFORE = re.compile(
    r"\bend\s+of\s+the\s+chapter\s+before(?:\s+(?:this(?:\s+one)?|(?:the\s+)?(last)))?\b"
)
"""The end of the chapter before this one, or before the last: behind, whatever way is said."""
_NAMED_CHAPTER_END = re.compile(
    rf"\b(?:the\s+)?(?:very\s+)?end\s+of\s+chapter\s+{NUMBER}\b|\bchapter\s+{NUMBER}'s\s+end\b"
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
    r"|^(?:go )?back (?:a|one) chapter$|^(?:the )?chapter before(?: this(?: one)?)?(?: please)?$"
)
"""Said alone, the chapter before is a command, as "next chapter" is: it moves back a chapter.
"Last chapter" alone is the chapter before too, never the book's final chapter: it is how
"the last chapter" reads in a recap, and a listener asks for the book's end as "the end"."""
_CHAPTERS_COUNTED = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:(?:go|jump|move|take me)\s+)?"
    rf"(?:({_BACK}|forwards?|ahead|on|skip)(?:\s+({_BACK}|forwards?|ahead))?\s+)?{ROUGHLY}({NUMBER_SAID})"
    rf"\s+chapters?(?:\s+({_BACK}|forwards?|ahead|on))?(?:\s+please)?$"
)
"""Chapters counted from the one playing, said whole ("go back 2 chapters", "skip 3 chapters", "skip two
chapters back", "two chapters back"), with a way said before or after them."""
_BOOK_START = re.compile(
    r"\b(start|beginning)\s+of\s+the\s+(?:audio)?book\b|\bfrom the (very )?(start|beginning)\b"
)
GOTO = re.compile(
    rf"^{ASKED_FOR}"
    r"(?:(?P<verb>take me|bring me|go|jump|skip|get me|play|find|rewind|return|replay|hear|listen to)\b"
    r"(?:\s+right)?(?:\s+(?P<way>back|forward|ahead|again))?|(?P<way_alone>back|forward|ahead)(?=\s+to\b))"
    r"(?:\s+(?:to|from))?\s*"
    r"(?:(?:(?:the|a|that)\s+)?(?:part|bit|moment|scene|place|point|chapter)\s+)?"
    r"(?:where|when|with|about|that)?\s*"
)
AGAIN = re.compile(r"(?:^|\s+)(?:over\s+)?again$")
"""A moment asked for "again" ("play the part where the horse dies again") is one already heard."""
_CHAPTER_TITLED = re.compile(
    r"^(?:.*\b(?:to|play|find)\s+)?(?:the\s+)?(?:chapter|story)\s+(?:(?:that's|that is|which is)\s+)?"
    r"(?:called|titled|named|entitled)\s+(?P<title>.+?)(?:\s+please)?$"
)
"""A chapter (in a book of stories, a story) named by its title, in a move or alone; a question about
it stays a question."""


def step_not_counted_in_time(text: str) -> Jump | None:
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


_FINAL_CHAPTER_ALONE = re.compile(rf"^(?:the )?(?:{_FINAL_CHAPTER.pattern})(?:,? please)?$")


def chapter_counted_alone(text: str) -> NextChapter | ChapterEnd | FinalChapter | None:
    """ "The previous chapter", "the end of the last chapter", "the last chapter of the book", said
    alone: moves, not recaps."""
    if _PREVIOUS_CHAPTER_ALONE.match(text):
        return NextChapter(step=-1)
    if CHAPTER_BEFORE_LAST.fullmatch(text.removeprefix("the ").removesuffix(" please")):
        return NextChapter(step=-2)
    if _FINAL_CHAPTER_ALONE.match(text):
        return FinalChapter()
    return _end_of_a_counted_chapter(text, alone=True)


def _end_of_a_counted_chapter(text: str, *, alone: bool = False) -> ChapterEnd | None:
    said = _COUNTED_CHAPTER_END.fullmatch(text) if alone else _COUNTED_CHAPTER_END.search(text)
    return ChapterEnd(step=-1 if said.group(1) else 1) if said else None


def chapter_moved_to(text: str) -> FinalChapter | ChapterEnd | NextChapter | None:
    """The end of a chapter, the next or the previous, or the book's last; none in a question ("what
    happens in the next chapter?" moves nothing)."""
    if QUESTION_START.match(text):
        return None
    if _FINAL_CHAPTER.search(text):
        return FinalChapter()
    if counted_end := _end_of_a_counted_chapter(text):
        return counted_end
    if named_end := _NAMED_CHAPTER_END.search(text):
        return ChapterEnd(chapter=int(number_of(named_end.group(1) or named_end.group(2))))
    if before := _END_OF_THE_CHAPTER_BEFORE.search(text):
        return ChapterEnd(step=-2 if before.group(1) else -1)
    if _BACK_TO_A_CHAPTER_END.search(text):
        return ChapterEnd(step=-1)
    if _CHAPTER_END.search(text):
        return ChapterEnd()
    if _NEXT_CHAPTER.search(text):
        return NextChapter(step=1)
    if CHAPTER_BEFORE_LAST.search(text):
        return NextChapter(step=-2)
    if _PREVIOUS_CHAPTER.search(text):
        return NextChapter(step=-1)
    return None


_ASKED_OF_THE_STORY = re.compile(
    r"^where(?: in [\w ]+?)? (?:did|does|do|has|had|will|would|could|can) "
    r"(?!(?:i|we|you|it|chapter|part|the (?:chapter|part|book|story))\b)"
)
"""A "where" question of someone in the story ("where did she hide the key in chapter 2"): it asks, and
moves nothing. One of the listener, the chapter or the book asks for a place ("where does chapter 2
start", "where did i stop in chapter 2")."""


def chapter_named(text: str) -> Chapter | ChapterTitled | None:
    """A chapter named by its number or its title; none in a question ("who died in chapter 3?", "where
    did she hide the key in chapter 2?")."""
    if QUESTION_START.match(text) or _ASKED_OF_THE_STORY.match(text):
        return None
    if chapter := _CHAPTER.search(text):
        return Chapter(n=int(number_of(chapter.group(1))))
    if titled := _CHAPTER_TITLED.match(text):
        return ChapterTitled(title=titled.group("title").strip("\"'“”‘’ "))
    return None


_MORE_ALONE = re.compile(
    r"^(?:(?:ok(?:ay)?|and|just|um+|uh+|er+|now|maybe)\s+)*(?:"
    rf"another\s+(?P<amount>{AMOUNT}|{UNIT})|(?P<count>{NUMBER_SAID})\s+more\s+(?P<unit>{UNIT})s?"
    rf"|(?P<amount_first>{AMOUNT})\s+more"
    r"|(?:a\s+)?(?:(?:little|tiny|wee)\s+)?(?:(?:bit|tad|touch)\s+)?(?:more|further)"
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
    return round(amount_ms(f"one {amount}" if re.fullmatch(UNIT, amount) else amount))


def place_asked_for(text: str) -> str:
    """What a request names once its way of asking to go ("take me to", "skip to", "please") is off."""
    goto = GOTO.match(text)
    return re.sub(r"(?:,?\s+please)+$", "", text[goto.end() :] if goto else text).strip()


def moment_to_go_to(text: str, goto: re.Match[str]) -> FindPlace | Other:
    """The moment after a "go to" ("take me back to where the horse dies"), and which way it lies."""
    query = re.sub(r"(?:,?\s+please)+$", "", text[goto.end() :].strip())
    direction = _direction(goto)
    if (heard_again := AGAIN.sub("", query)) != query:  # to hear it again, it was heard
        query, direction = heard_again, direction or "back"
    return FindPlace(query=query, direction=direction) if len(query) >= 3 else Other()


def _direction(goto: re.Match[str]) -> Direction | None:
    """Which way a "go to" said it goes: "go back to", "rewind to", "replay", "skip ahead to"."""
    way = goto["way"] or goto["way_alone"]
    if goto["verb"] in {"rewind", "return", "replay"} or way == "back":
        return "back"
    return "forward" if way in {"forward", "ahead"} else None


def jump_said(text: str) -> Jump | None:
    """A jump by an amount said, the way before the amount ("back an hour and a half") or, not in
    a question, after it ("half an hour back"), or on the clock ("back 1:30")."""
    if repeated := _REPEAT_THE_LAST.match(text):
        return Jump(offset_ms=-int(amount_ms(repeated.group(1))))
    if by_clock := _JUMP_BY_CLOCK.match(text):
        way, first, second, third = by_clock.groups()
        hours, minutes, seconds = (0, first, second) if third is None else (first, second, third)
        sign = -1 if re.fullmatch(_BACK, way) else 1
        return Jump(offset_ms=sign * ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000)
    if ago := _AN_AMOUNT_AGO.match(text):
        return Jump(offset_ms=-int(amount_ms(ago.group(1))))
    text = _WAY_NOT_MEANT.sub("", text)
    said = _JUMP.search(text)
    if said is not None:
        way, amount = said.group(1, 2)
        if way == "skip" and (said_last := _WAY_SAID_LAST.match(text, said.end())):  # "skip 5 minutes back"
            way = said_last.group(1)
    elif not QUESTION_START.match(text) and (said := _JUMP_AMOUNT_FIRST.search(text)) is not None:
        amount, way = said.group(1, 2)
    else:
        return None
    sign = -1 if re.fullmatch(_BACK, way) else 1
    return Jump(offset_ms=int(sign * amount_ms(amount)))


def share_of_book(text: str) -> ShareOfBook | None:
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


def into_chapter(text: str) -> IntoChapter | None:
    said = _INTO_CHAPTER.match(text)
    if said is None:
        return None
    chapter = said["chapter"] or said["chapter_first"]
    into_ms = amount_ms(said["amount"] or said["amount_after"])
    return IntoChapter(round(into_ms), int(number_of(chapter)) if chapter else None)


def spoken_clock(text: str) -> ClockTime | None:
    """A place on the clock said in words, with a verb or alone."""
    said = _SPOKEN_CLOCK.match(text) or _CLOCK_PLACE_ALONE.match(text)
    if said is None:
        return None
    if amount := said.groupdict().get("amount"):
        return ClockTime(position_ms=round(amount_ms(amount)))
    hours, minutes, minutes_alone, minute_named = (
        number_of(part) if part else 0 for part in said.groups()[:4]
    )
    return ClockTime(position_ms=round((hours * 60 + (minutes or minutes_alone or minute_named)) * 60_000))


def missed_stretch(text: str) -> Jump | None:
    """'I missed the last few minutes': back over them, as "I missed that" goes back over the last
    words (a recap is asked for: "what did I miss?")."""
    missed = _MISSED_STRETCH.match(text)
    if missed is None:
        return None
    said = missed.group(1)
    amount = said_amount_ms(said) or said_amount_ms(f"a {said}") or said_amount_ms(f"one {said}")
    return Jump(offset_ms=-int(amount)) if amount else None


def chapters_counted(text: str) -> NextChapter | None:
    said = _CHAPTERS_COUNTED.match(text)
    if said is None or (count := int(number_of(said.group(3)))) <= 0:
        return None
    way = said.group(4) or said.group(2) or said.group(1)  # "skip back 2 chapters": the later word says
    if way is None:  # "go 2 chapters": no way said
        return None
    return NextChapter(step=-count if re.fullmatch(_BACK, way) else count)


def unit_for_number_alone(number: float) -> SaidUnit:
    """The unit of a move said with a number and no unit ("back 5", "skip forward 20").

    Under ten it is minutes: a few seconds is less than a sentence, not worth asking for aloud, and at
    2am "back 5" means the minutes missed. From ten it is seconds: the steps a player's skip buttons
    take (10, 15, 30, 45 s), which is how "rewind 10" and "skip forward 30" are meant. Either may be
    wrong, so the reply says the unit taken (``speech.for_number_alone``), and undo puts it back.
    """
    return "minute" if number < SECONDS_FROM else "second"


def jump_by_number_alone(text: str) -> Jump | None:
    """A move by a number said without a unit, in the unit ``unit_for_number_alone`` takes."""
    said = _NUMBER_ALONE_JUMP.match(text)
    if said is None:
        return None
    way, said_number = said.group(1, 2)
    number = number_of(said_number)
    if number <= 0:  # "back 0" moves nowhere
        return None
    if said["x"] and (number < 2 or number != int(number)):  # "go back 1x", "back 1.5x": a speed
        return None
    sign = -1 if re.fullmatch(_BACK, way) else 1
    unit = unit_for_number_alone(number)
    return Jump(offset_ms=int(sign * number * UNIT_MS[unit]), unit_taken=unit)


def start_again(text: str) -> StartAgain | ThisChapterStart | BookStart | None:
    """Starting again: the chapter's start when the chapter is named, the book's when the book is (or
    "the beginning", which alone has always meant the book's), else ``StartAgain``."""
    if not _START_AGAIN.match(text):
        return None
    if _NAMES_CHAPTER.search(text):
        return ThisChapterStart()
    if (_NAMES_BOOK.search(text) or _BOOK_START.search(text)) and not THIS_STORY.search(text):
        return BookStart()
    return StartAgain()


THIS_STORY = re.compile(r"\bthis story\b")
"""In a book of stories "this story" is the one playing, a chapter; in a novel, the book: taken as the
chapter's start, as "start over" is, and the reply says how to start the book instead."""


def read_earlier(text: str) -> Earlier | EarlierAgain | None:
    """A request for a place from the listener's history, read before undo ("where I was before...")."""
    if _TIME_BEFORE.search(text):
        return EarlierAgain()
    asking = bool(QUESTION_START.match(text) or ASKING_WHEN.match(text)) and not GOTO.match(text)
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
