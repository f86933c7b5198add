"""What a turn says when plain code speaks: the keyless router and every fallback.

It speaks only from what the tools returned (the guard's places and rows), so it can say
nothing the model could not have read.
"""

import re
from collections.abc import Collection

from bedside_contracts.player import MAX_BOOKMARKS_PER_BOOK, Bookmark, OfferOutcome, listening_ms
from bedside_contracts.search import BookInfo, ChapterInfo, MissingChapter, chapter_at
from bedside_guard import (
    OPENING_CHAPTER,
    Candidate,
    ahead_of,
    asks_a_name,
    balance_quotes,
    chapter_name,
    clock,
    excerpt,
    is_heading,
    is_whole_sentence,
    own_title,
    sentence_telling_a_name,
    sentences_of,
    stem,
)

from bedside_turn.domain import playback
from bedside_turn.domain.bookmarks import BOOKMARKS_SAID
from bedside_turn.domain.chapters import NoSuchChapter, counted_from_the_clock, final_chapter
from bedside_turn.domain.intents import UNIT_MS, BookFact, ChapterSaid, LengthOf, SaidUnit
from bedside_turn.domain.lengths import said_length, said_speed
from bedside_turn.domain.numbers import ORDINAL_WORDS
from bedside_turn.domain.own_words import OwnWords
from bedside_turn.domain.recap import NO_BREAK_YET, at_chapter_start

NO_MODEL = OwnWords("I can't reach my language model just now, so here is the simple answer. ")
CANNOT_HELP = OwnWords(
    'Sorry, I didn\'t follow. You can say "back five minutes", "chapter 3", "sleep in 20 minutes" or "undo", '
    "or ask about what you've heard."
)
PRESS_PLAY = OwnWords("Press play to carry on; I can't start the sound myself.")
"""'Play', 'resume': the player has no command that starts the sound, and a page may start it only
after a press on that page, so the listener is told what to do (``intents.PlayOn``)."""
NO_BOOKMARKS_YET = OwnWords(
    'You have no bookmarks in this book yet. To mark where you are, say "bookmark this", or give it a '
    'name: "bookmark this as the storm".'
)
BOOKMARKS_FULL = OwnWords(
    f"This book has {MAX_BOOKMARKS_PER_BOOK} bookmarks, the most I keep in one book, so I didn't add "
    "another. Remove one on the page to make room."
)
BOOKMARKS_REMOVED_ON_THE_PAGE = OwnWords(
    "I don't remove bookmarks by voice: on the page, each one in the list of bookmarks has its own "
    "Remove button."
)
BOOKMARK_PREVIEW = OwnWords("From there I would bookmark where the book had got to; nothing was added.")
NO_SPOILERS = OwnWords(
    "I won't tell you what's ahead: that's the book's to tell. If you'd like to skip on, say where to go."
)
ALREADY_SHARED = OwnWords(
    "Your devices already share one place, and each follows it as it changes, so there's nothing to sync."
)
OTHER_BOOK_ON_THE_PAGE = OwnWords(
    "I can only answer about this book. To change books, pick one in the Book list."
)


def on_another_device(device: str) -> OwnWords:
    """Playing on another device: only a press there starts its sound, and it is at the same place."""
    return OwnWords(
        f"I can't start the {device} myself, but every device is at the same place: "
        "press play there and it carries on from here."
    )


VOLUME_IS_THE_DEVICES = OwnWords("The volume is your device's; I can't change it. Use its buttons.")
NO_ALARM = OwnWords("I can't wake you; I have no alarm.")
"""An alarm asked for beside another request, which is done: no timer offered over a pause or one just set."""
CANNOT_WAKE_YOU = OwnWords(
    f'{NO_ALARM} But I can stop the book for you: say "sleep in 20 minutes" or '
    '"stop at the end of the chapter".'
)
"""'Wake me up in 10 minutes', 'set an alarm for 7' (``intents.WakeUpAsked``): Bedside only stops the book."""
TIMER_HOW_LONG = OwnWords(
    'For how long? Say, for example, "sleep in 20 minutes" or "stop at the end of the chapter".'
)
TIMER_NOT_BY_THE_CLOCK = OwnWords(
    "I can't set the timer to a time of day, only for a length of listening. Say, for example, "
    '"sleep in 30 minutes" or "stop at the end of the chapter".'
)
WHAT_I_CAN_DO = OwnWords(
    'I can take you back to a moment you describe ("back to where they first meet"), by time ("back five '
    'minutes"), by chapter ("chapter 3") or to where you left off ("where was I last night?"); tell you '
    'about what you\'ve heard ("who is this?", "what did I miss?"); and stop the book for you ("sleep in 20 '
    'minutes", "add ten minutes").'
)
COURTESY = {
    "thanks": OwnWords("You're welcome."),
    "never_mind": OwnWords("All right."),
    "goodnight": OwnWords('Goodnight. Say "sleep in 20 minutes" and I\'ll stop the book then.'),
    # Bedside has no clock of the listener's own: a server's time zone may not be the bedroom's.
    "time_of_day": OwnWords(
        'I can\'t see a clock for the time of day. Say "where am I?" for the time in the book.'
    ),
}
GOODNIGHT = OwnWords("Goodnight. ")
"""Said before the running timer's sentence, in place of the hint to set one."""
NOT_FOUND = OwnWords("I couldn't find that moment in the book. Could you describe it another way?")
NOT_FOUND_WHILE_TRANSCRIBING = OwnWords(
    "I couldn't find that in the chapters transcribed so far; the rest of the book is still being"
    " transcribed. Ask me again in a little while."
)
NOT_YET = OwnWords("That hasn't come up yet at this point in the book.")
FURTHER_ON = OwnWords("That's further on than you've got, so I'll leave it for the book to tell you.")


NOT_TRANSCRIBED_HERE = OwnWords(
    "The chapter you're in is still being transcribed, so I can't search what you've heard of it yet."
    " Ask me again in a little while."
)


def not_yet(unheard_names: list[str], asks_later: bool, not_transcribed_here: bool = False) -> str:
    """The keyless reply when nothing heard answers: the listener's own names back
    (``names_as_said``), nothing more (a name is checked like the book's words; without one it is
    the turn's own). In a chapter not transcribed yet nothing can be said to be unheard."""
    if not_transcribed_here and not asks_later:
        return NOT_TRANSCRIBED_HERE
    if unheard_names:
        *others, last = unheard_names
        named, has = (f"{', '.join(others)} and {last}", "haven't") if others else (last, "hasn't")
        return f"{named} {has} come up yet at this point in the book."
    return FURTHER_ON if asks_later else NOT_YET


LIST_CHANGED = OwnWords("The list on the screen changed just now; have a look and choose again.")
CHOOSE_ONE = 'Press the one you mean, or say which: "the first one", "the second one".'
"""How a list is chosen from, by hand or by voice (``intents.PressListed``)."""


def not_on_the_list(rows: int) -> OwnWords:
    """'The third one' when the list on the screen has fewer rows, or none."""
    if rows == 0:
        return OwnWords("There's no list on the screen to choose from. Tell me the moment you want.")
    return OwnWords(f"There {'is only one place' if rows == 1 else f'are only {rows} places'} on the screen.")


MORE_OF_WHAT = OwnWords(
    "More of what? Ask me about someone or something by name, and I'll tell you what you've heard."
)
"""For "tell me more" when the last answer told nothing from the book."""
NOTHING_MORE = OwnWords("That's all I can find about that up to this point in the book.")
"""For "tell me more" when every heard place the question finds was told already."""
NO_PLACE_NAMED = OwnWords("Which moment do you mean? Tell me what happens there, and I'll find it.")
"""For "take me there" when the last answer named no place."""
ONE_ROW = OwnWords('It\'s on the screen: press it, or say "go there".')
ONE_ROW_AHEAD = OwnWords(f"That's further on from where you are now. {ONE_ROW}")
"""Of one covered row: not "further on than you've got", which is untrue of a place heard before the
listener went back (a listener session: said of where they had fallen asleep, after "back an hour")."""
"""One place listed, to press or to consent to aloud (``intents.GoThere``): in the dark there is no
row to see, and a covered row ahead moves only when asked twice."""
NO_OTHER = OwnWords("I don't have another place for that. Could you describe the moment again?")
TROUBLE = OwnWords("Something went wrong on my side; please ask me again in a moment.")
SEARCH_UNAVAILABLE = OwnWords(
    "I can't look in the book just now, so I couldn't do that. Please ask me again in a moment."
)
PLAYER_UNAVAILABLE = OwnWords(
    "I can't reach the player just now, so I couldn't do that. Please ask me again in a moment."
)
NO_EARLIER = OwnWords("I can't find a time like that in what you've listened to.")
NO_CHAPTER_BEFORE = OwnWords("This is the first chapter; there is none before it.")
NO_CHAPTER_AFTER = OwnWords("This is the last chapter; there is none after it.")
AT_CHAPTER_END = OwnWords("You're already at the end of this chapter.")
AT_BOOK_END = OwnWords("You're already at the end of the book.")
SAY_IT_SHORTER = OwnWords("That's more than I can search for at once. Could you say it in a sentence or two?")
"""A question or a moment described at more length than a search or a recall takes (``WORDS_TAKEN``)."""
AT_CHAPTER_START = OwnWords("You're already at the start of this chapter.")
""""Start over" before any of the chapter playing is heard (its lead-in, or its first word): nothing
was moved, and nothing ahead was offered."""
MOVED_ONCE_ALREADY = OwnWords("I've moved the book once already; ask me for the other place next.")
"""The second of two moves said together ("go back 1 minute and where does part 2 start"): one turn moves
the book once, so the second is not made."""
SHOWN_ONCE_ALREADY = OwnWords("I've put one place on the screen already; ask me for the other place next.")
"""The second of two moves said together when the first drew a list ("forward 2 minutes, back 1 minute"):
a second list would replace the first unsaid."""
ALREADY_THERE = OwnWords("You're there now: that's where the book is.")
"""A place from the history asked for where the listener is ("where did I fall asleep?" once taken
back there): nothing was moved, and nothing offered."""
NO_DISTANCE = OwnWords("That's no distance at all, so the book stays where it is.")
"""A move by no time ("go back 0 seconds"): nothing to do, so nothing moved and nothing offered."""
BOOK_NOT_BEGUN = OwnWords("You're already at the start of the book.")
"""The book's start asked for before any of it is heard: nothing was moved, nothing offered."""
NO_ASLEEP = OwnWords("I don't know when you fell asleep: no sleep timer has paused the book lately.")
NO_TIMER_PAUSE = OwnWords("No sleep timer has paused the book lately, so I can't say where it stopped.")
NO_LEFT_OFF = OwnWords(
    f'I can\'t find where you left off before. {NO_BREAK_YET} To go back to before the last move, say "undo".'
)
NO_EARLIER_BEFORE = OwnWords("I can't find an earlier time than that.")
AT_BOOK_START = OwnWords("You're at the very start of the book.")
NOTHING_BEFORE_START = OwnWords(f"{AT_BOOK_START.removesuffix('.')}; there's nothing before it.")
"""A jump back from the book's very start, which search refuses: nothing was moved."""
NO_UNDO = OwnWords("There's no earlier move to undo.")
NO_END_WITHOUT_WORDS = OwnWords(
    'No words were heard in that chapter, so it has no end to go to; say "next chapter" to go past it.'
)
PREVIEW_UNDO = OwnWords(
    "Preview only: nothing was moved. Undo puts the book back where it was before its last move."
)
NO_LOOKUP_BEFORE = OwnWords(
    "I'm not sure which time you mean. Ask me where you were, and then for the time before that."
)


def no_chapter_counted(beyond: NoSuchChapter) -> OwnWords:
    """A chapter counted past the first or the last, said plainly (the count is no spoiler)."""
    if beyond.after_last and beyond.playing == beyond.last:
        return NO_CHAPTER_AFTER
    if not beyond.after_last and beyond.playing == beyond.first:
        return NO_CHAPTER_BEFORE
    way = "on" if beyond.after_last else "back"
    return OwnWords(
        f"The book has no chapter that far {way}: its chapters run from {beyond.first} to {beyond.last}."
    )


def time_left(
    here_ms: int,
    duration_ms: int,
    chapters: list[ChapterInfo],
    length_of: LengthOf | None = None,
    *,
    chapter: int | None = None,
    chapter_said: ChapterSaid | None = None,
    speed: float = 1.0,
) -> OwnWords:
    """How long is left of the chapter playing and of the book, and how long each is when asked
    (``length_of``), or a chapter named (``chapter``): lengths the page shows already (the book's length,
    the chapter list's times, the sleep timer's stop at a chapter's end), so no spoiler. Book time; at
    another ``speed`` than normal, what is left is said as listening too."""
    if chapter_said is not None:
        counted = _chapter_where_said(chapters, here_ms, chapter_said)
        if counted is None:
            return OwnWords("This book has no chapters.")
        if isinstance(counted, NoSuchChapter):
            return no_chapter_counted(counted)
        chapter = counted
    if chapter is not None:
        return length_of_chapter(here_ms, chapters, chapter)
    book_left = said_length(duration_ms - here_ms)
    book = f"The book is {said_length(duration_ms)} long, and there's {book_left} of it left."
    playing = chapter_at(chapters, here_ms)
    last_left_ms = duration_ms - here_ms
    if playing is None or playing.end_ms >= duration_ms:
        said = book if length_of else f"There's {book_left} of the book left."
    else:
        chapter_left = said_length(playing.end_ms - here_ms)
        chapter_length = said_length(playing.end_ms - playing.start_ms)
        playing_said = f"This chapter is {chapter_length} long, and there's {chapter_left} of it left."
        if length_of == "chapter":
            last_left_ms = playing.end_ms - here_ms
        said = (
            f"There's {chapter_left} left of this chapter, and {book_left} of the book."
            if length_of is None
            else {"chapter": playing_said, "book": book, "story": f"{playing_said} {book}"}[length_of]
        )
    if speed != 1.0:
        said += (
            f" At {said_speed(speed)}, that's {said_length(listening_ms(last_left_ms, speed))} of listening."
        )
    return OwnWords(said)


def _chapter_where_said(
    chapters: list[ChapterInfo], here_ms: int, said: ChapterSaid
) -> int | NoSuchChapter | None:
    """The number of the chapter after or before the one playing, or of the book's final one."""
    if said == "final":
        final = final_chapter(chapters)
        return None if final is None else final.n
    return counted_from_the_clock(chapters, here_ms, 1 if said == "next" else -1)


def length_of_chapter(here_ms: int, chapters: list[ChapterInfo], n: int) -> OwnWords:
    """ "How long is chapter 6?": its length by the chapter list, named by its number alone, so a title
    ahead is never said (ADR 52); of the chapter playing, what is left of it too. A chapter the book
    lacks is said so, with the chapters it has."""
    asked = next((c for c in chapters if c.n == n), None)
    if asked is None:
        missing = MissingChapter.among(n, (c.n for c in chapters))
        return OwnWords("This book has no chapters.") if missing is None else not_in_book(missing)
    named = chapter_name(n)
    said = f"{named[0].upper()}{named[1:]} is {said_length(asked.end_ms - asked.start_ms)} long"
    playing = chapter_at(chapters, here_ms)
    if playing is not None and playing.n == n:
        return OwnWords(f"{said}, and there's {said_length(asked.end_ms - here_ms)} of it left.")
    return OwnWords(f"{said}.")


def where_you_are(here_ms: int, duration_ms: int, chapters: list[ChapterInfo]) -> str:
    """'Where am I?': the chapter playing, how far into it, and how far into the book and what is left
    of it, from the book's own times (the page shows them all); no passage is read.

    The chapter's title is said only once it is behind the line (``ahead_of``, as everywhere), so at
    a chapter's first millisecond it is named by its number alone. A sentence with the title holds the
    book's words and is checked; without one it is the turn's own.
    """
    if here_ms <= min((c.start_ms for c in chapters), default=0):
        return AT_BOOK_START
    left = duration_ms - here_ms
    book = (
        f"{said_length(here_ms)} into the book, with {said_length(left)} to go"
        if left > 0
        else "at the end of the book"
    )
    playing = chapter_at(chapters, here_ms)
    if playing is None:
        return OwnWords(f"You're {book}.")
    if ahead_of(playing.start_ms, here_ms):
        return at_chapter_start(playing.n) + OwnWords(f" You're {book}.")
    named = chapter_name(playing.n, playing.title)
    said = f"You're in {named}, {_into_chapter(here_ms - playing.start_ms)} in; {book}."
    return OwnWords(said) if named == chapter_name(playing.n) else said


FURTHER_THAN_HERE_MS = 60_000
"""How far past here the furthest place must be for here to count as heard before: a playing device
reports every few seconds, so a furthest place just past here is where they are."""


def playing_now(playing: bool, here_ms: int, chapters: list[ChapterInfo]) -> OwnWords:
    """'Is it playing?': the player's word for it, and where (the chapter's number, as the page shows)."""
    chapter = chapter_at(chapters, here_ms)
    where = f"in {chapter_name(chapter.n)} at {clock(here_ms)}" if chapter else f"at {clock(here_ms)}"
    if playing:
        return OwnWords(f"It's playing, {where}.")
    return OwnWords(f"It's paused, {where}. {PRESS_PLAY}")


def why_stopped(playing: bool, timer_paused: bool, here_ms: int, chapters: list[ChapterInfo]) -> OwnWords:
    """'Why did it stop?': the sleep timer, while the book rests where it paused it (the player's
    ``still_where_timer_paused``); else whether it plays and where, as "is it playing?" is told."""
    if not timer_paused:
        return playing_now(playing, here_ms, chapters)
    chapter = chapter_at(chapters, here_ms)
    return OwnWords(
        f"The sleep timer paused it, at {clock_in_chapter(here_ms, chapter.n if chapter else None)}."
        ' To hear it from where you dozed off, say "take me back to where I fell asleep".'
    )


def heard_before(furthest_ms: int | None, here_ms: int, chapters: list[ChapterInfo]) -> OwnWords:
    """'Have I heard this before?' or 'is this new?': heard before when the listener's history has them
    further on (its time and chapter number; never its title, which is ahead of the line), else new.
    Said without a yes or a no, which would answer one of the two ways of asking backwards."""
    if furthest_ms is None or furthest_ms - here_ms <= FURTHER_THAN_HERE_MS:
        return OwnWords("This is new to you: it's as far as you've listened.")
    reached = chapter_at(chapters, furthest_ms)
    where = clock_in_chapter(furthest_ms, reached.n if reached else None)
    return OwnWords(
        f"You've heard this before: you've been as far as {where}, {said_length(furthest_ms - here_ms)} "
        "further on. "
        'Say "take me to the furthest I\'ve got" to go back there.'
    )


def _into_chapter(ms: int) -> str:
    """How far into the chapter: seconds while under a minute ("40 seconds"), else in minutes."""
    if ms < 59_500:
        seconds = max(1, round(ms / 1000))
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return said_length(ms)


def past_the_end(duration_ms: int) -> OwnWords:
    """A time said that the book does not reach: its length, which the page shows too."""
    return OwnWords(f"The book is only {clock(duration_ms)} long; there is no such time in it.")


def past_the_chapter_end(chapter: int | None, length_ms: int) -> OwnWords:
    """A time into a chapter that the chapter does not reach: its length."""
    named = chapter_name(chapter).capitalize() if chapter is not None else "This chapter"
    return OwnWords(f"{named} is only {clock(length_ms)} long; there is no such time in it.")


def not_in_book(missing: MissingChapter) -> OwnWords:
    """A chapter named that search found the book does not have: how many chapters it has."""
    count = f"{missing.count} chapter{'s' if missing.count != 1 else ''}"
    numbered = f", numbered {missing.first} to {missing.last}" if missing.first != 1 else ""
    return OwnWords(f"The book has {count}{numbered}; there is no chapter {missing.named}.")


NAMES_SAID = 5
"""How many names "who are the main characters?" says: the most named, a list short enough to hear."""
NO_NAMES_YET = OwnWords("No names have come up yet.")


def names_heard(names: list[str]) -> str:
    """ "Who are the main characters?": the names heard most so far, as the book writes them (its own
    words, so the answer check reads them). Places come too: the book's table does not tell a person
    from a town, so the sentence says names, not characters."""
    said = names[:NAMES_SAID]
    if not said:
        return NO_NAMES_YET
    if len(said) == 1:
        return f"The only name you've heard so far is {said[0]}."
    return f"The names you've heard most so far: {', '.join(said[:-1])} and {said[-1]}."


NO_CHAPTERS = OwnWords('This book has no chapters; a time works instead, like "go to 2 hours in".')


NO_OPENING = OwnWords("This book has no opening before its first chapter to skip.")


def past_the_opening(n: int) -> OwnWords:
    return OwnWords(f"You're past the opening already, in chapter {n}.")


def in_the_last_chapter(n: int) -> OwnWords:
    return OwnWords(f"You're in the last chapter, chapter {n}.")


LATEST_TITLES = 4
"""How many chapter titles a spoken list names, the latest begun: a longer list is hard to follow
aloud, and the page lists every chapter."""


def chapter_titles(book: BookInfo, here_ms: int) -> str:
    """ "List the chapters": how many there are, and the titles of the latest begun. A title ahead is
    not said (ADR 52: the page names a chapter not reached by its number alone). A title is the
    book's words, so a list with one is left to the answer check."""
    chapters = sorted((c for c in book.chapters if c.n != OPENING_CHAPTER), key=lambda c: c.start_ms)
    playing = chapter_at(chapters, here_ms)  # on its first millisecond, begun though unheard
    has = f"The book has {_counted(len(chapters), 'chapter')}"
    if playing is None:
        return OwnWords(f"{has}, and you haven't started the first yet.")
    begun = [c for c in chapters if c.start_ms <= playing.start_ms]
    if not any(own_title(c.n, c.title) for c in chapters):
        return OwnWords(f"{has}, numbered without titles; you're in {chapter_name(playing.n)}.")
    named = [
        chapter_name(c.n, None if ahead_of(c.start_ms, here_ms) else c.title) for c in begun[-LATEST_TITLES:]
    ]
    if len(named) == 1:
        return f"{has}; you're in {named[0]}."
    listed = "; ".join(named[:-1]) + f"; and {named[-1]}, the one playing"
    which = "The latest you have begun" if len(begun) > len(named) else "So far you have begun"
    return f"{has}. {which}: {listed}."


def neighbour_title(book: BookInfo, here_ms: int, step: int) -> str:
    """ "What was the last chapter called?" (``step`` -1): its title, heard; "what's the next chapter
    called?" (1): its number only, as the page shows a chapter not reached (ADR 52)."""
    counted = counted_from_the_clock(book.chapters, here_ms, step)
    if counted is None:
        return OwnWords("This book has no chapters.")
    if isinstance(counted, NoSuchChapter):
        return NO_CHAPTER_AFTER if counted.after_last else NO_CHAPTER_BEFORE
    if step > 0:
        return OwnWords(f"The next is {chapter_name(counted)}; its title shows once you reach it.")
    title = next((c.title for c in book.chapters if c.n == counted), None)
    return f"The last chapter was {chapter_name(counted, title)}."


def titled_as(book: BookInfo, here_ms: int, n: int) -> str:
    """ "What's chapter 6 called?": its title once it has begun, as the page shows it (ADR 52), else
    its number only; a chapter the book lacks is said so, with the chapters it has."""
    asked = next((c for c in book.chapters if c.n == n), None)
    if asked is None:
        missing = MissingChapter.among(n, (c.n for c in book.chapters))
        return OwnWords("This book has no chapters.") if missing is None else not_in_book(missing)
    named = chapter_name(n)
    if ahead_of(asked.start_ms, here_ms):
        return OwnWords(f"{named[0].upper()}{named[1:]}'s title shows once you reach it.")
    if not own_title(n, asked.title):
        return OwnWords(f"{named[0].upper()}{named[1:]} has no title.")
    return f"That's {chapter_name(n, asked.title)}."


def _counted(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def about_the_book(fact: BookFact, book: BookInfo, here_ms: int) -> str:
    """What the cover and the chapter list say (``intents.AboutTheBook``): the title, who wrote it,
    who reads it, how many chapters it has and how many follow the one playing. The page and any
    player show all of it, so it is the turn's own words even where a name is the book's. The title
    comes with the chapter playing once it has begun (the page shows it then): in a book of stories,
    "what is this story called?" asks for that."""
    title = f'"{book.title}"'
    match fact:
        case "title":
            cover = f"This is {title}{f' by {book.author}' if book.author else ''}"
            playing = chapter_at(book.chapters, here_ms)
            if playing is None or not playing.title or ahead_of(playing.start_ms, here_ms):
                return OwnWords(f"{cover}.")
            return OwnWords(f"{cover}; you're in {chapter_name(playing.n, playing.title)}.")
        case "author":
            if not book.author:
                return OwnWords(f"The book doesn't say who wrote {title}.")
            return OwnWords(f"{title} is by {book.author}.")
        case "reader":
            if not book.narrator:
                return OwnWords("The book doesn't say who reads it.")
            return OwnWords(f"It's read by {book.narrator}.")
        case "chapter_titles":
            return chapter_titles(book, here_ms)
        case "previous_title" | "next_title":
            return neighbour_title(book, here_ms, -1 if fact == "previous_title" else 1)
    chapters = _counted(sum(1 for c in book.chapters if c.n != OPENING_CHAPTER), "chapter")
    playing = chapter_at(book.chapters, here_ms)
    if playing is None:
        return OwnWords(f"The book has {chapters}, and you haven't started the first yet.")
    if fact == "chapters":
        return OwnWords(f"The book has {chapters}; you're in {chapter_name(playing.n)}.")
    after = sum(1 for c in book.chapters if c.start_ms > playing.start_ms)
    if not after:
        return in_the_last_chapter(playing.n)
    return OwnWords(
        f"After this one, {chapter_name(playing.n)}, there {'is' if after == 1 else 'are'} "
        f"{_counted(after, 'more chapter')}."
    )


def for_offer(outcome: OfferOutcome | None, preview: bool = False, *, titled: bool = True) -> str:
    """One sentence for what an offer came to: the turn's own words, unless it names the chapter's
    title (the book's words, so checked); ``titled`` False names a chapter by its number alone."""
    if outcome is not None and outcome.outcome == "refused" and outcome.missing_chapter is not None:
        return not_in_book(outcome.missing_chapter)
    if outcome is None or outcome.outcome == "refused":
        return NOT_FOUND
    if outcome.outcome == "moved":
        to = outcome.moved_to
        where = ""
        titled_where = False
        if to is not None and to.chapter is not None:
            where = chapter_name(to.chapter, to.chapter_title if titled else None)
            titled_where = where != chapter_name(to.chapter)
        said = (
            f"From there I would take you to {where or 'that place'}."
            if preview
            else _there_you_are(where, to)
        )
        return said if titled_where else OwnWords(said)
    count = len(outcome.rows)
    if preview:
        return OwnWords(f"From there I would put {count} place{'s' if count != 1 else ''} on the screen.")
    if count == 1:
        return ONE_ROW_AHEAD if outcome.rows[0].ahead else one_row_behind(outcome.rows[0])
    return OwnWords(
        f"I've put {count} places on the screen, best first.{_rows_ahead(outcome.rows)} {CHOOSE_ONE}"
    )


def _rows_ahead(rows: list[Candidate]) -> str:
    """Which rows of a list are covered, said: in the dark the screen cannot tell that "the first one"
    takes the book on past where they are."""
    ahead = [ORDINAL_WORDS[k] for k, row in enumerate(rows) if row.ahead]
    if not ahead:
        return ""
    if len(ahead) == len(rows):
        return " They're all further on from where you are now."
    named = ahead[0] if len(ahead) == 1 else f"{', '.join(ahead[:-1])} and {ahead[-1]}"
    return f" The {named} {'is' if len(ahead) == 1 else 'are'} further on from where you are now."


def _there_you_are(where: str, to: Candidate | None) -> str:
    """Where a move put the book, with its time as the page shows it: in the dark, "chapter 1" alone
    does not say whether "back an hour" went an hour."""
    if to is None:
        return "There you are."
    return (
        f"There you are: {where}, at {clock(to.start_ms)}."
        if where
        else f"There you are: {clock(to.start_ms)}."
    )


def one_row_behind(row: Candidate) -> OwnWords:
    """Where the one place listed is, said as the page shows it (time and chapter number), since in
    the dark "it's on the screen" tells nothing ("where did I fall asleep?")."""
    return OwnWords(f"That's at {clock_in_chapter(row.start_ms, row.chapter)}. {ONE_ROW}")


def slept_through(played_ms: int) -> OwnWords:
    """How long they slept, as far as Bedside can tell: the book played on from the last sign of them
    awake (a touch, a question: where "you fell asleep" is placed) until the sleep timer paused it;
    they may have slept on long after."""
    return OwnWords(
        f"I can't tell how long you slept, but the book played on for {said_length(played_ms)} after the"
        " last I heard from you, until the sleep timer paused it."
    )


def asleep_unknown(began: Candidate) -> OwnWords:
    """No sleep timer paused the book: where this time's listening began, on the screen to press."""
    return OwnWords(
        f"{NO_ASLEEP} You started listening this time at {clock_in_chapter(began.start_ms, began.chapter)}."
        f" {ONE_ROW}"
    )


def undone(position_ms: int, chapter: int | None) -> OwnWords:
    """Where an undo put the book, said as the page shows it: in the dark, "back where you were" alone
    does not say whether it was the place they meant."""
    return OwnWords(f"Done: you're back where you were, at {clock_in_chapter(position_ms, chapter)}.")


def clock_in_chapter(ms: int, chapter: int | None) -> str:
    """A place as the page shows it: "0:16:00, in chapter 5" (its number: never a title ahead)."""
    return clock(ms) if chapter is None else f"{clock(ms)}, in {chapter_name(chapter)}"


def bookmarked(at_ms: int, chapter: ChapterInfo | None, title: str | None) -> str:
    """A bookmark made, said with its place as the page shows it (the chapter by its number). Its title
    is the listener's words, not the turn's: a sentence with it is checked, as any they might hold."""
    where = clock_in_chapter(at_ms, chapter.n if chapter is not None else None)
    if title:
        return f'Bookmarked "{title}" at {where}.'
    return OwnWords(f"Bookmarked at {where}.")


def bookmark_refused(reason: str) -> str:
    """A bookmark the player would not make, and why, in its words (a listener removed, a book ended)."""
    return f"I couldn't add that bookmark: {reason}." if reason else TROUBLE


def at_bookmark(title: str | None, outcome: OfferOutcome | None, preview: bool) -> str:
    """A move to a bookmark, said with where it came to; anything else an offer comes to (a covered row
    for a bookmark further on than the listener is now), as any offer's."""
    to = outcome.moved_to if outcome is not None and outcome.outcome == "moved" else None
    if to is None or preview:
        return for_offer(outcome, preview, titled=False)
    where = clock_in_chapter(to.start_ms, to.chapter)
    if title:
        return f'Back to your bookmark "{title}", at {where}.'
    return OwnWords(f"Back to your bookmark, at {where}.")


def no_bookmark_titled(asked: str, titles: list[str]) -> str:
    """A title no bookmark has, said back, with the names of the newest titled ones (checked: theirs)."""
    if not titles:
        return (
            f'You have no bookmark called "{asked}", and none with a name. Say "go to my bookmark" for the '
            "newest."
        )
    named = ", ".join(f'"{title}"' for title in titles)
    return f'You have no bookmark called "{asked}". Yours include {named}.'


def bookmarks_listed(bookmarks: list[Bookmark], chapters: list[ChapterInfo]) -> str:
    """How many bookmarks, and the newest few, one sentence each, with its place and its title: a title
    cut by the answer check takes only its own sentence with it."""
    if not bookmarks:
        return NO_BOOKMARKS_YET
    count = len(bookmarks)
    said: str = OwnWords(f"You have {count} bookmark{'s' if count != 1 else ''} in this book.")
    for k, bookmark in enumerate(bookmarks[:BOOKMARKS_SAID]):
        chapter = chapter_at(chapters, bookmark.at_ms)
        where = clock_in_chapter(bookmark.at_ms, chapter.n if chapter is not None else None)
        first = ("The newest is at" if count > 1 else "It's at") if k == 0 else "Then"
        sentence = f"{first} {where}" + (f', "{bookmark.title}".' if bookmark.title else ".")
        said = said + OwnWords(" ") + (sentence if bookmark.title else OwnWords(sentence))
    return said + OwnWords(" The page lists them all.") if count > BOOKMARKS_SAID else said


def for_number_alone(
    offset_ms: int, unit: SaidUnit, outcome: OfferOutcome | None, preview: bool = False
) -> str:
    """A move by a number said without a unit ("back 5", ``intents.unit_for_number_alone``): the unit
    taken is said first, so a listener who meant the other hears it; after a move, what puts it right:
    undo alone only puts the book back ("rewind 15" then "undo" had not gone back fifteen minutes)."""
    moved = outcome is not None and outcome.outcome == "moved" and not preview
    if not moved or _stopped_at_the_start(offset_ms, outcome, preview):
        return for_amount_chosen(offset_ms, unit, outcome, preview)
    other: SaidUnit = "second" if unit == "minute" else "minute"
    meant = _moved_by(offset_ms, other, by=abs(offset_ms) / UNIT_MS[unit]).lower().rstrip(".")
    return OwnWords(f'{_moved_by(offset_ms, unit)} If you meant {other}s, say "undo", then "{meant}".')


def for_amount_chosen(
    offset_ms: int, unit: SaidUnit, outcome: OfferOutcome | None, preview: bool = False
) -> str:
    """A move by an amount Bedside chose ("go back a while"): the amount, then where it came to."""
    if outcome is None or outcome.outcome == "refused":
        return for_offer(outcome, preview)
    if _stopped_at_the_start(offset_ms, outcome, preview):
        return OwnWords(BACK_TO_THE_START)  # "back 5" two minutes in: not 5 minutes
    taken = _moved_by(offset_ms, unit)
    rest = for_offer(outcome, preview)
    return OwnWords(f"{taken} {rest}") if isinstance(rest, OwnWords) else f"{taken} {rest}"


def unit_chosen(offset_ms: int) -> SaidUnit:
    """The unit an amount Bedside chose is said in: "10 seconds" for a sentence, "5 minutes" for a while."""
    return "minute" if abs(offset_ms) >= UNIT_MS["minute"] else "second"


def _moved_by(offset_ms: int, unit: SaidUnit, by: float | None = None) -> str:
    """ "Back 5 minutes.": the way of ``offset_ms``, and ``by`` (else its own amount) in ``unit``."""
    amount = abs(offset_ms) / UNIT_MS[unit] if by is None else by
    return f"{'Back' if offset_ms < 0 else 'Forward'} {amount:g} {unit}{'s' if amount != 1 else ''}."


BACK_TO_THE_START = "Back to the start of the book."


def for_amount_said(offset_ms: int, outcome: OfferOutcome | None, preview: bool = False) -> str:
    """A move by an amount the listener said with its unit ("back an hour"): where it came to, or
    that the book's start cut it short, so an hour is not taken for gone back when it was not."""
    if _stopped_at_the_start(offset_ms, outcome, preview):
        return OwnWords(BACK_TO_THE_START)
    return for_offer(outcome, preview)


def _stopped_at_the_start(offset_ms: int, outcome: OfferOutcome | None, preview: bool) -> bool:
    """A move back by more than had been heard, which the book's start cut short (wherever its first
    words are: the sample book's at 0:00:01)."""
    if outcome is None or outcome.outcome != "moved" or preview or outcome.moved_to is None:
        return False
    came_from = outcome.moved_from_ms
    return offset_ms < 0 and came_from is not None and came_from < -offset_ms


START_THE_BOOK = "start the book again"


def for_start_again(outcome: OfferOutcome | None, preview: bool = False) -> str:
    """A start again with no start named ("start over"), taken as the chapter playing's: said so, with
    the words that go to the book's start instead."""
    if outcome is None or outcome.outcome != "moved" or preview or outcome.moved_to is None:
        return for_offer(outcome, preview)
    to = outcome.moved_to
    chapter = chapter_name(to.chapter, to.chapter_title) if to.chapter is not None else "this chapter"
    said = f'Back to the start of {chapter}. If you meant the whole book, say "{START_THE_BOOK}".'
    return said if to.chapter_title else OwnWords(said)


_COMMON_WORDS = """the a an and of to in on at is was who what did does do me remind tell about again he she
it they his her their i you happened happen with for from that this where when why how which whose
were are has had have been there"""
"""Words a question is asked with: they say nothing of which sentence answers it."""
_COMMON = frozenset(_COMMON_WORDS.split())
QUOTE_WORDS = 30
NAMING_WORDS = 15
"""Words a quote may grow by to hold the sentence that tells the name asked for."""


def _content(text: str) -> set[str]:
    """The words that carry meaning, each in the form that meets its others ("steals", "steal")."""
    return {stem(w) for w in re.findall(r"[a-z']+", text.lower()) if w not in _COMMON and len(w) > 2}


_NAMING_WORD = re.compile(r"(?:called|named|name)\W*", re.IGNORECASE)


def _quoted(sentence: str, asked: set[str], names_asked: bool, words: int) -> str:
    """``sentence`` cut to ``words`` words holding the name it was chosen for: one asked after ("who
    is Pepper?"), or the one after "called" when a name was asked for, with most of the words asked
    about beside it. A long sentence often tells who someone is at its end ("... her dog, a small
    black terrier called Pepper, slept ..."), which its first words would cut off. The window
    starts the sentence when it can; else it reaches as far on as it can, for what follows the name."""
    parts = sentence.split()
    if len(parts) <= words:
        return sentence
    about = [i for i, word in enumerate(parts) if _content(word) & asked]
    named = [i for i in about if parts[i].lstrip("'\"‘“(")[:1].isupper()]
    if names_asked:
        named += [i + 1 for i, word in enumerate(parts) if _NAMING_WORD.fullmatch(word)]
    if not named:  # what is asked about shifts the window only beside a name: the start is the story's
        return excerpt(sentence, words)

    def holds(start: int) -> tuple[int, int]:
        def inside(held: list[int]) -> int:
            return sum(start <= i < start + words for i in held)

        return inside(named), inside(about)

    starts = range(len(parts) - words + 1)
    best = max(holds(start) for start in starts)
    if holds(0) == best:
        return excerpt(sentence, words)
    start = max(start for start in starts if holds(start) == best)
    end = start + words
    return f"… {' '.join(parts[start:end])}" + (" …" if end < len(parts) else "")


def _joined(left: str, right: str) -> str:
    """Two quoted pieces one after the other, with one mark where both were cut."""
    return f"{left} {right[2:] if left.endswith('…') and right.startswith('… ') else right}"


def best_sentences(words: str, question: str) -> str:
    """The sentence of a heard line that bears most on the question, with the next if short.

    A word of the question counts in any of its forms, and counts less the more of the
    line's sentences hold it: the name asked about is often in many of them, and the one
    that answers is the one that also holds the rarer word ("what does Pudding steal?" is
    "She steals things.", not "That is Pudding."). A piece of a sentence (``is_whole_sentence``:
    the one the excerpt cut off at the end, "…", or the line cut short) is passed over while a
    whole one is left, and so is the chapter's heading read out ("Chapter Four: The Night of the
    Storm."): the answer names the chapter already. Dialogue keeps its quote marks on both sides.
    """
    sentences = sentences_of(words.strip(" …"))
    story = [s for s in sentences if not is_heading(s)]
    sentences = story or sentences
    if not sentences:
        return ""
    asked = _content(question)
    held = [_content(sentence) for sentence in sentences]
    whole = [i for i, sentence in enumerate(sentences) if is_whole_sentence(sentence)]
    whole = whole or list(range(len(sentences)))  # nothing whole: the pieces are all there is
    scores = [sum(1 / sum(word in other for other in held) for word in asked & held[i]) for i in whole]
    best = whole[scores.index(max(scores))]
    chosen = sentences[best]
    if len(chosen.split()) < 12 and best + 1 in whole:
        chosen = f"{chosen} {sentences[best + 1]}"
    names_asked = asks_a_name(question)
    telling = sentence_telling_a_name(sentences, best) if names_asked else None
    if telling is None or telling not in whole or sentences[telling] in chosen:
        return balance_quotes(_quoted(chosen, asked, names_asked, QUOTE_WORDS))
    # the name asked for is in a sentence near the one about what they asked of: quote both
    told = _quoted(sentences[telling], asked, names_asked, QUOTE_WORDS)
    about = _quoted(chosen, asked, False, QUOTE_WORDS + NAMING_WORDS - min(len(told.split()), NAMING_WORDS))
    if telling < best:
        return balance_quotes(_joined(told, about))
    gap = "" if telling == best + 1 or about.endswith("…") else " …"
    return balance_quotes(_joined(f"{about}{gap}", told))


def done_in_own_words(
    offer: OfferOutcome | None,
    played: playback.PlaybackDone | None,
    *,
    undone: OwnWords | None,
    preview: bool,
) -> OwnWords | None:
    """What a turn did, in its own words only (a move named by its chapter's number, never its
    title), or None when it did nothing: said when its answer cannot be, so a listener whose book
    moved hears where to."""
    said: list[str] = []
    if undone is not None:
        said.append(undone)
    elif offer is not None and offer.outcome != "refused":
        said.append(for_offer(offer, preview, titled=False))
    if played is not None and played.accepted:
        said.append(playback.spoken(played))
    return OwnWords(" ".join(said)) if said else None


def unavailable(let_down_by: Collection[str], out_of_reach: Collection[str]) -> OwnWords:
    """What failed, in a listener's words: looking in the book (search failed in any way), reaching
    the player (it did not answer), or something else. A player that answered it failed may stand
    for a service behind it (search resolves its places), so it is not said to be out of reach."""
    if "search" in let_down_by:
        return SEARCH_UNAVAILABLE
    if "player" in out_of_reach:
        return PLAYER_UNAVAILABLE
    return TROUBLE


def after_failure(
    done: OwnWords | None, let_down_by: Collection[str], out_of_reach: Collection[str]
) -> OwnWords:
    """What a turn a service let down says: what it did, if anything, else what failed."""
    return done if done is not None else unavailable(let_down_by, out_of_reach)


def holds_no_book_words(said: str) -> bool:
    """Whether ``said`` is wholly the turn's own words (``OwnWords``, made where the sentence is
    built: fixed words with at most numbers, lengths and clock times): nothing of the book's (no
    quote, recap, name, or chapter title), so the answer check has nothing to check and a search
    that cannot answer need not silence it.

    Anything else, from the model or plain code, holds or may hold the book's words and is checked.
    """
    return isinstance(said, OwnWords)


def quoting(place: Candidate, question: str = "") -> str:
    """An answer from one heard recall place: its chapter and the words that bear on the question."""
    if place.ahead or not place.words:
        return NOT_YET
    quote = best_sentences(place.words, question).translate(_INNER_QUOTES)
    return f'In {place.heard_in()}, you heard: "{quote}"'


_INNER_QUOTES = str.maketrans({'"': "'", "\u201c": "\u2018", "\u201d": "\u2019"})
"""Dialogue from the book inside the quote takes single quotes, so no quote mark is doubled."""
