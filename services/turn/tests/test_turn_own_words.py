"""Which answers hold nothing of the book (``speech.holds_no_book_words``): plain code, no bus."""

import pytest
from bedside_contracts.search import MissingChapter
from bedside_turn.domain import playback, speech
from bedside_turn.domain.chapters import NoSuchChapter
from bedside_turn_testing.book import book_info


@pytest.mark.parametrize(
    "said",
    [
        speech.CANNOT_HELP,
        speech.NOT_FOUND,
        speech.UNDONE,
        speech.NO_MODEL + speech.NO_UNDO,
        "There you are: chapter 3.",
        "I've put 3 places on the screen, best first. Press the one you mean.",
        speech.time_left(60_000, 3_600_000, book_info().chapters),
        speech.past_the_end(5_400_000),
        speech.not_in_book(MissingChapter(named=40, count=12, first=1, last=12)),
        speech.no_chapter_counted(NoSuchChapter(playing=3, step=20, first=1, last=12)),
        "I'll stop in 20 minutes.",
        playback.PAUSED,
    ],
)
def test_the_turns_own_sentences_hold_no_book_words(said: str) -> None:
    assert speech.holds_no_book_words(said)


@pytest.mark.parametrize(
    "said",
    [
        'There you are: chapter 1, "The Harbour Bell".',  # a chapter's title is the book's
        'In chapter 1, "The Harbour Bell", you heard: "Wren rang the bell."',
        speech.not_yet(["wren"], asks_later=False),  # a name, even the listener's own, is checked
        "Paused. Wren is waiting for you.",
        "paused.",
        "There you are: chapter 3. The storm is coming.",
        "Back 30 seconds.",  # not a sentence the turn says: the model may say anything
    ],
)
def test_anything_else_holds_or_may_hold_the_books_words(said: str) -> None:
    assert not speech.holds_no_book_words(said)
