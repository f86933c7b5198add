"""What is asked of the book, of the place, of the timer or of the listener's own night, and the
words that ask nothing: courtesies, asides, things not of the book."""

import re

from bedside_turn.domain.intents.kinds import (
    AboutTheBook,
    BookFact,
    CancelThat,
    ChapterSaid,
    ChapterTitleAsked,
    ClearList,
    Courtesy,
    CourtesySaid,
    GoThere,
    HeardBefore,
    Help,
    LengthOf,
    ListeningAbout,
    MoreOfThat,
    NamesHeard,
    PlayingAsked,
    SpoilerAsked,
    SyncAsked,
    TimeLeft,
    WhereAmI,
)
from bedside_turn.domain.intents.moves import ASKED_FOR, GOTO, HEARD_THIS
from bedside_turn.domain.intents.timers import STOPPING
from bedside_turn.domain.intents.wording import AMOUNT, NUMBER_SAID, normalise, number_of
from bedside_turn.domain.recap import MISSED

SKIP_THIS_BIT = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?skip(?: over| past)? (?:this|that|the)"
    r" (?:boring )?(?:bit|part)(?: please)?$"
    r"|^(?:can we |can you |let's )?(?:skip (?:this|that)|move on)(?: please)?$"
    r"|^(?:this|this bit|this part)(?: is|'s) (?:so |really |very |a bit )?(?:boring|dull)$"
    r"|^skip(?: ahead| forward| on)? i(?: know|'ve heard| heard| remember) (?:this|that)"
    r"(?: bit| part)?(?: already)?$"
)
""""Skip this bit": the page's step forward, not a search of the book for "this bit"."""
SKIP_OPENING = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:skip|skip past|skip over|go past|get past|jump past)"
    r"(?: the| this)? (?:intro|introduction|opening|opening credits|credits|preface|foreword|prologue"
    r"|front matter)(?: please)?$"
)
_JUST_HEARD = r"(?:that|the) last (?:bit|line|sentence|part|few seconds)"
MISSED_JUST_NOW = rf"{MISSED} (?:(?:that|it|this)(?: bit| part| line)?|the end of (?:that|it)|{_JUST_HEARD})"
"""The words just heard said to be missed ("I missed that bit", "I didn't catch the last line")."""
_POLITELY = rf"^{ASKED_FOR}(?:go back and\s+)?"
PLAY_THAT_AGAIN = re.compile(
    rf"{_POLITELY}(?:play|read|run|hear|listen to)(?: me)? (?:that|it|this)(?: bit| part| line| sentence)?"
    r" (?:back|again|over|once more)(?: please)?$"
    rf"|{_POLITELY}replay(?: that| it| this)?(?: please)?$"
    rf"|{_POLITELY}(?:play|replay|read|say|repeat|hear|listen to)(?: me)? {_JUST_HEARD}"
    r"(?: back| again| over)?(?: please)?$"
    rf"|^{MISSED_JUST_NOW}$"
    r"|^run (?:that|it) (?:by|past) me again$"
    rf"|{_POLITELY}repeat(?: that| it| this| {_JUST_HEARD})?(?: again)?(?: please)?$"
    rf"|{_POLITELY}(?:(?:go|take me|skip|jump) )?back to the (?:start|beginning) of (?:the|that|this)"
    r" (?:sentence|line|paragraph|bit)(?: please)?$"
)
""""Play that again", "I missed that": the words just heard once more, so back the page's own step
(not a search of the book for "again", nor a recap read out in place of the narrator's voice)."""
CLOCK = re.compile(r"\b(?:to|at|from)\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\b")
_OOPS = r"(?:oops|whoops|woops|oopsie|whoopsie|oopsy)"
UNDO = re.compile(
    r"\bundo\b|\b(?:go back|return) to where i was\b|\bwhere i was before\b"
    r"|^put me back (?:to )?where i was(?: listening)?$"
    r"|^(?:cancel|reverse|undo) (?:that|the last) (?:jump|move|skip)$|^reverse that$"
    r"|\bback to my (?:previous|last|old) (?:spot|place|position)\b"
    r"|\bbefore (?:that|you (?:moved|skipped|jumped))\b|\btake that back\b|\bgo back to before$"
    r"|\bback to where i was(?: before)?(?:,?\s+please)?$"
    r"|^(?:(?:oops|whoops)[\s,]+)?put (?:it|that|me|the book) back(?: (?:how|where|the way) it was)?"
    r"(?:,?\s+please)?$"
    # a correction straight after a move ("no, go back"): where they were, not the page's 30 s step
    rf"|^(?:(?:no|nope|{_OOPS})[\s,]+)*(?:no|nope|{_OOPS}"
    r"|(?:(?:that's|thats|that is) )?(?:the )?wrong(?: place| spot| bit| part)?|that's wrong"
    r"|thats wrong|that's not right|(?:that|it) (?:went|skipped|jumped|moved) (?:forward|ahead|back|too far))"
    r"[\s,]+"
    r"(?:go|take me|bring me|put me|put it) back(?:,?\s+please)?$"
    rf"|^(?:(?:no|nope|{_OOPS})[\s,]+)*(?:(?:the )?wrong way|the other way|not that (?:far|way)"
    r"|(?:(?:that's|thats|that is|you went|you've gone|it went) )?(?:way |much )?too far"
    r"(?: back| forward| ahead)?)"
    r"(?:,?\s+please)?$"
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
after "that part" it is what was just heard (``PLAY_THAT_AGAIN``). A bare "yes" is not one: said
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
THIS_CHAPTER = re.compile(
    r"\b(start|beginning)\s+of\s+(this|the|the current)\s+chapter\b(?!\s+before\b)"
    r"|\b(?:restart|replay) (this|the) chapter\b"
    r"|^(?:go to )?(?:the )?(?:start|beginning) of chapter$|^(?:restart|replay) chapter$|^chapter start$"
    r"|\bwhere (?:this|the) chapter (?:started|starts|began|begins)\b"
)
BOOK_START_ALONE = re.compile(
    r"(?:from\s+)?(?:the\s+)?(?:very\s+)?(?:start|beginning)(?:\s+of\s+(?:the|this)\s+(?:(?:audio)?book|story))?"
    r"|(?:the\s+)?(?:very\s+)?(?:first page|opening of the (?:book|story|novel))"
)
BOOK_END_ALONE = re.compile(
    r"(?:the\s+)?(?:very\s+)?end(?:\s+of\s+(?:the|this)\s+(?:(?:audio)?book|story|recording))?"
    r"|(?:the\s+)?last (?:bit|part) of the book"
)
"""The start or the end of the book as the whole of what is asked for: "near the end, the governess
finding a coil of hair" or "the end of the night ride" is a moment to find, not the book's end."""
TIME_LEFT = re.compile(
    r"\bhow (?:long|much|many minutes|many hours)(?: time)?(?: is|'s| are| have i got| do i have)?"
    r" (?:left|to go|remaining)\b(?! of\b)"
    r"|\bhow long (?:until|till|before|to) the end\b"
    r"|^how much longer(?: is (?:this|the) (?:chapter|book|story)| is (?:it|left|there))?$"
    r"|\bhow (?:much|long) of (?:the|this) (?:book|chapter|story)(?: is)? (?:left|to go|remaining)\b"
    r"|\bhow (?:much|long)(?: time)?(?: is|'s)? left (?:of|in) (?:the|this) (?:book|chapter|story)\b"
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
LENGTH_ASKED = re.compile(
    r"^how (?:long|many (?:hours|minutes)) is (?:this|the) (?:audio)?(book|chapter|story)"
    r"(?: (?:in total|altogether|overall|again))?$"
)
"""How long the chapter or the book is ("how long is this chapter?"), not something in the story."""
_LENGTH_OF = (
    r"(?:how (?:long|many (?:hours|minutes))(?P<verb>'s| is| was| does| did| will)"
    r"|what(?P<verb_of>'s| is| was) the length of)"
)
CHAPTER_LENGTH_ASKED = re.compile(
    rf"^{_LENGTH_OF} (?:(?:the )?(?:chapter|story) (?P<n>{NUMBER_SAID})"
    r"|the (?P<counted>next|following|previous|prior|preceding|last|final) (?:chapter|story))"
    r"(?: (?:last|take|run|go on)(?: for)?)?(?: (?:in total|altogether|overall|again))?$"
)
"""How long a chapter named by its number is ("how long is chapter 6?", "how long's chapter 4", "what's
the length of chapter 4", "how long does chapter 6 last"), wherever it lies, or one named by where it
lies ("how long is the next chapter?")."""
_COUNTED: dict[str, ChapterSaid] = {
    "next": "next",
    "following": "next",
    "previous": "previous",
    "prior": "previous",
    "preceding": "previous",
    "final": "final",
}


def length_asked(text: str) -> TimeLeft | None:
    """How long the chapter playing, the book or a chapter named is, asked alone. "The last chapter" is
    the book's final one asked as it is, and the one before asked as it was ("how long was the last
    chapter?"), as "what was the last chapter called?" is."""
    if length := LENGTH_ASKED.match(text):
        return TimeLeft(length_of=LENGTHS[length.group(1)])
    if not (length := CHAPTER_LENGTH_ASKED.match(text)):
        return None
    if length["n"] is not None:
        return TimeLeft(length_of="chapter", chapter=int(number_of(length["n"])))
    if length["counted"] == "last":
        past = (length["verb"] or length["verb_of"]).strip() in ("was", "did")
        return TimeLeft(length_of="chapter", chapter_said="previous" if past else "final")
    return TimeLeft(length_of="chapter", chapter_said=_COUNTED[length["counted"]])


LENGTHS: dict[str, LengthOf] = {"book": "book", "chapter": "chapter", "story": "story"}
_IN_THE_BOOK = r"(?: in (?:the|this) (?:book|story))?"
_THIS_BOOK = r"(?:this|it|the book|this book|the story|this story|the audiobook|this audiobook)"
_PREVIOUS_ONE = r"(?:last|previous|prior|preceding) (?:chapter|story)"
_CHAPTER_LIST = (
    r"(?:chapters|stories|(?:chapter|story) (?:titles|names)|(?:titles|names) of the (?:chapters|stories))"
)
_NAMED_BOOK = r"(?:this|the) (?:audio)?(?:book|story)"
_THIS_NAMED_BOOK = r"this (?:audio)?(?:book|story)"
_RECORDING = r"(?:this|the) (?:audiobook|recording)"
"""The recording named, whose narrator is its reader: the story's narrator is its teller, who in a book
told in the first person is one of its people."""
_TOLD = r"^(?:(?:can|could|would) you )?(?:please )?(?:tell|remind) me (?:again )?"
"""Asked told, in the words of a statement: "remind me what this book is", "tell me who wrote it"."""
_WHO_IS = r"who(?:'s|se| is)"
"""With the recogniser's "whose the author" for "who's"."""
_BOOK_FACTS: tuple[tuple[BookFact, re.Pattern[str]], ...] = (
    (
        "title",
        re.compile(
            rf"^what(?:'s|s| is) (?:the (?:title|name) of )?{_THIS_BOOK}(?: called)?(?: again)?$"
            r"|^(?:what|which) (?:book|story) is (?:this|it)(?: again)?$"
            r"|^what(?: (?:audio)?book| story)? am i listening to(?: again)?$"
            r"|^what(?:'s| is) the title(?: again)?$"
            r"|^(?:the )?(?:audio)?book(?:'s|s)? (?:title|name)(?: again)?$"
            rf"|^{_NAMED_BOOK} what(?:'s| is) it called(?: again)?$"
            # in the past tense a book is usually one in the story, unless it is this one or asked again
            rf"|^what was (?:{_THIS_NAMED_BOOK} called(?: again)?|{_NAMED_BOOK} called again)$"
            rf"|^(?:{_THIS_NAMED_BOOK} what was it called(?: again)?|{_NAMED_BOOK} what was it called again)$"
            # "what the story is" told asks its gist, as "what the story is about" does
            rf"|{_TOLD}(?:what (?:this|the) (?:audio)?book is(?: called)?|what {_NAMED_BOOK} is called"
            rf"|the (?:title|name) of {_THIS_BOOK})(?: again)?(?: please)?$"
        ),
    ),
    (
        "author",
        re.compile(
            rf"^who (?:wrote|is the author of|'s the author of|is the writer of) {_THIS_BOOK}(?: again)?$"
            rf"|^{_WHO_IS} the (?:author|writer)(?: again)?$|^{_WHO_IS} {_THIS_BOOK} by(?: again)?$"
            r"|^what(?:'s| is) (?:the (?:author|writer)(?:'s|s)? name|the name of the (?:author|writer))"
            r"(?: again)?$"
            rf"|{_TOLD}who (?:wrote {_THIS_BOOK}|the (?:author|writer) is)(?: again)?(?: please)?$"
        ),
    ),
    (
        "reader",
        re.compile(
            # the one reading or narrating now is the recording's: "narrates" and "the narrator" name the
            # story's teller unless the recording is named
            rf"^{_WHO_IS} (?:reading|narrating)(?: {_THIS_BOOK})?(?: again)?$"
            rf"|^who (?:reads {_THIS_BOOK}|narrates {_RECORDING})$"
            # a voice "that" or "it" may be someone's in the story; "this" is the one heard
            r"|^whose voice is this(?: again)?$"
            rf"|^{_WHO_IS} (?:the reader|the narrator of {_RECORDING})(?: again)?$"
            r"|^what(?:'s| is) the reader(?:'s|s)? name$"
            rf"|^{_WHO_IS} doing the (?:reading|narrating|narration)$"
            rf"|{_TOLD}who(?:'s| is) (?:reading|narrating)(?: {_THIS_BOOK})?(?: please)?$"
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
    rf"|^{HEARD_THIS}$"
    r"|^(?:this|that|it) (?:sounds|seems) (?:very |so |really )?familiar$"
)
_WHERE_AM_I = re.compile(
    r"^(?:where|whereabouts)(?: in the (?:book|story))? (?:am i|are we)(?: (?:now|up to|at|right now))?"
    r"(?: in (?:the|this) (?:book|story|chapter))?(?: now)?$"
    r"|^(?:which|what) part of the (?:book|story) (?:is this|am i in|are we in)$|^chapter$"
    r"|^(?:which|what) (?:part|bit|section) is this$"
    r"|^(?:tell me )?(?:what|which) chapter (?:this is|is playing|is on)(?: please)?$"
    r"|^what(?:'s| is) the chapter(?: now)?$|^what (?:part|bit|point) (?:am i|are we) (?:at|on|in|up to)$"
    r"|^what(?:'s| is) the chapter number$"
    r"|^what (?:percent|percentage) of the (?:book|story) have i (?:done|heard)$"
    r"|^(?:are we|am i) (?:near|close to) the end(?: of the (?:book|story))?$"
    # asked, not a chapter to go to: where they are answers it
    r"|^(?:are we|am i) (?:still )?in chapter [\w ]+$"
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
    r"|^what(?:'s| is) my (?:position|place|spot)(?: in the (?:book|story))?$"
    r"|^what time (?:am i|are we) (?:at|on|up to)(?: now)?$"
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
TIMER_WITHOUT_LENGTH = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:set|start|put on|turn on|(?:pop|stick|whack|chuck|bung|throw) on)\s+)?(?:(?:a|the|my)\s+)?"
    r"(?:sleep\s+)?timer(?:\s+on)?(?:\s+please)?$"
    r"|^sleep(?: mode)?(?: please)?$"
    r"|^(?:stick|whack|chuck|bung|pop) (?:a|the) (?:sleep )?timer on$"
    r"|^(?:(?:set )?(?:a |the )?(?:sleep )?timer(?: for| to| in)?|sleep in) \d{1,2}:\d\d$"
    r"|^how (?:do|can) i (?:set|start|use) (?:a |the )?(?:sleep )?timer$"
    r"|^(?:turn (?:it )?off|switch (?:it )?off|stop|sleep|go quiet)"
    r" (?:in a (?:bit|while|little while)|soon|later)"
    r"(?: please)?$"
)
TIMER_ASKED = re.compile(
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
NEXT_OR_PREVIOUS_ALONE = re.compile(
    r"^(?:(?:go|skip|jump|move|take me)(?: on| back)? to )?(?:the )?(next|previous)(?: one)?(?: please)?$"
    r"|^(?:(?:go|skip|jump|move) )?(?:one )?chapter (?:(forward|ahead|on)|back)(?: please)?$"
    r"|^(?:(?:go|skip|jump|move) )?(?:(forward|ahead|on)|back|rewind|back up) (?:a|one) (?:whole )?chapter"
    r"(?: please)?$"
)
"""A player's buttons said aloud: the next or the previous chapter."""
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


def courtesy_or_cancel(text: str) -> Courtesy | CancelThat | ClearList | None:
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
OTHER_ONE = re.compile(
    r"\b(?:the )?other one\b|\bnot (?:that|this) one\b|\bwrong (?:one|place|bit)\b"
    r"|^(?:no,?\s+)?(?:that's|thats|that is)\s+"
    r"(?:not it|wrong|not right|not what i (?:meant|wanted|asked for))$"
)
ROW_ORDINALS = {
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
ROW_NUMBERS = {
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
PRESS_LISTED = re.compile(
    r"^(?:no,?\s+)?(?:(?:i meant|i mean|go to|take me to|play|pick|choose|press|try|it's|its|it was)\s+)?"
    rf"(?:(?:the\s+)?({'|'.join(ROW_ORDINALS)})(?:\s+(?:one|place|row|option|result|choice))?"
    rf"|(?:number|option|row|place)\s+({'|'.join(ROW_NUMBERS)}))(?:,?\s+please)?$"
)
"""A row of the list by its place, said whole ("the second one", "option 3"), so that "the first
time he falls" stays a moment to find and "the second chapter" a chapter."""
HEAR = {"hear", "listen to"}
HEAR_THE_PART = re.compile(r"\b(?:hear|listen to) (?:the (?:part|bit|moment|scene) )?(?:where|when)\b")
""""Hear" or "listen to" names a moment only to hear it again or with "the part where": "I want to
hear the rest" and "listen to this" are not searches."""
WHERE_PART = re.compile(
    r"^(?:where(?:'s| is)\s+)?the\s+(?:part|bit|moment|scene)\s+(?:where|when|with|about|that)\s+"
)
MOMENT = re.compile(
    r"^(?:the|that|a|an|this|those|his|her|their|where|when)\b|^\w{2,}ing\b"
    r"|^(?:near|nearly|towards?|right at|close to|early on|late in|halfway|about halfway|at the (?:very )?end"
    r"|at the (?:very )?(?:start|beginning)|in the middle)\b"
)
"""A description of a moment ("the runaway ride", "where the tree falls", "waiting in the dark")."""
_HOUR_SAID = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
TIMER_AT_A_CLOCK_TIME = re.compile(
    STOPPING + r".*\b(?:at|by|around)\s+(?:midnight|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)"
    rf"|(?:{NUMBER_SAID})\s+o'?clock|\d{{1,2}}[:.]\d\d|half (?:past )?{_HOUR_SAID}"
    rf"|{_HOUR_SAID} (?:thirty|fifteen|forty[- ]five)|\d{{1,2}})$"
)
"""A stop at a time of day ("stop at 11pm", "at midnight"): the listener's clock is not the turn's."""
STOPS_AT_THE_END = re.compile(STOPPING + r".*\bat\s+the\s+(?:very\s+)?end\b")
"""A stop asked for at the end ("stop at the end of the book"), which is no move there."""
ON_THE_TIMER_SAID = re.compile(r"\b(?:on|onto|of|to) (?:the |my |a |that )?(?:sleep )?timer\b")
"""Minutes put on the sleep timer, which never move the book ("i'd love ten minutes on the timer")."""
PLAY_ON = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:ok(?:ay)? |go on then,? )?(?:you can )?"
    r"(?:play|resume|continue|carry on|keep (?:going|playing|reading|listening)|go on(?: then)?)"
    r"|read on|unpause|un-pause|play on|(?:press|hit|push) play|(?:turn|put|switch) it (?:back )?on|pick up"
    r"|back on|go"
    r"|(?:ok(?:ay)?,? )?(?:i'm|im|i am) back"
    r"|start (?:playing|reading)|start(?=(?:\s+(?:it|now|please))*$))"
    r"(?:\s+(?:it|the book|the story|playing|reading|again|now|please|from here|some more|a bit more|playback"
    r"|(?:from )?where (?:i|we) (?:left off|stopped|was|were|got to)))*$"
)
"""Said whole, the book to play on: "play the bit where…" and "carry on from chapter 3" are places, and
"start it again" is not here (it is a start again, ``_START_AGAIN``)."""
_CAN_YOU = r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
_TITLE = r"(?P<title>\S.*?)"
BOOKMARK = re.compile(
    _CAN_YOU + r"(?:"
    r"(?:add|set|make|put|drop|save|leave)?\s*(?:a\s+)?(?:new\s+)?bookmark"
    r"(?:\s+(?:this|that|it|here|(?:this|that) (?:bit|part|place|spot)))?(?:\s+(?:here|now))?"
    r"|(?:mark|save|remember) (?:this|my) (?:place|spot|bit|position)|remember where i (?:am|was)"
    r")(?:\s+(?:and\s+)?(?:as|called|named|titled|(?:call|name|title) it)\s+" + _TITLE + r")?(?:\s+please)?$"
)
"""A bookmark made where the book is, with the words to know it by when said ("as the storm",
"call it the storm")."""
TO_BOOKMARK = re.compile(
    _CAN_YOU + r"(?:(?:go|jump|skip|return)(?: back)? to|back to|take me(?: back)? to|play(?: from)?"
    r"|resume(?: from)?|start(?: playing)? from)"
    r" (?:(?:my |the )?bookmark (?:called|named(?! after)|titled) "
    + _TITLE
    + r"|(?:my |the )(?:last|latest|newest|most recent) bookmark|(?:my )?bookmark)(?:\s+please)?$"
)
"""One of the listener's bookmarks to go to: said "my", with a title or as the newest ("back to the
bookmark" alone may be one in the story, a moment to find)."""
BOOKMARKS_ASKED = re.compile(
    _CAN_YOU + r"(?:"
    r"(?:show|list|read|open|tell)(?: me)?(?: the| my| all my| all the)? bookmarks"
    r"|(?:(?:go|jump|skip|return)(?: back)? to|back to|take me(?: back)? to) my bookmarks"
    r"|(?:what are )?(?:my|all my) bookmarks"
    r"|where (?:is|are) my bookmarks?|what (?:is|was|'s) my (?:last|latest|newest) bookmark"
    r"|(?:what|which) bookmarks (?:do i have|have i got|are there|did i (?:make|set|add|save))"
    r"|(?:do i have|have i got|are there) any bookmarks"
    r"|how many bookmarks (?:do i have|have i got|are there|have i (?:made|set|added|saved))"
    r")(?:\s+please)?$"
)
BOOKMARK_REMOVAL = re.compile(
    _CAN_YOU + r"(?:remove|delete|erase|clear|get rid of|take away|take off) (?:(?:all )?(?:of )?"
    r"(?:my|the|this|that|a|all)\s+)?(?:(?:last|latest|newest) )?bookmarks?"
    r"(?:\s+(?:called|named(?! after)|titled)\s+\S.*|(?:\s+(?:here|now|please))*)$"
)
OTHER_BOOK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:switch|change)(?: to)? "
    r"(?:another|a different|the other|my other|the|my)?\s*(?:audio)?books?\b"
    r"|^(?:switch|change) to "
    r"(?!(?:the |a |my )?(?:chapter|next|previous|last|start|end|beginning|bit|part)\b)"
    r"|^(?:play|open|read|start) (?:another|a different|the other|my other) (?:audio)?book\b"
    r"|^(?:play|read|listen to|put on)(?: me)? something else$"
)
"""Another book by voice ("switch to Sherlock Holmes"), never "switch to chapter 3"."""
_DEVICE_KINDS = r"(?:speaker|phone|tablet|laptop|computer|ipad|kindle|echo|tv|radio|headphones)"
OTHER_DEVICE = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:play|continue|carry on|keep (?:going|playing)|resume)(?: it| this| the book)? on (?:the|my)"
    r" (?P<named>[a-z0-9_-]+(?: (?!(?:please|instead|now)\b)[a-z0-9_-]+)?)"
    r"|(?:switch|move|change|send|transfer)(?: it| this| the book| over)? (?:to|onto) (?:the|my)"
    rf" (?P<kind>(?:[a-z0-9_-]+ )?{_DEVICE_KINDS}))"
    r"(?: please| instead| now)*$"
)
"""Playing on another device ("play it on the speaker", "switch to my phone"): a switch names a kind
of device, so "switch to Sherlock Holmes" stays another book."""
VOLUME = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:(?:make it |a bit |a little )?(?:louder|quieter|softer)"
    r"|(?:turn|crank) (?:it|the (?:volume|sound|book)) (?:up|down)|(?:turn )?(?:the )?volume (?:up|down)"
    r"|(?:(?:it's|its|it is|that's|thats|that is) (?:too|very|a bit|a little)|(?:way |much |far )?too)"
    r" (?:loud|quiet|soft)"
    r"|i can'?t hear (?:it|that|you|the book|anything)"
    r"|(?:change|raise|lower) the (?:volume|sound))"
    r"(?:\s+(?:please|a bit|a little|a touch))*$"
)
_WHEN = r"(?: (?:in|at|for|after|when|by|around|before)\b(?:(?! and | then )[^,])*)?"
_REMINDED_AT = (
    rf"remind me (?:again )?(?:(?:in|after) (?:about |around )?{AMOUNT}"
    r"|at (?:\d{1,2}(?:[:.]\d\d)?(?: ?(?:am|pm|o'?clock))?|midnight|noon))"
)
"""A reminder at a time ("remind me in 10 minutes", "remind me at 7"): an alarm by another name. "Remind
me" with anything else asks of the story ("remind me who Wren is", "... what happened in the last hour")."""
WAKE_UP = re.compile(
    r"^(?:(?:can|could|would|will) you\s+)?(?:please\s+)?"
    rf"(?:wake me(?: up)?{_WHEN}|(?:set|put on|start|turn on)\s+(?:an?|my|the)\s+alarm{_WHEN}"
    rf"|alarm (?:for|at|in)\b(?:(?! and | then )[^,])*|{_REMINDED_AT})(?:,? please)?$"
)
"""An alarm asked for, the whole request ("wake me up in 10 minutes", "set an alarm for 7"), so a waking
in the story ("where does he wake up") is none, nor one said before what is asked ("wake me up, what did
I miss"): told in plain words that Bedside only stops the book, never left to a model, which may say it
set one."""
WOKEN = re.compile(r"^(?:(?:can|could|would|will) you\s+)?(?:please\s+)?wake me(?: up)?(?: please)?$")
""""Wake me up" with no time: alone an alarm asked for (``WAKE_UP``), beside another request the listener
waking ("wake me up, what did I miss")."""
NOT_OF_THE_BOOK = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:"
    r"tell me a joke|sing(?: me)?(?: a song)?|what(?:'s| is) the (?:weather|news|forecast)"
    r"(?: like)?(?: (?:today|tomorrow|tonight|now))?"
    r"|play (?:me )?(?:some )?(?:music|songs?|the radio|a podcast|white noise|rain sounds|radio \w+)"
    r"|play (?:me )?some (?!more\b)\w+(?: \w+){0,2}"
    r"|remind me to\b.*|(?:call|text|message) \w+"
    r"|turn (?:on|off) the (?:lights?|tv|telly|heating|fan)"
    r")(?:\s+please)?$"
)
"""What people ask a general assistant, which no tool of a book does: said plainly, not searched for in
the book (a model, when there is one, answers it)."""


_ABOUT_THE_STORY = re.compile(r"^(?:who|what|whats|what's|why|which|whose|was|were|did|does|had)\b")
_DESCRIBING = re.compile(r"\b(?:where|when)\s*$")


def said_in_passing(text: str) -> bool:
    """Whether a time or an amount in ``text`` is part of what is asked, not a move: said in a
    question about the story ("who went back 2 minutes later?", "what did he do at 1:30?") or in a
    moment described ("go back to where the lamp glowed at 1:30")."""
    if _ABOUT_THE_STORY.match(text):
        return True
    goto = GOTO.match(text)
    return goto is not None and _DESCRIBING.search(goto.group(0)) is not None


def pointing_back(text: str) -> GoThere | MoreOfThat | None:
    """Words that mean the last answer: its place ("take me there", "where was that?") or more of it."""
    if _GO_THERE.match(text):
        return GoThere()
    if _THAT_ONE.match(text):
        return GoThere(row_only=True)
    if _WHERE_THAT_WAS.match(text):
        return GoThere(show_only=True)
    return MoreOfThat() if _MORE_OF_THAT.match(text) else None


_THE_BOOK = r"(?:it|the book|this|the audiobook|my place)"
WHY_MOVED = re.compile(
    rf"^why (?:did|has|does|is) {_THE_BOOK} (?:just )?"
    r"(?:jump(?:ed)?|move[ds]?|skip(?:ped)?|gone|go|change[ds]?|playing from here)"
    r"(?: (?:back|ahead|forward|on))?(?: on its own| by itself)?$"
    rf"|^who (?:just )?(?:moved|changed) {_THE_BOOK}$"
    rf"|^(?:did )?(?:someone|somebody|anyone|anybody) (?:just )?(?:move|moved|change|changed) {_THE_BOOK}$"
    r"|^(?:the book|it) (?:just )?(?:jumped|moved|skipped)(?: (?:back|ahead|forward|on))?"
    r"(?: on its own| by itself)?$"
    r"|^(?:(?:wait|no|nope|hang on|hold on|oh|um|hey)[\s,]+)*(?:(?:that's|thats|that is|this is|this's|it's)"
    r" not|(?:that|this) (?:isn't|is not|wasn't)) where i (?:was|left off|stopped)$"
    r"|^i didn'?t (?:ask for that|move it|do that)$"
    r"|^where was i (?:just )?before(?: that| all (?:this|that)| (?:i|it|you) (?:moved|jumped|skipped)"
    r"(?: it)?)?$"
)
"""Asked what moved the shared place, or where the book was before ("where was I before?": a question
never moves, and the answer offers undo); "go back to where I was" stays an undo (``UNDO``)."""
_THIS_BOOK_OR_IT = r"(?: to (?:this|the|it|this book|the book|this story))?"
LISTENING_ASKED: tuple[tuple[ListeningAbout, re.Pattern[str]], ...] = (
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


def aside_said(text: str) -> Help | SpoilerAsked | SyncAsked | PlayingAsked | None:
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


def asked_of_the_position(text: str) -> WhereAmI | HeardBefore | None:
    if _WHERE_AM_I.match(text):
        return WhereAmI()
    return HeardBefore() if _HEARD_BEFORE.match(text) else None


_CHAPTER_TITLE_ASKED = re.compile(
    rf"^what(?: was| is|'s|s) (?:the (?:name|title) of )?(?:chapter|story) ({NUMBER_SAID})"
    r"(?: called)?(?: again)?$"
)


def about_the_book(text: str) -> AboutTheBook | ChapterTitleAsked | NamesHeard | None:
    """What the cover, the chapter list or the table of names says, asked alone."""
    if _NAMES_ASKED.match(text):
        return NamesHeard()
    if asked := _CHAPTER_TITLE_ASKED.match(text):
        return ChapterTitleAsked(int(number_of(asked.group(1))))
    fact = next((fact for fact, said in _BOOK_FACTS if said.match(text)), None)
    return AboutTheBook(fact) if fact else None


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
