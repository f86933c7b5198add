"""One utterance read as one intent: the order the readings are tried in, two requests said
together, and words put right before they are read again."""

import itertools
import re
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from contextvars import ContextVar
from dataclasses import replace

from bedside_contracts.player import BOOKMARK_TITLE_CHARS
from bedside_contracts.turn import RecapArgs
from bedside_guard import FUNCTION_WORDS, capitalised_words, words_of

from bedside_turn.domain import numbers, spelling
from bedside_turn.domain.intents.asked import (
    BOOK_END_ALONE,
    BOOK_START_ALONE,
    BOOKMARK,
    BOOKMARK_REMOVAL,
    BOOKMARKS_ASKED,
    CLOCK,
    HEAR,
    HEAR_THE_PART,
    LISTENING_ASKED,
    MISSED_JUST_NOW,
    MOMENT,
    NEXT_OR_PREVIOUS_ALONE,
    NOT_OF_THE_BOOK,
    ON_THE_TIMER_SAID,
    OTHER_BOOK,
    OTHER_DEVICE,
    OTHER_ONE,
    PLAY_ON,
    PLAY_THAT_AGAIN,
    PRESS_LISTED,
    ROW_NUMBERS,
    ROW_ORDINALS,
    SKIP_OPENING,
    SKIP_THIS_BIT,
    STOPS_AT_THE_END,
    THIS_CHAPTER,
    TIME_LEFT,
    TIMER_ASKED,
    TIMER_AT_A_CLOCK_TIME,
    TIMER_WITHOUT_LENGTH,
    TO_BOOKMARK,
    UNDO,
    VOLUME,
    WAKE_UP,
    WHERE_PART,
    WHY_MOVED,
    WOKEN,
    about_the_book,
    aside_said,
    asked_of_the_position,
    courtesy_or_cancel,
    length_asked,
    pointing_back,
    said_in_passing,
)
from bedside_turn.domain.intents.english import plainly_another_language
from bedside_turn.domain.intents.kinds import (
    AboutTheBook,
    BookEnd,
    Bookmark,
    BookmarkRemoval,
    BookmarksAsked,
    BookStart,
    BothAsked,
    CancelSleepTimer,
    Chapter,
    ChapterEnd,
    ChapterTitleAsked,
    ChapterTitled,
    ClockTime,
    Courtesy,
    Earlier,
    FinalChapter,
    FindPlace,
    HeardBefore,
    Intent,
    IntoChapter,
    Jump,
    LastMoveAsked,
    ListeningAsked,
    NextChapter,
    Other,
    OtherBook,
    OtherDevice,
    OtherOne,
    Pause,
    PlayingAsked,
    PlayOn,
    PressListed,
    Question,
    ShareOfBook,
    SkipOpening,
    SleepTimer,
    Speed,
    StartAgain,
    ThisChapterStart,
    TimeLeft,
    TimerAdded,
    TimerAgain,
    TimerAsked,
    TimerHowLong,
    ToBookmark,
    Together,
    TwoQuestions,
    Undo,
    Volume,
    WakeUpAsked,
    WhereAmI,
)
from bedside_turn.domain.intents.moves import (
    A_BIT_MS,
    AGAIN,
    GOTO,
    ROUGHLY,
    THIS_STORY,
    chapter_counted_alone,
    chapter_moved_to,
    chapter_named,
    chapters_counted,
    into_chapter,
    jump_by_number_alone,
    jump_said,
    missed_stretch,
    moment_to_go_to,
    more_said_alone,
    place_asked_for,
    read_earlier,
    share_of_book,
    spoken_clock,
    start_again,
    step_not_counted_in_time,
)
from bedside_turn.domain.intents.speed import speed_asked, speed_said_last
from bedside_turn.domain.intents.timers import (
    ASKING,
    GO_QUIET,
    STOP_WHEN_THE_CHAPTER_ENDS,
    STOPPING,
    pause_asked_for,
    plays_to_the_chapter_end,
    read_playback,
    staying_in_bed,
)
from bedside_turn.domain.intents.wording import (
    AMOUNT,
    ASKING_WHEN,
    NOT_MEANT,
    QUESTION_START,
    REFUSING,
    amount_ms,
    normalise,
    number_of,
    said_amount_ms,
    with_pauses,
)
from bedside_turn.domain.recap import (
    FALLBACK_MINUTES,
    NOT_LISTENING,
    RecapAsked,
    asked_as_a_recap,
    minutes_back,
    read_recap,
)

_OPENING_WORDS = r"(?:(?:oh |no )?wait|hang on|hold on|sorry|actually|well|alright|all right|excuse me)"
"""Words that open a request and ask nothing themselves: "wait go back", "sorry who is the coachman"."""
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
    rf"|(?:because |cause |'cause |as |since )?(?:{NOT_LISTENING}|i lost track(?: of it)?)"
    rf"|{_COURTESY_WORD}(?:[\s.!]+{_COURTESY_WORD})*)$"
)
"""Said after a request and asking nothing itself: why ("go back two minutes, I fell asleep"), or a
thanks or a goodnight ("pause, thank you")."""
_DOZED = re.compile(
    rf"^(?:i think |i guess |sorry )?i (?:must have |might have |think i )?{_DOZE}"
    rf"(?: {ROUGHLY}(?P<ago>{AMOUNT}) ago| (?:ages|a while|a (?:little )?bit|a long time|hours) ago)?"
    r"(?: (?:so |and |then )?(?P<then>.+))?$"
)
"""A doze said with how long ago, or with a request after it ("I fell asleep, go back ten minutes")."""
_MOVE_FIRST = re.compile(
    r"^(?:(?:please|can you|could you) )?(?:go|take me|bring me|put me|skip|jump|rewind|play|back)\b"
)
# After a bookmark's title only a verb of moving parts a move off it: "as there and back again" is a title
_MOVED_BY_A_VERB = re.compile(
    r"^(?:(?:please|can you|could you) )?(?:go|take me|bring me|put me|skip|jump|rewind|play)\b"
)
_WHERE_I_DOZED_AGO = re.compile(
    rf"^(?:(?:go|take me|bring me|skip|jump) )?back to (?:where|when) i {_DOZE} {ROUGHLY}(?P<ago>{AMOUNT})"
    r" ago(?: please)?$"
)
_BACK_THERE = re.compile(
    r"^(?:(?:go|take me|bring me|put me) )?back(?: there| to (?:it|then|that))?(?: please)?$"
)


def read(utterance: str, *, whole: bool = True) -> Intent:
    """What the listener is asking for, as far as plain code can tell; ``whole`` False reads one half
    of two requests said together, which is not split again.

    Words that read as nothing, or as a search of the book, are read again with a command word's
    slip put right ("pasue", "go bakc 30 seconds"), and taken so only when that reads as a command,
    or as a search that says its way where the words as typed said none ("go bak to where ...") and
    whose moment is in the words as typed. A moment's words keep the capitals of names the listener
    wrote inside the sentence: search tells a name not heard yet by them (adr/0066).

    Each way a breath parts in two or three reads its pieces, and the same piece comes up in many of
    them: within one reading of a breath, each piece is read once (``_READ_IN_THIS_BREATH``)."""
    known = _READ_IN_THIS_BREATH.get()
    if known is None:
        reset = _READ_IN_THIS_BREATH.set({})
        try:
            return read(utterance, whole=whole)
        finally:
            _READ_IN_THIS_BREATH.reset(reset)
    if (utterance, whole) not in known:
        known[utterance, whole] = _read_once(utterance, whole)
    return known[utterance, whole]


_READ_IN_THIS_BREATH: ContextVar[dict[tuple[str, bool], Intent] | None] = ContextVar(
    "read_in_this_breath", default=None
)
"""The pieces of the breath being read, each with its reading; none between breaths, so nothing grows."""


def _read_once(utterance: str, whole: bool) -> Intent:
    if whole and (withdrawn := _withdrawn_at_the_end(utterance)) is not None:
        return withdrawn
    intent = _meant(utterance, whole)
    if _not_read_as_english(utterance, intent):
        return Other()
    if whole and (kept := _asked_before_a_refusal(utterance, intent)) is not None:
        return kept
    # a move by an amount reads its own refusal ("don't go back 5 minutes, go forward 5 minutes")
    if (
        isinstance(intent, _MOVES)
        and not isinstance(intent, Jump)
        and _A_MOVE_REFUSED.match(normalise(utterance))
    ):
        return Other()
    if whole and moves_the_book(intent) and (both := _two_moves_said(utterance, intent)) is not None:
        return both
    match intent:
        case FindPlace() if more_said_alone(utterance) is not None:  # more of a move, with none just made
            return Other()
        case FindPlace(query=query) if not names_a_moment(query, capitalised_words(utterance)):
            return Other()
        case FindPlace(query=query):
            return replace(intent, query=_names_capitalised(query, utterance))
        case Together(move=move, then=then):
            if isinstance(move, FindPlace):
                move = replace(move, query=_names_capitalised(move.query, utterance))
            if isinstance(move, Bookmark):  # its half was read in lower case
                move = Bookmark(_title_as_said(move.title, utterance))
            if isinstance(then, Bookmark):
                then = Bookmark(_title_as_said(then.title, utterance))
            if isinstance(then, Question):
                then = _asked_apart(Question(_names_capitalised(then.question, utterance)), utterance)
            if isinstance(then, BothAsked):
                then = BothAsked(*(_capitalised_again(part, utterance) for part in (then.first, then.second)))
            return _moved_by_something(replace(intent, move=move, then=then))
    return intent


def _asked_apart(asked: Question, utterance: str) -> Intent:
    """A question said with a move that holds a second ask ("pause and who is wren and where am I"): the
    two asks as they are read said alone ("who is wren and where am I" is two), so the second is told
    and not searched as part of the question."""
    parted = _two_asked(with_pauses(asked.question), utterance, whole=False)
    return parted if isinstance(parted, BothAsked) else asked


def _moved_by_something(together: Together) -> Intent:
    """A jump by nothing said first of three with another move ("go back 0 seconds, next chapter and sleep
    in 20") moves nowhere and is no move of its own: the other move is done, with what remains after it."""
    match together:
        case Together(move=Jump(offset_ms=0), then=BothAsked(first=first, second=second)) if moves_the_book(
            first
        ) and not moves_the_book(second):
            return Together(move=first, then=second)
    return together


def _not_read_as_english(utterance: str, intent: Intent) -> bool:
    """Whether a question or a moment, whose words go to search as said, is plainly in another language
    (``english``). A command's words are read here by English patterns, and are English already."""
    return isinstance(intent, Question | FindPlace | TwoQuestions) and plainly_another_language(utterance)


def _capitalised_again(asked: Intent, utterance: str) -> Intent:
    """A question read from one part of ``utterance`` with the names the listener capitalised."""
    return Question(_names_capitalised(asked.question, utterance)) if isinstance(asked, Question) else asked


_A_MOVE_REFUSED = re.compile(
    rf"^(?:(?:no|oh|please|but|and)[\s,]+)*(?:{REFUSING}|never|i {REFUSING} want (?:you )?to)\s+"
    r"(?:(?:go|skip|jump|move|take me|bring me|put me)\b|rewind|restart|replay|start (?:over|again))"
)
"""A move refused ("don't go to the next chapter"): none is made, whatever place the words name."""
_REFUSED_AFTER = re.compile(
    rf"(?:\s*[,;]\s*|\.\s+|\s+)(?:but\s+)?(?:{REFUSING}|{NOT_MEANT})\s+(?P<refused>.+)$"
)


_HESITATED = re.compile(rf"(?:[\s,;.!]+(?:{_OPENING_WORDS}|no|oh))+[\s,;.!]*$")
"""A hesitation said before a refusal ("next chapter, wait, don't ..."): the refusal's start, no pause."""


def _asked_before_a_refusal(utterance: str, read_whole: Intent) -> Intent | None:
    """'Go to chapter 3, don't go to the next chapter', 'chapter 6, not the next chapter': the request said
    before a move or a timer refused, when the whole read past the refusal as the refused one; the very
    request refused ("chapter 3, actually don't go to chapter 3") is withdrawn, and nothing is done, as
    after "never mind". A way refused inside a move is the move's ("forward not back 5 minutes"), a
    moment's words may hold a "not" ("where he did not go home"), and words read as nothing refuse
    nothing ("pause not yet"): only a command is kept."""
    text = with_pauses(utterance)
    said = _REFUSED_AFTER.search(text)
    if isinstance(read_whole, Other) or said is None:
        return None
    refused = read(said["refused"], whole=False)
    if refused != read_whole:
        return None
    asked = read(_HESITATED.sub("", text[: said.start()]))
    if asked == refused:
        return Courtesy("never_mind")
    return asked if isinstance(asked, _COMMANDS) else None


_WITHDRAWN = re.compile(
    rf"(?P<pause>[\s,;.!?]+)(?P<opener>(?:(?:{_OPENING_WORDS}|no|oh)[\s,;.!]+)*)"
    rf"(?:(?P<refusal>(?:i )?{REFUSING}(?: (?:bother|do (?:it|that)))?)"
    r"|never ?mind|forget (?:it|that)|scratch that|cancel that|ignore (?:that|me))(?: then)?$"
)
"""A withdrawal said at the end of the request it withdraws ("next chapter, actually never mind")."""


def _withdrawn_at_the_end(utterance: str) -> Courtesy | None:
    """'Next chapter, actually never mind', 'go back 5 minutes, actually don't': the request withdrawn in
    the breath that asked it, so nothing is done, as after "never mind". Never by a "don't" said straight
    on ("where he says I don't"); a bare "don't" after a pause withdraws a command alone ("chapter 3,
    don't"). A moment's or a question's words may end in what someone in the story says ("go back to
    when he said no, don't", "why did she say, never mind"): those are kept whole when a line is said just
    before the withdrawal and its openers ("she tells the children, oh never mind", "the sign reads, never
    mind"), unless their sentence has ended ("who is Oskar? No, never mind"); any other is withdrawn after
    a pause or an opener, as a command is."""
    text = with_pauses(utterance)
    said = _WITHDRAWN.search(text)
    if said is None or said.start() == 0:
        return None
    paused = bool(set(said["pause"]) - set(" "))
    if not said["opener"] and not paused and said["refusal"]:
        return None
    asked = read(text[: said.start()])
    if isinstance(asked, Other):
        return None
    parted = bool(said["opener"]) or (paused and not said["refusal"])
    if isinstance(asked, FindPlace | Question | TwoQuestions | BothAsked):
        sentence_ended = bool(set(said["pause"]) & set(".!?;"))
        quoted = _LINE_SAID_JUST_BEFORE.search(text[: said.start()])
        return Courtesy("never_mind") if sentence_ended or (parted and quoted is None) else None
    return Courtesy("never_mind") if parted or isinstance(asked, _COMMANDS) else None


_SPEECH_VERB = (
    r"(?:say|says|said|saying|tell|tells|told|ask|asks|asked|cried|cries"
    r"|(?:shout|whisper|yell|scream|mutter|shriek|answer)(?:s|ed|ing)?|(?:replie|mumble)[sd])"
)
"""Verbs of a line said to someone. Not "call" nor a bare "cry": "what is the ship called", "why did she
cry" are asked and may be withdrawn."""
_LINE_VERB = r"(?:reads|writes|wrote|sings|sang|goes)"
"""Verbs a line follows straight ("the sign reads", "mum goes"): the words after one are the listener's
("where she reads the letter"), and neither "read" nor "go" is one ("where do they go")."""
_LINE_SAID_JUST_BEFORE = re.compile(
    rf"\b(?:{_SPEECH_VERB}(?:[\s,;.!?]+[\w']+){{0,3}}|{_LINE_VERB})[\s,;.!?]*$"
)
"""The listener's words just before a withdrawal and its openers that start a line in the story: a speech
verb and at most three words of to whom ("he said no, don't", "she says to her, oh never mind", "why did
she say, never mind"), or a line's verb just before: the withdrawal is the line's, not the listener's."""


_TELLS_NO_MOMENT = FUNCTION_WORDS - {"say", "says", "said", "no", "up", "down", "over", "out", "off", "all"}
"""Words no moment is told by: "where he says no", "when she was down", "when it was all over" are
moments; "where he was", "where we were" are the listener's own place, not the story's."""
_SAYS_NO_MOMENT = re.compile(
    rf"{numbers.SAID_AS_A_NUMBER}|ones?|bits?|parts?|bobs?|chapters?|(?:minute|hour|second|min)s?"
    r"|ago|not|never|instead|back(?:wards?)?|forwards?|ahead|rewind|skip|fast|moments?|then"
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


def _bookmarks_asked(text: str, utterance: str) -> Intent | None:
    """A bookmark made, gone to, listed or asked to be removed (ADR 83); a title as the listener wrote it."""
    if BOOKMARKS_ASKED.match(text):
        return BookmarksAsked()
    if BOOKMARK_REMOVAL.match(text):
        return BookmarkRemoval()
    if made := BOOKMARK.match(text):
        return Bookmark(_title_as_said(made["title"], utterance))
    if gone_to := TO_BOOKMARK.match(text):
        return ToBookmark(_title_as_said(gone_to["title"], utterance))
    return None


def _title_as_said(title: str | None, utterance: str) -> str | None:
    """A bookmark's title with the capitals the listener wrote ("The Storm"), at most as long as a title
    may be: the words read are lower case, and a title longer than that is kept to its start."""
    if title is None:
        return None
    words = r"\W+".join(re.escape(word) for word in title.split())
    written = re.search(rf"\b{words}\b", utterance, re.IGNORECASE)
    said = written[0] if written else title
    return said[:BOOKMARK_TITLE_CHARS].strip()


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
    parts = [part for part in re.split(r"\s*(?:[,;]|\.(?!\d))\s*", with_pauses(utterance)) if part]
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
    if (beyond := _beyond_the_book(text, utterance, whole)) is not None:
        return beyond
    if (speed := speed_asked(text)) is not None:  # whole, never split ("speed to one and a half")
        return speed
    if (
        said_first := (whole and _doze_said(text) is None and _back_over_a_recap(with_pauses(utterance)))
        or _asked_before_what_asks_nothing(text, whole)
        or (
            whole
            and (
                _done_together(with_pauses(utterance))
                or _two_asked(with_pauses(utterance), utterance)
                or _two_who_questions(utterance)
            )
        )
        or read_playback(text)
    ):
        return said_first
    if TIMER_WITHOUT_LENGTH.match(text):
        return TimerHowLong()
    if TIMER_AT_A_CLOCK_TIME.search(text):
        return TimerHowLong(clock_said=True)
    if PLAY_THAT_AGAIN.match(text):  # before a goto, which reads "play" as the start of a place
        return Jump(offset_ms=-A_BIT_MS)
    if PLAY_ON.match(text):  # before a goto, which reads "play" as the start of a place
        return PlayOn()
    if VOLUME.match(text):
        return Volume()
    if (bookmarks := _bookmarks_asked(text, utterance)) is not None:
        return bookmarks
    if device := OTHER_DEVICE.match(text):
        return OtherDevice(device["named"] or device["kind"])
    if OTHER_BOOK.match(text):
        return OtherBook()
    if TIMER_ASKED.match(text):
        return TimerAsked()
    if aside := aside_said(text):
        return aside
    if courtesy := courtesy_or_cancel(text):
        return courtesy
    if moved := NEXT_OR_PREVIOUS_ALONE.match(text):
        return NextChapter(step=1 if moved.group(1) == "next" or moved.group(2) or moved.group(3) else -1)
    if dozed := _doze_said(text):  # before the history's doze, which knows only the sleep timer's
        return dozed
    if earlier := read_earlier(text):
        return earlier
    if position := asked_of_the_position(text):  # before the recaps: "which chapter is this" is none
        return position
    if listening := next((about for about, said in LISTENING_ASKED if said.match(text)), None):
        return ListeningAsked(listening)
    if WHY_MOVED.match(text):
        return LastMoveAsked()
    if about := about_the_book(text):
        return about
    if counted := chapter_counted_alone(text):  # before the recaps, which read the words alone as one
        return counted
    if counted := chapters_counted(text):
        return counted
    if step := step_not_counted_in_time(text):
        return step
    if UNDO.search(text):
        return Undo()
    if OTHER_ONE.search(text):
        return OtherOne()
    if (pointed := pointing_back(text)) is not None:
        return pointed
    if listed := PRESS_LISTED.match(text):
        ordinal, number = listed.groups()
        return PressListed(row=ROW_ORDINALS[ordinal] if ordinal else ROW_NUMBERS[number])
    if length := length_asked(text):  # before the recaps: "how long is the last chapter" is a length
        return length
    if recap := read_recap(text, number_of, said_amount_ms):  # "what did I miss", "the last chapter"
        return recap
    if TIME_LEFT.search(text):
        return TimeLeft()
    in_passing = said_in_passing(text)
    # a place said on the clock first: "skip to 45 minutes in" is no move by 45 minutes
    if (
        not in_passing
        and not ON_THE_TIMER_SAID.search(text)
        and (
            jump := spoken_clock(text)
            or share_of_book(text)
            or into_chapter(text)
            or jump_said(text)
            or jump_by_number_alone(text)
            or missed_stretch(text)
        )
    ):
        return jump
    if SKIP_OPENING.match(text):  # before a goto, which would search the book for "the intro"
        return SkipOpening()
    if SKIP_THIS_BIT.match(text):  # before a goto, which would search the book for "this bit"
        return Jump(offset_ms=A_BIT_MS)
    if start := start_again(text):  # before a goto, which would search the book for "it from the top"
        return start
    if THIS_CHAPTER.search(text):
        return ThisChapterStart()
    if chapter := chapter_moved_to(text) or chapter_named(text):
        return chapter
    if not in_passing and (clock := CLOCK.search(text)):
        h, m, s = int(clock.group(1)), int(clock.group(2)), int(clock.group(3) or 0)
        short = (h * 60 + m) * 1000 if clock.group(3) is None and m < 60 else None
        return ClockTime(position_ms=((h * 60 + m) * 60 + s) * 1000, minutes_seconds_ms=short)
    if BOOK_START_ALONE.fullmatch(place := place_asked_for(text)):
        return StartAgain() if THIS_STORY.search(place) else BookStart()
    if BOOK_END_ALONE.fullmatch(place) and not STOPS_AT_THE_END.search(text):
        return BookEnd()
    if (goto := GOTO.match(text)) and (
        goto["verb"] not in HEAR or AGAIN.search(text) or HEAR_THE_PART.search(text)
    ):
        return moment_to_go_to(text, goto)
    if where := WHERE_PART.match(text):
        return FindPlace(query=text[where.end() :].strip())
    if QUESTION_START.match(text) or ASKING_WHEN.match(text) or asked or _someone_then_who(text):
        return Question(question=utterance.strip())
    if MOMENT.match(text) and len(text.split()) >= 2:
        return FindPlace(query=text)
    return _asked_after_an_opener(utterance, text, whole) or Other()


def _beyond_the_book(text: str, utterance: str, whole: bool) -> Intent | None:
    """What no tool of a book does, read before all else: an alarm, whose minutes a timer would read ("wake
    me up in 10 minutes"), told so; nothing said, or what people ask a general assistant, read as nothing.
    Said with another request, the alarm's time ends at a recogniser's comma, which parts two requests as
    "and" does: "wake me up in 10 minutes, pause" is the pause and the alarm told (``_an_alarm``)."""
    if WAKE_UP.match(text):
        paused = with_pauses(utterance)
        return (whole and (_done_together(paused) or _two_asked(paused, utterance))) or WakeUpAsked()
    return Other() if not text or NOT_OF_THE_BOOK.match(text) else None


def _asked_before_what_asks_nothing(text: str, whole: bool) -> Intent | None:
    """'Go back two minutes, I fell asleep', 'pause, thank you': the move or the playback asked for
    (``_ASKS_NOTHING_AFTER``), not a recap of the doze, a courtesy, or a search for "thanks"."""
    after = _ASKS_NOTHING_AFTER.search(text)
    if after is None or after.start() == 0:
        return None
    asked = read(text[: after.start()], whole=whole)
    return asked if isinstance(asked, (*_MOVES, *_PLAYBACK, Together)) else None


_OPENER = re.compile(rf"^(?:{_OPENING_WORDS}|right|anyway|huh|{MISSED_JUST_NOW})\s+")
"""What ``_FILLER`` takes off only before a comma, said with none: a recogniser may write no pause; a
word said to carry on ("right who is he", asked as "wait who is he" is); and why, said first ("i missed
the last bit can you rewind")."""


def _asked_after_an_opener(utterance: str, text: str, whole: bool) -> Intent | None:
    """'Wait go back', 'sorry who is the coachman': what follows the opener, when it reads as a
    request; a question keeps the listener's words whole, as after "wait," it does."""
    opener = _OPENER.match(text)
    if opener is None:
        return None
    rest = text[opener.end() :]
    asked = read(rest, whole=whole)
    # a lone "chapter" left after "I missed that" is what was missed, not the page's "which chapter?"
    if isinstance(asked, Other) or (len(rest.split()) == 1 and isinstance(asked, WhereAmI | HeardBefore)):
        return None
    return Question(question=utterance.strip()) if isinstance(asked, Question) else asked


JOINTS_TRIED = 4
"""How many "and"s are tried as the joint of two requests: a description may hold a few ("where the
horse and cart stop"), and each try reads both halves."""
_THEN = r"(?:and\s+then|and|then|after\s+that)\s+"
_JOINT = re.compile(rf"\s*(?:[,;!?]+(?!\d)\s*|[.]+\s+)(?:{_THEN})?|\s+{_THEN}")
"""Where one request ends and the next starts: "and", "then", or a recogniser's comma or full stop."""
_PLAYBACK = (SleepTimer, TimerAdded, TimerAgain, CancelSleepTimer, Pause, Speed)
"""What may be said with a move, either way round (``Together``)."""
_STAYS_PUT = (Pause, PlayOn, Speed)
"""Done first beside an ask, as a move is, and moving nothing (``_stays_put_then_asked``)."""
_TOLD_AFTER_A_MOVE = (WhereAmI, TimeLeft, TimerAsked, AboutTheBook)
"""What plain code tells, said with a move and told after it ("go back 5 minutes and where am I": the
place moved to; "... and how long is left": from there), so the whole breath stays plain code's
(``routing.model_may_answer``)."""
_DONE_AFTER_A_MOVE = (*_PLAYBACK, *_TOLD_AFTER_A_MOVE, Question, RecapAsked, BothAsked)
"""What a move is said with and done before (``Together.then``)."""
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
    ToBookmark,
)


def moves_the_book(intent: Intent) -> bool:
    """Whether the request moves the book or shows a place in it: an offer, which one turn makes once."""
    return isinstance(intent, _MOVES)


_COMMANDS = (*(move for move in _MOVES if move is not FindPlace), *_PLAYBACK, Together)
"""Requests that do something and whose words tell no moment: what a refusal or a withdrawal may take back."""
_TAKEN_AMONG_ASIDES = (*(move for move in _MOVES if move is not FindPlace), *_PLAYBACK, PlayOn, Undo)
"""A request that may be taken from among asides: a search or a question may be what they are about."""


def _two_halves(text: str) -> Iterator[tuple[tuple[str, str], tuple[Intent, Intent], str]]:
    """Each way ``text`` parts in two requests: the words of each half, each half read alone, and the
    words joining them. An "and" inside an amount ("an hour and a half") joins no two requests; a speed
    said last joins a command before it with "at" ("sleep in 20 minutes at 1.5x")."""
    amounts = [said.span() for said in re.finditer(AMOUNT, text)]
    for joint in itertools.islice(_JOINT.finditer(text), JOINTS_TRIED):
        if any(start <= joint.start() < end for start, end in amounts):
            continue
        said = text[: joint.start()].strip(), text[joint.end() :].strip()
        yield said, (read(said[0], whole=False), read(said[1], whole=False)), joint.group().strip(" ,;.!?")
    # a speed said last, after a command, parts as an "and" would; after a moment's or a question's words
    # it is theirs ("take me to where they drove at double speed")
    if (at_a_speed := speed_said_last(text)) is not None:
        before, speed_said, speed = at_a_speed
        if isinstance(first := read(before, whole=False), _COMMANDS):
            yield (before.strip(), speed_said.strip()), (first, speed), "at"


def _back_over_a_recap(text: str, *, whole: bool = True) -> Intent | None:
    """A jump back and a recap of the latest listening said together, either way round: the jump, which
    plays again what the recap would tell, when the jump says how far
    and the recap says no amount ("go back 30 seconds, what just happened"), or when neither says one
    and the recap is the plain one ("rewind and tell me what happened"). Else the recap says what it
    covers and is that recap ("rewind and tell me what happened in the last 20 minutes", "what just
    happened? go back"); so is "what I missed" with a jump of no amount ("what happened while I
    dozed off, take me back", "go back and tell me what I missed"), which asks for the doze. A recap of a
    chapter or of the story so far is none of what the jump plays again: both are done
    (``_done_together``). Said with a third request, when ``whole``: ``_three_over_a_recap``."""
    for said, halves, _ in _two_halves(text):
        read_with_words = list(zip(halves, said, strict=True))
        backs = [(half, words) for half, words in read_with_words if isinstance(half, Jump)]
        recaps = [(half.args, words) for half, words in read_with_words if isinstance(half, RecapAsked)]
        if not backs or backs[0][0].offset_ms >= 0 or not recaps:
            continue
        # a half that holds another request beside the jump or the recap ("what did I miss and who is
        # Oskar") is no jump and recap alone
        if any(_holds_two(words) for words in said):
            if whole and (three := _three_over_a_recap(said, halves, text)) is not None:
                return three
            continue
        (back, back_said), (recap, recap_said) = backs[0], recaps[0]
        if recap.span not in _PLAYED_AGAIN_BY_A_JUMP_BACK:  # "go back a minute and what happens in chapter 1"
            return None
        if re.search(AMOUNT, recap_said):
            return None
        how_far_said = re.search(AMOUNT, back_said) is not None
        if how_far_said or recap == RecapArgs(span="last_minutes", minutes=FALLBACK_MINUTES):
            return back
        # "go back and tell me what I missed" asks for the doze; "I fell asleep, go back" and "go back,
        # I fell asleep" tell of it
        asks = halves[0] is back and not recap_said.startswith("i ")
        return RecapAsked(recap) if asks else None
    return None


def _three_over_a_recap(
    said: tuple[str, str], halves: tuple[Intent, Intent], text: str
) -> Together | BothAsked | None:
    """'Go back 5 minutes, what did I miss and who is Oskar', 'take me back, what did I miss and sleep in
    20': a jump back and a recap with a third request, one half of the breath holding two of the three.
    The jump and the recap are one request, as said alone (``_back_over_a_recap``): the jump, which plays
    the recap's stretch again, with the third done after it; or the recap of the doze, told with the third
    in the order asked. Before, the jump and the recap took the whole breath, the third dropped unsaid."""
    for split in (0, 1):
        if not _JOINT.search(said[split]):
            continue
        for parted, read_alone, _ in _two_halves(said[split]):
            inner = list(zip(read_alone, parted, strict=True))
            other = [(halves[1 - split], said[1 - split])]
            pieces = inner + other if split == 0 else other + inner
            backs = [
                at for at, (asked, _) in enumerate(pieces) if isinstance(asked, Jump) and asked.offset_ms < 0
            ]
            recaps = [at for at, (asked, _) in enumerate(pieces) if isinstance(asked, RecapAsked)]
            if len(backs) != 1 or len(recaps) != 1:
                continue
            (back,), (recap,) = backs, recaps
            if _recap_by_a_pronoun(pieces[recap][1]):
                continue  # "go back 5 minutes, who is oskar and where is he": he is Oskar, no recap
            third_at = 3 - back - recap
            third, third_said = _capitalised_again(pieces[third_at][0], text), pieces[third_at][1]
            first, second = sorted((back, recap))
            one = _back_over_a_recap(f"{pieces[first][1]}, {pieces[second][1]}", whole=False)
            if (
                isinstance(one, Jump)
                and isinstance(third, _DONE_AFTER_A_MOVE)
                and _beside_a_move(one, third, third_said)
            ):
                return Together(move=one, then=third)
            if isinstance(one, RecapAsked) and _asked_beside((one, third), (pieces[recap][1], third_said)):
                return BothAsked(one, third) if recap < third_at else BothAsked(third, one)
    return None


def _holds_two(words: str) -> bool:
    """Whether the words of one half are themselves two requests ("what did I miss and who is Oskar")."""
    return _JOINT.search(words) is not None and isinstance(
        _done_together(words, whole=False) or _two_asked(words, words, whole=False), Together | BothAsked
    )


_NO_ONE = (
    r"(?!(?:mr|mrs|miss|ms|dr|i|me|you|we|us|he|she|they|it|him|her|them|this|that|his|its|their|my|your"
    r"|our|why|what|when|where|how|who|whom|which|and|again)\b)"
)
_SOMEONE = rf"(?:the |mr\.? |mrs\.? |ms\.? |miss |dr\.? )?{_NO_ONE}[\w'-]+(?: {_NO_ONE}[\w'-]+)?"
"""One person as a who-question names them: a name of a word or two ("Grandma Iris", "John Manly"), or
"the keeper"; never a title alone, a pronoun or a question word ("who is he and who is she"). More
words may be one person ("who is Jack and Jill's mother"), so they are asked whole."""
_SOMEONE_THEN_WHO = re.compile(
    # the book, its chapter or its author asked of ("the book, what is it called") is no one in the story
    r"^(?!(?:the |this )?(?:book|chapter|author|writer|narrator|reader)\b)"
    rf"(?P<someone>{_SOMEONE})\.? (?:who(?:'s| is| was) (?:he|she|that|this|it)|who (?:are|were) they"
    r"|what(?:'s| is| was) (?:his|her|their|its) name|what(?:'s| is) (?:he|she|it|they) called)(?: again)?$"
)


def _someone_then_who(text: str) -> bool:
    """'Oskar, who is he?', 'the coachman, what's his name?': someone named first, as a sleepy listener
    remembers them, and then asked of; read as nothing, or as a moment to find. An opener is no one
    ("wait who is he" asks of whoever was just heard), nor are words that name nothing ("so who is he")."""
    said = _SOMEONE_THEN_WHO.match(text)
    return (
        said is not None
        and not _OPENER.match(text)
        and any(word not in FUNCTION_WORDS for word in words_of(said["someone"]))
    )


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
    rf"^(?P<move>{ASKING}(?:play|read|listen to|put on)\s.+?)"
    rf",?\s+(?:and\s+|then\s+|and\s+then\s+){GO_QUIET}"
    r"(?:\s+(?:after (?:it|that)|at the end(?: of it)?"
    r"|when it(?:'s| is) (?:done|over|finished)|when it ends))?"
    r"(?:,?\s+please)?$"
)
"""A chapter played and then a stop ("play chapter 4 and stop"): the stop is at that chapter's end, where
"go to chapter 4 and stop" goes there and pauses."""


def _done_together(
    text: str, *, whole: bool = True
) -> Together | SleepTimer | TimerAdded | CancelSleepTimer | Pause | PlayOn | None:
    """Two requests done in one turn (``Together``), either way round, each half read alone: a move and a
    timer, a pause, a question of the story or a recap; a pause and a timer. Three, when ``whole``: a
    move and two of those (``_three_with_a_move``). "At the end of the chapter, stop" is one timer, not a
    move to the chapter's end and a pause now; a stop said with words of staying in bed and then a timer
    is the timer alone."""
    if STOP_WHEN_THE_CHAPTER_ENDS.match(text) or plays_to_the_chapter_end(normalise(text)):
        return None
    if played := _A_CHAPTER_PLAYED_THEN_A_STOP.match(normalise(text)):
        move = read(played["move"], whole=False)
        if isinstance(move, Chapter | ChapterTitled | NextChapter | FinalChapter):
            return Together(move=move, then=SleepTimer(after="chapter_end"))
    own_stop: SleepTimer | TimerAdded | CancelSleepTimer | None = None
    for said, halves_read_alone, joined_by in _two_halves(text):
        halves = _three_with_a_move(said, halves_read_alone) if whole else halves_read_alone
        if isinstance(halves, Together):
            return halves
        moving = next((i for i, half in enumerate(halves) if isinstance(half, _MOVES)), None)
        timers = [half for half in halves if isinstance(half, _PLAYBACK)]
        if moving is not None and timers and not _a_clause(halves[moving], said[moving], joined_by):
            return Together(move=halves[moving], then=timers[0])
        if moving is not None and (asked := _asked_beside_a_move(halves, said, moving)):
            return Together(move=halves[moving], then=asked)
        if moving is not None and _told_after_the_move(halves[moving], halves[1 - moving], said[1 - moving]):
            return Together(move=halves[moving], then=halves[1 - moving])
        if moving is not None and _a_bookmark_beside_a_move(halves, said, moving):
            return Together(move=halves[0], then=halves[1])  # in the order said
        if (held := _stays_put_then_asked(halves, said, joined_by)) is not None:
            return held
        if (marked := _bookmark_then_stopped(halves, said)) is not None:
            return marked
        if (speed_first := _speed_with_the_timer(halves)) is not None:
            return speed_first
        # A pause asked for and then the timer ("pause and set a timer for ten"): paused at once, the
        # timer counting the listening after it. Said after a timer, a stop is the timer's own ("read
        # for ten minutes then stop", "sleep in 20 and pause": ``_paused_after_the_timer``), unless the
        # timer is cancelled; a "hold on" is no pause asked
        # for, nor a stop before a comma alone ("hold on, add ten minutes", "stop, sleep in 20"); a pause
        # said with why or "now" is asked for whatever parts it from the timer ("pause, I'm getting
        # water, ...", "pause now, sleep timer 15 minutes").
        paused = 1 if isinstance(halves[1], Pause) and isinstance(halves[0], CancelSleepTimer) else 0
        pause, timer = halves[paused], halves[1 - paused]
        joined = joined_by in ("and", "then", "and then") or (paused == 0 and pause_asked_for(said[0]))
        if (
            joined
            and isinstance(pause, Pause)
            and isinstance(timer, SleepTimer | TimerAdded | CancelSleepTimer)
            and not _WAITING.match(said[paused])
        ):
            return Together(move=pause, then=timer)
        if (paused_after := _paused_after_the_timer(halves, said, joined_by)) is not None:
            return paused_after
        if (
            paused == 0
            and isinstance(timer, SleepTimer | TimerAdded | CancelSleepTimer)
            and staying_in_bed(said[0])
        ):
            return timer
        # a pause said alone before a comma, then the timer, is the timer's own stop, however the timer
        # is worded ("pause, sleep in 20", "pause, sleep timer 20 minutes"): the timer alone, unless a
        # later joint parts a pause asked for ("stop, someone's at the door. sleep in 20")
        if isinstance(timer, SleepTimer | TimerAdded | CancelSleepTimer) and isinstance(pause, Pause):
            own_stop = own_stop or (timer if paused == 0 and not joined else None)
    return own_stop


def _a_bookmark_beside_a_move(halves: tuple[Intent, Intent], said: tuple[str, str], moving: int) -> bool:
    """'Bookmark this and go back 30 seconds', 'go back 30 seconds and bookmark this': a bookmark marks
    where the listener is when they say it, so each is done in the order said: the bookmark where the book
    was, then the move; or the move, then the bookmark at the place moved to. Either way the bookmark was
    dropped. Words read as a moment without a way or a verb of moving are no move ("the ship"), nor what
    follows a title ("bookmark this as the storm and the ship" is one title) unless said as a move."""
    move, mark = halves[moving], halves[1 - moving]
    if not isinstance(mark, Bookmark):
        return False
    said_as_a_move = _MOVE_FIRST.match(said[moving]) is not None
    if moving == 1 and mark.title is not None:
        return _MOVED_BY_A_VERB.match(said[moving]) is not None
    return said_as_a_move or not (isinstance(move, FindPlace) and move.direction is None)


def _paused_after_the_timer(
    halves: tuple[Intent, Intent], said: tuple[str, str], joined_by: str
) -> SleepTimer | TimerAdded | None:
    """'Sleep in 20 and pause', 'set a timer for 20 minutes and stop', 'add ten minutes and stop': a stop
    said after minutes of a timer is the timer's own, the timer alone, as one said before it with a comma
    is ("pause, sleep in 20"); paused at once, 20 more minutes asked for would stop the book on the
    listener, and a timer on a paused book never runs down. A wait ("... and hold on") is neither."""
    timer, pause = halves
    if not (
        isinstance(timer, TimerAdded) or (isinstance(timer, SleepTimer) and timer.after != "chapter_end")
    ):
        return None  # minutes only: a stop after "the end of the chapter" is another thing said
    stop_said_after = (
        joined_by == "and"
        and isinstance(pause, Pause)
        and re.search(STOPPING, said[0]) is not None
        and not _WAITING.match(said[1])
    )
    return timer if stop_said_after else None


def _told_after_the_move(move: Intent, told: Intent, told_said: str) -> bool:
    """Whether what plain code tells is said beside ``move`` and told after it (``_TOLD_AFTER_A_MOVE``, or
    an alarm asked for: ``_an_alarm``). Beside a moment described, only a half that opens by asking the time
    left: a moment's words may end in such an ask ("... and where am I"), but the time left is read anywhere
    in a breath (``asked.TIME_LEFT``), so "go back to where they met and how long is left" told the time
    left alone, while "where Tom and Wren argue about how much time is left" is one moment, not "Tom"."""
    if isinstance(move, FindPlace):
        opens_by_asking = TIME_LEFT.match(_JOINED_BY.sub("", normalise(told_said))) is not None
        return isinstance(told, TimeLeft) and opens_by_asking
    return isinstance(told, _TOLD_AFTER_A_MOVE) or _an_alarm(told, told_said)


_JOINED_BY = re.compile(rf"^(?:{_THEN})+")


def _an_alarm(asked: Intent, words: str) -> bool:
    """An alarm asked for beside another request ("sleep in 20 and wake me at 7", "wake me up in 10 minutes
    and pause"): told there is none, as when asked alone, and the other request done. "Wake me up" said
    with no time beside a request is the listener waking ("wake me up, what did I miss": ``WOKEN``)."""
    return isinstance(asked, WakeUpAsked) and WOKEN.match(normalise(words)) is None


_THE_BOOKS = re.compile(r"\b(?:it|the book|the story|now|please)\b")
_ASKS_WHAT_IS = re.compile(r"^(?:who|what|where)(?:'s| is| are| am)\b|\b(?:i|me)\b")


def _the_questions_own_verb(command: Intent, asked: Intent, words: str, command_said: str) -> bool:
    """Whether a bare pause or play said after a question of what someone did goes on the question
    ("why did she laugh and then stop", "who came in and stop", "... and then stop playing"), not the
    listener's: said of the book ("... and pause it"), after asking who or where someone is ("who is
    Wren and where am I and pause") or of the listener ("what did I miss and pause") it is theirs."""
    return (
        isinstance(command, Pause | PlayOn)
        and isinstance(asked, Question | RecapAsked)
        and not _ASKS_WHAT_IS.search(words)
        and not _THE_BOOKS.search(command_said)
    )


def _stays_put_then_asked(
    halves: tuple[Intent, Intent], said: tuple[str, str], joined_by: str
) -> Together | Pause | PlayOn | None:
    """'Pause and who is Oskar', 'how long is left and pause', 'play at 1.5x and who is Wren': the pause,
    the play or the speed done first, either way round, then the ask as it is read said alone
    (``_asks_beside_a_move``), as a move and a question are; a comma joins them as "and" does ("pause,
    who is he"). Not after a wait ("hold on, who is he"); what is no ask is left to the rules after
    ("pause, I'm getting water"). A speed and a pause or a play are both, in the order said ("pause and
    1.5x"); a pause and a play undo each other, so the last said is what the listener wants ("play and
    pause" pauses)."""
    if joined_by not in ("", "and", "then", "and then"):
        return None
    match halves:
        case (Pause(), PlayOn()) | (PlayOn(), Pause()):
            return halves[1]
        case (Speed(), Pause() | PlayOn()) | (Pause() | PlayOn(), Speed()):
            return Together(move=halves[0], then=halves[1])
    for at in (0, 1):
        command, asked, words = halves[at], halves[1 - at], said[1 - at]
        if not isinstance(command, _STAYS_PUT) or _WAITING.match(said[at]):
            continue
        if at == 1 and joined_by and _the_questions_own_verb(command, asked, words, said[at]):
            continue
        if (
            isinstance(asked, _TOLD_BY_PLAIN_CODE)
            or _an_alarm(asked, words)
            or (isinstance(asked, Question | RecapAsked) and _asks_beside_a_move(command, asked, words))
        ):
            return Together(move=command, then=asked)
    return None


def _bookmark_then_stopped(halves: tuple[Intent, Intent], said: tuple[str, str]) -> Together | None:
    """'Bookmark this as the storm and pause', 'bookmark this and sleep in 20 minutes', 'pause and bookmark
    this': the bookmark made first, either way round, where the book is as it is asked, then the pause or
    the timer. Read whole, a title took "and pause" as its own words, and a timer said after it dropped it.
    A wait said first ("hold on, bookmark this") asks for no pause."""
    for at in (0, 1):
        other, other_said = halves[1 - at], said[1 - at]
        if (
            isinstance(halves[at], Bookmark)
            and isinstance(other, (Pause, *_TIMER_SET))
            and not (isinstance(other, Pause) and _WAITING.match(other_said))
        ):
            return Together(move=halves[at], then=other)
    return None


def _speed_with_the_timer(halves: tuple[Intent, Intent]) -> Together | None:
    """'1.5x and sleep in 10', 'sleep in 20 minutes at 1.5x': the speed set first, either way round, then
    the timer set or cancelled, whose reply speaks of minutes of listening at that speed."""
    for at in (0, 1):
        if isinstance(halves[at], Speed) and isinstance(halves[1 - at], _TIMER_SET):
            return Together(move=halves[at], then=halves[1 - at])
    return None


def _asked_beside_a_move(
    halves: tuple[Intent, Intent], said: tuple[str, str], moving: int
) -> Question | RecapAsked | None:
    """'Who is Oskar and go back 5 minutes', 'what did I miss and take me back to where I fell asleep': a
    question of the story or a recap of its own beside a move, each done (``_asks_beside_a_move``)."""
    asked, words = halves[1 - moving], said[1 - moving]
    if isinstance(asked, Question | RecapAsked) and _asks_beside_a_move(halves[moving], asked, words):
        return asked
    return None


def _asks_beside_a_move(move: Intent, asked: Question | RecapAsked, words: str) -> bool:
    """Whether a question or a recap is asked of its own beside ``move``. Never beside a moment described,
    whose words may hold one ("the bit where they argue and who gets the horse"), nor beside a place of the
    history only shown, which is an ask told beside it (``BothAsked``). Not a question that asks of what
    the move plays again ("go back 30 seconds, what did he say"), nor one that may go on a sentence ("...
    and has to be put down", "... and was killed": a moment's words); not a recap of the latest listening
    beside a jump back, which plays it again (``_back_over_a_recap``), nor a doze told ("... I fell
    asleep"), which says why, nor a recap read only from a pronoun."""
    words = words.strip()
    if isinstance(move, FindPlace) or _shown_only(move):
        return False
    # a pause or a play plays nothing again: a pronoun asks of what was just heard, as said alone
    stays_put = isinstance(move, _STAYS_PUT)
    points_back = not stays_put and _points_back_past_itself(words)
    if isinstance(asked, RecapAsked):
        pronoun_only = not stays_put and _recap_by_a_pronoun(words)
        return not (_played_again(move, asked) or pronoun_only or words.startswith("i "))
    if not (_ASKED_BY_A_QUESTION_WORD.match(words) or ASKING_WHEN.match(words)):
        return False
    return not (points_back or (_names_nothing(words) and not stays_put))


def _points_back_past_itself(words: str) -> bool:
    """Whether a question asks by a pronoun of someone it does not name first: "what did he say" asks of
    what was heard, "who is Oskar and where is he" of the Oskar it names, and is asked whole, as alone."""
    first = _JOINT.split(words, maxsplit=1)[0]
    return _points_back(words) and (first == words or _points_back(first) or _names_nothing(first))


def _three_with_a_move(
    said: tuple[str, str], halves: tuple[Intent, Intent]
) -> Together | tuple[Intent, Intent]:
    """'Who is Oskar, go back 5 minutes and sleep in 20', 'go back 5 minutes, who is Oskar and sleep in
    20 minutes': three requests in one breath, one half itself two (read as a whole, its halves not parted
    again), with one move among them: the move first, then the other two as ``BothAsked`` in the order
    asked, each as it may be done beside the move alone. Two moves are not all done: a turn moves once.
    The half read alone swallowed one request ("who is Oskar and sleep in 20 minutes" was one question).
    Else ``halves``, a half of two parts that make one request read as that one ("go back 5 minutes and
    what did I miss" is the jump: ``_back_over_a_recap``), for the rules of two."""
    read_again = list(halves)
    others: Intent
    for split, alone in ((0, 1), (1, 0)):
        words = said[split]
        # beside a moment described or words read as nothing, no three are done: not read again
        if not _JOINT.search(words) or isinstance(halves[alone], FindPlace | Other):
            continue
        two = (
            (_doze_said(normalise(words)) is None and _back_over_a_recap(words, whole=False))
            or _done_together(words, whole=False)
            or _two_asked(words, words, whole=False)
            or _two_moves_said(words, read(words, whole=False))
        )
        match two:
            case Together(move=move, then=then) if _beside_a_move(move, halves[alone], said[alone]):
                # the half said with the move was judged beside it where it was read (``_done_together``)
                others = BothAsked(halves[alone], then) if alone == 0 else BothAsked(then, halves[alone])
            case Together(move=Pause(), then=then) if isinstance(halves[alone], _MOVES):
                # "go back 1 minute, pause and sleep in 3": the pause and its timer, after the move
                move, others = halves[alone], BothAsked(Pause(), then)
            case Together(move=other, then=then) if _two_moves(halves[alone], other):
                # a turn moves once: the move said first is made, the other kept to be told it was not
                move, others = (
                    (halves[alone], BothAsked(other, then))
                    if alone == 0
                    else (other, BothAsked(then, halves[alone]))
                )
            case BothAsked(first=first, second=second) if kept := _kept_beside_a_move(
                halves[alone], (first, second)
            ):
                move, others = halves[alone], kept
            case Jump() | RecapAsked():
                read_again[split] = two
                continue
            case _:
                continue
        moved = isinstance(move, _MOVES) and not isinstance(move, FindPlace)
        if moved and isinstance(others, _DONE_AFTER_A_MOVE):
            return Together(move=move, then=others)
    return read_again[0], read_again[1]


def _kept_beside_a_move(move: Intent, parts: tuple[Intent, Intent]) -> Intent | None:
    """Two asks said after ``move``, each done after it: both, or the one left when the other is a recap
    the move plays again ("rewind, what happened and sleep in 20" is the jump and the timer); None when
    one may not be done beside the move."""
    left = [part for part in parts if not (isinstance(part, RecapAsked) and _played_again(move, part))]
    if not left or not all(
        _beside_a_move(move, part, part.question if isinstance(part, Question) else None) for part in left
    ):
        return None
    return left[0] if len(left) == 1 else BothAsked(left[0], left[1])


def _two_moves(one: Intent, other: Intent) -> bool:
    """Two moves said in one breath with no moment described ("go back 5 minutes, next chapter and sleep
    in 20"): words read as a moment may hold what reads as a move."""
    return all(isinstance(move, _MOVES) and not isinstance(move, FindPlace) for move in (one, other))


def _two_moves_said(utterance: str, read_whole: Intent) -> Intent | None:
    """'Back 5 minutes and then forward 2 minutes': two moves and nothing else, read whole as one of them,
    the other dropped unsaid. Both are kept, in the order said: the turn moves once, and says the second
    was not made (``keyless._answer_half``). A move whose words part at a joint into two and read whole as
    neither ("chapter 3, 5 minutes in") stays the one move, and so does a jump of no amount said beside
    another move, which says where it goes ("go back, to the start of this chapter", "i missed that, back
    up 45 seconds", "skip on a couple of minutes, this part's boring"); a move refused after it is no second
    ("go back 5 minutes, not to the start of the chapter": ``_asked_before_a_refusal``). A jump by nothing
    beside another move ("go back 0 seconds and next chapter") is the other move alone."""
    if _REFUSED_AFTER.search(with_pauses(utterance)):
        return None
    for said, halves, joined_by in _two_halves(with_pauses(utterance)):
        if (
            _two_moves(*halves)
            and read_whole in halves
            and (
                all(_measure_said(half, words) for half, words in zip(halves, said, strict=True))
                # a bit one way, then an amount back: "… 30 seconds and then forward" is carrying on
                or (_jumps_both_ways(halves) and not _measure_said(halves[0], said[0]))
            )
            and not _a_clause(halves[0], said[0], joined_by)
        ):
            # a jump by nothing moves nowhere: beside another move it is no move of its own
            nowhere = [isinstance(half, Jump) and half.offset_ms == 0 for half in halves]
            if any(nowhere) and not all(nowhere):
                return halves[nowhere.index(False)]
            return Together(move=halves[0], then=halves[1])
    return None


def _jumps_both_ways(halves: tuple[Intent, Intent]) -> bool:
    """'Back a bit and forward 2 minutes': a jump each way, so neither is the other said again, whatever
    amount each says."""
    match halves:
        case Jump(offset_ms=one), Jump(offset_ms=other):
            return one * other < 0
    return False


def _measure_said(move: Intent, words: str) -> bool:
    """Whether a move says where it goes: any but a jump, or a jump by an amount said ("back 5 minutes",
    "back 5"), not one of a bit that the words alone give ("go back", "play that again")."""
    return (
        not isinstance(move, Jump)
        or move.unit_taken is not None
        or re.search(AMOUNT, normalise(words)) is not None
    )


def _beside_a_move(move: Intent, part: Intent, words: str | None) -> bool:
    """One of three requests, done after ``move``: a timer or a pause, or a question or a recap asked of
    its own (``_asks_beside_a_move``; ``words`` None: a recap whose words were judged where the two asks
    it was said with were read, ``_two_asked``)."""
    if isinstance(part, _PLAYBACK):
        return True
    if isinstance(part, RecapAsked) and words is None:
        return not (isinstance(move, FindPlace) or _shown_only(move) or _played_again(move, part))
    return isinstance(part, Question | RecapAsked) and _asks_beside_a_move(move, part, words or "")


_PLAYED_AGAIN_BY_A_JUMP_BACK = ("last_minutes", "since_asleep", "before_asleep", "last_time")
"""Recaps of the latest listening, which a jump back said with one plays again (``_back_over_a_recap``); a
recap of a chapter or of the story so far is none of what a jump plays again, and both are done."""


def _played_again(move: Intent, recap: RecapAsked) -> bool:
    return isinstance(move, Jump) and move.offset_ms < 0 and recap.args.span in _PLAYED_AGAIN_BY_A_JUMP_BACK


_ASKED_BY_A_QUESTION_WORD = re.compile(
    r"^(?:who|what|whats|what's|why|which|how|whose"
    r"|(?:(?:can|could|would) you (?:please )?)?(?:tell me|remind me))\b"
)
"""A question that cannot be the rest of a sentence before it, as "and was killed" may."""


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
_TIMER_SET = (SleepTimer, TimerAdded, TimerAgain, CancelSleepTimer)
"""The sleep timer set or cancelled: done beside a recap or a question of the story (``BothAsked``), as
neither moves the book nor reads what the other reads."""


_POINTS_BACK = re.compile(r"\b(?:it|its|he|him|his|she|her|they|them|their|that|this|there|then)\b")


def _searched_beside_another(halves: tuple[Intent, Intent], said: tuple[str, str]) -> bool:
    """A recap or a question of the story asked beside another ask ("who is Oskar and what did I miss",
    "where are we and what did I miss"), beside the sleep timer ("what did I miss and sleep in 20
    minutes") or beside a place of the history asked about ("what did I miss, how long was I out"): each
    is answered, in one call each, where the recap, read anywhere in the words, was all that was answered
    (or the timer alone, said first). Not two questions, nor two recaps, which are one
    ask said in two parts ("who is Ginger and what happened to her", "I fell asleep, what happened"); nor
    a question that points back at the other half ("what chapter is this and what happened in it") or
    names nothing of its own ("who are they and why"), nor a recap read only from a pronoun
    ("who is Oskar and where is he"), nor a doze told ("I dozed off, where are we"), which says why,
    not what."""
    searched = [half for half in halves if isinstance(half, RecapAsked | Question)]
    answerable = (*_TOLD_BY_PLAIN_CODE, *_TIMER_SET, RecapAsked, Question)
    if not searched or not all(isinstance(half, answerable) or _shown_only(half) for half in halves):
        return False
    if len(searched) == 2 and type(searched[0]) is type(searched[1]):
        return False
    # "who is Oskar and where is he": "where is he" alone is the last minutes, beside Oskar it asks of him
    return not any(
        (isinstance(half, Question) and (_points_back(words) or _names_nothing(words)))
        or (isinstance(half, RecapAsked) and words.strip().lower().startswith("i "))
        or (isinstance(half, RecapAsked) and _recap_by_a_pronoun(words))
        for half, words in zip(halves, said, strict=True)
    )


def _shown_only(half: Intent) -> bool:
    """A place of the listener's history asked about ("how long was I out?", "where did I fall asleep?"):
    shown, never moved to, so it may stand beside a recap or a question as any ask told may."""
    return isinstance(half, Earlier) and half.show_only


def _recap_by_a_pronoun(words: str) -> bool:
    """Whether a recap is read only from a pronoun ("where is he"), said as no recap: asked beside a
    question it asks of whom the question names ("who is Oskar and where is he")."""
    return _points_back(words) and not asked_as_a_recap(normalise(words))


def _points_back(words: str) -> bool:
    """Whether a question asks by a pronoun of something not its own: "Oskar, who is he" names him."""
    return bool(_POINTS_BACK.search(words.lower())) and not _someone_then_who(normalise(words))


def _names_nothing(words: str) -> bool:
    return all(word in FUNCTION_WORDS for word in words_of(words.lower()))


_IT_CALLED = re.compile(r"^what(?:'s|s| is) it called(?: again)?$")


def _two_asked(text: str, utterance: str, *, whole: bool = True) -> Intent | None:
    """Two asks said together, each half read alone; a question with the names ``utterance`` capitalised.
    One asked twice is one ask: "is it playing and why did it stop" is told once, with why; the time left
    twice ("how long is this chapter and how much is left") is the one ask the whole sentence says, and
    the chapter's length and the book's are both lengths, said together; a chapter named beside the time
    left ("how long is chapter 6 and how long is left") is two asks, each told. Three, when ``whole``
    (``_three_asked``)."""
    for joint in itertools.islice(_JOINT.finditer(text), JOINTS_TRIED):
        first_said, second_said = text[: joint.start()], text[joint.end() :]
        first, second = read(first_said, whole=False), read(second_said, whole=False)
        if _asked_after_a_later_joint(second_said, second):
            continue  # "who are ginger and merrylegs and sleep in 20": "merrylegs" is the question's
        if whole and (three := _three_asked((first_said, second_said), (first, second), utterance)):
            return three
        if _searched_beside_another((first, second), (first_said, second_said)):
            first, second = (
                Question(_names_capitalised(half.question, utterance)) if isinstance(half, Question) else half
                for half in (first, second)
            )
            return BothAsked(first=first, second=second)
        if any(isinstance(half, _TOLD_BY_PLAIN_CODE) for half in (first, second)) and any(
            isinstance(half, _TIMER_SET) for half in (first, second)
        ):
            return BothAsked(first=first, second=second)  # "where am I and sleep in 20": told, then set
        if _an_alarm_beside_what_is_told((first, second), (first_said, second_said)):
            # "sleep in 20 and wake me at 7": set, then told
            return BothAsked(_capitalised_again(first, utterance), _capitalised_again(second, utterance))
        if not (isinstance(first, _TOLD_BY_PLAIN_CODE) and isinstance(second, _TOLD_BY_PLAIN_CODE)):
            continue
        match first, second:
            case PlayingAsked(), PlayingAsked():
                return PlayingAsked(why=first.why or second.why)
            case TimeLeft(), TimeLeft() if _names_a_chapter(first) or _names_a_chapter(second):
                # "how long is chapter 6 and how long is left": two lengths, each told
                return first if first == second else BothAsked(first=first, second=second)
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


def _an_alarm_beside_what_is_told(halves: tuple[Intent, Intent], said: tuple[str, str]) -> bool:
    """One alarm asked for (``_an_alarm``) beside the sleep timer set, what plain code tells, a goodnight
    ("i'm going to sleep, wake me at 7"), or a question of the story or a recap asked of its own ("who is
    Wren and wake me at 7", "wake me up in 10 minutes, what did I miss", "I fell asleep, wake me at 7"):
    each answered in the order asked, where the timer's words, the alarm's time or the question took the
    whole breath, or the goodnight was read as a stop at 7."""
    alarms = [_an_alarm(half, words) for half, words in zip(halves, said, strict=True)]
    if alarms.count(True) != 1:
        return False
    told = alarms.index(False)
    other, words = halves[told], said[told].strip()
    match other:
        case Question():  # a question word first: no rest of a sentence ("... and wake me at 7"), and no
            # request of its own within ("who is Wren and pause")
            return (
                bool(_ASKED_BY_A_QUESTION_WORD.match(words))
                and not _names_nothing(words)
                and isinstance(read(words), Question)
            )
        case RecapAsked():
            # a doze told after a request says why, not what; told first ("I fell asleep, wake me at 7"),
            # what was missed is asked, as "what did I miss" is
            return told == 0 or not words.startswith("i ")
    return isinstance(other, (*_TOLD_BY_PLAIN_CODE, *_TIMER_SET)) or other == Courtesy("goodnight")


def _names_a_chapter(asked: TimeLeft) -> bool:
    """Whether a length asked is of a chapter named ("chapter 6", "the next chapter"), not the one playing."""
    return asked.chapter is not None or asked.chapter_said is not None


def _asked_after_a_later_joint(said: str, read_as: Intent) -> bool:
    """Whether a half's ask is said only after a further joint, the words before it no request of their
    own ("merrylegs and sleep in 20"): they end the ask before, which held an "and", and the half is
    parted at that later joint."""
    joint = _JOINT.search(said)
    return (
        joint is not None
        and isinstance(read(said[: joint.start()], whole=False), Other)
        and read(said[joint.end() :], whole=False) == read_as
    )


def _three_asked(said: tuple[str, str], halves: tuple[Intent, Intent], utterance: str) -> BothAsked | None:
    """'What did I miss, who is Oskar and sleep in 20': three asks in one breath and no move, one half
    itself two (read as a whole, its halves not parted again), each answered in the order asked when each
    of the two may be asked beside the third. The half read alone swallowed one ("who is Oskar and sleep
    in 20" was one question)."""
    for split, alone in ((0, 1), (1, 0)):
        if not _JOINT.search(said[split]):
            continue
        two = _two_asked(said[split], utterance, whole=False)
        if not isinstance(two, BothAsked):
            continue
        third = _capitalised_again(halves[alone], utterance)
        # the two parts' own words were judged where they were read: a question's are its own
        if all(
            _asked_beside((third, part), (said[alone], part.question if isinstance(part, Question) else ""))
            for part in (two.first, two.second)
        ):
            return BothAsked(third, two) if alone == 0 else BothAsked(two, third)
    return None


def _asked_beside(halves: tuple[Intent, Intent], said: tuple[str, str]) -> bool:
    """Whether two asks may be answered each, as ``_two_asked`` answers them: a recap or a question beside
    another ask (``_searched_beside_another``), or two different things plain code tells or does."""
    if _searched_beside_another(halves, said):
        return True
    told = (*_TOLD_BY_PLAIN_CODE, *_TIMER_SET)
    return type(halves[0]) is not type(halves[1]) and all(
        isinstance(half, told) or _shown_only(half) for half in halves
    )


def _doze_said(text: str) -> Intent | None:
    """A doze said with how long ago it was: the minutes since are what was missed ("I dozed off twenty
    minutes ago"), or how far to go back ("... go back"); said with a move, the move. None leaves a doze
    alone to the sleep timer's estimate (``read_earlier``, ``read_recap``)."""
    if where := _WHERE_I_DOZED_AGO.match(text):
        return Jump(offset_ms=-round(amount_ms(where["ago"])))
    dozed = _DOZED.match(text)
    if dozed is None:
        return None
    ago_ms = round(amount_ms(dozed["ago"])) if dozed["ago"] else None
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
