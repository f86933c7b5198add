"""'Where am I?' and a jump back from the very start, in a turn over a real bus with search and player
doubles (search's own place rules resolve the jump).

The book is the doubles' Lamplight: four chapters of three 30-second passages (chapter 2 starts
at 1:30, chapter 3 at 3:00, chapter 4 at 4:30), six minutes in all.
"""

from collections.abc import AsyncIterator

import pytest
from bedside_contracts.search import ChapterInfo, Recall, Recap
from bedside_turn.domain import recap as recaps
from bedside_turn.domain import speech
from bedside_turn_testing.book import PASSAGE_MS
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.leaks import leaks

CHAPTER_MS = 3 * PASSAGE_MS
IN_CHAPTER_3 = 2 * CHAPTER_MS + 40_000


@pytest.fixture(scope="module")
async def rig(nats_url: str) -> AsyncIterator[Rig]:
    rig = await start_rig(nats_url, with_model=False)
    try:
        yield rig
    finally:
        await rig.broker.stop()


def read_passages(rig: Rig, since: int) -> list[object]:
    """The recalls and recaps search was asked for since request ``since``: where-am-I reads none."""
    return [r for r in rig.search.requests[since:] if isinstance(r, Recall | Recap)]


@pytest.mark.parametrize(
    "utterance",
    [
        "where am I?",
        "which chapter am I in?",
        "what chapter am I on?",
        "what's this chapter called?",
        "what time is it in the book?",
        "where am I in the book?",
        "how far through am I?",
    ],
)
async def test_where_am_i_is_the_chapter_how_far_into_it_and_into_the_book(rig: Rig, utterance: str) -> None:
    listener = rig.listener_at(IN_CHAPTER_3)
    since = len(rig.search.requests)
    reply = await rig.ask(listener, utterance)
    assert (reply.outcome, reply.mode) == ("answered", "keyless")
    assert reply.speech == (
        'You\'re in chapter 3, "The Cellar Door", 40 seconds in; '
        "about 4 minutes into the book, with about 2 minutes to go."
    )
    assert read_passages(rig, since) == []
    assert rig.player.positions[(listener, "lamplight")] == IN_CHAPTER_3
    assert not leaks(reply.speech, rig.passages, IN_CHAPTER_3)


async def test_at_the_books_very_start_it_says_so_not_that_nothing_of_a_stretch_was_heard(rig: Rig) -> None:
    listener = rig.listener_at(0)
    reply = await rig.ask(listener, "where am I?")
    assert (reply.outcome, reply.speech) == ("answered", "You're at the very start of the book.")


async def test_at_a_chapters_first_millisecond_its_title_is_not_said(rig: Rig) -> None:
    """The title is heard as the chapter begins: at its first millisecond it is ahead of the line."""
    listener = rig.listener_at(2 * CHAPTER_MS)
    reply = await rig.ask(listener, "which chapter am I in?")
    assert reply.speech == (
        f"{recaps.at_chapter_start(3)} You're about 3 minutes into the book, with about 3 minutes to go."
    )
    assert "Cellar" not in reply.speech


async def test_a_chapter_further_in_is_said_in_minutes(rig: Rig) -> None:
    listener = rig.listener_at(3 * CHAPTER_MS + 80_000)
    reply = await rig.ask(listener, "where are we?")
    assert reply.speech == (
        'You\'re in chapter 4, "The Keeper Returns", about 1 minute in; '
        "about 6 minutes into the book, with less than a minute to go."
    )


async def test_the_answer_with_a_title_is_checked_and_one_without_is_the_turns_own(rig: Rig) -> None:
    titled = speech.where_you_are(IN_CHAPTER_3, 6 * 60_000, rig_chapters(rig))
    at_start = speech.where_you_are(0, 6 * 60_000, rig_chapters(rig))
    assert not speech.holds_no_book_words(titled)  # the title is the book's words
    assert speech.holds_no_book_words(at_start)


def rig_chapters(rig: Rig) -> list[ChapterInfo]:
    return list(rig.search.book("lamplight").info.chapters)


@pytest.mark.parametrize(
    ("utterance", "read"),
    [
        ("where is the compass?", Recall),
        ("where was I when the storm started?", Recall),
        ("where did Wren go?", Recall),
        ("what chapter does the storm start in?", Recall),
        ("where was I?", Recap),
    ],
)
async def test_questions_that_are_not_where_am_i_still_read_the_book(
    rig: Rig, utterance: str, read: type
) -> None:
    listener = rig.listener_at(IN_CHAPTER_3)
    since = len(rig.search.requests)
    reply = await rig.ask(listener, utterance)
    assert [type(r) for r in read_passages(rig, since)] == [read]
    assert not reply.speech.startswith("You're in chapter")


async def test_back_five_minutes_from_the_very_start_says_so_and_moves_nothing(rig: Rig) -> None:
    listener = rig.listener_at(0)
    offers = len(rig.player.offers)
    reply = await rig.ask(listener, "back 5 minutes")
    assert reply.speech == speech.NOTHING_BEFORE_START
    assert reply.speech == "You're at the very start of the book; there's nothing before it."
    assert reply.outcome == "refused"
    assert reply.rows == []
    assert rig.player.positions[(listener, "lamplight")] == 0
    assert len(rig.player.offers) == offers + 1  # asked, and refused by search's rule: nothing listed


async def test_back_further_than_the_start_from_inside_the_book_goes_to_the_start(rig: Rig) -> None:
    listener = rig.listener_at(IN_CHAPTER_3)
    reply = await rig.ask(listener, "back an hour")
    assert reply.outcome == "moved"
    assert rig.player.positions[(listener, "lamplight")] == 0
    assert reply.speech == speech.BACK_TO_THE_START  # not as if an hour had been gone back


def test_a_book_without_chapters_and_the_books_end_are_said_in_the_turns_own_words() -> None:
    assert speech.where_you_are(100_000, 360_000, []) == (
        "You're about 2 minutes into the book, with about 4 minutes to go."
    )
    end = speech.where_you_are(360_000, 360_000, [])
    assert end == "You're at the end of the book."
    assert speech.holds_no_book_words(end)
