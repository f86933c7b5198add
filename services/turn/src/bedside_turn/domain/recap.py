"""Recaps in the turn: which stretch of heard book time a question means, and how it is said: pure.

The span is chosen here from the question, the position, the book's chapters and the
player's newest asleep fact; search reads it (clamped to the line again, whatever it is
asked) and picks the sentences. Nothing here reads a passage.
"""

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bedside_contracts.player import Asleep
from bedside_contracts.search import ChapterInfo, Recapped, chapter_at
from bedside_contracts.turn import RecapArgs
from bedside_guard import chapter_name, clock

from bedside_turn.domain import numbers
from bedside_turn.domain.lengths import said_length
from bedside_turn.domain.own_words import OwnWords

WELL_INTO = 0.75
"""From this share of the playing chapter heard on, "the last chapter" is the one playing."""
FALLBACK_MINUTES = 5
"""A recap that says no span ("tell me what happened", or "what did I miss" with no asleep fact to go
on) tells the last five minutes heard."""
JUST_NOW_MINUTES = 2
STILL_DOZING_MS = 10 * 60_000
"""An asleep fact counts while the listener is within ten minutes of book time past the pause;
further on, they have listened on since and "what did I miss" means the last few minutes."""
SPOKEN_WORDS = 70
"""The extractive recap's sentences: with the opening and the times, under 40 s at 155 words a minute."""

NOTHING_HEARD = "You haven't heard anything of that stretch yet, so it's all still ahead of you."
NO_BREAK_YET = "You haven't stopped listening for an hour or more yet."
DOZE_HEARD_AGAIN = "You've since heard again all you dozed through."
MISSED_SINCE_HEARD_AGAIN = "From {}, the rest of what you dozed through:"
MISSED_AHEAD = "What you dozed through plays again from {} as you listen on."
"""Not "ahead of you": just after it was told with the move back ("what did I miss and take me back to
where I fell asleep"), "say that again" is told this from the new place: it must not read as never told."""
NOTHING_SAYABLE = "I can't pick out anything to tell you from that stretch; it was very short."
NOT_TRANSCRIBED_YET = (
    "That part is still being transcribed, so I can't tell you what happened in it yet."
    " Ask me again in a little while."
)
NO_WORDS_HEARD = "No words were heard in that part of the recording, so there's nothing of it I can tell you."


@dataclass(frozen=True)
class RecapAsked:
    """The listener asks what happened in a stretch of what they heard."""

    args: RecapArgs


@dataclass(frozen=True)
class ChosenSpan:
    from_ms: int
    to_ms: int
    opening: str
    """How the recap starts when said ("Since you dozed off at 1:02:03:")."""
    told: str
    """What the model is told the stretch is: no time in it, so no position reaches the model."""
    chapter: int | None = None
    nothing_heard: str = NOTHING_HEARD
    """What is said when nothing of the stretch has been heard yet."""
    missing: bool = False
    """The chapter asked for is not in the book: nothing to read, and the ask is refused."""
    unread: Literal["", "not_transcribed", "no_words"] = ""
    """Why nothing of a stretch behind may be read: it reaches into a chapter not transcribed yet
    (words heard there cannot be read yet), or lies in chapters in which nothing was heard."""


_BOOK_ABOUT = r"\bwhat(?:'s| is) (?:this|the) (?:story|book) about\b"
"""Told as the book so far: all that can be said of it without what is ahead."""
_CATCHING_UP = r"\bcatch me up\b|\bfill me in\b|\b(?:bring|get) me up to speed\b"
NOT_LISTENING = r"i (?:wasn'?t (?:listening|paying attention)|zoned out|spaced out)|my mind wandered"
"""Awake, but the words went by: what was missed is asked as a doze is."""
_ASLEEP = re.compile(
    r"\bwhat did i (?:just )?miss\b|\bwhat have i (?:just )?missed\b|\bdid i miss (?:anything|something)\b"
    r"|^(?:(?:can|could) you )?(?:please )?(?:tell|remind) me what i(?:'ve| have)? (?:just )?missed\b"
    r"(?! (?:about|of|with|when)\b)"
    r"|\bhow much (?:did i (?:just )?miss|have i (?:just )?missed)\b"  # the doze, not a question of the story
    rf"|{_CATCHING_UP}"
    rf"|\b(?:{NOT_LISTENING})\b"
    r"|\bi(?:'ve|ve| have)? lost track"
    r"(?: of (?:it|things|the (?:story|plot)|what'?s (?:going on|happening)))?"
    r"[.,;!?]*(?:$| (?:so )?what (?:happened|did (?:i miss|they say)|(?:'s|is) (?:going on|happening))\b)"
    r"|\bi (?:must have )?(?:dozed|fell asleep|drifted|nodded off|fallen asleep|slept|sleep through)\b"
    r"|^i(?:'ve| have) been (?:asleep|sleeping|dozing)\b"
    r"|\b(?:since|while|whilst|after) i (?:was )?"
    r"(?:fell|fall|fallen|dozed?|dozing|drifted|nodded|slept|asleep|sleeping|out)\b"
)
LAST_SITTING = (
    r"(?:last night|last time|the last time|yesterday(?: (?:morning|afternoon|evening))?|this morning"
    r"|earlier today|the other (?:day|night)|before bed|at bedtime)"
)
"""Words for the listening before the last break: where they left off then, and what they heard."""
_LAST_TIME = re.compile(
    r"^(?:(?:can|could) you )?(?:please )?(?:(?:remind|tell) me (?:of )?)?"
    r"what (?:happened|did i (?:hear|listen to)|was i listening to|went on)(?: in the (?:book|story))?"
    rf" {LAST_SITTING}$"
    r"|^(?:(?:can|could) you )?(?:please )?(?:recap|summar(?:ise|ize)|sum up|catch me up on|go over"
    rf"|remind me (?:of|about)) (?:what i heard )?{LAST_SITTING}$"
)
"""What they heard before their last break, asked of the listening and not of the story."""
_BEFORE_ASLEEP = re.compile(
    r"\b(?:just |right )?before i (?:fell asleep|dozed off|drifted off|nodded off|went to sleep|fell off)\b"
)
"""What they heard last, before they slept: read before the doze, whose words it holds."""
_JUST_NOW = re.compile(
    r"\bwhat (?:just|has just) happened\b|\bwhat did (?:he|she|they|it|that|you) just say\b"
    r"|\bwhat (?:did i just|have i just|was i just) (?:hear|heard|hearing|listen to|listening to)\b"
    r"|\bwhat happened just now\b|^(?:sorry,? )?what (?:just )?happened (?:there|then)$"
    r"|\bwhat(?:'s| is| are) (?:\w+ ){1,3}doing (?:right )?now\b"
    r"|\bwhat(?:'s| is) happening (?:right )?now\b|^who(?:'s| is) (?:talking|speaking)(?: (?:right )?now)?$"
    r"|^who (?:just )?(?:spoke|said that|was (?:that )?(?:talking|speaking))(?: just now)?$"
    r"|^what did (?:he|she|they|you|it) (?:just )?say$|^what (?:was|has been) just said$"
    r"|^(?:where|what) (?:are|is|'re|'s) (?:he|she|they)(?: (?:doing|up to))?(?: (?:right )?now)?$"
    r"|^why (?:did|does|would) (?:he|she|they|it) (?:do|say) (?:that|this)$"
    r"|^who(?:'s| is| was| are| were) (?:he|she|they|this|that)"
    r"(?: (?:guy|man|woman|lady|person|character|girl|boy))?(?: again)?$"
    r"|^who(?:'s| is| was| are| were) (?:he|she|they) (?:talking|speaking) (?:to|about|with)$"
    r"|\bwhat was the last thing (?:that )?(?:happened|i heard|(?:he|she|they|you) said)\b"
    r"|^what was (?:that last (?:bit|part)|the last bit)(?: about)?(?: again)?$"
    r"|^(?:sorry,? )?(?:what was that|say (?:that )?again|come again|pardon|sorry|huh|what)(?: again)?"
    r"(?: please)?$"
    r"|^(?:summar(?:ise|ize)|recap|sum up) (?:that|this)(?: please)?$"
)
"""Half heard, just now: "what did she just say?", "huh?", "say that again" are the latest minutes, and
"who is he?", "where are they now?" or "why did she say that?": someone asked of only by a pronoun is
whoever is in the latest minutes."""
_WHERE_WAS_I = re.compile(
    r"^(?:where (?:was i|were we)|what was i (?:listening to|on)|what did i (?:last )?listen to(?: last)?)"
    r"(?: again)?$"
)
"""Asked alone, half awake: what was playing, said as the latest minutes (no passage answers it).
"Where am I?" and "which chapter is this?" are not recaps: ``intents`` reads them first (``WhereAmI``)."""
_ASKED_ALONE = re.compile(
    r"^(?:(?:can|could) you |please )?(?:give me )?(?:a )?"
    r"(?:(?:tell|read|remind) me )?(?:a |the )?"
    r"(?:what(?:'s| has)? happened|what was happening|what(?:'s| is| has)(?: been)? (?:going on|happening)"
    r"|(?:(?:quick|short|brief) )?(?:recap|summary)|summar(?:ise|ize)|sum (?:it )?up)"
    r"(?: please)?$"
)
"""A recap asked without naming a stretch or anything in the story: the latest minutes heard."""
_LOST = re.compile(
    r"^(?:i'm|im|i am) (?:(?:a bit|a little|so|totally|completely) )?(?:lost|confused)"
    r"(?:,? what(?:'s| is) (?:going on|happening))?$"
    r"|^i (?:don't|do not) (?:understand|get|follow)(?: (?:it|this|what(?:'s| is) (?:going on|happening)))?$"
)
"""Lost in the story, said without a question: the same latest minutes as "what's going on?"."""
_CATCH_UP = re.compile(_CATCHING_UP)
_MOVES = re.compile(
    r"\b(?:go|goes|going|take|bring|skip|jump|play|replay|start|beginning|restart|rewind|move|return|listen)\b"
    r"|\bback (?:to|in)\b|\bread\b.*\bagain\b|\bi (?:want|'d like|would like)\b(?! to (?:know|be reminded))"
)
_TAKEN_BACK_THERE = re.compile(
    r"\b(?:take|bring|put) me back(?: there| to (?:it|that|that bit|that part))?(?: please)?[.?!]*$"
    r"|\bgo back there(?: please)?[.?!]*$"
)
"""A moment described, and then "take me back there": dozing is why, the moment is where to go."""
_SPAN_ALONE = re.compile(r"^(?:the |in the )?(?:last|past) (?:\S+ ){0,2}(?:minutes?|hours?)(?: please)?$")
"""A stretch said alone, as the answer to "what happened?" is ("the last ten minutes"): that stretch told."""
_ASKS = re.compile(
    r"\bwhat(?:'s|s| has| have| had)? (?:happen\w*|went on|gone on|was going on|been going on)\b"
    r"|\brecap\b|\bsumm?ar(?:ise|ize|y)\b|\bsum up\b|\bremind me (?:of )?what\b|\btell me (?:what|about)\b"
    r"|\bgo over\b"
    r"|\bwhat (?:have|did) (?:i|we) (?:heard?|listened to|listen to)\b"
    r"(?! of\b)(?!.*\b(?:about|from|regarding)\b)"  # what was heard of someone is a question
    r"|\bstory so far\b"
    rf"|{_BOOK_ABOUT}"
    r"|\bwhat(?:'s| was| is) (?:the |that |this )?(?:last |previous |current )?chapter about\b"
    rf"|\bwhat (?:was|is) chapter {numbers.SAID_AS_A_NUMBER} about\b"
)
_LAST = re.compile(r"\b(?:last|past|previous)\s+")
_HALF_HOUR = re.compile(r"\b(?:last|past|previous)\s+half (?:an )?hour\b")
_MINUTES = re.compile(r"\b(?:last|past|previous)\s+(?:(\d+|[a-z]+(?: of| few)?)\s+)?(minute|min|hour)s?\b")
MISSED = r"(?:i )?(?:missed|didn't (?:catch|hear|get)|did not (?:catch|hear|get))"
"""The words of something said to be missed ("I missed that", "I didn't catch the last line")."""
_LAST_CHAPTER = re.compile(
    r"\b(?:last|previous|prior|preceding) (?:chapter|story)\b|\bchapter before\b"
    # asked as it ends, or just after: the one that ended
    rf"|^what was (?:that|the) chapter about$|^{MISSED} (?:(?:the end|the rest|most) of )?that chapter$"
)
CHAPTER_BEFORE_LAST = re.compile(r"\bchapter before (?:the )?last\b|\bchapter before the previous(?: one)?\b")
"""The chapter before the one "the last chapter" means, asked about or gone to: read before "the chapter
before" (``_LAST_CHAPTER``). A recap counts back from the chapter playing once it is well heard, so well
into chapter 5 it tells chapter 4; the move always goes two chapters back."""
_CHAPTERS_AGO = re.compile(r"\b(?:(?P<two>two|2) chapters|(?:one|a) chapter) (?:ago|back)\b")
"""A chapter counted back from the one playing, asked about ("what happened two chapters ago"): counted
from the chapter playing however far into it, as said, where "the last chapter" shifts once it is well
heard. Only a recap asked of nothing else ("what happened to the dog two chapters ago" is a question)."""
_WHOLE_CHAPTER = re.compile(rf"\s*{_CHAPTERS_AGO.pattern}")
_THIS_CHAPTER = re.compile(
    r"\b(?:this|the current) chapter\b|^(?:recap|summar(?:ise|ize|y)|sum up)(?: of)? the chapter(?: so far)?$"
    r"|^what is (?:that|the) chapter about$"
)
"""In a book of stories the last story is the last chapter; "this story" is left to mean the book."""
_NUMBERED_CHAPTER = re.compile(rf"\bchapter ({numbers.SAID_AS_A_NUMBER})(?:\b|$)")
_SO_FAR = re.compile(
    r"\bso far\b|\b(?:the )?whole (?:story|book)\b|\bfrom the (?:very )?(?:start|beginning)\b"
    rf"|\b(?:recap|summar(?:ise|ize|y)(?: of)?|sum up) (?:this|the) (?:story|book)\b|{_BOOK_ABOUT}"
)


def read_recap(
    text: str, number_of: Callable[[str], float], amount_ms: Callable[[str], float | None]
) -> RecapAsked | None:
    """A recap question in ``text`` (already normalised), or None; ``number_of`` reads "five", "10",
    ``amount_ms`` the amount of time a text starts with ("an hour and a half": ``intents``).

    A stretch the listener names wins over the doze: "catch me up on the last chapter" is
    that chapter. The last chapter named without any word of moving ("what was in the
    previous chapter?", "remind me of the last chapter") asks what it held; with one ("go
    back to the last chapter") it is a place to go to, not a recap, and so it is said alone
    ("previous chapter": ``intents`` reads that first).
    """
    asks = bool(
        _ASKS.search(text) or _CATCH_UP.search(text) or _ASLEEP.search(text) or _SPAN_ALONE.match(text)
    )
    if asks and (span := _named_span(text, number_of, amount_ms)) is not None:
        return RecapAsked(span)
    if _LAST_CHAPTER.search(text) and not _MOVES.search(text):
        return RecapAsked(_last_chapter(text))
    if _LAST_TIME.match(text):
        return RecapAsked(RecapArgs(span="last_time"))
    if _BEFORE_ASLEEP.search(text):
        return RecapAsked(RecapArgs(span="before_asleep"))
    if _ASLEEP.search(text) and not _TAKEN_BACK_THERE.search(text):
        return RecapAsked(RecapArgs(span="since_asleep"))
    if _JUST_NOW.search(text) or _WHERE_WAS_I.match(text):
        return RecapAsked(RecapArgs(span="last_minutes", minutes=JUST_NOW_MINUTES))
    if _ASKED_ALONE.match(text) or _LOST.match(text):
        return RecapAsked(RecapArgs(span="last_minutes", minutes=FALLBACK_MINUTES))
    return None


def asked_as_a_recap(text: str) -> bool:
    """Whether ``text`` (normalised) says a recap in so many words ("what did I miss", "recap that"),
    where "where is he" reads as one only for want of anything else."""
    return bool(_ASKS.search(text) or _CATCH_UP.search(text) or _ASLEEP.search(text))


def _last_chapter(text: str) -> RecapArgs:
    return RecapArgs(span="chapter_before_last" if CHAPTER_BEFORE_LAST.search(text) else "last_chapter")


def _named_chapter(text: str) -> RecapArgs | None:
    if numbered := _NUMBERED_CHAPTER.search(text):
        return RecapArgs(span="chapter", chapter=int(numbers.number_of(numbered.group(1))))
    if _LAST_CHAPTER.search(text):
        return _last_chapter(text)
    if (ago := _CHAPTERS_AGO.search(text)) and _ASKED_ALONE.match(_WHOLE_CHAPTER.sub("", text).strip()):
        return RecapArgs(span="chapters_ago", chapters_back=2 if ago["two"] else 1)
    if _THIS_CHAPTER.search(text):
        return RecapArgs(span="this_chapter")
    return None


def _named_span(
    text: str, number_of: Callable[[str], float], amount_ms: Callable[[str], float | None]
) -> RecapArgs | None:
    if minutes := _minutes(text, number_of, amount_ms):
        return RecapArgs(span="last_minutes", minutes=minutes)
    if (chapter := _named_chapter(text)) is not None:
        return chapter
    if _SO_FAR.search(text):
        return RecapArgs(span="so_far")
    return None


def minutes_back(ms: float) -> int:
    """An amount of time as the whole minutes a recap goes back, within what a recap covers."""
    return max(1, min(600, round(ms / 60_000)))


def _minutes(
    text: str, number_of: Callable[[str], float], amount_ms: Callable[[str], float | None]
) -> int | None:
    """The minutes of "the last ...": an amount read by the one reader of amounts ("the last hour
    and a half" counts its hour as one), else the few words a recap is asked with ("the last few
    minutes")."""
    if last := _LAST.search(text):
        after = text[last.end() :]
        amount = amount_ms(after) or amount_ms(f"one {after}")
        if amount is not None:
            return minutes_back(amount)
    if _HALF_HOUR.search(text):
        return 30
    said = _MINUTES.search(text)
    if said is None:
        return None
    unit = 60 if said.group(2) == "hour" else 1
    if not said.group(1):
        return unit  # "the last minute", "the last hour"
    word = said.group(1).removesuffix(" of")
    for spelled in (word, f"a {word}", f"a {word} of"):  # "five", "few" ("a few"), "couple" ("a couple of")
        try:
            return minutes_back(number_of(spelled) * unit * 60_000)
        except (KeyError, ValueError):
            continue
    return None


def choose_span(
    args: RecapArgs,
    here_ms: int,
    chapters: Sequence[ChapterInfo],
    asleep: Asleep | None,
    left_off_ms: int | None = None,
    *,
    pending: Collection[int] = (),
    silent: Collection[int] = (),
) -> ChosenSpan:
    """The stretch of book time the recap covers; it ends at the line at the latest. ``left_off_ms``
    is where the book was before the listener's last break (the player's ``left_off`` lookup).
    ``pending``: the chapters of a recording not transcribed yet; a stretch reaching into one holds
    words heard that cannot be read, and nothing read from it is said to be so. ``silent``: the
    chapters in which nothing was heard; "the last chapter" is the last with words, and a stretch
    reaching one with nothing read from it is said to hold no words (it lies behind the line)."""
    chosen = _span(args, here_ms, chapters, asleep, left_off_ms, silent=silent)
    reached = [
        c
        for c in chapters
        if chosen.from_ms < chosen.to_ms and c.start_ms < chosen.to_ms and chosen.from_ms < c.end_ms
    ]
    if any(c.n in pending for c in reached):
        return replace(chosen, nothing_heard=NOT_TRANSCRIBED_YET, unread="not_transcribed")
    if any(c.n in silent for c in reached):
        return replace(chosen, nothing_heard=NO_WORDS_HEARD, unread="no_words")
    return chosen


def _span(
    args: RecapArgs,
    here_ms: int,
    chapters: Sequence[ChapterInfo],
    asleep: Asleep | None,
    left_off_ms: int | None,
    *,
    silent: Collection[int],
) -> ChosenSpan:
    match args.span:
        case "last_time":
            if left_off_ms is None:
                chosen = _last_minutes(FALLBACK_MINUTES, here_ms)
                return replace(chosen, opening=f"{NO_BREAK_YET} {chosen.opening}")
            return _before_last_break(left_off_ms, here_ms, asleep)
        case "since_asleep":
            if (
                asleep is not None
                and asleep.reheard_to_ms is not None
                and asleep.missed_from_ms() >= asleep.paused_at_ms
            ):
                chosen = _last_minutes(FALLBACK_MINUTES, here_ms)
                return replace(chosen, opening=f"{DOZE_HEARD_AGAIN} {chosen.opening}")
            if asleep is not None and _still_dozing(asleep, here_ms):
                return _missed(asleep, here_ms)
            return _last_minutes(FALLBACK_MINUTES, here_ms, asleep_unknown=True)
        case "before_asleep":
            if asleep is not None and _still_dozing(asleep, here_ms):
                awake_ms = min(asleep.asleep_at_ms, here_ms)
                return ChosenSpan(
                    max(0, awake_ms - FALLBACK_MINUTES * 60_000),
                    awake_ms,
                    f"Just before you dozed off at {clock(asleep.asleep_at_ms)}:",
                    "The last minutes they heard before they dozed off",
                )
            return _last_minutes(FALLBACK_MINUTES, here_ms, asleep_unknown=True)
        case "last_minutes":
            return _last_minutes(args.minutes or FALLBACK_MINUTES, here_ms)
        case "so_far":
            return ChosenSpan(0, here_ms, "The story so far:", "The story so far, from the start")
        case "chapter":
            return _numbered_chapter(args.chapter or 0, here_ms, chapters)
    playing = chapter_at(chapters, here_ms)
    if playing is None:
        return ChosenSpan(0, here_ms, "From the start:", "The story so far, from the start")
    opening = _in_chapter(playing)
    if args.span in ("last_chapter", "chapter_before_last", "chapters_ago"):
        before = [c for c in chapters if c.start_ms < playing.start_ms and c.n not in silent]
        length = max(playing.end_ms - playing.start_ms, 1)
        early = (
            (here_ms - playing.start_ms) / length < WELL_INTO
            or playing.n in silent
            or args.span == "chapters_ago"  # counted from the one playing, as said
        )
        # the chapters "the last chapter" counts back through, the latest last
        counted = sorted(before, key=lambda c: c.start_ms) + ([] if early else [playing])
        back = args.chapters_back or (2 if args.span == "chapter_before_last" else 1)
        meant = counted[-back] if len(counted) >= back else counted[0] if counted else playing
        # fewer chapters than counted back: the earliest there is, said so, not passed off as the one asked
        said_first = (
            ""
            if len(counted) >= back
            else NONE_BEFORE_THIS_ONE
            if meant is playing
            else ONLY_ONE_BEFORE_THIS_ONE
        )
        if meant is not playing:
            told_last = chapter_name(meant.n).capitalize()
            opened = f"{said_first} {_in_chapter(meant)}".lstrip()
            return ChosenSpan(meant.start_ms, min(meant.end_ms, here_ms), opened, told_last, meant.n)
        opening = f"{said_first} {opening}".lstrip()
    told = f"{chapter_name(playing.n).capitalize()}, the one playing, as far as they have heard it"
    return ChosenSpan(playing.start_ms, here_ms, opening, told, playing.n, at_chapter_start(playing.n))


NONE_BEFORE_THIS_ONE = "There's no chapter before this one."
ONLY_ONE_BEFORE_THIS_ONE = "There's only one chapter before this one."


def _numbered_chapter(n: int, here_ms: int, chapters: Sequence[ChapterInfo]) -> ChosenSpan:
    """Chapter ``n`` as far as it was heard; one not reached yet is nothing heard, and its title is
    never said (the opening is said only when something of it was heard)."""
    chapter = next((c for c in chapters if c.n == n), None)
    if chapter is None:
        numbered = f"numbered {chapters[0].n} to {chapters[-1].n}" if chapters else "none"
        told = f"The book has no chapter {n}; its chapters are {numbered}. Tell them so."
        return ChosenSpan(here_ms, here_ms, "", told, None, OwnWords(f"This book has no chapter {n}."), True)
    return ChosenSpan(
        chapter.start_ms,
        max(chapter.start_ms, min(chapter.end_ms, here_ms)),
        _in_chapter(chapter),
        f"Chapter {n}",
        n,
        OwnWords(f"You haven't reached chapter {n} yet, so it's all still ahead of you."),
    )


def at_chapter_start(n: int) -> OwnWords:
    """Said of the chapter playing when none of it has played: its number, which the page shows,
    and not its title, which is heard only as the chapter begins."""
    return OwnWords(f"You're at the very start of {chapter_name(n)}, before any of it.")


def _missed(asleep: Asleep, here_ms: int) -> ChosenSpan:
    """What they slept through and have not heard again, up to the line."""
    missed_from = asleep.missed_from_ms()
    opening = (
        f"Since you dozed off at {clock(missed_from)}:"
        if missed_from == asleep.asleep_at_ms
        else MISSED_SINCE_HEARD_AGAIN.format(clock(missed_from))
    )
    told = "From when they dozed off, or as far as they heard it again, to where the sleep timer paused it"
    chosen = ChosenSpan(missed_from, min(asleep.paused_at_ms, here_ms), opening, told)
    if here_ms <= missed_from:  # gone back to hear it again: none of it is behind them now
        return replace(chosen, nothing_heard=MISSED_AHEAD.format(clock(missed_from)))
    return replace(chosen, nothing_heard=_dozed_through(asleep))


def _before_last_break(left_off_ms: int, here_ms: int, asleep: Asleep | None) -> ChosenSpan:
    """The last minutes heard before the last break, up to the line. A break the sleep timer made
    (the book left off resting at its pause) ended the hearing where they dozed off: the minutes
    after it were slept through, which "what did I miss?" tells, and any hearing of them again came
    after the break. The time said is where hearing stopped, never the line: gone back before it,
    those minutes are ahead again."""
    dozed = asleep is not None and asleep.rests_at(left_off_ms) and asleep.asleep_at_ms < left_off_ms
    heard_to_ms = asleep.asleep_at_ms if asleep is not None and dozed else left_off_ms
    return ChosenSpan(
        max(0, heard_to_ms - FALLBACK_MINUTES * 60_000),
        min(heard_to_ms, here_ms),
        f"Before you {'dozed off' if dozed else 'stopped'} last time, at {clock(heard_to_ms)}:",
        "The last minutes they heard before they last stopped listening for a while",
    )


def _dozed_through(asleep: Asleep) -> str:
    """Said when the stretch slept through played but holds nothing to tell (a few seconds, or the
    middle of a passage without finer timing): it is not ahead, it is too little to pick from."""
    slept_ms = asleep.paused_at_ms - asleep.asleep_at_ms
    seconds = round(slept_ms / 1000)
    length = f"{seconds} second{'' if seconds == 1 else 's'}" if seconds < 90 else said_length(slept_ms)
    return (
        f"You dozed off at {clock(asleep.asleep_at_ms)}, {length} before the book paused at "
        f"{clock(asleep.paused_at_ms)}, and I can't pick out anything to tell you from that stretch."
    )


def _still_dozing(asleep: Asleep, here_ms: int) -> bool:
    return asleep.asleep_at_ms < asleep.paused_at_ms and here_ms <= asleep.paused_at_ms + STILL_DOZING_MS


def _last_minutes(minutes: int, here_ms: int, asleep_unknown: bool = False) -> ChosenSpan:
    said = "minute" if minutes == 1 else f"{minutes} minutes"
    opening = f"In the last {said}:"
    told = f"The last {said} they heard"
    if asleep_unknown:
        opening = f"I don't know when you dozed off. {opening}"
        told = f"When they dozed off is not known (no sleep timer paused the book lately). {told}"
    return ChosenSpan(max(0, here_ms - minutes * 60_000), here_ms, opening, told)


def _in_chapter(chapter: ChapterInfo) -> str:
    return f"In {chapter_name(chapter.n, chapter.title)}:"


TIME_SAID_AGAIN_MS = 5 * 60_000
"""A recap says the time where it starts, and again only before a sentence this far on from the last
time said: said before every sentence, "At 0:42:00" came four to six times in one recap."""


def spoken_recap(chosen: ChosenSpan, recapped: Recapped) -> str:
    """The extractive recap as it is said: the opening, the time, then the sentences.

    A colon joins a time to the sentence ("At 0:00:06: The harbour smelled of tar."): the
    sentence is the book's, capital and all, and after a comma its capital read wrong; lower-casing
    it would lower a name.
    """
    if recapped.to_ms <= recapped.from_ms or not (recapped.places or recapped.sentences):
        return chosen.nothing_heard  # a lead-in's silence holds nothing heard, whatever its length
    if not recapped.sentences:
        return NOTHING_SAYABLE
    said: list[str] = []
    said_at_ms: int | None = None
    chapter = recapped.sentences[0].chapter
    for sentence in recapped.sentences:
        if said_at_ms is None:
            said.append(f"At {clock(sentence.at_ms)}: {sentence.text}")
        elif sentence.chapter != chapter:  # run on, one chapter's line would be heard as the other's
            where = f"{chapter_name(sentence.chapter)}, at {clock(sentence.at_ms)}"
            said.append(f"Then in {where}: {sentence.text}")
        elif sentence.at_ms - said_at_ms >= TIME_SAID_AGAIN_MS:
            said.append(f"Later, at {clock(sentence.at_ms)}: {sentence.text}")
        else:
            said.append(sentence.text)
            continue
        said_at_ms, chapter = sentence.at_ms, sentence.chapter
    return f"{chosen.opening} {' '.join(said)}"
