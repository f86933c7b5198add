"""What a turn says when plain code speaks: the keyless router and every fallback.

It speaks only from what the tools returned (the guard's places and rows), so it can say
nothing the model could not have read.
"""

import re

from bedside_contracts.player import OfferOutcome
from bedside_contracts.search import ChapterInfo, MissingChapter
from bedside_guard import (
    Candidate,
    balance_quotes,
    clock,
    excerpt,
    is_heading,
    is_whole_sentence,
    sentences_of,
    stem,
)

from bedside_turn.domain import playback
from bedside_turn.domain.chapters import NoSuchChapter, playing_chapter

NO_MODEL = "I can't reach my language model just now, so here is the simple answer. "
CANNOT_HELP = "I can take you to a moment in the book, or answer about what you've already heard."
NOT_FOUND = "I couldn't find that moment in the book. Could you describe it another way?"
NOT_YET = "That hasn't come up yet in what you've heard."
FURTHER_ON = "That's further on than you've got, so I'll leave it for the book to tell you."


def not_yet(unheard_names: list[str], asks_later: bool) -> str:
    """The keyless reply when nothing heard answers: the listener's own name back, nothing more."""
    if unheard_names:
        return f"{' '.join(name.title() for name in unheard_names)} hasn't come up yet in what you've heard."
    return FURTHER_ON if asks_later else NOT_YET


NO_OTHER = "I don't have another place for that. Could you describe the moment again?"
TROUBLE = "Something went wrong on my side; please ask me again in a moment."
NO_EARLIER = "I can't find a time like that in what you've listened to."
NO_CHAPTER_BEFORE = "This is the first chapter; there is none before it."
NO_CHAPTER_AFTER = "This is the last chapter; there is none after it."
AT_CHAPTER_END = "You're already at the end of this chapter."
NO_ASLEEP = "I don't know when you fell asleep: no sleep timer has paused the book lately."
NO_EARLIER_BEFORE = "I can't find an earlier time than that."
NO_UNDO = "There's no earlier move to undo."
UNDONE = "Done: you're back where you were before."
PREVIEW_UNCHANGED = "Preview only: nothing was changed."
NO_LOOKUP_BEFORE = (
    "I'm not sure which time you mean. Ask me where you were, and then for the time before that."
)


def no_chapter_counted(beyond: NoSuchChapter) -> str:
    """A chapter counted past the first or the last, said plainly (the count is no spoiler)."""
    if beyond.after_last and beyond.playing == beyond.last:
        return NO_CHAPTER_AFTER
    if not beyond.after_last and beyond.playing == beyond.first:
        return NO_CHAPTER_BEFORE
    way = "on" if beyond.after_last else "back"
    return f"The book has no chapter that far {way}: its chapters run from {beyond.first} to {beyond.last}."


def time_left(here_ms: int, duration_ms: int, chapters: list[ChapterInfo]) -> str:
    """How long is left of the chapter playing and of the book: lengths the page shows already
    (the book's length, the sleep timer's stop at a chapter's end), so no spoiler."""
    book = f"{_length(duration_ms - here_ms)} of the book"
    playing = playing_chapter(chapters, here_ms)
    if playing is None or playing.end_ms >= duration_ms:
        return f"There's {book} left."
    return f"There's {_length(playing.end_ms - here_ms)} left of this chapter, and {book}."


def _length(ms: int) -> str:
    minutes = round(ms / 60_000)
    if minutes < 1:
        return "less than a minute"
    hours, minutes = divmod(minutes, 60)
    said = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
    return "about " + " and ".join(said)


def past_the_end(duration_ms: int) -> str:
    """A time said that the book does not reach: its length, which the page shows too."""
    return f"The book is only {clock(duration_ms)} long; there is no such time in it."


def not_in_book(missing: MissingChapter) -> str:
    """A chapter named that search found the book does not have: how many chapters it has."""
    count = f"{missing.count} chapter{'s' if missing.count != 1 else ''}"
    numbered = f", numbered {missing.first} to {missing.last}" if missing.first != 1 else ""
    return f"The book has {count}{numbered}; there is no chapter {missing.named}."


def for_offer(outcome: OfferOutcome | None, preview: bool = False) -> str:
    """One sentence for what an offer came to."""
    if outcome is not None and outcome.outcome == "refused" and outcome.missing_chapter is not None:
        return not_in_book(outcome.missing_chapter)
    if outcome is None or outcome.outcome == "refused":
        return NOT_FOUND
    if outcome.outcome == "moved":
        to = outcome.moved_to
        where = ""
        if to is not None and to.chapter is not None:
            title = f', "{to.chapter_title}"' if to.chapter_title else ""
            where = f"chapter {to.chapter}{title}"
        if preview:
            return f"From there I would take you to {where or 'that place'}."
        return f"There you are: {where}." if where else "There you are."
    count = len(outcome.rows)
    if preview:
        return f"From there I would put {count} place{'s' if count != 1 else ''} on the screen."
    if count == 1 and outcome.rows[0].ahead:
        return "That's further on than you've got. It's on the screen: press it to go there."
    if count == 1:
        return "It's on the screen: press it to go there."
    return f"I've put {count} places on the screen, best first. Press the one you mean."


_COMMON_WORDS = """the a an and of to in on at is was who what did does do me remind tell about again he she
it they his her their i you happened happen with for from that this where when why how which whose
were are has had have been there"""
"""Words a question is asked with: they say nothing of which sentence answers it."""
_COMMON = frozenset(_COMMON_WORDS.split())
QUOTE_WORDS = 30


def _content(text: str) -> set[str]:
    """The words that carry meaning, each in the form that meets its others ("steals", "steal")."""
    return {stem(w) for w in re.findall(r"[a-z']+", text.lower()) if w not in _COMMON and len(w) > 2}


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
    return balance_quotes(excerpt(chosen, QUOTE_WORDS))


_NUMBER = r"\d+"
_LENGTH = r"(?:less than a minute|about \d+ hours?(?: and \d+ minutes?)?|about \d+ minutes?)"
_CLOCK = r"\d+:\d\d(?::\d\d)?"
_SLEEP = r"(?:a minute|\d+ minutes|an hour|\d+ hours)"
_OWN_SENTENCES = (
    *(
        re.escape(fixed)
        for fixed in (
            CANNOT_HELP,
            NOT_FOUND,
            NOT_YET,
            FURTHER_ON,
            NO_OTHER,
            TROUBLE,
            NO_EARLIER,
            NO_CHAPTER_BEFORE,
            NO_CHAPTER_AFTER,
            AT_CHAPTER_END,
            NO_ASLEEP,
            NO_EARLIER_BEFORE,
            NO_LOOKUP_BEFORE,
            NO_UNDO,
            UNDONE,
            PREVIEW_UNCHANGED,
            "There you are.",
            "It's on the screen: press it to go there.",
            "That's further on than you've got. It's on the screen: press it to go there.",
            "From there I would take you to that place.",
        )
    ),
    rf"There you are: chapter {_NUMBER}\.",
    rf"From there I would take you to chapter {_NUMBER}\.",
    rf"From there I would put {_NUMBER} places? on the screen\.",
    rf"I've put {_NUMBER} places on the screen, best first\. Press the one you mean\.",
    rf"The book has no chapter that far (?:on|back): its chapters run from {_NUMBER} to {_NUMBER}\.",
    rf"There's {_LENGTH} left of this chapter, and {_LENGTH} of the book\.",
    rf"There's {_LENGTH} of the book left\.",
    rf"The book is only {_CLOCK} long; there is no such time in it\.",
    rf"The book has {_NUMBER} chapters?(?:, numbered {_NUMBER} to {_NUMBER})?;"
    rf" there is no chapter {_NUMBER}\.",
    rf"I'll stop in {_SLEEP}\.",
    *(re.escape(fixed) for fixed in playback.FIXED_SPOKEN),
)
_OWN_WORDS = re.compile(f"(?:{re.escape(NO_MODEL)})?(?:{'|'.join(_OWN_SENTENCES)})")


def holds_no_book_words(said: str) -> bool:
    """Whether ``said`` is wholly one of the turn's own sentences, with at most numbers, lengths and
    clock times in it: nothing of the book's (no quote, recap, name, or chapter title), so the
    answer check has nothing to check and a search that cannot answer need not silence it.

    Anything else, from the model or plain code, holds or may hold the book's words and is checked.
    """
    return _OWN_WORDS.fullmatch(said) is not None


def quoting(place: Candidate, question: str = "") -> str:
    """An answer from one heard recall place: its chapter and the words that bear on the question."""
    if place.ahead or not place.words:
        return NOT_YET
    chapter, title, words = place.chapter, place.chapter_title, place.words
    quote = best_sentences(words, question).translate(_INNER_QUOTES)
    return f'In chapter {chapter}, "{title}", you heard: "{quote}"'


_INNER_QUOTES = str.maketrans({'"': "'", "\u201c": "\u2018", "\u201d": "\u2019"})
"""Dialogue from the book inside the quote takes single quotes, so no quote mark is doubled."""
