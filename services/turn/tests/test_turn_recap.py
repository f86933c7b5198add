"""Recaps in a keyless turn, over a real bus with search and player doubles (the model's: test_turn_scripted).

The book is the doubles' Lamplight: four chapters of three 30-second passages (chapter 2
starts at 1:30, chapter 3 at 3:00, chapter 4 at 4:30).
"""

import re
from collections.abc import AsyncIterator

import pytest
from bedside_contracts.player import Asleep, HistoryEntry, SetSleepTimer
from bedside_contracts.search import ChapterInfo, Recap, Recapped, RecapSentence
from bedside_contracts.turn import RecapArgs
from bedside_guard import clock
from bedside_turn.domain import recap as recaps
from bedside_turn_testing.book import BOOK_ID, PASSAGE_MS
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.leaks import leaks

CHAPTER_MS = 3 * PASSAGE_MS
_STAMP = re.compile(r"\bAt (\d+):(\d\d):(\d\d): ")


@pytest.fixture(scope="module")
async def rig(nats_url: str) -> AsyncIterator[Rig]:
    rig = await start_rig(nats_url, with_model=False)
    try:
        yield rig
    finally:
        await rig.broker.stop()


def said_times(speech: str) -> list[int]:
    return [((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 for h, m, s in _STAMP.findall(speech)]


def last_recap(rig: Rig) -> Recap:
    return next(r for r in reversed(rig.search.requests) if isinstance(r, Recap))


def chapters_of_said(rig: Rig, speech: str) -> set[int]:
    """The chapters whose passages hold the sentences the recap said."""
    return {p.chapter for p in rig.passages if p.text in speech or any(c.text in speech for c in p.cues)}


async def test_what_did_i_miss_after_falling_asleep_recaps_from_the_estimate_to_the_pause(rig: Rig) -> None:
    paused_at, asleep_at = 5 * PASSAGE_MS, PASSAGE_MS
    listener = rig.listener_at(paused_at)
    rig.player.asleep[(listener, BOOK_ID)] = Asleep(
        paused_at_ms=paused_at, asleep_at_ms=asleep_at, seq=7, device="phone"
    )
    reply = await rig.ask(listener, "what did I miss?", here_ms=paused_at)
    assert (reply.outcome, reply.mode) == ("answered", "keyless")
    assert reply.speech.startswith(f"Since you dozed off at {clock(asleep_at)}: At ")
    asked = last_recap(rig)
    assert (asked.from_ms, asked.to_ms, asked.here_ms) == (asleep_at, paused_at, paused_at)
    times = said_times(reply.speech)
    assert times
    assert times == sorted(times)
    assert all(asleep_at <= t < paused_at for t in times)
    assert chapters_of_said(rig, reply.speech) <= {1, 2}
    assert all(said[0].isupper() for said in _STAMP.split(reply.speech)[4::4])  # the book's capitals kept
    assert not re.search(r"\d, [A-Z]", reply.speech)  # no capital after a comma: the time's joint is a colon
    assert "barley soup" in reply.speech or "ledger" in reply.speech
    assert not leaks(reply.speech, rig.passages, paused_at)
    assert len(reply.speech.split()) <= 100


async def test_what_happened_before_falling_asleep_recaps_the_minutes_up_to_the_estimate(rig: Rig) -> None:
    """It recapped the span asleep, what they had not heard, where they asked for what they had."""
    paused_at, asleep_at = 11 * PASSAGE_MS, 9 * PASSAGE_MS + 10_000
    listener = rig.listener_at(paused_at)
    rig.player.asleep[(listener, BOOK_ID)] = Asleep(
        paused_at_ms=paused_at, asleep_at_ms=asleep_at, seq=7, device="phone"
    )
    reply = await rig.ask(listener, "what was happening just before I fell asleep?", here_ms=paused_at)
    assert reply.outcome == "answered"
    assert reply.speech.startswith(f"Just before you dozed off at {clock(asleep_at)}: At ")
    asked = last_recap(rig)
    assert (asked.from_ms, asked.to_ms) == (max(0, asleep_at - recaps.FALLBACK_MINUTES * 60_000), asleep_at)
    assert all(asked.from_ms <= t < asleep_at for t in said_times(reply.speech))
    assert not leaks(reply.speech, rig.passages, paused_at)


async def test_what_happened_last_night_recaps_the_minutes_before_the_last_break(rig: Rig) -> None:
    """Read as a question about the story before; now the stretch ends where the player's history
    says they last stopped for an hour or more, though they have listened on since."""
    stopped_at, here = 6 * PASSAGE_MS, 10 * PASSAGE_MS
    listener = rig.listener_at(here)
    rig.player.history[(listener, BOOK_ID)] = [
        HistoryEntry(seq=9, kind="paused", position_ms=stopped_at, chapter=3, device="phone")
    ]
    reply = await rig.ask(listener, "remind me what happened last night", here_ms=here)
    assert reply.outcome == "answered"
    assert reply.speech.startswith(f"Before you stopped last time, at {clock(stopped_at)}: At ")
    assert rig.player.lookups[-1].left_off
    asked = last_recap(rig)
    assert (asked.from_ms, asked.to_ms) == (max(0, stopped_at - recaps.FALLBACK_MINUTES * 60_000), stopped_at)
    assert all(asked.from_ms <= t < stopped_at for t in said_times(reply.speech))
    assert not leaks(reply.speech, rig.passages, here)


async def test_what_happened_last_night_after_the_sleep_timer_recaps_up_to_the_doze(rig: Rig) -> None:
    """A tester's night: asleep at 0:10:40, paused by the timer at 0:15:40, and "what happened last
    night?" recapped the minutes slept through, word for word what "what did I miss?" says."""
    asleep_at, paused_at = 7 * PASSAGE_MS, 11 * PASSAGE_MS
    listener = rig.listener_at(paused_at)
    rig.player.asleep[(listener, BOOK_ID)] = Asleep(
        paused_at_ms=paused_at, asleep_at_ms=asleep_at, seq=9, device="phone"
    )
    rig.player.history[(listener, BOOK_ID)] = [
        HistoryEntry(seq=9, kind="fell_asleep", position_ms=paused_at, asleep_at_ms=asleep_at, placed=True)
    ]
    reply = await rig.ask(listener, "what happened last night?", here_ms=paused_at)
    assert reply.outcome == "answered"
    assert reply.speech.startswith(f"Before you dozed off last time, at {clock(asleep_at)}: At ")
    asked = last_recap(rig)
    assert (asked.from_ms, asked.to_ms) == (max(0, asleep_at - recaps.FALLBACK_MINUTES * 60_000), asleep_at)
    assert all(t < asleep_at for t in said_times(reply.speech))


async def test_what_happened_last_time_with_no_break_yet_recaps_the_last_minutes_and_says_why(
    rig: Rig,
) -> None:
    here = 7 * PASSAGE_MS
    listener = rig.listener_at(here)
    rig.player.history[(listener, BOOK_ID)] = []
    reply = await rig.ask(listener, "what happened last time?", here_ms=here)
    assert reply.outcome == "answered"
    assert reply.speech.startswith(
        "You haven't stopped listening for an hour or more yet. In the last 5 minutes: At "
    )
    assert all(0 <= t < here for t in said_times(reply.speech))


async def test_what_did_i_miss_with_no_asleep_fact_recaps_the_last_minutes(rig: Rig) -> None:
    here = 7 * PASSAGE_MS
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "what did I miss?")
    assert reply.outcome == "answered"
    assert reply.speech.startswith("I don't know when you dozed off. In the last 5 minutes: At ")
    assert all(0 <= t < here for t in said_times(reply.speech))
    assert not leaks(reply.speech, rig.passages, here)


async def test_a_recap_asked_with_another_ask_answers_both_in_the_order_asked(rig: Rig) -> None:
    """A bedtime probe: "who is Oskar and what did I miss" and "where are we and what did I miss" were
    told the recap alone, the other ask dropped without a word."""
    here = 7 * PASSAGE_MS
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "who is Wren and what did I miss?")
    assert reply.outcome == "answered"
    quoted, recapped = reply.speech.split(" I don't know when you dozed off. In the last 5 minutes: At ")
    assert quoted.startswith("In chapter ")
    assert "Wren" in quoted
    assert all(0 <= t < here for t in said_times(recapped))
    assert not leaks(reply.speech, rig.passages, here, {"who is Wren"})
    reply = await rig.ask(listener, "where am I and what did I miss?")
    assert reply.outcome == "answered"
    assert reply.speech.startswith("You're in chapter 3")
    assert "I don't know when you dozed off. In the last 5 minutes: At " in reply.speech


async def test_a_recap_asked_with_the_sleep_timer_tells_the_recap_and_sets_the_timer(rig: Rig) -> None:
    """A bedtime probe: "what did I miss and sleep in 20 minutes" was told the recap alone, no timer set."""
    here = 7 * PASSAGE_MS
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "what did I miss and sleep in 2 minutes")
    assert reply.outcome == "answered"
    assert reply.speech.startswith("I don't know when you dozed off. In the last 5 minutes: At ")
    assert reply.speech.endswith(" I'll stop in 2 minutes."), reply.speech
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=2)
    assert all(0 <= t < here for t in said_times(reply.speech))
    assert not leaks(reply.speech, rig.passages, here)


async def test_a_recap_a_question_and_the_sleep_timer_are_all_done_in_the_order_asked(rig: Rig) -> None:
    """A bedtime probe: "what did I miss, who is Oskar and sleep in 20" was told the recap and asked the book
    "who is Oskar and sleep in 20", the timer never set."""
    here = 7 * PASSAGE_MS
    recap = await rig.ask(rig.listener_at(here), "what did I miss?")
    asked = await rig.ask(rig.listener_at(here), "who is Wren?")
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "what did I miss, who is Wren and sleep in 2 minutes")
    assert reply.outcome == "answered"
    assert reply.speech == f"{recap.speech} {asked.speech} I'll stop in 2 minutes."
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=2)
    assert not leaks(reply.speech, rig.passages, here, {"who is Wren"})


async def test_what_was_missed_asked_with_how_long_they_slept_tells_both_in_the_order_asked(rig: Rig) -> None:
    """A bedtime probe: "what did I miss. How long was I out?" was told the recap alone. The place they
    dozed off is shown by an offer, which the turn rules refuse after a recall: it is shown first."""
    paused_at, asleep_at = 5 * PASSAGE_MS, PASSAGE_MS
    said_alone = {}
    asked_together = (
        "what did I miss. How long was I out?",
        "what did I miss, who is Wren and how long was I out?",
    )
    for asked in ("what did I miss?", "How long was I out?", "who is Wren?", *asked_together):
        listener = rig.listener_at(paused_at)
        rig.player.history[(listener, BOOK_ID)] = [
            HistoryEntry(seq=6, kind="reported", position_ms=asleep_at, chapter=1, placed=True)
        ]
        rig.player.asleep[(listener, BOOK_ID)] = Asleep(
            paused_at_ms=paused_at, asleep_at_ms=asleep_at, seq=7, device="phone"
        )
        said_alone[asked] = await rig.ask(listener, asked, here_ms=paused_at)
    recap, how_long, who, both, three = said_alone.values()
    assert recap.speech.startswith(f"Since you dozed off at {clock(asleep_at)}: At ")
    assert "the book played on for about 2 minutes" in how_long.speech
    assert (both.outcome, both.speech) == ("listed", f"{recap.speech} {how_long.speech}")
    # three asked, the place of the history among them: shown first, all said in the order asked
    assert (three.outcome, three.speech) == ("listed", f"{recap.speech} {who.speech} {how_long.speech}")
    assert rig.player.positions[(listener, BOOK_ID)] == paused_at


async def test_after_going_back_before_the_doze_what_was_missed_is_ahead(rig: Rig) -> None:
    listener = rig.listener_at(2 * PASSAGE_MS)
    rig.player.asleep[(listener, BOOK_ID)] = Asleep(
        paused_at_ms=8 * PASSAGE_MS, asleep_at_ms=4 * PASSAGE_MS, seq=9, device="speaker"
    )
    reply = await rig.ask(listener, "what did I miss?")
    assert (reply.outcome, reply.speech) == (
        "not_yet",
        recaps.MISSED_AHEAD.format(clock(4 * PASSAGE_MS)),
    )


async def test_what_was_missed_starts_where_the_doze_was_played_again_to(rig: Rig) -> None:
    """Played again from where they fell asleep, the doze is heard that far: "what did I miss?" there
    recapped what they had just heard again."""
    paused_at, asleep_at, reheard_to = 8 * PASSAGE_MS, 2 * PASSAGE_MS, 5 * PASSAGE_MS
    doze = Asleep(
        paused_at_ms=paused_at, asleep_at_ms=asleep_at, reheard_to_ms=reheard_to, seq=9, device="phone"
    )
    listener = rig.listener_at(reheard_to)
    rig.player.asleep[(listener, BOOK_ID)] = doze
    reply = await rig.ask(listener, "what did I miss?", here_ms=reheard_to)
    assert (reply.outcome, reply.speech) == ("not_yet", recaps.MISSED_AHEAD.format(clock(reheard_to)))

    skipped_to = paused_at  # then skipped ahead to the pause: the rest of the doze is missed
    listener = rig.listener_at(skipped_to)
    rig.player.asleep[(listener, BOOK_ID)] = doze
    reply = await rig.ask(listener, "what did I miss?", here_ms=skipped_to)
    assert reply.speech.startswith(f"{recaps.MISSED_SINCE_HEARD_AGAIN.format(clock(reheard_to))} At ")
    assert all(reheard_to <= t < paused_at for t in said_times(reply.speech))

    all_again = doze.model_copy(update={"reheard_to_ms": paused_at})
    listener = rig.listener_at(paused_at + PASSAGE_MS)
    rig.player.asleep[(listener, BOOK_ID)] = all_again
    reply = await rig.ask(listener, "what did I miss?", here_ms=paused_at + PASSAGE_MS)
    assert reply.speech.startswith(f"{recaps.DOZE_HEARD_AGAIN} In the last 5 minutes: At ")
    before = await rig.ask(
        listener, "what happened just before I fell asleep?", here_ms=paused_at + PASSAGE_MS
    )
    assert before.speech.startswith(f"Just before you dozed off at {clock(asleep_at)}: At ")
    # A pause where they were last awake, nothing played again: nothing is said to be heard again.
    listener = rig.listener_at(paused_at)
    rig.player.asleep[(listener, BOOK_ID)] = Asleep(
        paused_at_ms=paused_at, asleep_at_ms=paused_at, seq=9, device="phone"
    )
    reply = await rig.ask(listener, "what did I miss?", here_ms=paused_at)
    assert not reply.speech.startswith(recaps.DOZE_HEARD_AGAIN), reply.speech


@pytest.mark.parametrize(
    ("here_ms", "chapter", "title"),
    [
        (2 * CHAPTER_MS + 10_000, 2, "The Keeper's Ledger"),  # early in chapter 3: the one before
        (2 * CHAPTER_MS + 80_000, 3, "The Cellar Door"),  # well into chapter 3: the one playing
        (CHAPTER_MS - 20_000, 1, "The Harbour Bell"),  # no chapter before: the one playing
    ],
)
async def test_what_happened_in_the_last_chapter_recaps_that_chapter(
    rig: Rig, here_ms: int, chapter: int, title: str
) -> None:
    listener = rig.listener_at(here_ms)
    reply = await rig.ask(listener, "what happened in the last chapter?")
    assert reply.outcome == "answered"
    assert reply.speech.startswith(f'In chapter {chapter}, "{title}": At ')
    start = (chapter - 1) * CHAPTER_MS
    assert all(start <= t < min(start + CHAPTER_MS, here_ms) for t in said_times(reply.speech))
    assert chapters_of_said(rig, reply.speech) == {chapter}
    assert not leaks(reply.speech, rig.passages, here_ms)


@pytest.mark.parametrize(
    ("here_ms", "chapter", "title", "said_first"),
    [
        (3 * CHAPTER_MS + 10_000, 2, "The Keeper's Ledger", ""),  # early in chapter 4: two back
        (3 * CHAPTER_MS + 80_000, 3, "The Cellar Door", ""),  # well into it: the one before it
        (CHAPTER_MS + 10_000, 1, "The Harbour Bell", "There's only one chapter before this one. "),
    ],
)
async def test_the_chapter_before_last_is_the_one_before_the_last_chapter(
    rig: Rig, here_ms: int, chapter: int, title: str, said_first: str
) -> None:
    """A bedtime probe: "recap the chapter before last" recapped the last chapter. It is the chapter
    before the one "the last chapter" means, so the two never name one chapter."""
    listener = rig.listener_at(here_ms)
    reply = await rig.ask(listener, "recap the chapter before last")
    assert reply.outcome == "answered"
    assert reply.speech.startswith(f'{said_first}In chapter {chapter}, "{title}": At ')
    assert chapters_of_said(rig, reply.speech) == {chapter}
    assert not leaks(reply.speech, rig.passages, here_ms)


async def test_the_last_minutes_and_the_story_so_far_stop_at_the_line(rig: Rig) -> None:
    here = 4 * PASSAGE_MS + 20_000  # after the first cue of passage 104 (its second starts at +15 s)
    listener = rig.listener_at(here)
    minutes = await rig.ask(listener, "what happened in the last two minutes?")
    assert minutes.speech.startswith("In the last 2 minutes: At ")
    assert all(here - 120_000 <= t < here for t in said_times(minutes.speech))
    so_far = await rig.ask(listener, "tell me the story so far")
    assert so_far.speech.startswith("The story so far: At ")
    for reply in (minutes, so_far):
        assert not leaks(reply.speech, rig.passages, here)
        assert all(t < here for t in said_times(reply.speech))


async def test_where_was_i_asked_alone_tells_the_latest_minutes_not_that_nothing_came_up(rig: Rig) -> None:
    """Half awake at 2am, "where was I?" is not a passage to find: the last minutes heard answer it."""
    here = 5 * PASSAGE_MS
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "where was I?")
    assert reply.outcome == "answered"
    assert reply.speech.startswith("In the last 2 minutes: At ")
    assert all(here - 120_000 <= t < here for t in said_times(reply.speech))
    assert not leaks(reply.speech, rig.passages, here)


async def test_a_recap_of_this_chapter_names_the_chapter_playing_not_a_passage_about_it(rig: Rig) -> None:
    """("What chapter is this?" is answered from the book's times: test_turn_where.)"""
    here = 2 * CHAPTER_MS + 40_000
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "what has happened in this chapter?")
    assert reply.outcome == "answered"
    assert reply.speech.startswith('In chapter 3, "The Cellar Door": At ')
    assert chapters_of_said(rig, reply.speech) == {3}
    assert not leaks(reply.speech, rig.passages, here)


async def test_at_a_chapters_first_millisecond_the_chapter_playing_is_that_one(rig: Rig) -> None:
    """Just after "go to chapter 3" the page names chapter 3: so does the turn, with nothing heard of it
    to tell and its title not yet said."""
    here = 2 * CHAPTER_MS
    listener = rig.listener_at(here)
    which = await rig.ask(listener, "what has happened in this chapter?")
    assert which.speech == recaps.at_chapter_start(3)
    assert "Cellar" not in which.speech
    left = await rig.ask(listener, "how long is left?")
    assert left.speech.startswith("There's about 2 minutes left of this chapter")


@pytest.mark.parametrize(
    "asked", ["what happened in chapter 1?", "what was chapter one about?", "recap the first chapter"]
)
async def test_a_chapter_named_by_its_number_is_recapped_not_gone_to(rig: Rig, asked: str) -> None:
    here = 2 * CHAPTER_MS + 40_000  # in chapter 3: chapter 1 is neither the last nor this one
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, asked)
    assert reply.outcome == "answered"
    assert reply.speech.startswith('In chapter 1, "The Harbour Bell": At ')
    assert chapters_of_said(rig, reply.speech) == {1}
    assert rig.player.positions[(listener, BOOK_ID)] == here


async def test_a_chapter_named_by_its_number_is_recapped_only_as_far_as_it_was_heard(rig: Rig) -> None:
    here = 2 * CHAPTER_MS + 40_000
    listener = rig.listener_at(here)
    playing = await rig.ask(listener, "what happened in chapter 3?")
    assert all(2 * CHAPTER_MS <= t < here for t in said_times(playing.speech))
    assert not leaks(playing.speech, rig.passages, here)
    ahead = await rig.ask(listener, "what happened in chapter 4?")
    assert ahead.speech == "You haven't reached chapter 4 yet, so it's all still ahead of you."
    assert ahead.outcome == "not_yet"
    missing = await rig.ask(listener, "what happened in chapter 9?")
    assert (missing.outcome, missing.speech) == ("refused", "This book has no chapter 9.")
    assert rig.player.positions[(listener, BOOK_ID)] == here


async def test_a_question_about_a_numbered_chapter_moves_nothing(rig: Rig) -> None:
    """Before, "chapter 2" anywhere in a question was a place: "who rang the bell in chapter 2?" moved it."""
    here = 2 * CHAPTER_MS + 40_000
    listener = rig.listener_at(here)
    await rig.ask(listener, "who rang the bell in chapter 2?")
    assert rig.player.positions[(listener, BOOK_ID)] == here


def test_a_recap_says_a_time_where_it_starts_and_again_only_where_it_moves_on_a_while() -> None:
    """A listener session heard "At 0:42:00: ..." four to six times in one recap."""
    sentences = [
        RecapSentence(passage_id=1, chapter=2, at_ms=at_ms, text=text)
        for at_ms, text in (
            (2_520_000, "The bell rang."),
            (2_540_000, "Wren ran."),
            (2_700_000, "The boats came in."),
            (3_000_000, "Night fell."),
        )
    ]
    recapped = Recapped(from_ms=2_500_000, to_ms=3_100_000, places=[], sentences=sentences)
    chosen = recaps.ChosenSpan(from_ms=2_500_000, to_ms=3_100_000, opening="In chapter 2:", told="chapter 2")
    assert recaps.spoken_recap(chosen, recapped) == (
        "In chapter 2: At 0:42:00: The bell rang. Wren ran. The boats came in. Later, at 0:50:00: Night fell."
    )


def test_a_recap_says_the_time_again_where_a_chapter_changes_however_soon() -> None:
    """A listener session heard one chapter's line run into the next chapter's, a minute on, as if
    one person said both: '"What do you mean?" said the farmer. "I want to know if ..."'."""
    sentences = [
        RecapSentence(passage_id=n, chapter=chapter, at_ms=at_ms, text=text)
        for n, (chapter, at_ms, text) in enumerate(
            ((1, 5_520_000, '"What do you mean?" said the farmer.'), (2, 5_580_000, '"Is it James?"')),
            start=1,
        )
    ]
    recapped = Recapped(from_ms=5_500_000, to_ms=5_600_000, places=[], sentences=sentences)
    chosen = recaps.ChosenSpan(
        from_ms=5_500_000, to_ms=5_600_000, opening="In the last minutes:", told="minutes"
    )
    assert recaps.spoken_recap(chosen, recapped) == (
        'In the last minutes: At 1:32:00: "What do you mean?" said the farmer. Then in chapter 2, at 1:33:00:'
        ' "Is it James?"'
    )


def test_a_span_holding_no_heard_words_is_told_as_nothing_heard_not_as_too_short() -> None:
    """A second into a chapter's lead-in, "what happened in this chapter?" said the stretch "was very
    short", where "start this chapter again" said nothing of it had played yet (a review)."""
    chosen = recaps.ChosenSpan(
        from_ms=60_000, to_ms=61_000, opening="In chapter 2:", told="chapter 2", nothing_heard="nothing yet"
    )
    assert recaps.spoken_recap(chosen, Recapped(from_ms=60_000, to_ms=61_000, places=[], sentences=[])) == (
        "nothing yet"
    )


async def test_the_previous_chapter_asked_in_the_first_says_there_is_none_before_it(rig: Rig) -> None:
    """It recapped chapter 1 as if it were the one before (a listener session)."""
    listener = rig.listener_at(40_000)
    reply = await rig.ask(listener, "remind me what happened in the previous chapter")
    assert reply.speech.startswith(f'{recaps.NONE_BEFORE_THIS_ONE} In chapter 1, "The Harbour Bell": At ')


def test_a_doze_of_a_few_seconds_is_said_to_have_missed_little_not_to_lie_ahead() -> None:
    """Asleep at 1:04:05, paused at 1:04:13, "what did I miss?" was told "You haven't heard anything
    of that stretch yet, so it's all still ahead of you" (a listener session): it has played."""
    asleep = Asleep(paused_at_ms=3_853_000, asleep_at_ms=3_845_000, seq=9, device="speaker")
    chosen = recaps.choose_span(RecapArgs(span="since_asleep"), 3_853_000, [], asleep)
    said = recaps.spoken_recap(chosen, Recapped(from_ms=3_845_000, to_ms=3_853_000, places=[], sentences=[]))
    assert "ahead" not in said
    assert "1:04:05" in said
    assert "8 seconds" in said


ASLEEP_AT, PAUSED_AT = 640_000, 940_000
NIGHT = Asleep(paused_at_ms=PAUSED_AT, asleep_at_ms=ASLEEP_AT, seq=9, device="phone")
"""The tester's night: asleep at 0:10:40, paused by the sleep timer at 0:15:40."""
DOZED_OFF = "Before you dozed off last time, at 0:10:40:"


@pytest.mark.parametrize(
    ("left_off", "asleep", "heard_to", "opening"),
    [
        (PAUSED_AT, None, PAUSED_AT, "Before you stopped last time, at 0:15:40:"),  # no sleep timer
        (PAUSED_AT, NIGHT, ASLEEP_AT, "Before you dozed off last time, at 0:10:40:"),
        # a paused device reports the book a little past the pause: still resting there
        (PAUSED_AT + 400, NIGHT, ASLEEP_AT, "Before you dozed off last time, at 0:10:40:"),
        # they listened on past the pause before the break: that break is not the doze
        (1_200_000, NIGHT, 1_200_000, "Before you stopped last time, at 0:20:00:"),
        # the doze heard again since, in part or whole (a review: what they heard tonight was told as
        # last night); heard again before the break is not told apart, and rare
        *(
            (PAUSED_AT, NIGHT.model_copy(update={"reheard_to_ms": again}), ASLEEP_AT, DOZED_OFF)
            for again in (780_000, PAUSED_AT)
        ),
    ],
)
def test_last_time_ends_where_hearing_stopped_before_the_last_break(
    left_off: int, asleep: Asleep | None, heard_to: int, opening: str
) -> None:
    """A break the sleep timer made ends what was heard where they dozed off: "what happened last
    night?" told the minutes slept through (a tester), which "what did I miss?" tells."""
    here = 1_300_000
    chosen = recaps.choose_span(RecapArgs(span="last_time"), here, [], asleep, left_off)
    assert (chosen.from_ms, chosen.to_ms, chosen.opening) == (
        heard_to - recaps.FALLBACK_MINUTES * 60_000,
        heard_to,
        opening,
    )


def test_last_time_gone_back_into_or_before_it_stops_at_the_line_and_says_where_they_stopped() -> None:
    """Back at 0:03:00, "what happened last night?" was told "Before you stopped last time, at 0:03:00"
    (a tester): they had stopped at 0:15:40, asleep since 0:10:40, not at the line they had gone back to."""
    before = recaps.choose_span(RecapArgs(span="last_time"), 180_000, [], NIGHT, PAUSED_AT)
    assert before.to_ms <= before.from_ms  # the minutes before the doze all lie ahead now: nothing heard
    assert "0:03:00" not in before.opening
    within = recaps.choose_span(RecapArgs(span="last_time"), 480_000, [], NIGHT, PAUSED_AT)
    assert (within.from_ms, within.to_ms) == (ASLEEP_AT - recaps.FALLBACK_MINUTES * 60_000, 480_000)
    assert within.opening == "Before you dozed off last time, at 0:10:40:"


@pytest.mark.parametrize(
    "args",
    [
        RecapArgs(span="this_chapter"),
        RecapArgs(span="chapter", chapter=6),
        RecapArgs(span="last_minutes", minutes=1),
    ],
)
def test_a_stretch_heard_in_a_chapter_not_transcribed_yet_is_said_to_be_so_not_to_lie_ahead(
    args: RecapArgs,
) -> None:
    """42 s into chapter 6 while it was still being transcribed, "what happens in chapter 6?" was
    told "You haven't reached chapter 6 yet", and "what happened in this chapter?" that nothing of it
    had played (a listener session)."""
    chapters = [
        ChapterInfo(n=5, title="The Wedding", start_ms=240_000, end_ms=308_000),
        ChapterInfo(n=6, title="Six", start_ms=308_000, end_ms=400_000),
    ]
    here = 350_000
    chosen = recaps.choose_span(args, here, chapters, None, pending=[5, 6])
    said = recaps.spoken_recap(
        chosen, Recapped(from_ms=chosen.from_ms, to_ms=chosen.to_ms, places=[], sentences=[])
    )
    assert said == recaps.NOT_TRANSCRIBED_YET
    whole = recaps.choose_span(args, here, chapters, None)
    assert whole.nothing_heard != recaps.NOT_TRANSCRIBED_YET


@pytest.mark.parametrize(
    "args",
    [
        RecapArgs(span="this_chapter"),
        RecapArgs(span="chapter", chapter=6),
        RecapArgs(span="last_minutes", minutes=1),
    ],
)
def test_a_stretch_of_a_chapter_in_which_nothing_was_heard_is_said_to_have_no_words(args: RecapArgs) -> None:
    """Nothing of it could be read, and "it's all still ahead of you" was said of music already heard."""
    chapters = [
        ChapterInfo(n=5, title="The Wedding", start_ms=240_000, end_ms=308_000),
        ChapterInfo(n=6, title="Six", start_ms=308_000, end_ms=400_000),
    ]
    here = 390_000
    chosen = recaps.choose_span(args, here, chapters, None, silent=[6])
    said = recaps.spoken_recap(
        chosen, Recapped(from_ms=chosen.from_ms, to_ms=chosen.to_ms, places=[], sentences=[])
    )
    assert said == recaps.NO_WORDS_HEARD


def test_the_last_chapter_is_the_last_one_with_words() -> None:
    """A review: early in chapter 7, after a chapter of music, "what happened in the last chapter?"
    was told no words were heard there, where chapter 5 had been heard."""
    chapters = [
        ChapterInfo(n=5, title="The Wedding", start_ms=240_000, end_ms=308_000),
        ChapterInfo(n=6, title="Six", start_ms=308_000, end_ms=400_000),
        ChapterInfo(n=7, title="Seven", start_ms=400_000, end_ms=500_000),
    ]
    for here in (410_000, 390_000):  # early in the next chapter; well into the silent one
        chosen = recaps.choose_span(RecapArgs(span="last_chapter"), here, chapters, None, silent=[6])
        assert (chosen.chapter, chosen.from_ms, chosen.to_ms) == (5, 240_000, 308_000), here


def test_a_stretch_behind_reaching_a_chapter_without_words_and_no_words_besides_is_said_so() -> None:
    """A review: in the quiet before chapter 7's first words, after a chapter of music, "what did I
    just hear?" was told it was all still ahead."""
    chapters = [
        ChapterInfo(n=6, title="Six", start_ms=308_000, end_ms=400_000),
        ChapterInfo(n=7, title="Seven", start_ms=400_000, end_ms=500_000),
    ]
    chosen = recaps.choose_span(
        RecapArgs(span="last_minutes", minutes=1), 403_000, chapters, None, silent=[6]
    )
    assert chosen.nothing_heard == recaps.NO_WORDS_HEARD


def test_what_was_missed_gone_back_before_it_is_said_to_lie_ahead() -> None:
    """A listener session: gone back to hear again what they dozed through, "what did I miss?" was told
    "You haven't heard anything of that stretch yet", as if they had asked of a stretch never reached
    (and it says nothing of where the doze starts)."""
    for here in (ASLEEP_AT - 60_000, ASLEEP_AT):
        chosen = recaps.choose_span(RecapArgs(span="since_asleep"), here, [], NIGHT)
        said = recaps.spoken_recap(chosen, Recapped(from_ms=here, to_ms=here, places=[], sentences=[]))
        assert said == recaps.MISSED_AHEAD.format(clock(ASLEEP_AT)), here


async def test_what_was_missed_and_back_to_the_doze_moves_and_tells_it_from_where_they_asked(
    rig: Rig,
) -> None:
    """A bedtime probe: "what did I miss and take me back to where I fell asleep" only showed where they
    dozed off, and nothing was told. The move goes first (the turn rules refuse an offer after a recall),
    and the recap names its stretch from where they asked: from where the move left the book, what they
    dozed through would all be ahead."""
    paused_at, asleep_at = 5 * PASSAGE_MS, PASSAGE_MS
    said_alone = {}
    asked_together = (
        "what did I miss and take me back to where I fell asleep",
        "take me back to where I fell asleep and tell me what I missed",
    )
    for asked in ("what did I miss?", "take me back to where I fell asleep", *asked_together):
        listener = rig.listener_at(paused_at)
        rig.player.history[(listener, BOOK_ID)] = [
            HistoryEntry(
                seq=9, kind="fell_asleep", position_ms=paused_at, asleep_at_ms=asleep_at, device="phone"
            )
        ]
        rig.player.asleep[(listener, BOOK_ID)] = Asleep(
            paused_at_ms=paused_at, asleep_at_ms=asleep_at, seq=9, device="phone"
        )
        said_alone[asked] = await rig.ask(listener, asked, here_ms=paused_at)
        if asked in asked_together:
            recapped = last_recap(rig)
            assert (recapped.from_ms, recapped.to_ms, recapped.here_ms) == (asleep_at, paused_at, paused_at)
            assert rig.player.positions[(listener, BOOK_ID)] == asleep_at
    recap, moved, *both = said_alone.values()
    assert recap.speech.startswith(f"Since you dozed off at {clock(asleep_at)}: At ")
    assert moved.outcome == "moved"
    for reply in both:
        assert (reply.outcome, reply.speech) == ("moved", f"{moved.speech} {recap.speech}")


async def test_say_that_again_after_the_doze_told_and_gone_back_to_does_not_say_it_was_never_told(
    rig: Rig,
) -> None:
    """The review of 30e59a01: "say that again" just after "what did I miss and take me back to where I
    fell asleep" said "What you dozed through is ahead of you", as if it had not just been told. The turn
    is kept only as a move (ADR 75) and its recap was told from where they asked, further on than they are
    now, so it is not said again word for word (ADR 72); from here it is said to play again, nothing done."""
    paused_at, asleep_at = 5 * PASSAGE_MS, PASSAGE_MS
    listener = rig.listener_at(paused_at)
    rig.player.history[(listener, BOOK_ID)] = [
        HistoryEntry(seq=9, kind="fell_asleep", position_ms=paused_at, asleep_at_ms=asleep_at, device="phone")
    ]
    rig.player.asleep[(listener, BOOK_ID)] = Asleep(
        paused_at_ms=paused_at, asleep_at_ms=asleep_at, seq=9, device="phone"
    )
    await rig.ask(listener, "what did I miss and take me back to where I fell asleep", here_ms=paused_at)
    offers = len(rig.player.offers)
    again = await rig.ask(listener, "say that again", here_ms=asleep_at)
    assert (len(rig.player.offers), rig.player.positions[(listener, BOOK_ID)]) == (offers, asleep_at)
    assert "ahead of you" not in again.speech, again.speech
    assert f"plays again from {clock(asleep_at)}" in again.speech, again.speech


async def test_a_recap_of_a_chapter_with_a_jump_back_moves_and_tells_it(rig: Rig) -> None:
    """A bedtime probe: "go back a minute and what happens in chapter 1" moved the book and told nothing:
    a minute played again is none of chapter 1."""
    here = 2 * CHAPTER_MS + 40_000
    recap = await rig.ask(rig.listener_at(here), "what happens in chapter 1")
    moved = await rig.ask(rig.listener_at(here), "go back a minute")
    listener = rig.listener_at(here)
    reply = await rig.ask(listener, "go back a minute and what happens in chapter 1")
    assert (reply.outcome, reply.speech) == ("moved", f"{moved.speech} {recap.speech}")
    assert rig.player.positions[(listener, BOOK_ID)] == here - 60_000
    assert chapters_of_said(rig, reply.speech) == {1}
