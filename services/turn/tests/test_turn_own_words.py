"""Which answers hold nothing of the book (``speech.holds_no_book_words``): plain code, no bus.

The turn's own words are a type (``speech.OwnWords``) made where the sentence is built; the
check knows them by that type, never by matching the text, so words that merely read like
the turn's own (a model's) are checked.
"""

import pytest
from bedside_contracts.player import OfferOutcome
from bedside_contracts.search import MissingChapter
from bedside_contracts.turn import PlaybackArgs
from bedside_guard import Candidate
from bedside_turn.domain import playback, speech
from bedside_turn.domain.chapters import NoSuchChapter
from bedside_turn_testing.book import book_info, passages

HERE = 135_000


def moved_to(chapter_title: str | None) -> OfferOutcome:
    """A move to chapter 1's start; with no title, as a chapter named by number lands."""
    place = Candidate.hit(passages()[0], HERE)
    return OfferOutcome(outcome="moved", moved_to=place.model_copy(update={"chapter_title": chapter_title}))


def listed(count: int) -> OfferOutcome:
    return OfferOutcome(outcome="listed", rows=[Candidate.hit(p, HERE) for p in passages()[:count]])


def timer(minutes: int) -> playback.PlaybackDone:
    return playback.PlaybackDone(PlaybackArgs(action="sleep_timer", minutes=minutes), True, True)


@pytest.mark.parametrize(
    "said",
    [
        speech.CANNOT_HELP,
        speech.NOT_FOUND,
        speech.undone(HERE, 2),
        speech.NO_MODEL + speech.NO_UNDO,
        speech.for_offer(moved_to(None)),
        speech.for_offer(OfferOutcome(outcome="moved")),  # a move with no place named: "There you are."
        speech.for_offer(moved_to("The Harbour Bell"), titled=False),
        speech.for_offer(listed(3)),
        speech.for_offer(listed(1)),
        speech.time_left(60_000, 3_600_000, book_info().chapters),
        speech.past_the_end(5_400_000),
        speech.not_in_book(MissingChapter(named=40, count=12, first=1, last=12)),
        speech.no_chapter_counted(NoSuchChapter(playing=3, step=20, first=1, last=12)),
        playback.spoken(timer(20)),
        playback.PAUSED,
        speech.not_yet([], asks_later=False),
        playback.SPEED_HOW,
        playback.NO_SUCH_SPEED,
        playback.spoken(
            playback.PlaybackDone(PlaybackArgs(action="speed", speed=1.5), True, True, speed=1.5)
        ),
        speech.WHAT_I_CAN_DO,
        *speech.COURTESY.values(),
        speech.about_the_book("chapters_left", book_info(), HERE),
    ],
)
def test_the_turns_own_sentences_hold_no_book_words(said: str) -> None:
    assert speech.holds_no_book_words(said)


@pytest.mark.parametrize(
    "said",
    [
        speech.for_offer(moved_to("The Harbour Bell")),  # a chapter's title is the book's
        speech.quoting(Candidate.hit(passages()[0], HERE), "who rang the bell?"),
        speech.not_yet(["Wren"], asks_later=False),  # a name, even the listener's own, is checked
        speech.NO_MODEL + speech.for_offer(moved_to("The Harbour Bell")),
        "Paused. Wren is waiting for you.",
        "paused.",
        "There you are: chapter 3. The storm is coming.",
        "Back 30 seconds.",  # not a sentence the turn says: the model may say anything
        # A model's words are checked even when they read exactly like the turn's own:
        "Paused.",
        "There you are: chapter 3.",
        "I'll stop in 20 minutes.",
        str(speech.NOT_FOUND),
    ],
)
def test_anything_else_holds_or_may_hold_the_books_words(said: str) -> None:
    assert not speech.holds_no_book_words(said)


def test_a_list_of_places_ahead_says_they_are_further_on() -> None:
    """A listener session: "go back to the fire" where every fire was still ahead put three rows on the
    screen with "best first" and no word of it, and "the first one" then took the book 45 minutes on."""
    ahead = OfferOutcome(outcome="listed", rows=[Candidate.hit(p, 0) for p in passages()[3:6]])
    mixed = OfferOutcome(outcome="listed", rows=[Candidate.hit(p, HERE) for p in passages()[3:7]])
    assert [r.ahead for r in mixed.rows] == [False, False, True, True]
    all_ahead, some_ahead, none_ahead = (speech.for_offer(o) for o in (ahead, mixed, listed(3)))
    assert "They're all further on from where you are now." in all_ahead
    assert "The third and fourth are further on from where you are now." in some_ahead
    assert "further on" not in none_ahead
    assert all(speech.holds_no_book_words(s) for s in (all_ahead, some_ahead))
