"""The stretch before a book's first chapter (an e-book's front matter, a recording's preamble) is
ingest's chapter 0. Every sentence that names it says "the opening": "chapter 0" means nothing to
a listener. Plain code, no bus."""

from bedside_contracts.player import HistoryEntry, OfferOutcome, SleepTimer
from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_contracts.turn import PlaybackArgs
from bedside_guard import Candidate, Passage
from bedside_turn.domain import playback, speech
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.last_move import last_move
from bedside_turn.domain.sittings import last_listened

CHAPTERS = [
    ChapterInfo(n=0, title="Opening", start_ms=0, end_ms=60_000),
    ChapterInfo(n=1, title="The Keeper", start_ms=60_000, end_ms=180_000),
    ChapterInfo(n=2, title="The Letter", start_ms=180_000, end_ms=300_000),
]
BOOK = BookInfo(
    id="front", title="Front", duration_ms=300_000, estimated=True, passages=10, chapters=CHAPTERS
)
IN_THE_OPENING = 40_000
PREFACE = Passage(
    id=0, start_ms=0, end_ms=30_000, chapter=0, chapter_title="Opening", text="A word before the tale."
)


def test_where_am_i_in_the_opening_says_so_in_the_turns_own_words() -> None:
    said = speech.where_you_are(IN_THE_OPENING, BOOK.duration_ms, CHAPTERS)
    assert said.startswith("You're in the opening, 40 seconds in; "), said
    assert speech.holds_no_book_words(said)


def test_the_chapters_counted_are_the_numbered_ones() -> None:
    assert speech.about_the_book("chapters", BOOK, IN_THE_OPENING) == (
        "The book has 2 chapters; you're in the opening."
    )
    assert speech.about_the_book("chapters_left", BOOK, IN_THE_OPENING) == (
        "After this one, the opening, there are 2 more chapters."
    )


def test_a_move_to_the_opening_names_it() -> None:
    place = Candidate.hit(PREFACE, 200_000)
    assert (
        speech.for_offer(OfferOutcome(outcome="moved", moved_to=place))
        == "There you are: the opening, at 0:00:00."
    )


def test_a_line_quoted_from_the_opening_says_where_it_was_heard() -> None:
    place = Candidate.hit(PREFACE, 200_000)
    assert speech.quoting(place) == 'In the opening, you heard: "A word before the tale."'
    assert recaps.at_chapter_start(0) == "You're at the very start of the opening, before any of it."


def test_a_timer_at_the_end_of_the_opening_names_it() -> None:
    done = playback.PlaybackDone(PlaybackArgs(action="sleep_timer", chapter_end=True, chapter=0), True, True)
    assert playback.spoken(done) == "I'll stop at the end of the opening."
    assert playback.lines(done) == ["Done: the sleep timer will pause the book at the end of the opening."]
    timer = SleepTimer(after="chapter_end", stop_at_ms=59_999, set_seq=1, device="phone", chapter=0)
    assert (
        playback.timer_now(timer, IN_THE_OPENING)
        == "The sleep timer stops the book at the end of the opening, in less than a minute."
    )


def test_is_it_playing_the_last_move_and_the_last_sitting_say_the_opening_too() -> None:
    """A code review: these built "in chapter N" by hand, and said "chapter 0"."""
    assert "in the opening at 0:00:40" in speech.playing_now(True, IN_THE_OPENING, CHAPTERS)
    moved = HistoryEntry(seq=3, kind="seeked", position_ms=IN_THE_OPENING, chapter=0, stored_at_ms=0)
    assert "to 0:00:40, in the opening." in last_move(moved, 60_000)
    on_the_phone = moved.model_copy(update={"device": "iphone-x7k2"})
    assert "on the iPhone:" in last_move(on_the_phone, 60_000)  # not its made-up name
    stopped = HistoryEntry(seq=4, kind="reported", position_ms=IN_THE_OPENING, chapter=0, stored_at_ms=0)
    assert "in the opening at 0:00:40" in last_listened(moved, stopped, 60_000)
