"""The sleep timer and a pause, as said: minutes, a chapter's end, minutes more, a timer started again."""

import re

from bedside_guard import OPENING_CHAPTER

from bedside_turn.domain.intents.kinds import CancelSleepTimer, Pause, SleepTimer, TimerAdded, TimerAgain
from bedside_turn.domain.intents.wording import (
    AMOUNT,
    ASKING_WHEN,
    BARE_NUMBER_SAID,
    NUMBER,
    NUMBER_SAID,
    QUESTION_START,
    REFUSING,
    UNIT,
    amount_ms,
    normalise,
    number_of,
)

_ENDING_THE_TIMER = (
    r"\b(?:(?:cancel|stop|clear|remove|disable|kill|delete|forget|scrap|undo|get rid of"
    r"|(?:turn|switch) off)\s+"
    r"(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\b"
    r"|(?:turn|switch)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\s+off\b)"
)
_CANCEL_TIMER = re.compile(
    _ENDING_THE_TIMER + r"|^(?:the\s+)?(?:sleep\s+)?timer\s+off\b"
    r"|^(?:no|never mind the) (?:sleep )?timer\b|\bdon'?t stop\b(?!\s+(?:the |my |that )?(?:sleep )?timer)"
    r"|\bkeep (?:playing|going) tonight\b"
    r"|^don'?t (?:turn|switch) (?:it |the book )?off(?: please)?$"
    r"|^i don'?t (?:want|need) (?:a|the|any) (?:sleep )?timer\b"
)
_KEEPING_THE_TIMER = re.compile(
    rf"\b(?:{REFUSING}|didn'?t|did not|not|never)\b(?:\s+(?!and\b|but\b)\w+){{0,3}}?\s*"
    + _ENDING_THE_TIMER
    + r"|\bdon'?t stop (?:the |my |that )?(?:sleep )?timer\b"
)
"""The timer asked to be kept ("don't cancel the timer", "I don't want to cancel the timer")."""
STOPPING = (
    r"\b(?:sleep|fall asleep|stop|pause|end|finish|turn (?:it |this |the book )?off"
    r"|switch (?:it |this |the book )?off|shut (?:it )?(?:off|down)|timer)\b"
)
"""A word of stopping the book, without which a time or a chapter's end is not a timer."""
_IT_ENDS = r"(?:when|once|after)\s+it(?:'?s|\s+is|\s+has)?\s+(?:ends?|over|finished|finishes|done|through)"
"""The chapter's end said of "it", as a recogniser writes it too ("when its over")."""
_TIMER_CHAPTER_END = re.compile(
    STOPPING
    + r".*\b(?:(?:at\s+)?(?:the\s+)?end\s+of\s+(?:(?:this|the|the current)\s+chapter|chapter$|this one|it$)"
    r"|at\s+the\s+next\s+chapter(?:\s+break)?$"
    r"|(?:after|when|once)\s+(?:this|the|the current)\s+chapter(?:\s+(?:ends|is over|finishes))?"
    rf"|{_IT_ENDS}(?:\s+please)?$"
    r"|(?:(?:after|when|once)\s+(?:this|the current)\s+story(?:\s+(?:ends|is over|finishes))?"
    r"|at\s+the\s+end\s+of\s+(?:this|the current)\s+story)(?:\s+(?:please|tonight))?$"
    r"|(?:at\s+)?(?:this|the)\s+chapter'?s\s+end|(?:at\s+)?(?:the\s+)?chapter\s+end)\b"
    # "stop at the end", half asleep, is this chapter's end: never a move to the end of the book
    r"|" + STOPPING + r".*\bat\s+the\s+end(?:,?\s+(?:please|tonight))?$"
    r"|^(?:an?\s+|the\s+)?end[\s-]of[\s-](?:the[\s-])?chapter\s+(?:sleep\s+)?timer(?: please)?$"
    r"|" + STOPPING + r"\s+(?:after|when|once)\s+chapter$"
)
STOP_WHEN_THE_CHAPTER_ENDS = re.compile(
    rf"^(?:when (?:this|the) chapter (?:ends|is over|finishes)|{_IT_ENDS}"
    r"|(?:at )?(?:the )?end of (?:(?:this|the) )?chapter),?"
    r" (?:then )?(?:stop|pause|sleep|turn (?:it )?off|off)(?: please)?$"
)
"""The chapter's end said first ("when this chapter ends, stop"), which no stopping word starts."""
_TIMER_COUNTED_CHAPTER_END = re.compile(
    STOPPING + r".*\b(?:(?:at\s+)?the\s+end\s+of\s+the\s+next\s+chapter"
    r"|(?:after|when)\s+the\s+next\s+chapter(?:\s+(?:ends|is over|finishes))?"
    rf"|(?:after|in)\s+({NUMBER_SAID})\s+more\s+chapters?|(?:after|in)\s+({NUMBER_SAID})\s+chapters?)\b"
    r"|^(?:just\s+)?(?:play|read|keep (?:going|playing|reading)|go on|carry on)\s+(?:(?:un)?till?|to)\s+"
    r"the\s+end\s+of\s+the\s+next\s+chapter(?:,?\s+please)?$"
)
"""The end of a chapter counted from the one playing, as a timer: read before "the next chapter", a move."""
GO_QUIET = (
    r"(?:stop(?: playing| reading)?|sleep|pause|off|(?:turn|switch) (?:it )?off|go quiet"
    r"|(?:go )?(?:off )?to (?:sleep|bed)|bed|i(?:'ll| will|'m going to) (?:go to |get some )?(?:sleep|bed))"
)
ASKING = (
    r"(?:(?:ok(?:ay)?|so|just|please|(?:can|could|would|will) you|let me|let's|i'll|i will"
    r"|i (?:just )?want to|i'd like to|i wanna)\s+)*"
)
"""What a request may open with that asks nothing of itself ("can you", "I just want to")."""
_PLAY_TO_THE_CHAPTER_END = re.compile(
    rf"^{ASKING}(?:"
    r"(?:only\s+)?(?:(?:play|read)(?: on)?|read me|keep (?:going|playing|reading|listening)|go on|carry on)"
    r"\s+"
    r"(?:(?:un)?till?|(?:up )?to|up till)\s+"
    r"(?:(?:the\s+)?end\s+of\s+(?:(?:this|the|the current)\s+)?chapter"
    r"|(?:this|the)\s+chapter\s+(?:ends|is over|finishes)|(?:this|the)\s+chapter'?s\s+(?:done|over|finished))"
    rf"(?:,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET})?"
    rf"|(?:finish(?:\s+(?:up|off))?|play|read)\s+(?:(?:this|the)\s+)?chapter,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET}"
    r"|(?:let (?:it|the book|the story) )?finish(?:\s+(?:up|off))?\s+(?:this|the)\s+chapter"
    rf"|let (?:this|the) chapter (?:finish|play out|end)(?:,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET})?"
    rf"|let (?:it|the book|the story) finish\s+(?:this|the)\s+chapter,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET}"
    rf"|(?:(?:un)?till?|off at)\s+(?:the\s+)?end\s+of\s+(?:(?:this|the|the current)\s+)?chapter"
    rf"(?:,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET})?"
    rf"|(?:just )?(?:this|the) chapter,?\s+(?:and\s+)?then\s+{GO_QUIET}"
    r"|(?:play|read(?: me)?|keep (?:going|playing|reading|listening)|go on|carry on)"
    rf"\s+(?:(?:un)?till?|(?:up )?to)\s+the\s+end(?:\s+of\s+it)?,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET}"
    r"|(?:just|only) (?:this|the) (?:one )?chapter(?: tonight)?"
    r")(?:,?\s+please)?$"
)
"""Playing on to the chapter's end and no further, said without a word of stopping ("play until the end
of the chapter", "just finish this chapter"): the timer, where "the end of the chapter" alone is a move."""


def plays_to_the_chapter_end(text: str) -> bool:
    """Whether all that is said is to play to the chapter's end ("play until the end then stop"): one
    timer, whose "then stop" is no second request."""
    return _PLAY_TO_THE_CHAPTER_END.match(text) is not None


_LISTENING_THROUGH = (
    r"(?:play|read(?: me)?|keep (?:going|playing|reading|listening)|go on|carry on|listen)\s+(?:on\s+)?"
)
_UP_TO = r"(?:(?:un)?till?|up to|up till)"
_A_NAMED_CHAPTER_LISTENED_TO = re.compile(
    rf"^{ASKING}(?:"
    rf"finish(?:\s+(?:off|up))?\s+chapter\s+(?P<finished>{NUMBER_SAID})"
    rf"|{_LISTENING_THROUGH}(?:{_UP_TO}|to)\s+(?:the\s+)?end\s+of\s+chapter\s+(?P<ended>{NUMBER_SAID})"
    rf"|{_LISTENING_THROUGH}{_UP_TO}\s+chapter\s+(?P<reached>{NUMBER_SAID})(?:\s+(?:starts|begins))?"
    r"|finish(?:\s+(?:off|up))?\s+(?P<next>the\s+next\s+chapter)"
    rf")(?:,?\s+(?:and\s+)?(?:then\s+)?{GO_QUIET})?(?:,?\s+please)?$"
)
"""A chapter named, or the next, listened to its end ("finish chapter 3", "play until chapter 4"):
the timer, where "chapter 3" or "the end of chapter 3" alone is a move there."""
_CHAPTERS_MORE = re.compile(
    rf"^(?:(?:ok(?:ay)?|just|play|read|give me)\s+)*({NUMBER_SAID})\s+more\s+(?:chapters?|stories|story)"
    r"(?:,?\s+(?:and\s+)?(?:then\s+)?(?:stop|sleep|bed|pause))?(?:,?\s+please)?$"
)
"""Half asleep, chapters more ("just one more chapter"): the timer at the end of the chapter that many on."""
_TIMER_NAMED_CHAPTER_END = re.compile(
    STOPPING + rf".*\b(?:(?:at\s+)?(?:the\s+)?end\s+of\s+chapter\s+{NUMBER}"
    rf"|(?:after|when)\s+chapter\s+{NUMBER}(?!\s+(?:starts|begins))(?:\s+(?:ends|is over|finishes))?)\b"
    rf"|{STOPPING}.*\b(?:at|when (?:it )?(?:gets to|reaches))\s+"
    rf"(?:the\s+(?:start|beginning)\s+of\s+)?chapter\s+{NUMBER}$"
    rf"|{STOPPING}.*\bwhen\s+chapter\s+{NUMBER}\s+(?:starts|begins)$"
)
"""The end of a chapter named, as a timer: read before the chapter playing's end and before a move
to that chapter's end ("take me to the end of chapter 3" has no word of stopping). "Stop at chapter
11" stops as chapter 11 begins: at the end of chapter 10 (it moved the book to chapter 11)."""
_TIMER_MINUTES = re.compile(
    STOPPING + rf".*?\b(?:in|after|for)\s+(?:another\s+|about\s+|like\s+|around\s+)?({AMOUNT})"
    rf"|\b({AMOUNT}|{NUMBER_SAID}[\s-]{UNIT})s?\s+(?:of\s+)?(?:sleep\s+)?timer\b"
    r"|^(?:(?:(?:set|change|make) )?(?:a |the )?(?:sleep |fall asleep )?timer (?:of |for |to )?"
    r"|sleep (?:mode )?|make it )"
    rf"({AMOUNT})(?: instead)?(?:\s+please)?$"
)
_MORE_SAID = r"\b(?:more|another|extra|longer)\b"
"""Words that ask for listening on top of what the running timer has left."""
_TIMER_MORE = re.compile(
    rf"^(?=.*{_MORE_SAID})"
    r"(?:(?:ok(?:ay)?|just|give me|let me have|(?:can|could) i (?:have|get)|another|an extra)\s+)*"
    rf"(?:({NUMBER_SAID})\s+more\s+({UNIT})s?|({AMOUNT}))(?:\s+more)?"
    r"(?:\s+(?:and |then |and then )?(?:stop|pause|turn (?:it )?off))?(?:\s+please)?$"
)
"""Half asleep, a little longer: "ten more minutes", "give me 5 more minutes please", "another half
hour then stop". More is on top of a running timer (``TimerAdded``), never a stop sooner than it; with
none running, a timer of that many minutes."""
_THEN_STOP = (
    r"(?:,?\s+(?:(?:and |then |and then )?(?:stop|sleep|pause|(?:turn|switch|shut) (?:it )?off)"
    r"|(?:and |then |and then )off))"
)
_LISTENING_ON = (
    r"(?:(?:keep|go on|carry on) (?:playing|reading|going)|(?:play|read)(?: on)?"
    r"|let (?:it|me|the book) (?:play|read|listen)(?: on)?|i(?:'ll| will) listen)"
)
_TIMER_LISTENING_FOR = re.compile(
    rf"^(?:(?:ok(?:ay)?|just|please)\s+)*(?:{_LISTENING_ON}\s+(?:for\s+)?|give (?:me|it)\s+|only\s+|just\s+)"
    rf"(?:another\s+|an extra\s+)?"
    rf"(?:(?P<amount>{AMOUNT})|(?P<count>{NUMBER_SAID})\s+more\s+(?P<unit>{UNIT})s?)"
    rf"(?:\s+(?:more|longer))?(?:\s+tonight)?{_THEN_STOP}?(?:\s+please)?$"
    rf"|^(?P<amount_alone>{AMOUNT}){_THEN_STOP}(?:\s+please)?$"
)
"""How long to keep listening, with no word of a timer: "give me twenty minutes", "play for half an
hour", "only ten minutes tonight", "ten minutes and then sleep"."""
_ON_THE_TIMER = r"\s+(?:to|on|onto)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer"
_ADDED_AMOUNT = (
    rf"(?:(?:another|an extra)\s+({UNIT})\b"
    rf"|(?:another\s+|an extra\s+)?({AMOUNT}|{NUMBER_SAID}\s+more\s+{UNIT}s?)(?:\s+more)?)"
)
"""What is put on a timer: an amount, or a unit alone after "another" or "an extra" ("an extra hour")."""
_TIMER_ADDED = re.compile(
    rf"\b(?:add|put on|put)\s+{_ADDED_AMOUNT}(?:{_ON_THE_TIMER}\b|(?:\s+please)?$)"
    rf"|\b(?:extend|lengthen)\s+(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer\s+(?:(?:by|for)\s+)?{_ADDED_AMOUNT}"
    rf"|^make it (?:another|an extra)\s+({AMOUNT})(?:\s+please)?$"
    rf"|^(?:(?:can|could) you )?(?:make|set) (?:the |my )?(?:sleep )?timer longer by ({AMOUNT})"
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
    rf"^(?:add|put on) (?:another|an extra) ({BARE_NUMBER_SAID})(?: more)?(?:{_ON_THE_TIMER})?(?: please)?$"
    rf"|^extend (?:it |the (?:sleep )?timer )?by ({BARE_NUMBER_SAID})(?: please)?$"
    rf"|^(?:(?:add|put)\s+)?(?:another\s+|an extra\s+)?({BARE_NUMBER_SAID})(?:\s+more)?{_ON_THE_TIMER}"
    r"(?: please)?$"
)
"""Minutes put on the timer said as a number alone ("add another 10", "extend the timer by 15", "10 more
on the timer")."""
_THE_TIMER = r"(?:the\s+|my\s+|that\s+)?(?:sleep\s+)?timer"
_TAKEN_OFF = rf"(?:{AMOUNT}|{BARE_NUMBER_SAID})"
_TIMER_SHORTENED = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:"
    rf"(?:shorten|cut|reduce|trim)\s+{_THE_TIMER}\s+by\s+(?P<by>{_TAKEN_OFF})"
    rf"|(?:take|knock)\s+(?P<off>{_TAKEN_OFF})\s+off\s+{_THE_TIMER}"
    rf"|(?:make|set)\s+{_THE_TIMER}\s+(?:(?P<shorter>{AMOUNT})\s+shorter|shorter\s+by\s+(?P<shorter_by>{AMOUNT}))"
    r")(?:\s+please)?$"
)
"""Minutes taken off the running timer ("shorten the timer by five minutes", "take 10 off the timer"):
``TimerAdded`` of fewer; a number alone is minutes."""
_SLEEPY_OPENER = r"^(?:(?:actually|uh|um|er|oh|no|ok(?:ay)?|sorry)\s+)*"
_MINUTES_ALONE = rf"(?!(?:one|1)\b)(?!\d+\.){BARE_NUMBER_SAID}"
"""A number said alone as the minutes of a timer: not "one" ("another one" is another place, not a
minute) nor a fraction."""
_TIMER_MADE = re.compile(
    rf"{_SLEEPY_OPENER}(?:make|change|set) (?:it|that)(?: to| for)? (?:({AMOUNT})|({_MINUTES_ALONE}))"
    r"(?:\s+instead)?(?:\s+please)?$"
)
"""The timer just set changed ("make it ten", "set it to ten minutes instead"): a number alone is minutes."""
_TIMER_ADDED_SHORT = re.compile(
    rf"{_SLEEPY_OPENER}(?:add|plus|another) (?:({AMOUNT})|({_MINUTES_ALONE}))(?:\s+more)?(?:\s+please)?$"
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
    STOPPING
    + rf".*?\b(?:in|after|for)\s+(?:another\s+|about\s+)?({BARE_NUMBER_SAID})(?:\s+more)?(?:\s+please)?$"
    rf"|\btimer\s+(?:(?:to|on)\s+)?({BARE_NUMBER_SAID})(?:\s+please)?$"
    rf"|^(?:set (?:the |my )?)?sleep\s+(?:to\s+)?({BARE_NUMBER_SAID})$"
    rf"|^(?:let (?:it|me|the book) )?(?:play|read|listen)(?: on)? for (?:about )?"
    rf"({BARE_NUMBER_SAID}){_THEN_STOP}(?:\s+please)?$"
)
_MORE_LISTENING_FOR_A_NUMBER = re.compile(
    rf"^(?:let (?:it|me|the book) )?(?:play|read|listen)(?: on)? for (?:another ({BARE_NUMBER_SAID})"
    rf"|({BARE_NUMBER_SAID}) more){_THEN_STOP}(?:\s+please)?$"
)
"""More listening by a number alone ("read for another 10 then stop"): more on the timer, as with a unit."""
"""A number said alone after the words of a timer ("sleep in 20", "timer for 20", "timer 45"): minutes,
the unit a sleep timer is set in. Read to the end, so a number with a unit or a chapter is not one."""
_BACK_SOON = (
    r"(?:(?:i'll |ill |i will )?be (?:right )?back|back)"
    rf" in (?:a (?:sec|second|moment|minute|bit|mo|tick)|a few minutes|{AMOUNT}|{BARE_NUMBER_SAID})"
    r"|(?:i'll |ill |i will )?be (?:right )?back|brb"
)
"""Gone for a moment: "back in ten minutes" is a pause, never a move back."""
_WHY_STOPPING = (
    rf"(?:,?\s+(?:{_BACK_SOON})$"
    r"|,?\s+(?:i'?m (?:just )?(?:\w+ing|off)\b|because\b|cause\b|'cause\b"
    r"|i(?:'ve)? (?:got|have|gotta|need) (?:to|the|a)\b|(?:i )?gotta\b|(?:someone|somebody)(?:'s| is)?"
    r"|there'?s someone|(?:the|my) (?:phone|door|doorbell|baby|kids?|dog|alarm|kettle)\b)"
    r"(?!.*\b(?:timer|sleep (?:in|after|for)|chapter|(?:go|skip|jump|move) (?:back|forward|ahead)|rewind"
    rf"|(?:back|forward|ahead) (?:by )?{AMOUNT}|again|ask|question|who|what|where|when|why|how|tell)\b).*)"
)
"""Why the book is stopped, said straight after ("pause im getting water"), when it asks nothing more:
"pause, I need to go back ten minutes" asks for the move."""
_PAUSE = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:pause|stop|hold on|hold it|stop playing|stop reading|stop the book|pause the book|stop it|pause it"
    r"|(?:pause|stop|be quiet)(?: it| the book| playing| reading)? for"
    rf" (?:now|tonight|a (?:bit|moment|sec|while)|{AMOUNT})"
    rf"|{_BACK_SOON}"
    r"|turn (?:it |this |the book )?off|switch (?:it |this |the book )?off|shut up|be quiet|quiet|shh+|hush"
    r"|shush|off|done for (?:tonight|now|the night)|go (?:quiet|(?:back )?to (?:sleep|bed))(?: now)?"
    r"|wait|hang on|hold on|let's stop(?: here| there)?|(?:i think )?i'll stop(?: here| there)?"
    r"|(?:just |give me )?(?:one|a) (?:sec|second|moment|minute)|enough"
    r"|(?:stop|pause) (?:the|my) (?:speaker|phone|tablet|laptop)"
    r"|(?:stop|pause) (?:the|my|this) (?:story|audiobook|audio|recording|narration|reading)"
    r"|(?:pause|stop)(?: (?:pause|stop))+|(?:hit|press|push) (?:pause|stop)"
    r"|(?:stop|pause) (?:on )?(?:all|every) devices?|(?:stop|pause) everywhere"
    r"|(?:(?:that's|thats|that is|i've had) enough|that'll do|that will do)"
    r"(?: (?:for )?(?:tonight|today|now))?)"
    r"(?:\s+(?:now|please|it|the book|for now|for tonight|there|that|a (?:sec|second|moment|minute|bit)))*"
    rf"(?P<why>{_WHY_STOPPING})?$"
)


_STAYING = re.compile(
    r"\bi'?m (?:just |so |really )?(?:(?:getting|going|feeling) )?"
    r"(?:tired|sleepy|drowsy|to sleep|to bed|asleep|falling|dozing|nodding|drifting|loving|enjoying|liking"
    r"|listening(?! to))\b"
)
"""Words of a listener who stays in bed with the book: sleepy, or liking it. Said with a timer, the
timer is what they ask for, and the book plays on to it."""


def pause_asked_for(text: str) -> bool:
    """A pause said with why the book is stopped ("pause, I'm getting water") or for now ("pause now"): a
    pause asked for, never the stop of a timer said after it, which a pause said alone before a comma
    may be ("stop, sleep in 20" is the timer; so is "stop, I'm falling asleep, sleep in 20")."""
    said = _PAUSE.match(normalise(text))
    if said is None:
        return False
    going_away = said["why"] is not None and _STAYING.search(said["why"]) is None
    return going_away or re.search(r"\bnow\b", said[0]) is not None


def staying_in_bed(text: str) -> bool:
    """A stop said with words of staying ("stop, I'm falling asleep"): with a timer after it, the timer
    alone is asked for."""
    said = _PAUSE.match(normalise(text))
    return said is not None and said["why"] is not None and _STAYING.search(said["why"]) is not None


def _ending_as_it_begins(chapter: int) -> int:
    """The chapter at whose end a stop "at chapter ``chapter``" or "until chapter ``chapter``" is: the one
    before it (before chapter 1, the opening, which a book may not have: then the player refuses it)."""
    return max(OPENING_CHAPTER, chapter - 1)


def _timer_at_the_end_listened_to(listened: re.Match[str]) -> SleepTimer:
    if listened["next"]:
        return SleepTimer(after="chapter_end", chapter_step=1)
    if listened["reached"]:  # stopped as that chapter begins: at the end of the one before it
        reached = int(number_of(listened["reached"]))
        return SleepTimer(after="chapter_end", chapter=_ending_as_it_begins(reached))
    return SleepTimer(after="chapter_end", chapter=int(number_of(listened["finished"] or listened["ended"])))


def read_playback(text: str) -> SleepTimer | TimerAdded | TimerAgain | CancelSleepTimer | Pause | None:
    """A sleep timer, its cancelling or a pause; never from a question ("when will it stop?")."""
    if QUESTION_START.match(text) or ASKING_WHEN.match(text):
        return None
    if _CANCEL_TIMER.search(text) and not _KEEPING_THE_TIMER.search(text):
        return CancelSleepTimer()
    if _TIMER_AGAIN.match(text):
        return TimerAgain()
    if made := _TIMER_MADE.match(text):
        return SleepTimer(after=_minutes_said(made))
    if shortened := _TIMER_SHORTENED.match(text):
        said = next(group for group in shortened.groups() if group)
        taken = amount_ms(said) / 60_000 if re.search(UNIT, said) else number_of(said)
        return TimerAdded(minutes=-max(1, round(taken)))
    if added := _TIMER_ADDED_SHORT.match(text):
        return TimerAdded(minutes=_minutes_said(added))
    if added := _TIMER_ADDED_BARE.match(text):
        said = next(group for group in added.groups() if group)
        return TimerAdded(minutes=max(1, round(number_of(said))))
    if added := _TIMER_ADDED.search(text):
        said = next(group for group in added.groups() if group).replace(" more ", " ")
        said = f"one {said}" if re.fullmatch(UNIT, said) else said
        return TimerAdded(minutes=max(1, round(amount_ms(said) / 60_000)))
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
        ending, reaching = named.group(1) or named.group(2), named.group(3) or named.group(4)
        # stopped as chapter n begins: at the end of the one before it
        chapter = int(number_of(ending)) if ending else _ending_as_it_begins(int(number_of(reaching)))
        return SleepTimer(after="chapter_end", chapter=chapter)
    if (
        _TIMER_CHAPTER_END.search(text)
        or _PLAY_TO_THE_CHAPTER_END.match(text)
        or STOP_WHEN_THE_CHAPTER_ENDS.match(text)
    ):
        return SleepTimer(after="chapter_end")
    if timer := _TIMER_MINUTES.search(text):
        said = timer.group(1) or timer.group(2) or timer.group(3)
        return SleepTimer(after=max(1, round(amount_ms(said) / 60_000)))
    if more := _TIMER_MORE.match(text):
        said = more.group(3) or f"{more.group(1)} {more.group(2)}"
        return TimerAdded(minutes=max(1, round(amount_ms(said) / 60_000)))
    if listening := _TIMER_LISTENING_FOR.match(text):
        said = listening["amount"] or listening["amount_alone"] or f"{listening['count']} {listening['unit']}"
        minutes = max(1, round(amount_ms(said) / 60_000))
        return TimerAdded(minutes) if re.search(_MORE_SAID, listening[0]) else SleepTimer(after=minutes)
    if more := _MORE_LISTENING_FOR_A_NUMBER.match(text):
        return TimerAdded(minutes=max(1, round(number_of(more.group(1) or more.group(2)))))
    if bare := _TIMER_BARE_MINUTES.search(text):
        return SleepTimer(after=max(1, round(number_of(next(said for said in bare.groups() if said)))))
    return None


def _minutes_said(said: re.Match[str]) -> int:
    """The whole minutes of an amount said (group 1) or of a number said alone (group 2)."""
    amount, number = said.groups()
    return max(1, round(amount_ms(amount) / 60_000 if amount else number_of(number)))


_LENGTH_ALONE = re.compile(
    r"^(?:(?:ok(?:ay)?|oh|just|about|around|maybe|say|for|in|after)\s+)*"
    r"(?:(?:at|to|till|until)\s+(?=(?:the\s+)?end\b))?"  # only before an end: "at 11" is a time of day
    rf"(?P<length>{AMOUNT}|{BARE_NUMBER_SAID}|{NUMBER_SAID}\s+(?:more\s+)?chapters?"
    rf"|(?:the\s+)?end\s+of\s+(?:(?:the|this)\s+)?(?:next\s+)?chapter(?:\s+{NUMBER_SAID})?|(?:the\s+)?end)"
    r"(?:\s+(?:please|thanks|thank you))?$"
)
"""A length of listening and nothing more: "20 minutes", "20", "the end of the chapter"."""


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
