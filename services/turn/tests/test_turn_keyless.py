"""The keyless router on the same tools and rules, over a real bus with search and player doubles."""

import asyncio
import subprocess
from collections.abc import AsyncIterator

import pytest
from bedside_contracts import subjects
from bedside_contracts.player import (
    MAX_BOOKMARKS_PER_BOOK,
    AddBookmark,
    Asleep,
    Bookmark,
    CancelList,
    Heard,
    HistoryEntry,
    Pause,
    PressRow,
    SetSleepTimer,
    SetSpeed,
    Undo,
)
from bedside_contracts.search import CheckAnswer, FindPassage, Recall, Target, TranscriptCoverage
from bedside_contracts.turn import Ask, Exchange, TurnCompleted, TurnReply
from bedside_guard import Candidate, Passage, clock
from bedside_runtime.clock import wall_clock_ms
from bedside_runtime.errors import RemoteFailure
from bedside_testing import run_bedside
from bedside_turn.cli import describe, send
from bedside_turn.conversation import ConversationStore
from bedside_turn.domain import history, intents, playback, sittings, speech
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.routing import request_key
from bedside_turn_testing.book import BOOK_ID, LEAD_IN_MS, PASSAGE_MS, book_info, lead_in_book, passages
from bedside_turn_testing.doubles import DoubleBook
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.leaks import leaks

HERE = 135_000
PAUSED = "lamplight-paused"
LEAD_IN = "lamplight-lead-in"
TRANSCRIBING = "lamplight-transcribing"
HUSHED = "lamplight-hushed"
IN_PARTS = "lamplight-in-parts"


def transcribing_book() -> DoubleBook:
    """The test book as an interim version of its recording: chapter 1 transcribed, 2 to 4 not yet."""
    info = book_info()
    coverage = TranscriptCoverage(
        chapters_done=1,
        chapters=4,
        audio_done_ms=3 * PASSAGE_MS,
        audio_ms=info.duration_ms,
        pending=[2, 3, 4],
    )
    interim = info.model_copy(update={"id": TRANSCRIBING, "estimated": False, "transcript": coverage})
    return DoubleBook(interim, [p for p in passages() if p.chapter == 1])


def hushed_book() -> DoubleBook:
    """The test book as a whole recording in which nothing was heard in chapters 2 and 4 (music, say)."""
    info = book_info()
    hushed = info.model_copy(
        update={"id": HUSHED, "title": "The Quiet Harbour", "estimated": False, "silent_chapters": [2, 4]}
    )
    return DoubleBook(hushed, [p for p in passages() if p.chapter not in (2, 4)])


def book_in_parts() -> DoubleBook:
    """The test book with its chapters titled as parts: "Part 1" to "Part 4"."""
    info = book_info()
    parts = [c.model_copy(update={"title": f"Part {c.n}"}) for c in info.chapters]
    titled = {c.n: c.title for c in parts}
    read = [p.model_copy(update={"chapter_title": titled[p.chapter]}) for p in passages()]
    return DoubleBook(info.model_copy(update={"id": IN_PARTS, "chapters": parts}), read)


def paused_book() -> DoubleBook:
    """The test book as ingest makes a real one: a pause after each chapter's last passage, and
    each chapter running on the clock to the next one's start."""
    closing = {p.id for p in passages() if p.start_ms % (3 * PASSAGE_MS) == 2 * PASSAGE_MS}
    read = [p.model_copy(update={"end_ms": p.end_ms - 2_000}) if p.id in closing else p for p in passages()]
    info = book_info()
    chapters = [
        c.model_copy(update={"end_ms": nxt.start_ms})
        for c, nxt in zip(info.chapters, info.chapters[1:], strict=False)
    ]
    return DoubleBook(
        info.model_copy(update={"id": PAUSED, "chapters": [*chapters, info.chapters[-1]]}), read
    )


@pytest.fixture(scope="module")
async def rig(nats_url: str) -> AsyncIterator[Rig]:
    rig = await start_rig(
        nats_url,
        with_model=False,
        extra_books={
            PAUSED: paused_book(),
            LEAD_IN: DoubleBook(*lead_in_book(LEAD_IN)),
            TRANSCRIBING: transcribing_book(),
            HUSHED: hushed_book(),
            IN_PARTS: book_in_parts(),
        },
    )
    try:
        yield rig
    finally:
        await rig.broker.stop()


def position(rig: Rig, listener: str, book: str = BOOK_ID) -> int:
    return rig.player.positions[(listener, book)]


async def test_a_described_moment_behind_moves_there(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "take me back to where Wren gave her barley soup")
    assert reply.mode == "keyless"
    assert reply.outcome == "moved"
    assert position(rig, listener) == 60_000
    assert reply.speech == 'There you are: chapter 1, "The Harbour Bell", at 0:01:00.'


async def test_a_described_moment_ahead_is_a_covered_row_and_the_speech_says_nothing_of_it(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "take me to the part where the bay glowed amber")
    assert reply.outcome == "listed"
    assert reply.rows == ["0:05:30, further on (covered)"]
    assert position(rig, listener) == HERE
    assert not leaks(reply.speech, rig.passages, HERE)


async def test_going_back_searches_what_was_heard_first_then_the_whole_book(rig: Rig) -> None:
    listener = rig.listener_at(HERE)

    async def finds_for(utterance: str) -> tuple[TurnReply, list[bool]]:
        sent = len(rig.search.requests)
        reply = await rig.ask(listener, utterance)
        return reply, [r.heard_only for r in rig.search.requests[sent:] if isinstance(r, FindPassage)]

    heard, asked = await finds_for("take me back to where Wren gave her barley soup")
    assert (heard.outcome, asked) == ("moved", [True])
    await rig.ask(listener, "undo")
    # Only ahead: nothing heard fits, so the whole book is searched and its covered row is offered.
    ahead, asked = await finds_for("go back to the part where the bay glowed amber")
    assert (ahead.rows, asked) == (["0:05:30, further on (covered)"], [True, False])
    _, asked = await finds_for("take me to the part where the bay glowed amber")
    assert asked == [False]


async def test_nothing_above_the_threshold_is_not_offered(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "take me to the dragon fight")
    assert reply.speech == speech.NOT_FOUND
    assert reply.outcome == "unsure"
    assert len(rig.player.offers) == offers


@pytest.mark.parametrize(
    ("utterance", "outcome", "now"),
    [
        ("chapter 1", "moved", 0),
        ("chapter 3", "listed", HERE),
        ("back 30 seconds", "moved", HERE - 30_000),
        ("forward two minutes", "listed", HERE),
        ("forward five minutes", "listed", HERE),  # past the end: search's rule stops at the end
        ("go to 1:00:00", "refused", HERE),  # a time past the end is no place
        ("the start of this chapter", "moved", 90_000),
        ("the end", "listed", HERE),
        ("start from the beginning", "moved", 0),
        ("the next chapter", "listed", HERE),  # chapter 3, ahead: a covered row to press
        ("go back to the previous chapter", "moved", 0),
        ("skip back 1 chapter", "moved", 0),
        ("go back 2 chapters", "refused", HERE),  # chapter 2 plays: the book has none two before it
        ("skip 2 chapters", "listed", HERE),  # chapter 4, ahead: a covered row to press
        ("back 99999 minutes", "moved", 0),  # more than any book: the start, not an error
        ("skip forward 99999 minutes", "listed", HERE),
        ("jump to the final chapter", "listed", HERE),  # chapter 4, ahead: a covered row to press
        ("go to the end of the last chapter", "moved", 60_000),  # chapter 1's closing passage, not its start
        ("the end of the previous chapter", "moved", 60_000),  # a move, not a recap
    ],
)
async def test_named_places_meet_the_same_arithmetic(
    rig: Rig, utterance: str, outcome: str, now: int
) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener)) == (outcome, now)


@pytest.mark.parametrize(
    ("utterance", "now", "said"),
    [
        ("back 1", HERE - 60_000, 'Back 1 minute. If you meant seconds, say "undo", then "back 1 second".'),
        (
            "rewind 20",
            HERE - 20_000,
            'Back 20 seconds. If you meant minutes, say "undo", then "back 20 minutes".',
        ),
        (
            "go back 1.5",
            HERE - 90_000,
            'Back 1.5 minutes. If you meant seconds, say "undo", then "back 1.5 seconds".',
        ),
        ("back 5", 0, "Back to the start of the book."),  # 2:15 in: 5 minutes would overshoot
    ],
)
async def test_a_move_by_a_number_said_without_a_unit_says_the_unit_it_took(
    rig: Rig, utterance: str, now: int, said: str
) -> None:
    """Before, "back 1" was not read at all ("I can take you to a moment…"): now it moves by the
    likelier unit, and says which, so a listener who meant the other knows to undo it."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener), reply.speech) == ("moved", now, said)


async def test_a_move_forward_by_a_number_alone_says_the_unit_before_the_row_it_offers(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "skip forward 20")
    assert (reply.outcome, position(rig, listener)) == ("listed", HERE)
    assert reply.speech == (f"Forward 20 seconds. {speech.ONE_ROW_AHEAD}")


@pytest.mark.parametrize("utterance", ["start over", "play it from the top", "start it again"])
async def test_starting_again_with_no_start_named_is_the_chapters_and_says_so(
    rig: Rig, utterance: str
) -> None:
    """ "Play it from the top" was a search of the book for "it from the top"; "start over" was not read."""
    listener = rig.listener_at(HERE)  # chapter 2, which starts at 0:01:30
    searched = len([r for r in rig.search.requests if isinstance(r, FindPassage)])
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener)) == ("moved", 90_000)
    assert reply.speech == (
        'Back to the start of chapter 2, "The Keeper\'s Ledger". '
        'If you meant the whole book, say "start the book again".'
    )
    assert len([r for r in rig.search.requests if isinstance(r, FindPassage)]) == searched


@pytest.mark.parametrize("utterance", ["back an hour", "back 5", "go back quite a way"])
async def test_a_move_back_past_the_start_says_the_start_though_the_first_words_come_after_0_00(
    rig: Rig, utterance: str
) -> None:
    """A book's first words may start after 0:00:00 (the sample book's at 0:00:01): "back an hour" 2:15
    in stopped there, and was said as "Back 60 minutes", as if an hour had been gone back."""
    listener = rig.listener_at(HERE, book=LEAD_IN)
    reply = await rig.ask(listener, utterance, book=LEAD_IN)
    assert (reply.outcome, reply.speech) == ("moved", speech.BACK_TO_THE_START)
    assert position(rig, listener, book=LEAD_IN) == LEAD_IN_MS


@pytest.mark.parametrize("utterance", ["start over", "play it from the top", "the start of this chapter"])
@pytest.mark.parametrize(
    "here",
    [
        0,  # the book just opened, before chapter 1's mark at its first words (0:00:02)
        90_000 + LEAD_IN_MS // 2,  # inside chapter 2's lead-in, on the page as chapter 2
        90_000 + LEAD_IN_MS,  # on chapter 2's first word, not heard yet
    ],
)
async def test_the_start_of_the_chapter_asked_before_any_of_it_is_heard_is_where_they_are(
    rig: Rig, utterance: str, here: int
) -> None:
    """It was a covered row for the very chapter playing: "That's further on than you've got"."""
    listener = rig.listener_at(here, book=LEAD_IN)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, utterance, book=LEAD_IN)
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", speech.AT_CHAPTER_START, [])
    assert (position(rig, listener, book=LEAD_IN), len(rig.player.offers)) == (here, offers)


@pytest.mark.parametrize(
    ("utterance", "here", "said"),
    [
        ("um, can you, like, go back to chapter two", 90_000 + LEAD_IN_MS // 2, speech.AT_CHAPTER_START),
        ("chapter 2", 90_000 + LEAD_IN_MS, speech.AT_CHAPTER_START),
        ("go to the start", 0, "You're already at the start of the book."),
        ("back to the beginning of the book", LEAD_IN_MS, speech.BOOK_NOT_BEGUN),
    ],
)
async def test_a_start_asked_for_before_any_of_it_is_heard_is_where_they_are(
    rig: Rig, utterance: str, here: int, said: str
) -> None:
    """A listener session found these offered as a covered row: "That's further on than you've got"."""
    listener = rig.listener_at(here, book=LEAD_IN)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, utterance, book=LEAD_IN)
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", said, [])
    assert (position(rig, listener, book=LEAD_IN), len(rig.player.offers)) == (here, offers)


async def test_the_start_of_the_chapter_once_some_of_it_is_heard_is_its_first_words(rig: Rig) -> None:
    listener = rig.listener_at(HERE, book=LEAD_IN)
    reply = await rig.ask(listener, "start over", book=LEAD_IN)
    assert (reply.outcome, position(rig, listener, book=LEAD_IN)) == ("moved", 90_000 + LEAD_IN_MS)


@pytest.mark.parametrize(
    ("utterance", "outcome", "rows", "now"),
    [
        ("the next chapter", "listed", ["0:03:00, chapter 3, further on (covered)"], 179_000),
        ("start over", "moved", ['0:01:30, chapter 2, "The Keeper\'s Ledger"'], 90_000),
        ("go back to the previous chapter", "moved", ['0:00:00, chapter 1, "The Harbour Bell"'], 0),
    ],
)
async def test_a_chapter_is_counted_from_the_one_on_the_clock_in_the_pause_after_its_last_words(
    rig: Rig, utterance: str, outcome: str, rows: list[str], now: int
) -> None:
    """Chapter 2's words end at 0:02:58 and chapter 3 starts at 0:03:00. From 0:02:59 the count began
    at chapter 3, where narration resumes: the next chapter was chapter 4 and "start over" a covered
    chapter 3, while the page showed chapter 2."""
    listener = rig.listener_at(179_000, book=PAUSED)
    reply = await rig.ask(listener, utterance, book=PAUSED)
    assert (reply.outcome, reply.rows, position(rig, listener, book=PAUSED)) == (outcome, rows, now)


@pytest.mark.parametrize(
    ("utterance", "now"), [("start the book again", 0), ("start this chapter again", 90_000)]
)
async def test_starting_again_with_a_start_named_goes_there(rig: Rig, utterance: str, now: int) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener)) == ("moved", now)


async def test_the_end_offers_the_last_passage_covered(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "take me to the end")
    assert reply.rows == ["0:05:30, further on (covered)"]


@pytest.mark.parametrize(
    "utterance", ["Take me to the end of the chapter", "skip to the end of this chapter"]
)
async def test_the_end_of_the_chapter_is_the_closing_passage_of_the_one_playing_not_the_books_end(
    rig: Rig, utterance: str
) -> None:
    listener = rig.listener_at(HERE)  # chapter 2, which closes with the passage at 0:02:30
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.rows) == ("listed", ["0:02:30, end of chapter 2, further on (covered)"])
    assert reply.speech == speech.ONE_ROW_AHEAD
    assert position(rig, listener) == HERE
    assert not leaks(reply.speech, rig.passages, HERE)


async def test_the_end_of_the_chapter_is_its_closing_passage_though_the_chapter_runs_on_past_it(
    rig: Rig,
) -> None:
    """A chapter's end on the clock is the next one's start, after a pause: not a time to go to."""
    listener = rig.listener_at(HERE, book=PAUSED)
    reply = await rig.ask(listener, "take me to the end of the chapter", book=PAUSED)
    assert (reply.outcome, reply.rows) == ("listed", ["0:02:30, end of chapter 2, further on (covered)"])


@pytest.mark.parametrize("utterance", ["take me to the end of the chapter", "go to the end of chapter 2"])
async def test_the_end_of_the_chapter_asked_in_the_pause_after_its_last_words_is_where_they_are(
    rig: Rig, utterance: str
) -> None:
    """From 0:02:59, after chapter 2's last words (0:02:58) and before chapter 3 (0:03:00), the end of
    the chapter was chapter 3's, a covered row, and "the end of chapter 2" moved the book back 29 s."""
    listener = rig.listener_at(179_000, book=PAUSED)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, utterance, book=PAUSED)
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", speech.AT_CHAPTER_END, [])
    assert (position(rig, listener, book=PAUSED), len(rig.player.offers)) == (179_000, offers)


async def test_the_end_of_the_book_asked_inside_its_last_passage_is_where_they_are(rig: Rig) -> None:
    """ "Go to the end" from inside the book's last passage moved the book back to that passage's start
    and said "There you are" (a review)."""
    inside_the_last = 11 * PASSAGE_MS + 5_000
    listener = rig.listener_at(inside_the_last)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "go to the end")
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", speech.AT_BOOK_END, [])
    assert (position(rig, listener), len(rig.player.offers)) == (inside_the_last, offers)


@pytest.mark.parametrize("book", [BOOK_ID, PAUSED])
async def test_the_end_of_a_chapter_named_is_its_closing_passage_not_its_start(rig: Rig, book: str) -> None:
    listener = rig.listener_at(HERE, book=book)  # chapter 2; chapter 3 closes with the passage at 0:04:00
    reply = await rig.ask(listener, "take me to the end of chapter 3", book=book)
    assert (reply.outcome, reply.rows) == ("listed", ["0:04:00, end of chapter 3, further on (covered)"])
    behind = await rig.ask(listener, "go to the end of chapter one", book=book)
    assert behind.outcome == "moved"
    assert position(rig, listener, book=book) == 2 * PASSAGE_MS  # chapter 1's closing passage


async def test_the_end_of_a_chapter_the_book_does_not_have_says_how_many_it_has(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "take me to the end of chapter 9")
    assert (reply.outcome, reply.speech) == ("refused", "The book has 4 chapters; there is no chapter 9.")
    assert position(rig, listener) == HERE


async def test_the_end_of_the_chapter_asked_from_its_closing_passage_says_so_and_offers_nothing(
    rig: Rig,
) -> None:
    listener = rig.listener_at(160_000)  # inside chapter 2's closing passage
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "take me to the end of the chapter")
    assert (reply.outcome, reply.speech) == ("refused", speech.AT_CHAPTER_END)
    assert (position(rig, listener), len(rig.player.offers)) == (160_000, offers)


async def test_undo_puts_the_book_back_before_the_last_move(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    assert (await rig.ask(listener, "chapter 1")).outcome == "moved"
    reply = await rig.ask(listener, "undo that")
    assert reply.outcome == "moved"
    assert position(rig, listener) == HERE
    again = await rig.ask(listener, "undo that")
    assert again.outcome == "refused"
    # asked as if elsewhere (--at) nothing moves, and the answer says so: it said there was no move
    assert (await rig.ask(listener, "chapter 1")).outcome == "moved"
    previewed = await rig.ask(listener, "undo that", at_ms=HERE)
    assert (previewed.speech, previewed.preview, position(rig, listener)) == (speech.PREVIEW_UNDO, True, 0)


async def test_halfway_through_the_book_is_placed_by_its_length(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    duration = book_info().duration_ms
    reply = await rig.ask(listener, "go back to halfway through the book")
    assert reply.outcome in {"moved", "listed"}
    assert rig.player.offers[-1].targets == [Target(position_ms=round(duration / 2))]


async def test_the_middle_of_the_chapter_is_placed_by_the_chapter_playings_length(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    playing = next(c for c in book_info().chapters if c.start_ms <= HERE < c.end_ms)
    await rig.ask(listener, "skip to the middle of the chapter")
    middle = playing.start_ms + round((playing.end_ms - playing.start_ms) / 2)
    assert rig.player.offers[-1].targets == [Target(position_ms=middle)]


async def test_a_chapter_named_by_its_title_is_gone_to_once_its_title_has_been_heard(rig: Rig) -> None:
    """Before, "the chapter called The Harbour Bell" was a search of the book for "called the harbour
    bell", which its words need not hold. A title not yet reached stays a search: matched against the
    chapter list, a move would confirm what the book calls its chapters further on."""
    listener = rig.listener_at(200_000)  # in chapter 3
    reply = await rig.ask(listener, "go back to the chapter called the harbour bell, please")
    assert (reply.outcome, position(rig, listener)) == ("moved", 0)
    assert rig.player.offers[-1].targets == [Target(chapter=1)]
    listener = rig.listener_at(200_000)
    await rig.ask(listener, 'take me to the chapter titled "Keeper\'s Ledger"')
    assert position(rig, listener) == 90_000
    await rig.ask(listener, "play the chapter called the keeper returns")  # chapter 4: not reached
    assert Target(chapter=4) not in rig.player.offers[-1].targets
    finds = [r for r in rig.search.requests if isinstance(r, FindPassage)]
    assert finds[-1].query == "the keeper returns"


async def test_the_middle_of_a_chapter_named_is_placed_by_that_chapters_length(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    third = next(c for c in book_info().chapters if c.n == 3)
    await rig.ask(listener, "skip to the middle of chapter 3")
    assert rig.player.offers[-1].targets == [
        Target(position_ms=third.start_ms + (third.end_ms - third.start_ms) // 2)
    ]
    reply = await rig.ask(listener, "halfway through chapter 9")  # the book has four
    assert reply.outcome == "refused"
    assert reply.speech == "The book has 4 chapters; there is no chapter 9."


async def test_a_time_into_a_chapter_is_placed_from_that_chapters_start(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    chapters = {c.n: c for c in book_info().chapters}
    await rig.ask(listener, "go to a minute into chapter 3")
    assert rig.player.offers[-1].targets == [Target(position_ms=chapters[3].start_ms + 60_000)]
    playing = next(c for c in chapters.values() if c.start_ms <= HERE < c.end_ms)
    await rig.ask(listener, "ten seconds into this chapter")
    assert rig.player.offers[-1].targets == [Target(position_ms=playing.start_ms + 10_000)]
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "go to an hour into chapter 2")
    length = clock(chapters[2].end_ms - chapters[2].start_ms)
    assert (reply.outcome, reply.speech) == (
        "refused",
        f"Chapter 2 is only {length} long; there is no such time in it.",
    )
    assert len(rig.player.offers) == offers
    reply = await rig.ask(listener, "two minutes into chapter 9")  # the book has four
    assert reply.speech == "The book has 4 chapters; there is no chapter 9."


async def test_a_row_of_the_list_is_pressed_by_saying_which(rig: Rig) -> None:
    """Before, "the second one" was a search of the book for its words."""
    listener = rig.listener_at(HERE)
    rows = [rig.passages[k] for k in (1, 4)]
    rig.player.rows[(listener, BOOK_ID)] = [Candidate.covering(p, HERE) for p in rows]
    reply = await rig.ask(listener, "the last one")
    assert (reply.outcome, position(rig, listener)) == ("moved", rows[1].start_ms)
    assert isinstance(rig.player.commands[-1], PressRow)
    # what a later model turn reads names the place it moved to by id, never by the time it now is at
    conversation, _ = await rig.service.conversations.load(listener, BOOK_ID)
    moved = f"Moved: the book now plays from passage id={rows[1].id} in chapter {rows[1].chapter}."
    assert conversation.exchanges[-1].calls[-1].lines == [moved]
    assert (await rig.ask(listener, "the second one")).speech == speech.not_on_the_list(0)  # the list went
    rig.player.rows[(listener, BOOK_ID)] = [Candidate.covering(rows[0], HERE)]
    assert (await rig.ask(listener, "option 3")).speech == "There is only one place on the screen."
    assert position(rig, listener) == rows[1].start_ms


@pytest.mark.parametrize("said", ["none of those", "stay here", "clear the list"])
async def test_a_list_let_go_of_aloud_leaves_every_screen_and_the_book_stays(rig: Rig, said: str) -> None:
    """A sleepy listener shown places they did not want had no words to take the list away: "none of
    those" was not understood, and the list stayed on every device."""
    listener = rig.listener_at(HERE)
    rig.player.rows[(listener, BOOK_ID)] = [Candidate.covering(rig.passages[k], HERE) for k in (1, 4)]
    reply = await rig.ask(listener, said)
    assert isinstance(rig.player.commands[-1], CancelList)
    assert (reply.speech, rig.player.rows.get((listener, BOOK_ID), [])) == (playback.LIST_CLEARED, [])
    assert (await rig.ask(listener, said)).speech == playback.NO_LIST
    assert position(rig, listener) == HERE


@pytest.mark.parametrize("said", ["cancel that", "undo"])
async def test_cancel_that_or_undo_just_after_a_list_takes_the_list_away(rig: Rig, said: str) -> None:
    """ "Undo" just after a list undid the move before it, and the list stayed."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "back 2 minutes")
    listed = await rig.ask(listener, "take me to the part where the bay glowed amber")
    assert (listed.outcome, len(rig.player.rows[(listener, BOOK_ID)])) == ("listed", 1)
    assert (await rig.ask(listener, said)).speech == playback.LIST_CLEARED
    assert (rig.player.rows.get((listener, BOOK_ID), []), position(rig, listener)) == ([], HERE - 120_000)


async def test_a_question_quotes_the_best_heard_passage_with_its_chapter(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "who is Tamsin?")
    assert reply.outcome == "answered"
    assert reply.speech.startswith("In chapter ")
    assert "Tamsin" in reply.speech
    assert not leaks(reply.speech, rig.passages, HERE, {"who is Tamsin"})


async def test_a_moment_asked_for_from_where_it_starts_says_they_are_there(rig: Rig) -> None:
    """A listener session: taken to where the storm starts, "back to where the storm starts" again
    listed that very place as a covered row "further on": a place at the line counts as ahead."""
    ledger = 3 * PASSAGE_MS  # "In the empty lighthouse Tamsin found a ledger ..."
    listener = rig.listener_at(ledger)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "take me back to where Tamsin found the ledger")
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", speech.ALREADY_THERE, [])
    assert (position(rig, listener), len(rig.player.offers)) == (ledger, offers)


async def test_two_who_questions_in_one_breath_are_each_answered_from_what_was_heard(rig: Rig) -> None:
    """A listener session: "who are X and Y?" was one search, which quoted a passage about one of them."""
    here = 2 * PASSAGE_MS
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "who are Wren and Tamsin?")
    assert reply.outcome == "answered"
    assert "Old Wren the ferryman" in reply.speech
    assert "A girl named Tamsin" in reply.speech
    assert not leaks(reply.speech, rig.passages, here, {"who is Wren", "who is Tamsin"})
    reply = await rig.ask(listener, "who is Wren and who is Ambrose?")
    assert "Old Wren the ferryman" in reply.speech
    assert reply.speech.endswith(speech.not_yet(["Ambrose"], False, False))


async def test_a_question_in_a_chapter_not_transcribed_yet_says_so_not_that_it_has_not_come_up(
    rig: Rig,
) -> None:
    """A listener session: in a book still being transcribed, "who is John?" was answered "John hasn't
    come up yet in what you've heard", though John may have been heard a minute before."""
    in_chapter_three = rig.listener_at(7 * PASSAGE_MS, book=TRANSCRIBING)
    reply = await rig.ask(in_chapter_three, "who is Ambrose?", book=TRANSCRIBING)
    assert (reply.outcome, reply.speech) == ("not_yet", speech.NOT_TRANSCRIBED_HERE)
    in_chapter_one = rig.listener_at(2 * PASSAGE_MS, book=TRANSCRIBING)
    reply = await rig.ask(in_chapter_one, "who is Ambrose?", book=TRANSCRIBING)
    assert reply.speech == "Ambrose hasn't come up yet at this point in the book."


async def test_a_recap_or_a_search_reaching_a_chapter_not_transcribed_yet_says_so(rig: Rig) -> None:
    """A listener session, 42 s into a chapter still being transcribed: "what happened in this
    chapter?" was told nothing of it had played, and "take me back to the wedding", heard a minute
    before, "I couldn't find that moment in the book"."""
    in_chapter_three = rig.listener_at(7 * PASSAGE_MS, book=TRANSCRIBING)
    for asked in ("what happened in this chapter?", "what happens in chapter 2?", "what did I just hear?"):
        reply = await rig.ask(in_chapter_three, asked, book=TRANSCRIBING)
        assert reply.speech == recaps.NOT_TRANSCRIBED_YET, asked
    went = await rig.ask(in_chapter_three, "take me back to the wedding on the pier", book=TRANSCRIBING)
    assert went.speech == speech.NOT_FOUND_WHILE_TRANSCRIBING
    whole = rig.listener_at(7 * PASSAGE_MS)
    assert (await rig.ask(whole, "take me back to the wedding on the pier")).speech == speech.NOT_FOUND


async def test_a_chapter_in_which_nothing_was_heard_is_gone_to_and_said_to_have_no_words(rig: Rig) -> None:
    """Such a chapter was left out of the list; listed, it was a place only while its book was still
    being transcribed: "go to chapter 2" was refused, and a recap of it said it was all still ahead."""
    two = book_info().chapters[1]
    after_it = rig.listener_at(two.end_ms + 10_000, book=HUSHED)
    went = await rig.ask(after_it, "go to chapter 2", book=HUSHED)
    assert (went.outcome, position(rig, after_it, HUSHED)) == ("moved", two.start_ms)
    in_it = rig.listener_at(two.start_ms + 40_000, book=HUSHED)
    for asked in ("what happened in this chapter?", "what happens in chapter 2?"):
        told = await rig.ask(in_it, asked, book=HUSHED)
        assert told.speech == recaps.NO_WORDS_HEARD, asked
    in_it_again = rig.listener_at(two.start_ms + 40_000, book=HUSHED)
    for asked in ("skip to the end of this chapter", "go to the end of chapter 2"):  # it has no closing words
        told = await rig.ask(in_it_again, asked, book=HUSHED)
        assert (told.outcome, told.speech) == ("refused", speech.NO_END_WITHOUT_WORDS), asked
    the_end = await rig.ask(after_it, "go to the end of the book", book=HUSHED)
    assert the_end.rows == ["0:04:00, further on (covered)"]  # the last words, not the music after
    before_it = rig.listener_at(two.start_ms - 10_000, book=HUSHED)
    went = await rig.ask(before_it, "next chapter", book=HUSHED)
    assert (went.outcome, went.rows) == ("listed", ["0:01:30, chapter 2, further on (covered)"])


@pytest.mark.parametrize(
    "utterance", ["go back 5 minutes", "chapter 2", "undo", "stop in 10 minutes", "pause"]
)
async def test_a_turn_answered_after_its_asker_gave_up_changes_nothing(rig: Rig, utterance: str) -> None:
    """A turn held up past the page's 30 s (the page said it failed) moved the book 34 s later, over a
    place the listener had chosen since (an operations session). Past its answer-by time a turn
    changes nothing."""
    listener = rig.listener_at(HERE)
    offers, commands = len(rig.player.offers), len(rig.player.commands)
    await rig.ask(listener, utterance, answer_by_ms=1)
    assert (len(rig.player.offers), len(rig.player.commands)) == (offers, commands)
    await rig.ask(listener, "go back 5 minutes", answer_by_ms=wall_clock_ms() + 60_000)  # in time: moves
    assert len(rig.player.offers) == offers + 1


async def test_a_bookmark_asked_for_too_late_is_none_and_no_instruction_is_said(rig: Rig) -> None:
    """The review: a bookmark past the turn's answer-by time was said as "I couldn't add that bookmark:
    Refused: the listener stopped waiting ... Say only that it took too long.", the model's instruction."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "bookmark this", answer_by_ms=1)
    assert bookmarks_kept(rig, listener) == []
    assert reply.speech == speech.TROUBLE, reply.speech


async def test_a_book_in_parts_is_asked_about_by_part(rig: Rig) -> None:
    """A tester, in a book titled in parts ("Part 1", "Part 2"): "go to part 2" was not understood, and
    "what happened in part 1?" was told it had not come up."""
    listener = rig.listener_at(HERE, book=IN_PARTS)
    went = await rig.ask(listener, "go back to part 1", book=IN_PARTS)
    assert (went.outcome, position(rig, listener, IN_PARTS)) == ("moved", 0)
    recap = await rig.ask(rig.listener_at(HERE, book=IN_PARTS), "what happened in Part One?", book=IN_PARTS)
    assert recap.speech.startswith('In chapter 1, "Part 1": At '), recap.speech
    found = await rig.ask(
        rig.listener_at(HERE, book=IN_PARTS),
        "take me back to the part where Wren gave Tamsin barley soup",
        book=IN_PARTS,
    )
    assert found.outcome == "moved"  # a part that is no number stays a word


async def test_a_question_by_part_said_with_a_move_is_answered_from_its_own_words(rig: Rig) -> None:
    """(Review) In a book in parts, "go back 1 minute and what happens in part 1" said the move twice and
    never answered: the question's half read the whole sentence again, parts as chapters, as the move. It
    is a recap of part 1, told as far as it was heard where they asked, as any recap said with a move is."""
    there = HERE - 60_000
    moved_alone = await rig.ask(rig.listener_at(HERE, book=IN_PARTS), "go back 1 minute", book=IN_PARTS)
    asked_alone = await rig.ask(rig.listener_at(HERE, book=IN_PARTS), "what happens in part 1", book=IN_PARTS)
    listener = rig.listener_at(HERE, book=IN_PARTS)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "go back 1 minute and what happens in part 1", book=IN_PARTS)
    assert (len(rig.player.offers), position(rig, listener, IN_PARTS)) == (offers + 1, there)
    assert reply.speech == f"{moved_alone.speech} {asked_alone.speech}"


async def test_a_second_move_by_part_said_with_a_move_is_said_as_not_done(rig: Rig) -> None:
    """(Review) In a book in parts, "go back 1 minute and where does part 2 start" said the move twice:
    the question's half, read by the book's chapter names, was a second move, refused after the first,
    and the first's offer was said again for it."""
    moved_alone = await rig.ask(rig.listener_at(HERE, book=IN_PARTS), "go back 1 minute", book=IN_PARTS)
    listener = rig.listener_at(HERE, book=IN_PARTS)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "go back 1 minute and where does part 2 start", book=IN_PARTS)
    assert (len(rig.player.offers), position(rig, listener, IN_PARTS)) == (offers + 1, HERE - 60_000)
    assert reply.speech.count(moved_alone.speech) == 1, reply.speech
    assert reply.speech == f"{moved_alone.speech} {speech.MOVED_ONCE_ALREADY}"


async def test_a_story_question_naming_a_part_said_with_a_move_is_answered(rig: Rig) -> None:
    """(Review) "go back 1 minute and where did Wren hide the key in part 2" said the book was moved once
    already: the question's half, read by the book's chapter names, was read as a move to chapter 2."""
    there = HERE - 60_000
    moved_alone = await rig.ask(rig.listener_at(HERE, book=IN_PARTS), "go back 1 minute", book=IN_PARTS)
    question = "where did Wren hide the key in part 2"
    asked_there = await rig.ask(rig.listener_at(there, book=IN_PARTS), question, book=IN_PARTS)
    listener = rig.listener_at(HERE, book=IN_PARTS)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, f"go back 1 minute and {question}", book=IN_PARTS)
    assert (len(rig.player.offers), position(rig, listener, IN_PARTS)) == (offers + 1, there)
    assert reply.speech == f"{moved_alone.speech} {asked_there.speech}"
    assert speech.MOVED_ONCE_ALREADY not in reply.speech


async def test_asking_to_play_another_book_by_its_title_says_where_books_are_changed(rig: Rig) -> None:
    """A tester: "play black beauty" in another book searched that book for the words and offered two
    places in it."""
    listener = rig.listener_at(HERE)
    offers = len(rig.player.offers)
    for asked in ("play the quiet harbour", "Open The Quiet Harbour please", "listen to quiet harbour"):
        reply = await rig.ask(listener, asked)
        assert reply.speech == speech.OTHER_BOOK_ON_THE_PAGE, asked
    assert len(rig.player.offers) == offers
    assert (await rig.ask(listener, "play the part where Wren gave Tamsin barley soup")).outcome == "moved"


@pytest.mark.parametrize(
    ("utterance", "said"),
    [
        ("stop in 20 minutes", "I'll stop in 20 minutes."),
        ("stop at the end of the chapter", "I'll stop at the end of this chapter."),
        ("cancel the sleep timer", "The sleep timer is off."),
        ("pause", "Paused."),
    ],
)
async def test_a_timer_or_a_pause_asked_as_if_elsewhere_says_what_it_would_do(
    rig: Rig, utterance: str, said: str
) -> None:
    """A tester: `bedside ask --at ... "stop in 20 minutes"` said only "Preview only: nothing was
    changed.", not what the timer would have been."""
    listener = rig.listener_at(HERE)
    commands = len(rig.player.commands)
    reply = await rig.ask(listener, utterance, at_ms=HERE)
    assert (reply.speech, reply.preview) == (f"Preview only (nothing was changed): {said}", True)
    assert reply.outcome == "answered"  # as a move previewed is "moved"; it was "unsure"
    assert len(rig.player.commands) == commands


async def test_a_question_is_noted_as_a_sign_of_someone_awake_but_not_one_asked_as_if_elsewhere(
    rig: Rig,
) -> None:
    listener = rig.listener_at(HERE)
    noted = len(rig.player.questions_noted)
    await rig.ask(listener, "who is Tamsin?")
    assert len(rig.player.questions_noted) == noted + 1
    await rig.ask(listener, "who is Tamsin?", at_ms=HERE // 2)  # `bedside ask --at`: nobody is there
    assert len(rig.player.questions_noted) == noted + 1


async def test_a_question_asked_as_if_elsewhere_is_not_kept_in_the_conversation(rig: Rig) -> None:
    """A review: a `bedside ask --at` preview took one of the six exchanges a later turn reads, and
    "go there" after it could press a row of a list the listener never saw."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "who is Tamsin?")
    await rig.ask(listener, "take me back to the lighthouse", at_ms=HERE // 2)
    conversation, _ = await rig.service.conversations.load(listener, BOOK_ID)
    assert [exchange.utterance for exchange in conversation.exchanges] == ["who is Tamsin?"]


async def test_a_position_sent_with_the_ask_is_used_without_asking_the_player(rig: Rig) -> None:
    listener = rig.listener_at(0)  # the double would say nothing has been heard
    asked = rig.player.state_requests
    reply = await rig.ask(listener, "who is Tamsin?", here_ms=HERE)
    assert reply.outcome == "answered"
    assert "Tamsin" in reply.speech
    assert rig.player.state_requests == asked


async def test_a_question_about_what_is_ahead_has_not_come_up(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "who is Mortimer Sleet?")
    checked = [r for r in rig.search.requests if isinstance(r, CheckAnswer)][-1]
    assert (checked.answer, checked.from_model) == (reply.speech, False)  # plain code: the names rule only
    assert (reply.outcome, reply.speech) == (
        "not_yet",
        "Mortimer Sleet hasn't come up yet at this point in the book.",
    )
    # In lower case the name is not said back: a word the book never uses gets this same reply
    for asked in ("who is mortimer sleet?", "who is bobblehat?"):
        assert (await rig.ask(listener, asked)).speech == speech.NOT_YET


@pytest.mark.parametrize("asked", ["who is the woman who ", "take me back to where the woman who "])
async def test_a_question_longer_than_a_search_takes_is_asked_to_be_put_shorter(rig: Rig, asked: str) -> None:
    """Past the tools' 300 characters a question was answered "That hasn't come up yet" (a red team)."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, asked + "walked along the harbour wall in the rain " * 10)
    assert (reply.outcome, reply.speech) == ("refused", speech.SAY_IT_SHORTER)


async def test_a_question_about_what_happens_later_is_further_on(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "what happens to Tamsin in the end?")
    assert (reply.outcome, reply.speech) == ("not_yet", speech.FURTHER_ON)


async def test_anything_else_gets_an_honest_short_answer(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "sing me a lullaby")
    assert (reply.speech, reply.outcome) == (speech.CANNOT_HELP, "unsure")


async def test_at_answers_from_there_without_moving(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "chapter 1", at_ms=300_000)
    assert reply.preview
    # the player's own decision from there (a place behind: a move), made as a dry run
    assert (reply.outcome, reply.rows) == ("moved", ['0:00:00, chapter 1, "The Harbour Bell"'])
    assert reply.speech == 'From there I would take you to chapter 1, "The Harbour Bell".'
    assert position(rig, listener) == HERE
    assert [o.preview_at_ms for o in rig.player.offers[offers:]] == [300_000]
    asked = await rig.ask(listener, "who is Ambrose?", at_ms=300_000)
    assert asked.outcome == "answered"


async def test_every_turn_is_appended_to_the_turns_stream_once(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    js = rig.broker.connection.jetstream()
    subject = subjects.TURN_COMPLETED.format(listener=listener, book=BOOK_ID)
    reply = await rig.ask(listener, "back 30 seconds")
    message = await js.get_last_msg(subjects.TURNS_STREAM, subject)
    assert message.data is not None
    event = TurnCompleted.model_validate_json(message.data)
    assert message.headers is not None
    assert message.headers["Nats-Msg-Id"] == reply.turn_id
    assert (event.turn_id, event.outcome, event.mode, event.speech) == (
        reply.turn_id,
        "moved",
        "keyless",
        reply.speech,
    )
    assert [c.name for c in event.calls] == ["offer_positions"]
    assert event.calls[0].arguments == {"offset_ms": -30_000}
    assert event.calls[0].result.startswith("Moved: the book now plays from passage id=103")
    assert {s.name for s in event.steps} >= {"position", "tool offer_positions"}
    again = await js.publish(
        subject, message.data, stream=subjects.TURNS_STREAM, headers={"Nats-Msg-Id": reply.turn_id}
    )
    assert again.duplicate


async def test_a_conversation_that_cannot_be_read_is_answered_without_it(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure to read the stored exchanges failed the whole turn, where a failure to record one is
    only logged (a review)."""
    listener = rig.listener_at(HERE)

    async def unreadable(listener: str, book: str) -> object:
        raise TimeoutError("the key-value store did not answer")

    monkeypatch.setattr(rig.service.conversations, "load", unreadable)
    reply = await rig.ask(listener, "no, the other one")
    assert (reply.outcome, reply.speech) == ("unsure", speech.NO_OTHER)


async def test_conversations_keep_the_last_six_exchanges_and_survive_racing_writers(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    store = rig.service.conversations

    def exchange(n: int) -> Exchange:
        return Exchange(turn_id=f"t{n}", utterance=f"u{n}", speech="s", outcome="unsure", guarded_at_ms=HERE)

    await asyncio.gather(*(store.append(listener, BOOK_ID, exchange(n)) for n in range(8)))
    conversation, revision = await store.load(listener, BOOK_ID)
    assert revision is not None
    assert len(conversation.exchanges) == 6
    assert len({e.turn_id for e in conversation.exchanges}) == 6
    other = ConversationStore(rig.service.conversations.kv)
    assert (await other.load(listener, BOOK_ID))[0] == conversation


async def test_the_cli_sends_an_ask_and_prints_speech_and_outcome(rig: Rig, nats_url: str) -> None:
    listener = rig.listener_at(HERE)
    reply = await send([nats_url], Ask(listener=listener, book=BOOK_ID, utterance="chapter 3"))
    assert isinstance(reply, TurnReply)
    lines = describe(reply, BOOK_ID)
    assert lines[0] == reply.speech
    assert lines[1].startswith("outcome: listed")
    assert f"book: {BOOK_ID}" in lines[1]  # a listener session: after a removal, another book was asked
    assert lines[2] == "  1. 0:03:00, chapter 3, further on (covered)"


async def test_a_listener_the_player_does_not_know_is_refused_saying_how_to_make_one(rig: Rig) -> None:
    """Only the player knows listeners: the turn asks it, and its refusal (typed: not_found) ends the
    turn before anything is answered as if the listener were at the book's start."""
    with pytest.raises(RemoteFailure) as refused:
        await rig.ask("nobody-here", "who is Wren?")
    assert refused.value.failure.code == "not_found"
    assert refused.value.failure.error == (
        "there is no listener called nobody-here; `bedside listener add nobody-here` makes one"
    )
    with pytest.raises(RemoteFailure):  # "as if there" is asked as them too
        await rig.ask("nobody-here", "who is Wren?", at_ms=HERE)


async def bedside_ask(nats_url: str, listener: str, utterance: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "BEDSIDE_NATS_URL": nats_url, "COLUMNS": "300", "NO_COLOR": "1"}
    args = ("ask", "--book", BOOK_ID, "--listener", listener, utterance)
    return await asyncio.to_thread(run_bedside, *args, env=env, timeout_s=60)


async def test_bedside_ask_exits_non_zero_on_a_failed_turn_and_still_says_why(
    rig: Rig, nats_url: str
) -> None:
    """A script running ``bedside ask`` must see that a failed turn did nothing."""
    listener = rig.listener_at(HERE)
    rig.search.down = True
    try:
        done = await bedside_ask(nats_url, listener, "who is Wren?")
    finally:
        rig.search.down = False
    assert done.stdout.splitlines()[0] == speech.SEARCH_UNAVAILABLE, done.stderr
    assert "outcome: failed" in done.stdout
    assert done.returncode == 1


async def test_bedside_ask_for_a_listener_nobody_made_says_so_and_exits_non_zero(
    rig: Rig, nats_url: str
) -> None:
    done = await bedside_ask(nats_url, "ghost", "who is Wren?")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "there is no listener called ghost; `bedside listener add ghost` makes one" in done.stderr


async def test_with_search_down_the_turns_own_words_are_spoken_and_the_books_are_not(rig: Rig) -> None:
    """An answer of the turn's own fixed words holds nothing for the answer check to look at, so a
    stalled search does not silence it; one holding the book's words (a chapter's title, a quote)
    is still never spoken unchecked, and plain words standing for a tool search failed are not said."""
    listener = rig.listener_at(HERE)
    rig.search.down = True
    try:
        own = {
            "pause": "Paused.",
            "set a sleep timer for 2 minutes": "I'll stop in 2 minutes.",
            "sing me a song": speech.CANNOT_HELP,
        }
        for utterance, said in own.items():
            reply = await rig.ask(listener, utterance)
            assert (reply.speech, reply.outcome) == (
                said,
                "answered" if said != speech.CANNOT_HELP else "unsure",
            )
        moved = await rig.ask(listener, "back 2 minutes")  # the player double moves without search
        # where the book went, without the title that could not be checked
        assert (moved.speech, moved.outcome) == ("There you are: chapter 1, at 0:00:15.", "moved")
        undone = await rig.ask(listener, "undo that")  # the player's own command: no search in it
        assert (undone.speech, undone.outcome) == (speech.undone(HERE, None), "moved")
        recalled = await rig.ask(listener, "who is Wren?")
        assert (recalled.speech, recalled.outcome) == (speech.SEARCH_UNAVAILABLE, "failed")
        found = await rig.ask(listener, "take me back to where Wren gave Tamsin barley soup")
        assert (found.speech, found.outcome) == (
            speech.SEARCH_UNAVAILABLE,
            "failed",
        )  # not "I couldn't find that moment"
    finally:
        rig.search.down = False


async def test_a_book_search_does_not_have_is_refused_as_not_found_not_trouble(rig: Rig) -> None:
    """Telling them to ask again in a moment would send them round in circles: no moment helps."""
    listener = rig.listener_at(HERE)
    for utterance, at_ms in [("who is Wren?", HERE), ("who is Wren?", None), ("where am I?", None)]:
        with pytest.raises(RemoteFailure) as refused:
            await rig.ask(listener, utterance, book="no-such-book", at_ms=at_ms)
        assert refused.value.failure.code == "not_found", (utterance, at_ms)
        assert "no-such-book" in refused.value.failure.error


async def test_the_other_one_offers_what_the_last_search_found_and_did_not_offer(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    first = await rig.ask(listener, "take me back to where Wren gave Tamsin barley soup")
    assert first.outcome == "moved"
    again = await rig.ask(listener, "no, the other one")
    assert again.outcome == "listed"
    assert again.rows
    assert all(
        'chapter 1, "The Harbour Bell"' not in row or not row.startswith("0:01:00") for row in again.rows
    )
    offered = rig.player.offers[-1]
    assert 102 not in [t.passage_id for t in offered.targets]


def passage_quoted(said: str) -> Passage:
    return next(p for p in passages() if p.text in said)


async def answered_about_wren(rig: Rig, listener: str) -> Passage:
    """ "Who is Wren?" asked, and the passage its answer quoted."""
    return passage_quoted((await rig.ask(listener, "who is Wren?")).speech)


def offered_last(rig: Rig) -> list[int | None]:
    return [target.passage_id for target in rig.player.offers[-1].targets]


async def test_take_me_there_after_an_answer_goes_to_the_passage_it_quoted(rig: Rig) -> None:
    """ "Who is Wren?" answered from chapter 1, then "take me there": it searched the book for "there"."""
    listener = rig.listener_at(HERE)
    quoted = await answered_about_wren(rig, listener)
    there = await rig.ask(listener, "take me there")
    assert there.outcome == "moved"
    assert offered_last(rig) == [quoted.id]
    assert position(rig, listener) == quoted.start_ms


@pytest.mark.parametrize("asked", ["where was that?", "when was that", "when did that happen?"])
async def test_where_that_was_after_an_answer_shows_the_place_it_quoted_and_moves_nothing(
    rig: Rig, asked: str
) -> None:
    """A listener session: "where was that?" after "who is ...?" was told it "hasn't come up yet"."""
    listener = rig.listener_at(HERE)
    quoted = await answered_about_wren(rig, listener)
    reply = await rig.ask(listener, asked)
    assert reply.outcome == "listed"
    assert offered_last(rig) == [quoted.id]
    assert not rig.player.offers[-1].may_move
    assert position(rig, listener) == HERE


@pytest.mark.parametrize("asked", ["tell me more", "what else?", "anything else"])
async def test_more_after_an_answer_quotes_another_heard_place_never_says_not_yet(
    rig: Rig, asked: str
) -> None:
    """A listener session: "tell me more" after "who is ...?" was told it "hasn't come up yet"."""
    listener = rig.listener_at(HERE)
    first = await answered_about_wren(rig, listener)
    more = await rig.ask(listener, asked)
    other = passage_quoted(more.speech)  # a review: it always said that was all
    assert other.id != first.id
    there = await rig.ask(listener, "take me there")  # to what was just quoted
    assert offered_last(rig) == [other.id], there.speech
    alone = await rig.ask(rig.listener_at(HERE), asked)
    assert alone.speech == speech.MORE_OF_WHAT


@pytest.mark.parametrize("consent", ["go there", "take me there", "the first one"])
async def test_a_single_row_ahead_is_pressed_by_saying_so(rig: Rig, consent: str) -> None:
    """In the dark a listener cannot see the row to press: the reply says what to say, and saying
    it is the press (the consent a covered row asks for). "Go there" drew the same row again."""
    listener = rig.listener_at(HERE)
    offered = await rig.ask(listener, "take me to the end of the chapter")
    assert offered.speech == speech.ONE_ROW_AHEAD
    assert "go there" in offered.speech
    pressed = await rig.ask(listener, consent)
    assert (pressed.outcome, position(rig, listener)) == ("moved", 150_000)  # chapter 2's closing passage


async def test_go_there_presses_the_one_row_still_on_the_screen_after_another_question(rig: Rig) -> None:
    """A listener session asked "where am I?" between the list and "go there", and was asked which
    moment they meant: the row was still on the screen."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "take me to the end of the chapter")
    await rig.ask(listener, "where am I?")
    pressed = await rig.ask(listener, "go there")
    assert (pressed.outcome, position(rig, listener)) == ("moved", 150_000)


async def test_that_one_said_to_a_list_presses_its_only_row(rig: Rig) -> None:
    """A listener session: "that one", said to a list of places, searched the book for "that one" and
    drew a new list of places further on, whose "first" then jumped into the unheard last chapter."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "take me to the end of the chapter")
    await rig.ask(listener, "where am I?")
    pressed = await rig.ask(listener, "that one")
    assert (pressed.outcome, position(rig, listener)) == ("moved", 150_000)
    nothing_listed = await rig.ask(listener, "that one")
    assert (nothing_listed.speech, position(rig, listener)) == (speech.NO_PLACE_NAMED, 150_000)


async def test_go_there_leaves_a_list_drawn_before_the_last_two_turns(rig: Rig) -> None:
    """Review: a list hours old, about something else, was pressed by any "go there"."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "take me to the end of the chapter")
    await rig.ask(listener, "where am I?")
    await rig.ask(listener, "how long is left?")
    there = await rig.ask(listener, "go there")
    assert (there.speech, position(rig, listener)) == (speech.NO_PLACE_NAMED, HERE)


@pytest.mark.parametrize("said", ["yes", "yeah", "that one"])
async def test_a_bare_yes_after_an_answer_moves_nothing(rig: Rig, said: str) -> None:
    """Review: read as "take me there", a "yes" to an answer that quoted a passage moved the book."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "who is Wren?")
    await rig.ask(listener, said)
    assert position(rig, listener) == HERE


async def test_take_me_there_with_no_place_named_asks_which_moment(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "how long is left?")
    there = await rig.ask(listener, "take me there")
    assert there.speech == speech.NO_PLACE_NAMED
    assert position(rig, listener) == HERE


@pytest.mark.parametrize(
    ("utterance", "said"),
    [
        ("delete my bookmark", speech.BOOKMARKS_REMOVED_ON_THE_PAGE),
        ("switch books", speech.OTHER_BOOK_ON_THE_PAGE),
    ],
)
async def test_what_no_tool_does_is_said_plainly_and_nothing_moves(
    rig: Rig, utterance: str, said: str
) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert reply.speech == said
    assert position(rig, listener) == HERE


async def test_a_timer_asked_for_without_a_length_asks_how_long_and_sets_none(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "set a timer")
    assert reply.speech == speech.TIMER_HOW_LONG
    assert (listener, BOOK_ID) not in rig.player.sleep_timers


async def test_a_timer_to_a_time_of_day_says_it_takes_a_length_and_sets_none(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "stop at midnight")
    assert reply.speech == speech.TIMER_NOT_BY_THE_CLOCK
    assert (listener, BOOK_ID) not in rig.player.sleep_timers


def timers_set(rig: Rig, since: int) -> list[SetSleepTimer]:
    return [command for command in rig.player.commands[since:] if isinstance(command, SetSleepTimer)]


@pytest.mark.parametrize(
    ("length", "sentence"),
    [
        ("2 minutes", "stop in 2 minutes"),
        ("half an hour", "stop in half an hour"),
        ("2", "stop in 2"),
        ("the end of the chapter", "stop at the end of the chapter"),
        ("end of this chapter", "stop at the end of this chapter"),
        ("two more chapters", "stop after two more chapters"),
    ],
)
async def test_a_length_said_after_for_how_long_sets_the_timer_as_the_whole_sentence_would(
    rig: Rig, length: str, sentence: str
) -> None:
    """A tester answered "For how long?" with "20 minutes" and heard "I can take you to a moment in the
    book…"; "the end of the chapter" offered to move the book there. A question asked must be
    answerable in the next turn."""
    listener = rig.listener_at(HERE)
    assert (await rig.ask(listener, "set a timer")).speech == speech.TIMER_HOW_LONG
    sent = len(rig.player.commands)
    answered = await rig.ask(listener, length)
    set_by_the_answer = timers_set(rig, sent)
    sent = len(rig.player.commands)
    whole = await rig.ask(rig.listener_at(HERE), sentence)
    assert (answered.speech, answered.outcome) == (whole.speech, whole.outcome)
    assert set_by_the_answer
    assert set_by_the_answer == timers_set(rig, sent)
    assert position(rig, listener) == HERE


async def test_a_length_alone_answers_only_the_question_just_asked(rig: Rig) -> None:
    """At any other time the same words keep their own reading: "the end of the chapter" is a move
    there, and "2 minutes" alone asks for nothing."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "set a timer")
    await rig.ask(listener, "where am I?")
    sent = len(rig.player.commands)
    assert (await rig.ask(listener, "2 minutes")).speech == speech.CANNOT_HELP
    moved = await rig.ask(listener, "the end of the chapter")
    assert moved.outcome in ("moved", "listed")
    assert timers_set(rig, sent) == []


@pytest.mark.parametrize("change_of_mind", ["never mind", "cancel"])
async def test_never_mind_after_for_how_long_sets_no_timer_and_leaves_a_running_one(
    rig: Rig, change_of_mind: str
) -> None:
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "stop in 3 minutes")
    running = rig.player.sleep_timers[(listener, BOOK_ID)]
    await rig.ask(listener, "set a timer")
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, change_of_mind)
    assert reply.speech == speech.COURTESY["never_mind"]
    assert timers_set(rig, sent) == []
    assert rig.player.sleep_timers[(listener, BOOK_ID)] == running


@pytest.mark.parametrize(
    "utterance", ["next chapter, actually never mind", "go back 5 minutes, actually don't"]
)
async def test_a_request_withdrawn_in_the_same_breath_moves_nothing(rig: Rig, utterance: str) -> None:
    """Both moved the book: the withdrawal at the end was read past."""
    listener = rig.listener_at(HERE)
    offered, sent = len(rig.player.offers), len(rig.player.commands)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == ("answered", speech.COURTESY["never_mind"])
    assert (len(rig.player.offers), len(rig.player.commands)) == (offered, sent)
    assert position(rig, listener) == HERE


async def test_cancel_that_takes_back_the_timer_or_the_move_just_asked_for(rig: Rig) -> None:
    """A listener session: "sleep in 15", then "cancel that", was told "All right." and the timer ran on."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "sleep in 15")
    cancelled = await rig.ask(listener, "cancel that")
    assert (listener, BOOK_ID) not in rig.player.sleep_timers, cancelled.speech
    await rig.ask(listener, "back 2 minutes")
    assert position(rig, listener) == HERE - 120_000
    await rig.ask(listener, "cancel that")
    assert position(rig, listener) == HERE
    assert (await rig.ask(listener, "where am I?")).outcome == "answered"
    assert (await rig.ask(listener, "cancel that")).speech == speech.COURTESY["never_mind"]
    assert position(rig, listener) == HERE


@pytest.mark.parametrize(
    ("move", "more", "moved_by"),
    [
        ("go back 1 minute", "another minute", -120_000),
        ("back 30 seconds", "30 more seconds", -60_000),
        ("rewind a minute", "a bit more", -90_000),
        ("go back 30 seconds", "and a little more", -60_000),
    ],
)
async def test_more_said_just_after_a_move_by_an_amount_moves_that_way_again(
    rig: Rig, move: str, more: str, moved_by: int
) -> None:
    """A review: "another minute" just after "go back 1 minute" set a one-minute sleep timer, and "a
    little more" searched the book for those words."""
    listener = rig.listener_at(HERE)
    first = await rig.ask(listener, move)
    assert first.outcome == "moved", first.speech
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, more)
    assert (reply.outcome, position(rig, listener)) == ("moved", HERE + moved_by), reply.speech
    assert timers_set(rig, sent) == []


async def test_more_said_after_a_timer_another_move_or_far_more_than_the_move_is_the_timers(rig: Rig) -> None:
    """Two reviews: "another 10 minutes", then "five more minutes", just after "go back 30 seconds"
    went back to the book's start; far more than the move was is minutes on the timer, as before."""
    moved = rig.listener_at(HERE)
    await rig.ask(moved, "go back 30 seconds")
    sent = len(rig.player.commands)
    await rig.ask(moved, "five more minutes")
    assert position(rig, moved) == HERE - 30_000
    assert timers_set(rig, sent)
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "sleep in 3 minutes")
    await rig.ask(listener, "another minute")
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=4)
    await rig.ask(listener, "the start of this chapter")  # a move, by no amount
    sent = len(rig.player.commands)
    await rig.ask(listener, "another minute")
    assert timers_set(rig, sent)
    assert position(rig, listener) == 90_000


async def test_undo_just_after_a_timer_is_set_takes_the_timer_back_not_an_older_move(rig: Rig) -> None:
    """A sleepy listener: "back 10 minutes", later "sleep in 5 minutes", then "undo": the book went
    back to before the old move, "you're back where you were", and the timer ran on."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "back 2 minutes")
    await rig.ask(listener, "sleep in 5 minutes")
    await rig.ask(listener, "undo")
    assert ((listener, BOOK_ID) in rig.player.sleep_timers, position(rig, listener)) == (
        False,
        HERE - 120_000,
    )


async def test_undo_after_a_timer_takes_back_the_move_made_since_or_said_with_it(rig: Rig) -> None:
    """(A second sleepy helper and the review) "sleep in 15 minutes", a scrub on the page, "undo":
    the timer was cancelled and the scrub stayed; "go back 1 minute and sleep in 20", "undo": the
    same; "put me back" just after a timer cancelled it too."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "sleep in 15 minutes")
    rig.player.before_move[(listener, BOOK_ID)] = HERE
    rig.player.place(listener, BOOK_ID, HERE - 60_000)  # scrubbed back on the page
    await rig.ask(listener, "undo")
    assert ((listener, BOOK_ID) in rig.player.sleep_timers, position(rig, listener)) == (True, HERE)
    await rig.ask(listener, "go back 1 minute and sleep in 20 minutes")
    await rig.ask(listener, "undo")
    assert position(rig, listener) == HERE
    await rig.ask(listener, "back 1 minute")
    await rig.ask(listener, "sleep in 5 minutes")
    await rig.ask(listener, "put me back")
    assert ((listener, BOOK_ID) in rig.player.sleep_timers, position(rig, listener)) == (True, HERE)


async def test_undo_said_otherwise_takes_back_the_timer_but_not_one_set_on_the_page_since(rig: Rig) -> None:
    """(The second review) "can you undo that" just after a timer undid an older move; a timer set on
    the page after the voice's was cancelled by "undo", leaving none."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "back 1 minute")
    await rig.ask(listener, "sleep in 5 minutes")
    await rig.ask(listener, "can you undo that")
    assert ((listener, BOOK_ID) in rig.player.sleep_timers, position(rig, listener)) == (False, HERE - 60_000)
    await rig.ask(listener, "sleep in 15 minutes")
    rig.player.seq += 1  # a 30-minute timer set on the page since
    page_timer = rig.player.sleep_timers[(listener, BOOK_ID)].model_copy(update={"set_seq": rig.player.seq})
    rig.player.sleep_timers[(listener, BOOK_ID)] = page_timer
    told = await rig.ask(listener, "undo")
    assert rig.player.sleep_timers[(listener, BOOK_ID)] == page_timer
    assert told.speech == playback.timer_now(page_timer, HERE - 60_000) + playback.TO_CANCEL_IT


@pytest.mark.parametrize("said", ["undo", "cancel that"])
async def test_taking_back_a_timer_that_replaced_another_tells_it_and_keeps_it(rig: Rig, said: str) -> None:
    """(A second sleepy helper) a 15-minute timer set on the page, "sleep in 5 minutes", "undo": both
    timers were gone, and the book would play all night."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "sleep in 15 minutes")  # as the page sets it
    await rig.ask(listener, "where am I?")
    await rig.ask(listener, "sleep in 5 minutes")
    running = rig.player.sleep_timers[(listener, BOOK_ID)]
    told = await rig.ask(listener, said)
    assert rig.player.sleep_timers[(listener, BOOK_ID)] == running
    assert told.speech == playback.timer_now(running, HERE) + playback.TO_CANCEL_IT


async def test_undo_after_a_list_pressed_on_the_page_undoes_the_press(rig: Rig) -> None:
    """(A second sleepy helper) a list, its row pressed on the page, "undo": "There's no list on the
    screen", and the book stayed where the press put it."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "take me to the part where the bay glowed amber")
    row = rig.player.rows[(listener, BOOK_ID)][0]
    rig.player.before_move[(listener, BOOK_ID)] = HERE
    rig.player.place(listener, BOOK_ID, row.start_ms)  # pressed on the page
    await rig.ask(listener, "undo")
    assert position(rig, listener) == HERE


async def test_cancel_that_after_minutes_added_tells_the_timer_and_keeps_it(rig: Rig) -> None:
    """(The review) "sleep in 30", "add ten minutes", "cancel that" cancelled the whole timer."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "sleep in 30")
    await rig.ask(listener, "add ten minutes")
    running = rig.player.sleep_timers[(listener, BOOK_ID)]
    told = await rig.ask(listener, "cancel that")
    assert rig.player.sleep_timers[(listener, BOOK_ID)] == running
    assert told.speech == playback.timer_now(running, HERE) + playback.TO_CANCEL_IT


async def test_where_they_were_furthest_is_asked_of_the_lookup_and_moved_to(rig: Rig) -> None:
    """After going back to listen again: the lookup orders the history furthest first (the player
    tests that order); the turn asks for it and goes to the place it finds."""
    listener = rig.listener_at(HERE)
    furthest = HistoryEntry(seq=7, kind="reported", position_ms=HERE + 90_000, chapter=2, device="phone")
    rig.player.history[(listener, BOOK_ID)] = [furthest]
    reply = await rig.ask(listener, "take me to where I was furthest")
    lookup = rig.player.lookups[-1]
    assert (lookup.furthest, lookup.kind, lookup.limit) == (True, None, 1)
    assert rig.player.offers[-1].targets == [Target(position_ms=HERE + 90_000)]
    assert reply.outcome in {"moved", "listed"}


async def test_where_they_started_last_night_is_where_the_sitting_before_the_last_break_began(
    rig: Rig,
) -> None:
    """ "Where did I start last night?" was a question of the story, and "take me to where I started
    last night" a search of the book for its words."""
    listener = rig.listener_at(HERE)
    key = (listener, BOOK_ID)
    stopped = HistoryEntry(seq=10, kind="paused", position_ms=90_000, chapter=1, device="phone")
    rig.player.history[key] = [stopped]
    last_night = HistoryEntry(seq=4, kind="reported", position_ms=30_000, chapter=1, device="phone")
    tonight = HistoryEntry(seq=12, kind="reported", position_ms=100_000, chapter=1, device="phone")
    rig.player.began[key] = [tonight, last_night]  # the double pages what a lookup of starts finds
    await rig.ask(listener, "where did I start last night?")
    began = rig.player.lookups[-1]
    assert (began.began, began.offset) == (True, 1)  # tonight's start is newer than last night's stop
    shown = rig.player.offers[-1]
    assert (shown.targets, shown.may_move) == ([Target(position_ms=30_000)], False)
    assert position(rig, listener) == HERE
    rig.player.began[key] = [last_night]  # asked the next morning: no sitting since the break
    moved = await rig.ask(listener, "take me back to where I started last night")
    assert (rig.player.lookups[-1].offset, moved.outcome, position(rig, listener)) == (0, "moved", 30_000)
    rig.player.history[key] = []  # no break yet: no last time to have started
    assert (await rig.ask(listener, "where did I start last night?")).speech == speech.NO_LEFT_OFF


async def test_where_they_were_last_night_is_where_the_book_last_sat_still_not_an_undo(rig: Rig) -> None:
    """ "Go back to where I was yesterday" undid the last move, and "take me to where I was last
    night" searched the book for "i was last night"."""
    listener = rig.listener_at(HERE)
    evening = HistoryEntry(seq=4, kind="paused", position_ms=60_000, chapter=1, device="phone")
    rig.player.history[(listener, BOOK_ID)] = [evening]
    for said in ("go back to where I was yesterday", "take me to where I was last night"):
        undone = len(rig.player.offers)
        reply = await rig.ask(listener, said)
        lookup = rig.player.lookups[-1]
        assert (lookup.left_off, lookup.kind, lookup.limit) == (True, None, 1)
        assert rig.player.offers[undone:] == [rig.player.offers[-1]]
        assert rig.player.offers[-1].targets == [Target(position_ms=60_000)]
        assert reply.outcome == "moved"
        rig.player.positions[(listener, BOOK_ID)] = HERE
    rig.player.history[(listener, BOOK_ID)] = []
    none = await rig.ask(listener, "where was I last night?")
    assert (none.outcome, none.speech) == ("refused", speech.NO_LEFT_OFF)


NOW_MS = 1_780_000_000_000
HOUR_MS = 3_600_000


async def test_when_they_last_listened_is_told_from_where_they_last_left_off(rig: Rig) -> None:
    """It was a question about the story, answered with a passage."""
    listener = rig.listener_at(HERE)
    rig.player.clock_ms = NOW_MS
    stopped = HistoryEntry(
        seq=4, kind="paused", position_ms=60_000, chapter=1, placed=True, stored_at_ms=NOW_MS - 9 * HOUR_MS
    )
    rig.player.history[(listener, BOOK_ID)] = [stopped]
    rig.player.began[(listener, BOOK_ID)] = [stopped.model_copy(update={"seq": 1})]
    reply = await rig.ask(listener, "when did I last listen?")
    assert [(lookup.left_off, lookup.began) for lookup in rig.player.lookups[-2:]] == [
        (True, False),
        (False, True),
    ]
    said = "You last stopped about 9 hours ago, in chapter 1 at 0:01:00."
    assert (reply.outcome, reply.speech) == ("answered", said)
    assert position(rig, listener) == HERE
    rig.player.history[(listener, BOOK_ID)] = []
    reply = await rig.ask(listener, "when did I last listen?")
    assert reply.speech == "You haven't stopped listening for an hour or more yet."
    rig.player.began[(listener, BOOK_ID)] = []
    reply = await rig.ask(listener, "when did I last listen?")
    assert reply.speech == "You haven't listened to this book yet."


async def test_what_moved_the_book_is_told_from_its_last_move_with_undo_offered(rig: Rig) -> None:
    """A device left playing, or a partner's seek, moves the shared place: the listener hears what moved
    it, when and from where, and how to put it back; nothing moves."""
    listener = rig.listener_at(HERE)
    rig.player.clock_ms = NOW_MS
    seek = HistoryEntry(
        seq=12,
        kind="seeked",
        position_ms=HERE,
        from_ms=60_000,
        chapter=2,
        device="speaker",
        cause="seeked",
        placed=True,
        stored_at_ms=NOW_MS - 3 * 60_000,
    )
    rig.player.history[(listener, BOOK_ID)] = [seek]
    reply = await rig.ask(listener, "why did it jump?")
    assert rig.player.lookups[-1].moves
    said = (
        "It was last moved about 3 minutes ago, by a seek on the speaker: from 0:01:00 to 0:02:15, in"
        ' chapter 2. Say "undo" to put it back.'
    )
    assert (reply.outcome, reply.speech) == ("answered", said)
    assert position(rig, listener) == HERE
    rig.player.history[(listener, BOOK_ID)] = []
    reply = await rig.ask(listener, "who moved it?")
    assert reply.speech == "Nothing has moved the book yet: it has only played on."


async def test_a_spoiler_asked_for_is_declined_syncing_is_already_done_and_playing_is_told(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "give me a spoiler")
    assert (reply.outcome, reply.speech) == ("refused", speech.NO_SPOILERS)
    reply = await rig.ask(listener, "sync with my phone")
    assert (reply.outcome, reply.speech) == ("refused", speech.ALREADY_SHARED)
    reply = await rig.ask(listener, "is it still playing?")
    assert (reply.outcome, reply.speech) == ("answered", "It's playing, in chapter 2 at 0:02:15.")
    assert position(rig, listener) == HERE


async def test_why_it_stopped_is_told_from_the_players_state_the_sleep_timer_named(rig: Rig) -> None:
    """A listener session asked "why did it stop?" after the sleep timer ran out, and was told it
    "hasn't come up yet"."""
    listener = rig.listener_at(HERE)
    key = (listener, BOOK_ID)
    rig.player.paused.add(key)
    reply = await rig.ask(listener, "why has it stopped?")
    assert reply.speech == f"It's paused, in chapter 2 at 0:02:15. {speech.PRESS_PLAY}"
    rig.player.asleep[key] = Asleep(paused_at_ms=HERE, asleep_at_ms=HERE - 60_000, seq=7, device="phone")
    reply = await rig.ask(listener, "why did it stop?")  # paused since, by someone awake
    assert reply.speech == f"It's paused, in chapter 2 at 0:02:15. {speech.PRESS_PLAY}"
    rig.player.timer_paused.add(key)
    reply = await rig.ask(listener, "why did it stop?")
    assert reply.speech == (
        "The sleep timer paused it, at 0:02:15, in chapter 2. To hear it from where you dozed off,"
        ' say "take me back to where I fell asleep".'
    )
    reply = await rig.ask(listener, "is it playing?")  # the timer is said only when asked why
    assert reply.speech == f"It's paused, in chapter 2 at 0:02:15. {speech.PRESS_PLAY}"
    assert position(rig, listener) == HERE


async def test_how_long_they_have_been_listening_is_told_from_where_this_sitting_began(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    rig.player.clock_ms = NOW_MS
    began = HistoryEntry(
        seq=6, kind="reported", position_ms=30_000, chapter=1, placed=True, stored_at_ms=NOW_MS - 40 * 60_000
    )
    rig.player.began[(listener, BOOK_ID)] = [began]
    reply = await rig.ask(listener, "how long have I been listening tonight?")
    said = "You've been listening for about 40 minutes this time, since chapter 1 at 0:00:30."
    assert (reply.outcome, reply.speech) == ("answered", said)
    # the sitting ended: the book has sat still an hour since, after it began
    ended = HistoryEntry(
        seq=9,
        kind="paused",
        position_ms=90_000,
        chapter=2,
        placed=True,
        stored_at_ms=NOW_MS - 2 * 24 * HOUR_MS,
    )
    rig.player.history[(listener, BOOK_ID)] = [ended]
    rig.player.began[(listener, BOOK_ID)] = [
        began.model_copy(update={"stored_at_ms": NOW_MS - 2 * 24 * HOUR_MS - HOUR_MS})
    ]
    reply = await rig.ask(listener, "how long have I been listening?")
    said = "You haven't listened for a while: you last stopped 2 days ago, in chapter 2 at 0:01:30."
    assert reply.speech == said
    rig.player.history[(listener, BOOK_ID)] = []
    rig.player.began[(listener, BOOK_ID)] = [began.model_copy(update={"stored_at_ms": None})]
    reply = await rig.ask(listener, "how long have I been listening?")
    assert reply.speech == sittings.NO_TIMES  # a stream kept before its times were (ADR 42, ADR 53)
    rig.player.began[(listener, BOOK_ID)] = []
    reply = await rig.ask(listener, "how long have I been listening?")
    assert reply.speech == "You haven't listened to this book yet."


async def test_who_the_main_characters_are_is_the_names_heard_most_and_none_ahead(rig: Rig) -> None:
    """It was a recall that quoted one line, whatever it held."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "who are the main characters?")
    said = "The names you've heard most so far: Tamsin and Wren."
    assert (reply.outcome, reply.speech) == ("answered", said)
    assert not leaks(reply.speech, rig.passages, HERE)
    assert (await rig.ask(rig.listener_at(10_000), "who's who?")).speech == speech.NO_NAMES_YET
    assert position(rig, listener) == HERE


async def test_have_i_heard_this_before_is_told_from_the_furthest_place_they_have_been(rig: Rig) -> None:
    """It was "I can take you to a moment ..."; the place further on is said by its time and chapter
    number, not by its chapter's title (ahead of the line), and nothing moves."""
    listener = rig.listener_at(HERE)  # 2:15, in chapter 2
    furthest = HistoryEntry(seq=7, kind="reported", position_ms=200_000, chapter=3, device="phone")
    rig.player.history[(listener, BOOK_ID)] = [furthest]
    heard = (
        "You've heard this before: you've been as far as 0:03:20, in chapter 3, about 1 minute further on. "
        'Say "take me to the furthest I\'ve got" to go back there.'
    )
    for asked in ("have I heard this before?", "is this new?"):  # no yes or no: it was backwards for one
        reply = await rig.ask(listener, asked)
        assert rig.player.lookups[-1].furthest
        assert reply.speech == heard, asked
    assert "Cellar" not in reply.speech
    assert position(rig, listener) == HERE
    rig.player.history[(listener, BOOK_ID)] = [furthest.model_copy(update={"position_ms": HERE + 20_000})]
    for asked in ("have I heard this before?", "is this new?"):
        reply = await rig.ask(listener, asked)
        assert reply.speech == "This is new to you: it's as far as you've listened.", asked


async def test_the_other_one_with_nothing_before_says_so(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "not that one")
    assert (reply.speech, reply.outcome) == (speech.NO_OTHER, "unsure")


async def test_where_i_fell_asleep_with_no_sleep_timer_pause_says_that_it_is_not_known(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "where did I fall asleep?")
    assert reply.speech == speech.NO_ASLEEP
    assert position(rig, listener) == HERE


@pytest.mark.parametrize("utterance", ["where did I fall asleep?", "take me back to where I fell asleep"])
async def test_where_i_fell_asleep_with_no_sleep_timer_pause_shows_where_this_sitting_began(
    rig: Rig, utterance: str
) -> None:
    """With no sleep timer Bedside cannot know where sleep came, but it knows where tonight's listening
    began: that place, put on the screen, never moved to."""
    listener = rig.listener_at(HERE)
    began = HistoryEntry(seq=6, kind="reported", position_ms=30_000, chapter=1, placed=True)
    rig.player.began[(listener, BOOK_ID)] = [began]
    reply = await rig.ask(listener, utterance)
    said = f"{speech.NO_ASLEEP} You started listening this time at 0:00:30, in chapter 1. {speech.ONE_ROW}"
    assert (reply.outcome, reply.speech) == ("listed", said)
    assert [target.position_ms for target in rig.player.offers[-1].targets] == [30_000]
    assert position(rig, listener) == HERE
    rig.player.began[(listener, BOOK_ID)] = [began.model_copy(update={"position_ms": HERE})]
    reply = await rig.ask(listener, utterance)
    assert reply.speech == speech.NO_ASLEEP  # tonight began here: nothing earlier to show


async def test_say_that_again_can_be_said_again_and_keeps_what_the_answer_was(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The second review) a second "sorry, what?" soon after a repeat, but more than 45 s after the
    answer, moved the book back 30 s; a repeated "hasn't come up yet" was told as a plain answer."""
    clock = [1_000_000]
    monkeypatch.setattr("bedside_turn.service.wall_clock_ms", lambda: clock[0])
    listener = rig.listener_at(HERE)
    answer = await rig.ask(listener, "who is Tamsin?")
    for _ in range(3):
        clock[0] += 30_000
        again = await rig.ask(listener, "I didn't catch that")
        assert (again.speech, again.outcome) == (answer.speech, answer.outcome)
    assert position(rig, listener) == HERE
    clock[0] += 60_000
    assert (await rig.ask(listener, "I didn't catch that")).outcome == "moved"  # the book's words, later
    not_yet = await rig.ask(listener, "who is Zelda?")
    again = await rig.ask(listener, "say that again")
    assert (again.speech, again.outcome) == (not_yet.speech, "not_yet")


async def test_say_that_again_after_a_two_part_answer_says_both_parts_and_does_neither_again(
    rig: Rig,
) -> None:
    """A bedtime session: after "where am I and when will the timer stop", "say that again" said the
    timer's half alone; after a move and a timer, where the book was alone."""
    listener = rig.listener_at(HERE)
    answer = await rig.ask(listener, "where am I and when will the timer stop")
    again = await rig.ask(listener, "say that again")
    assert (again.speech, again.outcome) == (answer.speech, answer.outcome)
    await rig.ask(listener, "go back 2 minutes and sleep in 3 minutes")
    sent = len(rig.player.commands)
    again = await rig.ask(listener, "say that again")
    assert (len(rig.player.commands), position(rig, listener)) == (sent, HERE - 120_000)  # nothing done again
    assert again.speech == (await rig.ask(listener, "where am I and when will the timer stop")).speech


async def test_say_that_again_after_a_move_and_a_question_says_the_answer_as_asked(rig: Rig) -> None:
    """(Review) After "who is Tamsin and go back 2 minutes", "say that again" cut the question's half: it
    was answered afresh for the words "say that again", in which the listener named nobody."""
    there = HERE - 120_000
    asked_there = await rig.ask(rig.listener_at(there), "who is Tamsin?")
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "who is Tamsin and go back 2 minutes")
    sent = len(rig.player.offers)
    again = await rig.ask(listener, "say that again")
    assert (len(rig.player.offers), position(rig, listener)) == (sent, there)  # nothing done again
    where = await rig.ask(listener, "where am I?")
    assert again.speech == f"{where.speech} {asked_there.speech}"


async def test_what_follows_a_repeat_means_what_it_meant_before_it(rig: Rig) -> None:
    """(The third review) "tell me more" after a repeat skipped a passage, as if the repeat had quoted
    one more; "that one" and "go there" lost the list a repeat followed."""
    asked = ["who is Tamsin?", "tell me more", "tell me more"]
    alone = rig.listener_at(195_000)
    plain = [await rig.ask(alone, said) for said in asked]
    listener = rig.listener_at(195_000)
    first, more = await rig.ask(listener, asked[0]), await rig.ask(listener, asked[1])
    await rig.ask(listener, "sorry, what?")
    again = await rig.ask(listener, asked[2])
    assert [r.speech for r in (first, more, again)] == [r.speech for r in plain]


async def test_how_long_they_slept_tells_how_much_of_the_book_played_on_beside_the_place(rig: Rig) -> None:
    """A bedtime session: "how long was I asleep?" showed only where they dozed off."""
    listener = rig.listener_at(HERE)
    key = (listener, BOOK_ID)
    dozed = HistoryEntry(seq=6, kind="reported", position_ms=HERE - 120_000, chapter=1, placed=True)
    rig.player.history[key] = [dozed]
    rig.player.asleep[key] = Asleep(paused_at_ms=HERE, asleep_at_ms=HERE - 120_000, seq=7, device="phone")
    where = await rig.ask(listener, "where did I fall asleep?")
    reply = await rig.ask(listener, "how long was I asleep?")
    assert reply.speech == f"{speech.slept_through(120_000)} {where.speech}"
    assert "the book played on for about 2 minutes after the last I heard from you" in reply.speech
    assert (reply.outcome, position(rig, listener)) == ("listed", HERE)


async def test_where_i_started_tonight_is_where_this_sitting_began(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    began = HistoryEntry(seq=6, kind="reported", position_ms=30_000, chapter=1, placed=True)
    rig.player.began[(listener, BOOK_ID)] = [began]
    reply = await rig.ask(listener, "where did I start tonight?")
    assert (reply.outcome, position(rig, listener)) == ("listed", HERE)
    assert rig.player.lookups[-1].began
    await rig.ask(listener, "take me back to where I started tonight")
    assert position(rig, listener) == 30_000
    rig.player.began[(listener, BOOK_ID)] = []
    reply = await rig.ask(listener, "take me back to where I started tonight")
    assert reply.speech == speech.NO_EARLIER


@pytest.mark.parametrize("utterance", ["where did I fall asleep?", "take me back to where I fell asleep"])
async def test_where_they_fell_asleep_asked_from_there_says_they_are_there(rig: Rig, utterance: str) -> None:
    """A listener session, taken back to where they fell asleep, asked again and was offered it as a
    covered row, "further on than you've got": a place at the line counts as ahead."""
    listener = rig.listener_at(HERE)
    asleep = HistoryEntry(
        seq=12, kind="fell_asleep", position_ms=HERE + 60_000, chapter=2, device="phone", asleep_at_ms=HERE
    )
    rig.player.history[(listener, BOOK_ID)] = [asleep]
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", speech.ALREADY_THERE, [])
    assert (position(rig, listener), len(rig.player.offers)) == (HERE, offers)


async def test_where_the_timer_stopped_is_where_it_paused_the_book_not_a_search_for_the_words(
    rig: Rig,
) -> None:
    """A listener session: "skip to where the timer stopped" searched the book for "the timer stopped"
    and moved it two hours back."""
    listener = rig.listener_at(HERE)
    asleep = HistoryEntry(
        seq=12, kind="fell_asleep", position_ms=HERE, chapter=2, device="phone", asleep_at_ms=HERE - 60_000
    )
    rig.player.history[(listener, BOOK_ID)] = [asleep]
    reply = await rig.ask(listener, "where did it stop?")
    assert (reply.outcome, reply.speech) == ("refused", speech.ALREADY_THERE)
    await rig.ask(listener, "take me back to where I fell asleep")
    assert position(rig, listener) == HERE - 60_000
    reply = await rig.ask(listener, "skip to where the timer stopped")
    lookup = rig.player.lookups[-1]
    assert (lookup.kind, lookup.limit) == ("fell_asleep", 1)
    assert rig.player.offers[-1].targets == [Target(position_ms=HERE)]  # the pause, not where they dozed
    assert reply.outcome in {"moved", "listed"}


async def test_where_the_timer_stopped_with_no_timer_pause_says_so(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go back to where the timer stopped")
    assert reply.speech == speech.NO_TIMER_PAUSE
    assert position(rig, listener) == HERE


async def test_the_chapter_before_the_first_is_refused_in_words(rig: Rig) -> None:
    listener = rig.listener_at(30_000)
    reply = await rig.ask(listener, "go back to the previous chapter")
    assert reply.speech == speech.NO_CHAPTER_BEFORE
    assert position(rig, listener) == 30_000


async def test_the_next_chapter_is_the_one_after_the_line_not_a_passage_saying_next(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "the next chapter")
    assert reply.rows == ["0:03:00, chapter 3, further on (covered)"]


async def test_the_next_chapter_from_the_last_one_says_plainly_that_it_is_the_last(rig: Rig) -> None:
    listener = rig.listener_at(10 * PASSAGE_MS)  # chapter 4 of 4
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "the next chapter")
    assert reply.speech.startswith("This is the last chapter")
    assert reply.outcome == "refused"
    assert (position(rig, listener), len(rig.player.offers)) == (10 * PASSAGE_MS, offers)


async def test_a_chapter_the_book_does_not_have_says_how_many_it_has(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go to chapter 9")
    assert reply.speech == "The book has 4 chapters; there is no chapter 9."
    assert reply.outcome == "refused"
    assert position(rig, listener) == HERE


@pytest.mark.parametrize(
    ("here_ms", "said"),
    [
        (100_000, "There's about 1 minute left of this chapter, and about 4 minutes of the book."),
        (3 * 3 * PASSAGE_MS + 70_000, "There's less than a minute of the book left."),  # the last chapter
    ],
)
async def test_how_long_is_left_is_told_from_the_books_times_not_that_it_has_not_come_up(
    rig: Rig, here_ms: int, said: str
) -> None:
    listener = rig.listener_at(here_ms)
    reply = await rig.ask(listener, "how long is left?")
    assert (reply.outcome, reply.speech) == ("answered", said)
    assert position(rig, listener) == here_ms


async def test_how_long_is_left_at_another_speed_is_said_as_listening_too(rig: Rig) -> None:
    listener = rig.listener_at(100_000)
    await rig.ask(listener, "2x")
    reply = await rig.ask(listener, "how long is left?")
    assert reply.speech == (
        "There's about 1 minute left of this chapter, and about 4 minutes of the book. "
        "At 2 times speed, that's about 2 minutes of listening."
    )
    chapter = await rig.ask(listener, "how long is this chapter?")
    assert chapter.speech.endswith("of it left. At 2 times speed, that's about 1 minute of listening.")


async def test_two_asks_at_once_are_both_answered_in_the_order_asked(rig: Rig) -> None:
    """Before, "where am I and when will the timer stop" searched the book for its words."""
    listener = rig.listener_at(100_000)
    reply = await rig.ask(listener, "who wrote this and how long is left?")
    assert (reply.outcome, reply.speech) == (
        "answered",
        'The book doesn\'t say who wrote "Lamplight". '
        "There's about 1 minute left of this chapter, and about 4 minutes of the book.",
    )
    reply = await rig.ask(listener, "where am I and when will the timer stop")
    assert reply.outcome == "answered"
    assert reply.speech.endswith(" " + playback.timer_now(None, 100_000))
    assert position(rig, listener) == 100_000
    # two answers in the turn's own words are the turn's own words: no answer check is asked of search
    sent = len(rig.search.requests)
    reply = await rig.ask(listener, "how long is left, and when will the timer stop?")
    assert reply.speech.endswith(" " + playback.timer_now(None, 100_000))
    assert not [asked for asked in rig.search.requests[sent:] if isinstance(asked, CheckAnswer)]


@pytest.mark.parametrize(
    ("utterance", "said"),
    [
        (
            "how long is this chapter?",
            "This chapter is about 2 minutes long, and there's about 1 minute of it left.",
        ),
        (
            "how long is the book?",
            "The book is about 6 minutes long, and there's about 4 minutes of it left.",
        ),
        (
            "how long is this story?",
            "This chapter is about 2 minutes long, and there's about 1 minute of it left."
            " The book is about 6 minutes long, and there's about 4 minutes of it left.",
        ),
    ],
)
async def test_how_long_the_chapter_or_the_book_is_comes_from_their_times(
    rig: Rig, utterance: str, said: str
) -> None:
    """Before, "how long is this chapter?" was a recall that quoted a line."""
    listener = rig.listener_at(100_000)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == ("answered", said)


@pytest.mark.parametrize(
    ("utterance", "here_ms", "said"),
    [
        ("who wrote this?", HERE, 'The book doesn\'t say who wrote "Lamplight".'),
        (
            "what am I listening to?",
            HERE,
            'This is "Lamplight"; you\'re in chapter 2, "The Keeper\'s Ledger".',
        ),
        # in a book of stories, the story is the chapter playing: both are said
        (
            "what is this story called?",
            HERE,
            'This is "Lamplight"; you\'re in chapter 2, "The Keeper\'s Ledger".',
        ),
        ("what am I listening to?", 0, 'This is "Lamplight".'),  # nothing of a chapter heard yet
        # said as a sleepy listener says it, this was searched for in the book
        (
            "the book, what is it called?",
            HERE,
            'This is "Lamplight"; you\'re in chapter 2, "The Keeper\'s Ledger".',
        ),
        ("how many chapters are there?", 100_000, "The book has 4 chapters; you're in chapter 2."),
        ("list the chapters", 10_000, 'The book has 4 chapters; you\'re in chapter 1, "The Harbour Bell".'),
        # the title before is heard; the one after is not said (it was a recap, and a recall)
        ("what was the last chapter called?", HERE, 'The last chapter was chapter 1, "The Harbour Bell".'),
        ("what's the next chapter called", HERE, "The next is chapter 3; its title shows once you reach it."),
        ("what was the last chapter called?", 10_000, speech.NO_CHAPTER_BEFORE),
        (
            "what are the chapters called?",
            HERE,  # only the chapters begun: a title ahead is not said
            'The book has 4 chapters. So far you have begun: chapter 1, "The Harbour Bell"; and '
            'chapter 2, "The Keeper\'s Ledger", the one playing.',
        ),
        ("how many chapters are left?", 10_000, "After this one, chapter 1, there are 3 more chapters."),
        (
            "how many chapters are left?",
            3 * 3 * PASSAGE_MS + 70_000,
            "You're in the last chapter, chapter 4.",
        ),
    ],
)
async def test_what_the_cover_and_the_chapter_list_say_is_told_not_that_it_has_not_come_up(
    rig: Rig, utterance: str, here_ms: int, said: str
) -> None:
    listener = rig.listener_at(here_ms)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == ("answered", said)
    assert position(rig, listener) == here_ms


@pytest.mark.parametrize(
    ("utterance", "outcome", "said"),
    [
        ("thanks", "answered", speech.COURTESY["thanks"]),
        ("goodnight", "answered", speech.COURTESY["goodnight"]),
        ("what time is it?", "answered", speech.COURTESY["time_of_day"]),
        ("what can you do?", "answered", speech.WHAT_I_CAN_DO),
        ("change the speed", "refused", playback.SPEED_HOW),
        ("play at 4x", "refused", playback.NO_SUCH_SPEED),
    ],
)
async def test_courtesies_help_and_speed_get_their_own_answer_and_move_nothing(
    rig: Rig, utterance: str, outcome: str, said: str
) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == (outcome, said)
    assert position(rig, listener) == HERE


async def test_when_will_it_stop_and_goodnight_tell_the_running_sleep_timer(rig: Rig) -> None:
    """Before, "when will it stop?" was a recall of the book's words ("stop"), and "goodnight" said to
    set a timer that was already set."""
    listener = rig.listener_at(HERE)
    none = await rig.ask(listener, "when will it stop?")
    assert (none.outcome, none.speech) == ("answered", "There's no sleep timer on.")
    await rig.ask(listener, "sleep in 2 minutes")
    asked = await rig.ask(listener, "is the sleep timer on?")
    assert asked.speech == "The sleep timer stops the book in about 2 minutes."
    night = await rig.ask(listener, "goodnight")
    assert night.speech == "Goodnight. The sleep timer stops the book in about 2 minutes."
    await rig.ask(listener, "stop at the end of chapter 3")
    assert (await rig.ask(listener, "when will it stop?")).speech == (
        "The sleep timer stops the book at the end of chapter 3, in about 2 minutes."
    )
    await rig.ask(listener, "cancel the sleep timer")
    assert (await rig.ask(listener, "goodnight")).speech == speech.COURTESY["goodnight"]
    assert position(rig, listener) == HERE


async def test_a_speed_asked_for_plays_the_book_at_it_and_faster_counts_from_the_one_playing(
    rig: Rig,
) -> None:
    """Before, "faster please" was told the book plays at the narrator's own pace (ADR 82)."""
    listener = rig.listener_at(HERE)
    faster = await rig.ask(listener, "faster please")
    assert (faster.outcome, faster.speech) == ("answered", "Now playing at 1.25 times speed.")
    assert (await rig.ask(listener, "a bit faster")).speech == "Now playing at 1.35 times speed."
    assert (await rig.ask(listener, "normal speed")).speech == "Now playing at normal speed."
    again = await rig.ask(listener, "normal speed")
    assert again.speech == "It's playing at normal speed already."
    assert rig.player.commands[-4:] == [
        SetSpeed(speed=1.25),
        SetSpeed(speed=1.35),
        SetSpeed(speed=1.0),
        SetSpeed(speed=1.0),
    ]
    assert (await rig.ask(listener, "3x")).speech == "Now playing at 3 times speed."
    assert (
        await rig.ask(listener, "faster")
    ).speech == "It's playing at 3 times speed already, as fast as it goes."
    assert position(rig, listener) == HERE


async def test_a_speed_asked_as_if_elsewhere_says_the_speed_it_would_play_at(rig: Rig) -> None:
    """`bedside ask --at ... "faster"` said "Now playing at normal speed.": the preview knew no speed."""
    listener = rig.listener_at(HERE)
    commands = len(rig.player.commands)
    faster = await rig.ask(listener, "faster", at_ms=HERE)
    assert faster.speech == "Preview only (nothing was changed): Now playing at 1.25 times speed."
    assert (await rig.ask(listener, "a bit slower", at_ms=HERE)).speech.endswith("at 0.9 times speed.")
    assert len(rig.player.commands) == commands
    await rig.ask(listener, "1.5x")
    faster = await rig.ask(listener, "faster", at_ms=HERE)
    assert faster.speech.endswith("Now playing at 1.75 times speed.")
    same = await rig.ask(listener, "1.5x", at_ms=HERE)
    assert same.speech == "Preview only (nothing was changed): It's playing at 1.5 times speed already."


async def test_cancel_that_or_undo_just_after_a_speed_change_sets_the_speed_before(rig: Rig) -> None:
    """A review: "undo that" after "faster" moved the book back instead, and "cancel that" said
    "All right." and changed nothing."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "faster")
    cancelled = await rig.ask(listener, "cancel that")
    assert cancelled.speech == "Now playing at normal speed."
    await rig.ask(listener, "back 1 minute")
    await rig.ask(listener, "1.5x")
    undone = await rig.ask(listener, "undo that")
    assert undone.speech == "Now playing at normal speed."
    assert position(rig, listener) == HERE - 60_000  # the move before stays


async def test_undo_said_again_after_a_speed_change_was_undone_has_nothing_more_to_undo(rig: Rig) -> None:
    """ "Faster", "undo", "undo": the second undo took back the first, 1.25x again, and a third normal
    speed: the speed flipped at each. Said after the speed was set back, "undo" or "cancel that" says
    there is nothing more to undo and changes nothing, the book's last move included."""
    listener = rig.listener_at(HERE)
    rig.player.before_move[(listener, BOOK_ID)] = HERE - 60_000  # a move made earlier in the evening
    await rig.ask(listener, "faster")
    undone = await rig.ask(listener, "undo")
    assert undone.speech == "Now playing at normal speed."
    for said in ("undo", "cancel that"):
        again = await rig.ask(listener, said)
        assert again.speech == "There's nothing more to undo: it's playing at normal speed again."
        assert (position(rig, listener), rig.player.speeds[(listener, BOOK_ID)]) == (HERE, 1.0)
        await rig.ask(listener, "faster")
        await rig.ask(listener, "undo")


async def test_nothing_more_to_undo_said_again_when_undo_is_said_again(rig: Rig) -> None:
    """A review: "faster", "undo", "undo", "undo": the third undo put the book back before a move made
    earlier, just after "There's nothing more to undo"; "cancel that" said three times, then "undo",
    the same. Once told nothing more, the listener is told so again, and nothing moves."""
    listener = rig.listener_at(HERE)
    for first, again in (("undo", "undo"), ("cancel that", "cancel that"), ("cancel that", "undo")):
        rig.player.before_move[(listener, BOOK_ID)] = HERE - 75_000  # a move made earlier in the evening
        await rig.ask(listener, "faster")
        await rig.ask(listener, first)
        told = await rig.ask(listener, again)
        for said in (again, "undo"):
            again_told = await rig.ask(listener, said)
            assert again_told.speech == told.speech, (first, again, said)
            assert again_told.outcome == "answered", (first, again, said)
            assert (position(rig, listener), rig.player.speeds[(listener, BOOK_ID)]) == (HERE, 1.0)


async def test_cancel_that_after_a_speed_change_leaves_a_speed_chosen_on_the_page_since(rig: Rig) -> None:
    """A review: "faster", "undo", 2x chosen on the page, "cancel that" said "There's nothing more to
    undo: it's playing at 2 times speed again": it had not played at 2x before. And "faster", 2x on the
    page, "cancel that" set normal speed, losing the page's 2x, which "undo" keeps."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "faster")
    await rig.ask(listener, "undo")
    rig.player.speeds[(listener, BOOK_ID)] = 2.0  # chosen on the page
    cancelled = await rig.ask(listener, "cancel that")
    assert "again" not in cancelled.speech
    assert rig.player.speeds[(listener, BOOK_ID)] == 2.0
    await rig.ask(listener, "faster")
    rig.player.speeds[(listener, BOOK_ID)] = 2.0
    cancelled = await rig.ask(listener, "cancel that")
    assert "normal speed" not in cancelled.speech
    assert (position(rig, listener), rig.player.speeds[(listener, BOOK_ID)]) == (HERE, 2.0)


async def test_undo_after_a_speed_change_takes_back_a_move_or_a_speed_made_on_the_page_since(
    rig: Rig,
) -> None:
    """(The second review) "faster", a scrub on the page, "undo": the speed went back and the scrub
    stayed; "faster", 2x chosen on the page, "undo": the page's 2x was lost."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "faster")
    rig.player.before_move[(listener, BOOK_ID)] = HERE
    rig.player.place(listener, BOOK_ID, HERE - 60_000)  # scrubbed back on the page
    await rig.ask(listener, "undo")
    assert (position(rig, listener), rig.player.speeds[(listener, BOOK_ID)]) == (HERE, 1.25)
    await rig.ask(listener, "faster")
    rig.player.speeds[(listener, BOOK_ID)] = 2.0  # chosen on the page
    await rig.ask(listener, "undo")
    assert rig.player.speeds[(listener, BOOK_ID)] == 2.0


async def test_a_speed_said_with_a_move_is_set_after_the_move(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go back 30 seconds and play at 1.5x")
    assert reply.speech.endswith(" Now playing at 1.5 times speed.")
    assert position(rig, listener) == HERE - 30_000
    assert rig.player.speeds[(listener, BOOK_ID)] == 1.5


async def test_a_sleep_timers_minutes_are_said_as_listening_at_the_books_speed(rig: Rig) -> None:
    """At double speed, a minute of listening plays two of the book: the timer says one, and the book's
    end, near, is said in minutes of listening too."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "double speed")
    set_now = await rig.ask(listener, "sleep in 1 minute")
    assert set_now.speech == "I'll stop in a minute."
    assert rig.player.sleep_timers[(listener, BOOK_ID)].stop_at_ms == HERE + 2 * 60_000
    asked = await rig.ask(listener, "when will it stop?")
    assert asked.speech == "The sleep timer stops the book in about 1 minute."
    past_the_end = await rig.ask(listener, "sleep in 20 minutes")
    assert past_the_end.speech == "The book ends in about 2 minutes, so I'll stop there."


async def test_minutes_added_to_the_timer_count_from_its_stop_not_from_here(rig: Rig) -> None:
    """Before, "add a minute to the timer" was not read at all, and "add another 2 minutes" neither."""
    listener = rig.listener_at(HERE)
    first = await rig.ask(listener, "add 2 minutes to the timer")  # none running: a timer of them
    assert (first.outcome, first.speech) == ("answered", "I'll stop in 2 minutes.")
    added = await rig.ask(listener, "add one more minute to the timer")
    assert added.speech == "I'll stop in 3 minutes."
    assert rig.player.commands[-2:] == [
        SetSleepTimer(device="voice", after=2),
        SetSleepTimer(device="voice", after=3),
    ]
    assert position(rig, listener) == HERE


async def test_more_minutes_asked_with_a_timer_running_never_stop_the_book_sooner(rig: Rig) -> None:
    """ "Ten more minutes" set a timer of ten from here: with twenty left, the book stopped ten
    minutes sooner than before, and the answer ("I'll stop in 10 minutes.") sounded like a yes."""
    listener = rig.listener_at(HERE)
    for said in ["one more minute", "give me 1 more minute please", "just one more minute then stop"]:
        await rig.ask(listener, "sleep in 2 minutes")
        reply = await rig.ask(listener, said)
        assert reply.speech == "I'll stop in 3 minutes.", said
        assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=3), said
    await rig.ask(listener, "cancel the sleep timer")
    alone = await rig.ask(listener, "one more minute")  # none running: a timer of it, as before
    assert alone.speech == "I'll stop in a minute."
    assert position(rig, listener) == HERE


async def test_minutes_taken_off_the_timer_stop_it_sooner_and_never_start_one(rig: Rig) -> None:
    """ "Shorten the timer by five minutes" was not read at all ("I can take you to a moment...")."""
    listener = rig.listener_at(HERE)
    none = await rig.ask(listener, "take five minutes off the timer")
    assert (none.outcome, none.speech) == ("answered", "There's no sleep timer running.")
    assert (listener, BOOK_ID) not in rig.player.sleep_timers
    await rig.ask(listener, "sleep in 3 minutes")
    shorter = await rig.ask(listener, "shorten the timer by one minute")
    assert shorter.speech == "I'll stop in 2 minutes."
    much_shorter = await rig.ask(listener, "knock half an hour off the timer")
    assert much_shorter.speech == "I'll stop in a minute."  # never at once: that is a pause
    assert rig.player.commands[-2:] == [
        SetSleepTimer(device="voice", after=2),
        SetSleepTimer(device="voice", after=1),
    ]
    assert position(rig, listener) == HERE


async def test_a_move_and_a_timer_said_together_do_both_the_move_first(rig: Rig) -> None:
    """Only the timer was set: "go back 30 seconds and stop in 2 minutes" lost the move."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "stop in 2 minutes and go back 30 seconds")
    assert reply.outcome == "moved"
    assert position(rig, listener) == HERE - 30_000
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=2)
    assert reply.speech.endswith("I'll stop in 2 minutes.")


async def two_minutes_back_and_tamsin_asked_there(rig: Rig) -> tuple[TurnReply, TurnReply, int]:
    """What "go back 2 minutes" says from HERE, and "who is Tamsin?" asked where it goes."""
    moved_alone = await rig.ask(rig.listener_at(HERE), "go back 2 minutes")
    there = HERE - 120_000
    return moved_alone, await rig.ask(rig.listener_at(there), "who is Tamsin?"), there


@pytest.mark.parametrize(
    "utterance", ["who is Tamsin and go back 2 minutes", "go back 2 minutes, who is Tamsin?"]
)
async def test_a_question_and_a_move_said_together_move_then_answer_from_where_the_book_is(
    rig: Rig, utterance: str
) -> None:
    """A bedtime probe: "who is Oskar and go back 5 minutes" was one question of all the words, and
    nothing moved. Two minutes back from 2:15 is before Tamsin is first named: she has not come up there."""
    moved_alone, asked_there, there = await two_minutes_back_and_tamsin_asked_there(rig)
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener)) == ("moved", there)
    assert reply.speech == f"{moved_alone.speech} {asked_there.speech}"
    recalled = [asked for asked in rig.search.requests if isinstance(asked, Recall)][-1]
    assert recalled.here_ms == there
    assert not leaks(reply.speech, rig.passages, there)


@pytest.mark.parametrize(
    "utterance",
    [
        "who is Tamsin, go back 2 minutes and sleep in 3 minutes",
        "go back 2 minutes, who is Tamsin and sleep in 3 minutes",
    ],
)
async def test_a_question_a_move_and_a_timer_said_together_are_all_done_the_move_first(
    rig: Rig, utterance: str
) -> None:
    """A bedtime probe: "who is Oskar, go back 5 minutes and sleep in 20" set the timer and answered,
    the move dropped; "go back 5 minutes, who is Oskar and sleep in 20 minutes" moved and asked the book
    "who is Oskar and sleep in 20 minutes", the timer never set."""
    moved_alone, asked_there, there = await two_minutes_back_and_tamsin_asked_there(rig)
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener)) == ("moved", there)
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=3)
    assert reply.speech == f"{moved_alone.speech} {asked_there.speech} I'll stop in 3 minutes."
    recalled = [asked for asked in rig.search.requests if isinstance(asked, Recall)][-1]
    assert recalled.here_ms == there


async def test_a_pause_a_move_and_a_timer_said_together_move_pause_and_set_it(rig: Rig) -> None:
    """ "Pause, go back 5 minutes and sleep in 20": the listener ends where the move left the book, paused,
    the timer set. The move goes first (a move is an offer, and the timer counts from the place), then the
    pause and the timer in the order asked."""
    moved_alone = await rig.ask(rig.listener_at(HERE), "go back 2 minutes")
    listener = rig.listener_at(HERE)
    offers, commands = len(rig.player.offers), len(rig.player.commands)
    reply = await rig.ask(listener, "pause, go back 2 minutes and sleep in 3 minutes")
    assert (reply.outcome, position(rig, listener), len(rig.player.offers)) == (
        "moved",
        HERE - 120_000,
        offers + 1,
    )
    assert rig.player.commands[commands:] == [Pause(), SetSleepTimer(device="voice", after=3)]
    assert reply.speech == f"{moved_alone.speech} Paused. I'll stop in 3 minutes."


async def test_a_pause_and_a_timer_said_together_pause_then_set_it(rig: Rig) -> None:
    """A listener session: "pause and set a timer for 10 minutes" set the timer and played on."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "pause and set a timer for 2 minutes")
    assert [type(c) for c in rig.player.commands[-2:]] == [Pause, SetSleepTimer]
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=2)
    assert reply.speech == "Paused. I'll stop in 2 minutes.", reply.speech


@pytest.mark.parametrize(
    ("utterance", "as_read", "sent"),
    [
        ("sleep in 20 and pause", "sleep in 20", [SetSleepTimer]),
        ("pause, sleep timer 20 minutes", "pause, sleep in 20", [SetSleepTimer]),
    ],
)
async def test_a_timer_and_a_pause_said_other_ways_do_as_the_words_they_mean(
    rig: Rig, utterance: str, as_read: str, sent: list[type]
) -> None:
    """A review: "sleep in 20 and pause" and "pause, sleep timer 20 minutes" did nothing at all; each is
    the timer, the stop its own."""
    meant = rig.listener_at(HERE)
    since = len(rig.player.commands)
    told = await rig.ask(meant, as_read)
    done = rig.player.commands[since:]
    assert [type(command) for command in done] == sent
    listener = rig.listener_at(HERE)
    since = len(rig.player.commands)
    reply = await rig.ask(listener, utterance)
    assert rig.player.commands[since:] == done
    assert reply.speech == told.speech, reply.speech


async def test_the_second_of_two_requests_is_read_from_where_the_first_left_the_book(rig: Rig) -> None:
    """The second half read the first half's refusal as its own ("This is the last chapter; there is
    none after it." twice, and the timer set was never said) and measured from before the move (a review)."""
    in_the_last = rig.listener_at(10 * PASSAGE_MS + 5_000)
    reply = await rig.ask(in_the_last, "skip to the next chapter and sleep in 10 minutes")
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=10)
    assert reply.speech.count("there is none after it") == 1, reply.speech
    assert reply.speech.endswith("The book ends in about 1 minute, so I'll stop there."), reply.speech


async def test_the_timer_started_again_keeps_its_minutes_and_a_chapters_end_stays(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    sent = len(rig.player.commands)
    none = await rig.ask(listener, "reset the timer")
    assert (none.outcome, none.speech) == ("answered", playback.NO_TIMER_TO_RESTART)
    assert len(rig.player.commands) == sent
    await rig.ask(listener, "sleep in 2 minutes")
    again = await rig.ask(listener, "start the timer again")
    assert again.speech == "I'll stop in 2 minutes."
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=2)
    await rig.ask(listener, "stop at the end of chapter 3")
    sent = len(rig.player.commands)
    kept = await rig.ask(listener, "restart the sleep timer")
    assert kept.speech == "The sleep timer stops the book at the end of chapter 3, in about 2 minutes."
    assert len(rig.player.commands) == sent


async def test_the_final_chapter_asked_for_in_it_is_told_not_started_again(rig: Rig) -> None:
    """ "The last chapter" is the one before; "the final chapter" is the book's last, and in it a move
    would go back to its start."""
    last = rig.listener_at(3 * 90_000 + 10_000)
    reply = await rig.ask(last, "go to the final chapter")
    assert (reply.outcome, reply.speech) == ("answered", "You're in the last chapter, chapter 4.")
    assert position(rig, last) == 3 * 90_000 + 10_000


async def test_skipping_the_intro_of_a_book_without_one_says_so_and_moves_nothing(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "skip the intro")
    assert (reply.outcome, reply.speech) == ("refused", speech.NO_OPENING)
    assert position(rig, listener) == HERE


async def test_still_awake_is_told_what_the_timer_will_do_and_how_to_keep_going(rig: Rig) -> None:
    """It was "I can take you to a moment ...": said as the timer fades, it wants to know what happens."""
    listener = rig.listener_at(HERE)
    none = await rig.ask(listener, "I'm still awake")
    assert (none.outcome, none.speech) == ("answered", "Good. No sleep timer is set, so the book plays on.")
    await rig.ask(listener, "sleep in 2 minutes")
    timed = await rig.ask(listener, "no, I'm awake!")
    assert timed.speech == (
        'Good. The sleep timer stops the book in about 2 minutes. Say "add ten minutes" to keep going longer.'
    )
    assert position(rig, listener) == HERE


async def test_a_time_of_two_parts_past_the_end_is_minutes_and_seconds(rig: Rig) -> None:
    """In a six-minute book "go to 2:10" is two minutes ten in, not two hours ten."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go to 2:10")
    assert reply.outcome == "moved"
    assert position(rig, listener) == 130_000


async def test_a_time_the_book_does_not_reach_is_told_with_the_books_length(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go to 9:30")
    assert reply.outcome == "refused"
    assert reply.speech == speech.past_the_end(book_info().duration_ms)
    assert reply.speech.startswith("The book is only 0:06:00 long")
    assert position(rig, listener) == HERE


async def test_go_back_a_bit_steps_back_as_the_page_does_not_a_search_for_a_bit(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go back a bit")
    assert reply.outcome == "moved"
    assert position(rig, listener) == HERE - 30_000


@pytest.mark.parametrize(
    ("utterance", "here", "now", "said"),
    [
        (
            "go back a while",
            340_000,
            40_000,
            'Back 5 minutes. There you are: chapter 1, "The Harbour Bell", at 0:00:40.',
        ),
        ("back quite a way", HERE, 0, "Back to the start of the book."),  # 2:15 in: 5 minutes would overshoot
        (
            "go back a sentence",
            340_000,
            330_000,
            'Back 10 seconds. There you are: chapter 4, "The Keeper Returns", at 0:05:30.',
        ),
        (
            "back two pages",
            340_000,
            100_000,
            'Back 4 minutes. There you are: chapter 2, "The Keeper\'s Ledger", at 0:01:40.',
        ),
    ],
)
async def test_a_move_by_an_amount_not_counted_says_the_amount_it_took(
    rig: Rig, utterance: str, here: int, now: int, said: str
) -> None:
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener), reply.speech) == ("moved", now, said)


async def test_a_sleep_timer_longer_than_the_player_sets_is_said_so_and_nothing_is_sent(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, "sleep in twelve hours")
    assert reply.speech == "I can set the sleep timer for up to ten hours."
    assert len(rig.player.commands) == sent


async def test_a_keyless_sleep_timer_names_the_asking_device(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "sleep in 2 minutes", device="speaker")
    assert (reply.mode, reply.outcome, reply.speech) == ("keyless", "answered", "I'll stop in 2 minutes.")
    assert rig.player.commands[-1] == SetSleepTimer(device="speaker", after=2)


async def test_a_turns_undo_and_timer_name_the_device_and_carry_the_request_as_read(rig: Rig) -> None:
    """Another device's copy of the same request is then done once (ADR 77): the player's rule."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "go back 2 minutes", device="phone")
    await rig.ask(listener, "No, go back to where I was.", device="phone")
    assert rig.player.commands[-1] == Undo(device="phone")
    assert rig.player.heard[-1] == Heard(request_key=request_key(intents.read("undo"), "undo"))
    await rig.ask(listener, "add ten minutes to the timer", device="speaker")
    assert rig.player.commands[-1:] == [SetSleepTimer(device="speaker", after=10)]
    added_ten = intents.read("add 10 minutes to the timer")
    assert rig.player.heard[-1] == Heard(request_key=request_key(added_ten, "add 10 minutes to the timer"))


async def test_a_turns_offer_undo_and_timer_carry_when_the_player_took_the_question(rig: Rig) -> None:
    """The player's clock when it took each question, beside its basis: a turn that takes longer than
    the player's window is still judged by when it was asked (ADR 77)."""
    listener = rig.listener_at(HERE)
    took = 1_800_000_000_000
    await rig.ask(listener, "go back 2 minutes", device="phone", basis_seq=4, asked_at_ms=took)
    heard = rig.player.offers[-1].heard
    assert heard is not None
    assert (heard.basis_seq, heard.asked_at_ms) == (4, took)
    await rig.ask(listener, "undo", device="phone", basis_seq=5, asked_at_ms=took + 1)
    await rig.ask(listener, "add ten minutes to the timer", device="phone", basis_seq=6, asked_at_ms=took + 2)
    assert [(h.basis_seq, h.asked_at_ms) for h in rig.player.heard[-2:] if h] == [
        (5, took + 1),
        (6, took + 2),
    ]


async def test_a_sleep_timer_longer_than_the_book_left_says_the_book_ends_first(rig: Rig) -> None:
    """The six-minute book has under four minutes left at HERE; the player stops at its end."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "sleep in an hour")
    assert (reply.speech, reply.outcome) == (
        "The book ends in about 4 minutes, so I'll stop there.",
        "answered",
    )
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=60)


async def test_minutes_that_reach_the_books_end_exactly_are_said_as_the_book_ending(rig: Rig) -> None:
    """The turn said "I'll stop in 2 minutes" while the page said "Pausing at the end of the book":
    each had its own rule. Both now read the player's ``book_ends_first``."""
    end = rig.player.books[BOOK_ID].info.duration_ms
    listener = rig.listener_at(end - 120_000)
    reply = await rig.ask(listener, "sleep in 2 minutes")
    assert reply.speech == "The book ends in about 2 minutes, so I'll stop there."


async def test_a_sleep_timer_for_the_end_of_a_chapter_named_is_set_there(rig: Rig) -> None:
    """Before, "stop at the end of chapter 3" put chapter 3's closing passage on the screen as a place
    to go; it is the player's timer, stopping at that chapter's last millisecond (ADR 24)."""
    listener = rig.listener_at(HERE)  # in chapter 2
    reply = await rig.ask(listener, "stop at the end of chapter 3")
    assert (reply.speech, reply.outcome) == ("I'll stop at the end of chapter 3.", "answered")
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after="chapter_end", chapter=3)
    assert position(rig, listener) == HERE
    ended = await rig.ask(listener, "stop at the end of chapter 1")
    assert ended.outcome == "refused"
    assert ended.speech.startswith(
        "I can't stop at the end of chapter 1: it has ended already."
    )  # said which
    missing = await rig.ask(listener, "stop at the end of chapter 9")
    assert missing.speech.startswith("I can't stop at the end of chapter 9: the book has no chapter 9.")
    begun = await rig.ask(listener, "stop at chapter 1")  # as chapter 1 begins, in a book with no opening
    assert begun.outcome == "refused"
    assert begun.speech == f"Chapter 1 has begun already. {playback.OTHER_STOPS}"


async def test_a_chapter_listened_to_its_end_keeps_the_place_or_moves_there_first(rig: Rig) -> None:
    """ "Finish chapter 2", said in chapter 2, took the book back to that chapter's start; "play chapter 1
    and stop" moved there and paused at once."""
    listener = rig.listener_at(HERE)  # in chapter 2
    finish = await rig.ask(listener, "finish chapter 2")
    assert (finish.speech, finish.outcome) == ("I'll stop at the end of chapter 2.", "answered")
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after="chapter_end", chapter=2)
    assert position(rig, listener) == HERE
    sent = len(rig.player.commands)
    missing = await rig.ask(listener, "play chapter 9 and stop")  # the second review: a timer unasked for
    assert (missing.outcome, timers_set(rig, sent)) == ("refused", []), missing.speech
    in_the_last = rig.listener_at(3 * 90_000 + 10_000)  # in chapter 4, the last: told so, and stopped there
    await rig.ask(in_the_last, "play the final chapter and stop")
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after="chapter_end")
    played = await rig.ask(listener, "play chapter 1 and stop")
    assert played.outcome == "moved", played.speech
    assert position(rig, listener) == 0
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after="chapter_end")
    assert played.speech.endswith("I'll stop at the end of this chapter."), played.speech


async def test_two_moves_and_a_timer_make_the_first_move_set_the_timer_and_say_the_second_was_not_made(
    rig: Rig,
) -> None:
    """The review of 30e59a01: "go back 5 minutes, next chapter and sleep in 20" moved back and set the
    timer, and "next chapter" went unsaid. One turn moves the book once (the turn rules)."""
    listener = rig.listener_at(HERE)
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, "go back 5 minutes, next chapter and sleep in 20")
    assert reply.outcome == "moved", reply.speech
    assert position(rig, listener) == 0  # five minutes back from 2:15: the book's start
    assert speech.MOVED_ONCE_ALREADY in reply.speech, reply.speech
    assert [timer.after for timer in timers_set(rig, sent)] == [20]


async def test_where_am_i_and_a_sleep_timer_tells_where_and_sets_it(rig: Rig) -> None:
    """ "Where am I and sleep in 20" set the timer alone: where they are went untold."""
    listener = rig.listener_at(HERE)
    where = await rig.ask(listener, "where am I?")
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, "where am I and sleep in 20")
    assert reply.speech.startswith(where.speech), reply.speech
    assert [timer.after for timer in timers_set(rig, sent)] == [20]


async def test_two_moves_and_a_question_ask_the_question_in_its_own_words(rig: Rig) -> None:
    """ "Go back 1 minute, who is Tamsin and go to chapter 1" asked search who "Tamsin and go to chapter 1"
    is: the question held the second move. The first move is made, the second said not to be, and the
    question is asked as said."""
    listener = rig.listener_at(220_000)
    reply = await rig.ask(listener, "go back 1 minute, who is Tamsin and go to chapter 1")
    assert position(rig, listener) == 160_000
    assert speech.MOVED_ONCE_ALREADY in reply.speech, reply.speech
    conversation, _ = await rig.service.conversations.load(listener, BOOK_ID)
    asked = [
        call.arguments.get("question") for call in conversation.exchanges[-1].calls if call.name == "recall"
    ]
    assert asked, reply.speech
    assert all("chapter" not in str(question) for question in asked), asked


async def test_a_chapter_that_is_not_there_sets_no_stop_said_beside_a_question(rig: Rig) -> None:
    """The review of 30e59a01: with a question in the same breath the timer sat inside the question's
    pair, and "who is Tamsin, play chapter 9 and stop" said there is no chapter 9, then "I'll stop at the
    end of this chapter", and set it. The question is still answered; the stop for that chapter is not."""
    listener = rig.listener_at(220_000)
    for said in (
        "who is Tamsin, play chapter 9 and stop",
        "go to chapter 9, who is Tamsin and stop at the end of the chapter",
    ):
        sent = len(rig.player.commands)
        reply = await rig.ask(listener, said)
        assert timers_set(rig, sent) == [], (said, reply.speech)
        assert "there is no chapter 9" in reply.speech, reply.speech
        assert "Tamsin" in reply.speech.split("chapter 9", 1)[1], reply.speech
        assert "stop" not in reply.speech, reply.speech


async def test_a_sleep_timer_for_the_end_of_the_next_chapter_counts_from_the_one_playing(rig: Rig) -> None:
    """ "Stop at the end of the next chapter" moved the book to the next chapter at 2am: it is the
    timer, at the end of the chapter after the one playing, and the book stays where it is."""
    listener = rig.listener_at(HERE)  # in chapter 2
    reply = await rig.ask(listener, "stop at the end of the next chapter")
    assert (reply.speech, reply.outcome) == ("I'll stop at the end of chapter 3.", "answered")
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after="chapter_end", chapter=3)
    assert position(rig, listener) == HERE
    sent = len(rig.player.commands)
    last = rig.listener_at(3 * 90_000 + 10_000)  # in chapter 4, the last
    beyond = await rig.ask(last, "stop at the end of the next chapter")
    assert (beyond.speech, beyond.outcome) == (speech.NO_CHAPTER_AFTER, "refused")
    assert len(rig.player.commands) == sent


@pytest.mark.parametrize(("utterance", "minutes"), [("sleep in 2", 2), ("timer 3", 3), ("stop in two", 2)])
async def test_a_sleep_timer_said_with_a_bare_number_is_set_in_minutes(
    rig: Rig, utterance: str, minutes: int
) -> None:
    """Before, "sleep in 20" was not read as a timer: "I can take you to a moment in the book…".
    (The test book is six minutes long, so the minutes are few.)"""
    listener = rig.listener_at(0)
    reply = await rig.ask(listener, utterance, device="phone")
    assert (reply.speech, reply.outcome) == (f"I'll stop in {minutes} minutes.", "answered")
    assert rig.player.commands[-1] == SetSleepTimer(device="phone", after=minutes)


@pytest.mark.parametrize("utterance", ["play", "resume", "carry on", "keep going"])
async def test_asking_to_play_on_is_answered_honestly_and_nothing_is_sent(rig: Rig, utterance: str) -> None:
    """No command starts the sound from a turn, so the listener is told to press play (the turn's own
    words), and neither player nor search is asked anything."""
    listener = rig.listener_at(HERE)
    sent, searched = len(rig.player.commands), len(rig.search.requests)
    reply = await rig.ask(listener, utterance)
    assert (reply.speech, reply.outcome, reply.mode) == (speech.PRESS_PLAY, "refused", "keyless")
    assert reply.speech == "Press play to carry on; I can't start the sound myself."
    assert (len(rig.player.commands), len(rig.search.requests)) == (sent, searched)
    assert position(rig, listener) == HERE


@pytest.mark.parametrize("utterance", ["louder", "quieter", "turn it up"])
async def test_asking_for_the_sound_louder_says_the_volume_is_the_devices(rig: Rig, utterance: str) -> None:
    listener = rig.listener_at(HERE)
    searched = len(rig.search.requests)
    reply = await rig.ask(listener, utterance)
    assert (reply.speech, reply.outcome) == (speech.VOLUME_IS_THE_DEVICES, "refused")
    assert len(rig.search.requests) == searched


@pytest.mark.parametrize(
    ("utterance", "said"),
    [
        ("what's the name of chapter one", 'That\'s chapter 1, "The Harbour Bell".'),
        ("what is chapter 3 called?", "Chapter 3's title shows once you reach it."),
        ("what's chapter 40 called", "The book has 4 chapters; there is no chapter 40."),
    ],
)
async def test_a_chapters_title_asked_by_its_number_is_said_as_the_page_shows_it(
    rig: Rig, utterance: str, said: str
) -> None:
    """It was a question about the story: "One hasn't come up yet"."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == ("answered", said)


async def test_a_row_past_the_lists_end_is_told_not_searched_for(rig: Rig) -> None:
    """ "The fifth one" was a moment to find: four random places from the book."""
    listener = rig.listener_at(HERE)
    searched = len(rig.search.requests)
    reply = await rig.ask(listener, "the fifth one")
    assert (reply.outcome, reply.speech) == ("unsure", speech.not_on_the_list(0))
    assert len(rig.search.requests) == searched


@pytest.mark.parametrize(
    "utterance",
    [
        "go back to the harbour bell",
        "take me to the start of the harbour bell",
        "the harbour bell",
        "the beginning of the harbour bell please",
    ],
)
async def test_a_chapter_begun_asked_for_by_its_title_alone_is_its_start(rig: Rig, utterance: str) -> None:
    """In a book of stories the listener names the story: "go back to the speckled band" found a
    passage 21 minutes into it, and "the start of the red-headed league" places in its middle."""
    listener = rig.listener_at(HERE)
    searched = len(rig.search.requests)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, position(rig, listener)) == ("moved", 0)
    assert not [r for r in rig.search.requests[searched:] if isinstance(r, FindPassage)]


@pytest.mark.parametrize(
    "utterance",
    [
        "take me back to the harbour",  # one word of a title: a moment, searched for
        "go back to the keeper",  # part of a title said alone may describe a moment (review)
        "go back to the cellar door",  # a title ahead is never matched (ADR 52)
        "skip ahead to the harbour bell",  # behind, where they said ahead
    ],
)
async def test_words_that_are_no_title_begun_the_way_said_are_searched_for(rig: Rig, utterance: str) -> None:
    listener = rig.listener_at(HERE)
    searched = len([r for r in rig.search.requests if isinstance(r, FindPassage)])
    await rig.ask(listener, utterance)
    assert len([r for r in rig.search.requests if isinstance(r, FindPassage)]) > searched


async def test_bedside_ask_at_an_empty_time_is_refused_not_taken_as_no_time(nats_url: str) -> None:
    """`--at ""` answered from the listener's real place, as if --at had not been given."""
    env = {"PATH": "/usr/bin:/bin", "BEDSIDE_NATS_URL": nats_url, "COLUMNS": "300", "NO_COLOR": "1"}
    args = ("ask", "--book", BOOK_ID, "--at", "", "where am I?")
    done = await asyncio.to_thread(run_bedside, *args, env=env, timeout_s=60)
    assert done.returncode == 2
    assert "'' is not a time" in done.stderr


async def test_say_that_again_just_after_an_answer_says_the_answer_again_and_moves_nothing(rig: Rig) -> None:
    """A bedtime session: "say that again", a moment after an answer, told the last two minutes of the
    book instead. An answer told from the position is given afresh; after a move, where it came to."""
    listener = rig.listener_at(HERE)
    for asked in ("who is Tamsin?", "where am I?"):
        answer = await rig.ask(listener, asked)
        again = await rig.ask(listener, "say that again")
        assert (again.speech, again.outcome) == (answer.speech, answer.outcome), asked
    assert answer.speech.startswith("You're in chapter")
    await rig.ask(listener, "back 2 minutes")
    again = await rig.ask(listener, "sorry, what?")
    assert position(rig, listener) == HERE - 120_000  # not moved again
    assert again.speech == (await rig.ask(listener, "where am I?")).speech


async def test_a_move_and_where_am_i_moves_then_tells_the_place_moved_to(rig: Rig) -> None:
    """(review) "Go back 1 minute and where am I" moved alone, where they are went untold; with a model
    it went to the model, which has no means to tell it."""
    listener = rig.listener_at(220_000)
    reply = await rig.ask(listener, "go back 1 minute and where am I")
    assert position(rig, listener) == 160_000
    where = await rig.ask(listener, "where am I?")
    assert where.speech in reply.speech, reply.speech


@pytest.mark.parametrize("utterance", ["go back 0 seconds", "skip ahead 0 minutes"])
async def test_a_move_by_nothing_says_the_book_stays_and_offers_nothing(rig: Rig, utterance: str) -> None:
    """A listener: "go back 0 seconds" drew a covered row "further on" for the very place they were at."""
    listener = rig.listener_at(HERE)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.rows, len(rig.player.offers)) == ("refused", [], offers)
    assert position(rig, listener) == HERE
    assert reply.speech == "That's no distance at all, so the book stays where it is."


@pytest.mark.parametrize("utterance", ["¿quién es Wren?", "¿Quién es Oskar?", "wer ist Oskar?"])
async def test_a_question_not_in_english_is_not_understood_and_nothing_is_recalled(
    rig: Rig, utterance: str
) -> None:
    """A listener: "¿quién es Oskar?" was told "that has not come up yet", as if Oskar were ahead or in
    no book; Bedside answers in English, and these words it cannot read."""
    listener = rig.listener_at(HERE)
    recalls = len([r for r in rig.search.requests if isinstance(r, Recall)])
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == ("unsure", speech.CANNOT_HELP)
    assert len([r for r in rig.search.requests if isinstance(r, Recall)]) == recalls


@pytest.mark.parametrize(
    ("utterance", "said"),
    [
        ("how long is chapter 4?", "Chapter 4 is about 2 minutes long."),  # ahead: its title is not said
        ("how long is chapter 1?", "Chapter 1 is about 2 minutes long."),
        (
            "how many minutes is the second chapter",
            "Chapter 2 is about 2 minutes long, and there's about 1 minute of it left.",
        ),
    ],
)
async def test_a_chapters_length_is_told_without_its_title(rig: Rig, utterance: str, said: str) -> None:
    """A listener: "how long is chapter 6?" with chapter 6 ahead was told it had not come up yet. Its
    length is on the chapter list the page shows, a time and no words of the book (DESIGN, the line 2)."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.speech) == ("answered", said)
    assert "Keeper Returns" not in reply.speech


@pytest.mark.parametrize(
    ("utterance", "said"),
    [
        ("how long is the next chapter?", "Chapter 3 is about 2 minutes long."),
        ("how long was the last chapter?", "Chapter 1 is about 2 minutes long."),
        ("how long's chapter 4", "Chapter 4 is about 2 minutes long."),
    ],
)
async def test_a_chapter_counted_from_the_one_playing_is_told_its_length(
    rig: Rig, utterance: str, said: str
) -> None:
    """A reviewer: "how long is the next chapter" was told "that hasn't come up yet"."""
    reply = await rig.ask(rig.listener_at(HERE), utterance)
    assert (reply.outcome, reply.speech) == ("answered", said)


@pytest.mark.parametrize(
    "utterance", ["how long is chapter 4 and how long is left", "how long is left and how long is chapter 4"]
)
async def test_a_chapters_length_and_the_time_left_are_both_told(rig: Rig, utterance: str) -> None:
    reply = await rig.ask(rig.listener_at(HERE), utterance)
    assert reply.outcome == "answered"
    assert "Chapter 4 is about 2 minutes long." in reply.speech
    assert "left of this chapter" in reply.speech


async def test_the_final_chapters_length_is_told_by_its_number(rig: Rig) -> None:
    reply = await rig.ask(rig.listener_at(HERE), "how long is the final chapter?")
    assert (reply.outcome, reply.speech) == ("answered", "Chapter 4 is about 2 minutes long.")


async def test_a_chapters_length_the_book_lacks_says_how_many_it_has(rig: Rig) -> None:
    reply = await rig.ask(rig.listener_at(HERE), "how long is chapter 9?")
    asked_title = await rig.ask(rig.listener_at(HERE), "what is chapter 9 called?")
    assert reply.speech == asked_title.speech


@pytest.mark.parametrize(
    ("utterance", "asked"),
    [("pause and who is Wren", "who is Wren"), ("who is Wren and pause", "who is Wren")],
)
async def test_a_pause_and_a_question_said_together_pause_and_answer(
    rig: Rig, utterance: str, asked: str
) -> None:
    """A listener: "pause and who is oskar" was read as nothing, neither paused nor answered."""
    answered = await rig.ask(rig.listener_at(HERE), asked)
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert isinstance(rig.player.commands[-1], Pause)
    assert reply.speech == f"Paused. {answered.speech}", reply.speech


@pytest.mark.parametrize(
    "utterance",
    [
        "back 1 minute and then forward 2 minutes",
        "go back 1 minute and next chapter",
        "forward 2 minutes, back 1 minute",
        "back a bit and forward 2 minutes",
    ],
)
async def test_two_moves_said_together_make_the_first_and_say_the_second_was_not(
    rig: Rig, utterance: str
) -> None:
    """A listener: "back 5 minutes and then forward 2 minutes" went back and dropped the second move
    unsaid. One turn offers once (the turn rules): the second is said not to be done."""
    first = utterance.replace(" and then ", ", ").replace(" and ", ", ").split(", ")[0]
    alone = await rig.ask(rig.listener_at(HERE), first)
    listener = rig.listener_at(HERE)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, utterance)
    assert len(rig.player.offers) == offers + 1
    assert reply.speech.startswith(f"{alone.speech} "), reply.speech
    assert reply.speech.endswith("ask me for the other place next."), reply.speech


@pytest.mark.parametrize(
    "utterance", ["go back 0 seconds and next chapter", "next chapter and go back 0 seconds"]
)
async def test_a_jump_by_nothing_beside_another_move_makes_that_move_alone(rig: Rig, utterance: str) -> None:
    alone = await rig.ask(rig.listener_at(HERE), "next chapter")
    reply = await rig.ask(rig.listener_at(HERE), utterance)
    assert reply.speech == alone.speech


async def test_a_pause_a_question_and_where_am_i_tells_where_they_are(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    where = await rig.ask(listener, "where am I?")
    reply = await rig.ask(listener, "pause and who is wren and where am I")
    assert where.speech in reply.speech, reply.speech


async def test_say_that_again_after_two_moves_says_where_the_book_is_once(rig: Rig) -> None:
    """Each move of the two is told afresh as where the book is: the same sentence, said once."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "back 1 minute and then forward 2 minutes")
    again = await rig.ask(listener, "sorry, what?")
    assert position(rig, listener) == HERE - 60_000  # not moved again
    assert again.speech == (await rig.ask(listener, "where am I?")).speech


@pytest.mark.parametrize(
    ("utterance", "asked"),
    [
        ("pause and how long is left", "how long is left"),
        ("how long is left and pause", "how long is left"),
        ("pause and who is he", "who is he"),
    ],
)
async def test_a_pause_said_with_an_ask_pauses_and_answers_it_as_asked_alone(
    rig: Rig, utterance: str, asked: str
) -> None:
    """A review: "pause and how long is left" told the time left and did not pause; "pause and who is he"
    did nothing at all."""
    answered = await rig.ask(rig.listener_at(HERE), asked)
    reply = await rig.ask(rig.listener_at(HERE), utterance)
    assert isinstance(rig.player.commands[-1], Pause)
    assert reply.speech == f"Paused. {answered.speech}", reply.speech


async def test_play_said_with_a_question_answers_both(rig: Rig) -> None:
    """A review: "play and who is Wren" searched the book for "and who is Wren"."""
    played = await rig.ask(rig.listener_at(HERE), "play")
    answered = await rig.ask(rig.listener_at(HERE), "who is Wren")
    reply = await rig.ask(rig.listener_at(HERE), "play and who is Wren")
    assert reply.speech == f"{played.speech} {answered.speech}", reply.speech
    assert reply.outcome == answered.outcome


async def test_a_timer_and_two_moves_set_the_timer_make_the_first_and_say_the_second_was_not(
    rig: Rig,
) -> None:
    """A review: "sleep in 20, go back 1 minute and next chapter" dropped the next chapter unsaid."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "sleep in 20, go back 1 minute and next chapter")
    assert position(rig, listener) == HERE - 60_000
    assert (listener, BOOK_ID) in rig.player.sleep_timers
    assert reply.speech.endswith("ask me for the other place next."), reply.speech


@pytest.mark.parametrize("utterance", ["sleep in 1 minute at 1.5x", "1.5x and sleep in 1 minute"])
async def test_a_speed_said_with_the_timer_sets_both_the_speed_first(rig: Rig, utterance: str) -> None:
    """A review: the speed was dropped unsaid. Set first, the timer's minute is one of listening at it."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert rig.player.speeds[(listener, BOOK_ID)] == 1.5
    assert rig.player.sleep_timers[(listener, BOOK_ID)].stop_at_ms == HERE + 90_000
    assert reply.speech == "Now playing at 1.5 times speed. I'll stop in a minute.", reply.speech


async def test_go_back_2x_goes_back_saying_the_unit_taken_and_leaves_the_speed(rig: Rig) -> None:
    """A review: "go back 2x" set every device to double speed."""
    alone = await rig.ask(rig.listener_at(HERE), "go back 2")
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go back 2x")
    assert reply.speech == alone.speech
    assert position(rig, listener) == HERE - 120_000
    assert (listener, BOOK_ID) not in rig.player.speeds


async def test_a_move_and_the_time_left_moves_then_tells_the_time_left_from_there(rig: Rig) -> None:
    """A review: "go back 1 minute and how long is left" told the time left and did not move."""
    listener = rig.listener_at(220_000)
    reply = await rig.ask(listener, "go back 1 minute and how long is left")
    assert position(rig, listener) == 160_000
    left = await rig.ask(listener, "how long is left?")
    assert reply.speech.endswith(left.speech), reply.speech


async def test_a_pause_and_a_speed_pause_and_set_the_speed(rig: Rig) -> None:
    """A review: "pause and 1.5x" was "Sorry, I didn't follow"."""
    paused = await rig.ask(rig.listener_at(HERE), "pause")
    sped = await rig.ask(rig.listener_at(HERE), "1.5x")
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "pause and 1.5x")
    assert reply.speech == f"{paused.speech} {sped.speech}", reply.speech
    assert rig.player.speeds[(listener, BOOK_ID)] == 1.5
    assert isinstance(rig.player.commands[-1], SetSpeed)
    assert isinstance(rig.player.commands[-2], Pause)


async def test_play_at_a_speed_and_a_question_sets_the_speed_and_answers(rig: Rig) -> None:
    """A review: "play at 1.5x and who is Wren" searched the book for the whole."""
    sped = await rig.ask(rig.listener_at(HERE), "play at 1.5x")
    answered = await rig.ask(rig.listener_at(HERE), "who is Wren")
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "play at 1.5x and who is Wren")
    assert reply.speech == f"{sped.speech} {answered.speech}", reply.speech
    assert rig.player.speeds[(listener, BOOK_ID)] == 1.5


async def test_play_and_pause_pauses(rig: Rig) -> None:
    """A review: "play and pause" searched the book for "and pause"; the last said is what is done."""
    paused = await rig.ask(rig.listener_at(HERE), "pause")
    searched = len(rig.search.requests)
    reply = await rig.ask(rig.listener_at(HERE), "play and pause")
    assert reply.speech == paused.speech
    assert isinstance(rig.player.commands[-1], Pause)
    assert len(rig.search.requests) == searched


async def test_a_pause_a_comma_and_a_question_pauses_and_answers_it_as_asked_alone(rig: Rig) -> None:
    """A review: "pause, who is he" did not pause, and asked of the words "pause, who is he"."""
    answered = await rig.ask(rig.listener_at(HERE), "who is he")
    reply = await rig.ask(rig.listener_at(HERE), "pause, who is he")
    assert isinstance(rig.player.commands[-1], Pause)
    assert reply.speech == f"Paused. {answered.speech}", reply.speech


@pytest.mark.parametrize("utterance", ["wake me up in 10 minutes", "set an alarm for 7"])
async def test_an_alarm_asked_for_is_told_bedside_cannot_wake_them_and_offered_the_timer(
    rig: Rig, utterance: str
) -> None:
    """A review: an alarm asked for was "Sorry, I didn't follow". Nothing is set: no timer stands for it."""
    listener = rig.listener_at(HERE)
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, utterance)
    assert (reply.speech, reply.outcome) == (speech.CANNOT_WAKE_YOU, "refused")
    assert reply.speech.startswith("I can't wake you"), reply.speech
    assert len(rig.player.commands) == sent


async def test_a_moment_and_the_time_left_moves_then_tells_the_time_left_from_there(rig: Rig) -> None:
    """A review: "go back to where they met and how long is left" told the time left, the search dropped."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go back to where Wren gave her barley soup and how long is left")
    assert position(rig, listener) == 60_000
    left = await rig.ask(listener, "how long is left?")
    assert reply.speech.endswith(f" {left.speech}"), reply.speech


@pytest.mark.parametrize(
    "utterance", ["wake me up in 10 minutes and pause", "pause and wake me up in 10 minutes"]
)
async def test_an_alarm_said_with_a_pause_pauses_and_says_there_is_no_alarm(rig: Rig, utterance: str) -> None:
    """A review: "wake me up in 10 minutes and pause" did nothing; the other way round, it set a timer."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert isinstance(rig.player.commands[-1], Pause)
    assert (listener, BOOK_ID) not in rig.player.sleep_timers
    assert reply.speech == f"Paused. {speech.NO_ALARM}", reply.speech


async def test_a_timer_and_an_alarm_set_the_timer_and_say_there_is_no_alarm(rig: Rig) -> None:
    """A review: "sleep in 20 and wake me at 7" asked how long the timer should run, and set none. The
    alarm is told without the timer offered, one having just been set."""
    listener = rig.listener_at(HERE)
    timer = await rig.ask(rig.listener_at(HERE), "sleep in 20")
    reply = await rig.ask(listener, "sleep in 20 and wake me at 7")
    assert (listener, BOOK_ID) in rig.player.sleep_timers
    assert reply.speech == f"{timer.speech} {speech.NO_ALARM}", reply.speech
    assert "sleep in" not in reply.speech.removeprefix(timer.speech), reply.speech


async def test_going_to_sleep_and_an_alarm_says_goodnight_and_that_there_is_no_alarm(rig: Rig) -> None:
    """A review: "i'm going to sleep, wake me at 7" was told the timer takes no time of day, as if a stop at
    7 had been asked. Nothing is set; the goodnight names the timer as it does alone."""
    listener = rig.listener_at(HERE)
    goodnight = await rig.ask(rig.listener_at(HERE), "i'm going to sleep")
    sent = len(rig.player.commands)
    reply = await rig.ask(listener, "i'm going to sleep, wake me at 7")
    assert reply.speech == f"{goodnight.speech} {speech.NO_ALARM}", reply.speech
    assert len(rig.player.commands) == sent


async def test_a_question_and_an_alarm_answers_it_and_says_there_is_no_alarm(rig: Rig) -> None:
    """A review: "who is Wren and wake me at 7" asked the story about all of its words."""
    answered = await rig.ask(rig.listener_at(HERE), "who is Wren")
    reply = await rig.ask(rig.listener_at(HERE), "who is Wren and wake me at 7")
    assert reply.speech == f"{answered.speech} {speech.NO_ALARM}", reply.speech


async def test_an_alarm_and_what_did_i_miss_says_there_is_no_alarm_and_what_was_missed(rig: Rig) -> None:
    """A review: "wake me up in 10 minutes, what did I miss" was told only that there is no alarm."""
    missed = await rig.ask(rig.listener_at(HERE), "what did I miss")
    reply = await rig.ask(rig.listener_at(HERE), "wake me up in 10 minutes, what did I miss")
    assert reply.speech == f"{speech.NO_ALARM} {missed.speech}", reply.speech


async def test_a_doze_told_and_an_alarm_says_what_was_missed_and_that_there_is_no_alarm(rig: Rig) -> None:
    """A review: "I fell asleep, wake me at 7" told what was missed and nothing of the alarm."""
    missed = await rig.ask(rig.listener_at(HERE), "I fell asleep")
    reply = await rig.ask(rig.listener_at(HERE), "I fell asleep, wake me at 7")
    assert reply.speech == f"{missed.speech} {speech.NO_ALARM}", reply.speech


async def test_a_reminder_and_a_pause_pauses_and_says_there_is_no_alarm(rig: Rig) -> None:
    """A review: "remind me in 10 minutes and pause" paused and searched the story for "remind me in 10
    minutes"."""
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "remind me in 10 minutes and pause")
    assert isinstance(rig.player.commands[-1], Pause)
    assert (listener, BOOK_ID) not in rig.player.sleep_timers
    assert reply.speech == f"Paused. {speech.NO_ALARM}", reply.speech


def bookmarks_kept(rig: Rig, listener: str) -> list[Bookmark]:
    return list(rig.player.bookmarks.get((listener, BOOK_ID), ()))


async def stored_exchanges(rig: Rig, listener: str) -> list[Exchange]:
    return (await ConversationStore(rig.service.conversations.kv).load(listener, BOOK_ID))[0].exchanges


@pytest.mark.parametrize(
    ("utterance", "title", "said"),
    [
        ("bookmark this", None, "Bookmarked at 0:02:15, in chapter 2."),
        (
            "Bookmark this, call it The Storm.",
            "The Storm",
            'Bookmarked "The Storm" at 0:02:15, in chapter 2.',
        ),
    ],
)
async def test_bookmark_this_adds_one_where_the_book_is_and_says_where(
    rig: Rig, utterance: str, title: str | None, said: str
) -> None:
    """ADR 83: it was told that Bedside keeps no bookmarks. The player places it (no position sent), on
    the asking device; the model reads later only that one was made, never where (ADR 75)."""
    listener = rig.listener_at(HERE)
    since = len(rig.player.commands)
    reply = await rig.ask(listener, utterance, device="phone-1")
    assert reply.speech == said
    assert reply.outcome == "answered"
    assert rig.player.commands[since:] == [AddBookmark(device="phone-1", title=title)]
    # another device's copy of the same "bookmark this" then makes none (ADR 77): the player's rule
    assert rig.player.heard[-1] == Heard(request_key=request_key(intents.read(utterance), utterance))
    assert [(mark.at_ms, mark.title) for mark in bookmarks_kept(rig, listener)] == [(HERE, title)]
    assert position(rig, listener) == HERE
    read_later = str(history.as_messages((await stored_exchanges(rig, listener))[-1:]))
    assert clock(HERE) not in read_later
    assert str(HERE) not in read_later


@pytest.mark.parametrize(
    ("utterance", "title"),
    [
        ("bookmark this as the storm and pause", "the storm"),
        ("bookmark this and pause", None),
        ("bookmark this, then pause", None),
    ],
)
async def test_a_bookmark_and_a_pause_make_the_bookmark_and_pause(
    rig: Rig, utterance: str, title: str | None
) -> None:
    """A review: the title swallowed "and pause", and without a title both were read as nothing."""
    listener = rig.listener_at(HERE)
    since = len(rig.player.commands)
    reply = await rig.ask(listener, utterance, device="phone-1")
    assert [type(command) for command in rig.player.commands[since:]] == [AddBookmark, Pause]
    assert [(mark.at_ms, mark.title) for mark in bookmarks_kept(rig, listener)] == [(HERE, title)]
    named = f' "{title}"' if title else ""
    assert reply.speech == f"Bookmarked{named} at 0:02:15, in chapter 2. Paused.", reply.speech


async def test_a_bookmark_and_a_timer_make_the_bookmark_and_set_the_timer(rig: Rig) -> None:
    """A review: "bookmark this and sleep in 20 minutes" set the timer and dropped the bookmark."""
    timer = await rig.ask(rig.listener_at(HERE), "sleep in 20 minutes")
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "bookmark this and sleep in 20 minutes")
    assert [mark.at_ms for mark in bookmarks_kept(rig, listener)] == [HERE]
    assert (listener, BOOK_ID) in rig.player.sleep_timers
    assert reply.speech == f"Bookmarked at 0:02:15, in chapter 2. {timer.speech}", reply.speech


async def test_a_bookmark_and_then_a_move_marks_where_it_was_said_and_moves(rig: Rig) -> None:
    """A review: "bookmark this and go back 30 seconds" moved and made no bookmark."""
    moved = await rig.ask(rig.listener_at(HERE), "go back 30 seconds")
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "bookmark this and go back 30 seconds")
    assert [mark.at_ms for mark in bookmarks_kept(rig, listener)] == [HERE]
    assert position(rig, listener) == HERE - 30_000
    assert reply.speech == f"Bookmarked at 0:02:15, in chapter 2. {moved.speech}", reply.speech


async def test_a_move_and_then_a_bookmark_moves_and_marks_the_place_moved_to(rig: Rig) -> None:
    """A review: "go back 30 seconds and bookmark this" moved and made no bookmark."""
    moved = await rig.ask(rig.listener_at(HERE), "go back 30 seconds")
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "go back 30 seconds and bookmark this")
    assert position(rig, listener) == HERE - 30_000
    assert [mark.at_ms for mark in bookmarks_kept(rig, listener)] == [HERE - 30_000]
    assert reply.speech == f"{moved.speech} Bookmarked at 0:01:45, in chapter 2.", reply.speech


async def test_say_that_again_after_a_bookmark_and_a_pause_tells_the_list_and_the_pause(rig: Rig) -> None:
    """Said again, the bookmark is told as the list, as after one said alone, not as where the book is."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "bookmark this and pause")
    again = await rig.ask(listener, "say that again")
    playing = await rig.ask(listener, "is it playing?")
    listed = "You have 1 bookmark in this book. It's at 0:02:15, in chapter 2."
    assert again.speech == f"{listed} {playing.speech}", again.speech
    assert len(bookmarks_kept(rig, listener)) == 1


@pytest.mark.parametrize(
    "asked",
    ["wake me at 7, good night", "i'm going to sleep, wake me at 7", "how long is left and wake me at 7"],
)
async def test_say_that_again_after_an_alarm_beside_another_request_says_again_there_is_no_alarm(
    rig: Rig, asked: str
) -> None:
    """Told again as where the book is, the listener never heard again that no alarm was set."""
    listener = rig.listener_at(HERE)
    first = await rig.ask(listener, asked)
    again = await rig.ask(listener, "say that again")
    assert speech.NO_ALARM in first.speech, first.speech
    assert speech.NO_ALARM in again.speech, again.speech


async def test_a_bookmark_past_the_most_kept_is_refused_and_said_so(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    full = tuple(Bookmark(seq=n, at_ms=1_000 * n) for n in range(1, MAX_BOOKMARKS_PER_BOOK + 1))
    rig.player.bookmarks[(listener, BOOK_ID)] = full
    reply = await rig.ask(listener, "bookmark this")
    assert reply.speech == speech.BOOKMARKS_FULL
    assert reply.outcome == "refused"
    assert len(bookmarks_kept(rig, listener)) == MAX_BOOKMARKS_PER_BOOK


async def test_go_to_my_bookmark_moves_to_the_newest_and_undo_takes_it_back(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "bookmark this as the bell")
    rig.player.place(listener, BOOK_ID, 60_000)
    await rig.ask(listener, "bookmark this")
    rig.player.place(listener, BOOK_ID, 250_000)
    reply = await rig.ask(listener, "back to my last bookmark")
    assert reply.outcome == "moved"
    assert position(rig, listener) == 60_000
    assert reply.speech == "Back to your bookmark, at 0:01:00, in chapter 1."
    assert (await rig.ask(listener, "undo")).outcome == "moved"
    assert position(rig, listener) == 250_000
    stored = (await stored_exchanges(rig, listener))[-2]  # the move: its place is nowhere the model reads
    assert stored.speech == history.Told.MOVED.value
    read_later = str(history.as_messages([stored]))
    assert "60000" not in read_later
    assert "0:01:00" not in read_later


async def test_go_to_the_bookmark_called_goes_to_the_one_by_its_title(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "bookmark this as the storm at sea")
    rig.player.place(listener, BOOK_ID, 60_000)
    await rig.ask(listener, "bookmark this as the letter")
    rig.player.place(listener, BOOK_ID, 250_000)
    reply = await rig.ask(listener, "go to the bookmark called The Storm")
    assert position(rig, listener) == HERE
    assert reply.speech == 'Back to your bookmark "the storm at sea", at 0:02:15, in chapter 2.'


async def test_a_bookmark_title_none_has_is_said_with_the_ones_kept(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "bookmark this as the letter")
    await rig.ask(listener, "bookmark this")
    reply = await rig.ask(listener, "go to the bookmark called the storm")
    assert reply.speech == 'You have no bookmark called "the storm". Yours include "the letter".'
    assert reply.outcome == "refused"
    assert position(rig, listener) == HERE


async def test_a_bookmark_further_on_than_the_listener_is_now_is_a_covered_row(rig: Rig) -> None:
    """Gone back since, the place marked is ahead of the line: a row to press, as a time named there is."""
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "bookmark this")
    rig.player.place(listener, BOOK_ID, 20_000)
    reply = await rig.ask(listener, "go to my bookmark")
    assert reply.outcome == "listed"
    assert reply.speech == speech.ONE_ROW_AHEAD
    assert position(rig, listener) == 20_000
    read_later = str(history.as_messages((await stored_exchanges(rig, listener))[-1:]))  # the review
    assert clock(HERE) not in read_later, read_later
    assert str(HERE) not in read_later


@pytest.mark.parametrize("utterance", ["go to my bookmark", "list my bookmarks"])
async def test_with_no_bookmarks_they_are_told_how_to_make_one(rig: Rig, utterance: str) -> None:
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, utterance)
    assert reply.speech == speech.NO_BOOKMARKS_YET
    assert position(rig, listener) == HERE


async def test_list_my_bookmarks_says_how_many_and_the_newest_few(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    for at_ms, said in [
        (30_000, "bookmark this"),
        (60_000, "bookmark this as the bell"),
        (200_000, "bookmark"),
    ]:
        rig.player.place(listener, BOOK_ID, at_ms)
        await rig.ask(listener, said)
    rig.player.place(listener, BOOK_ID, 250_000)
    await rig.ask(listener, "bookmark this as the lamp")
    reply = await rig.ask(listener, "what bookmarks do I have?")
    assert reply.speech == (
        'You have 4 bookmarks in this book. The newest is at 0:04:10, in chapter 3, "the lamp". '
        'Then 0:03:20, in chapter 3. Then 0:01:00, in chapter 1, "the bell". The page lists them all.'
    )
    assert (await stored_exchanges(rig, listener))[-1].speech == history.Told.BOOKMARKS.value


async def test_say_that_again_after_a_bookmark_tells_the_list_and_makes_none(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    await rig.ask(listener, "bookmark this")
    again = await rig.ask(listener, "say that again")
    assert again.speech == "You have 1 bookmark in this book. It's at 0:02:15, in chapter 2."
    assert len(bookmarks_kept(rig, listener)) == 1
