"""The real tool loop driven by a scripted model, over a real bus with search and player doubles.

Every test also checks every request the model was sent: no word or title the listener
has not heard, and never their own position.
"""

import json
import random
from collections.abc import AsyncIterator

import pytest
from bedside_contracts import subjects
from bedside_contracts.player import HistoryEntry, Pause, SetSleepTimer
from bedside_contracts.player import SleepTimer as RunningTimer
from bedside_contracts.search import CheckAnswer, Target
from bedside_contracts.turn import TurnCompleted
from bedside_guard import STOP_THERE, clock
from bedside_turn.domain import rules, speech
from bedside_turn.domain.playback import VOICE_DEVICE
from bedside_turn.domain.tool_results import ALREADY_AT, NOTHING_IN_SPAN
from bedside_turn_testing.book import BOOK_ID, LEAD_IN_MS, PASSAGE_MS, lead_in_book
from bedside_turn_testing.doubles import DoubleBook
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.leaks import leaks
from bedside_turn_testing.scripted import Say, ScriptedModel, Use, overloaded, rate_limited

HERE = 135_000
"""Inside passage 104 (chapter 2), after its first cue: half of that passage has been heard."""
LEAD_IN = "lamplight-lead-in"


@pytest.fixture(scope="module")
async def rig(nats_url: str) -> AsyncIterator[Rig]:
    rig = await start_rig(
        nats_url, with_model=True, extra_books={LEAD_IN: DoubleBook(*lead_in_book(LEAD_IN))}
    )
    try:
        yield rig
    finally:
        await rig.broker.stop()


def script(rig: Rig, *replies: object) -> ScriptedModel:
    assert rig.slot is not None
    return rig.slot.load(list(replies))


def assert_clean(rig: Rig, model: ScriptedModel, here_ms: int, *said: str) -> None:
    assert model.requests, "the model was never asked"
    assert not rig.leaks(model, here_ms, list(said))
    sent = rig.sent_messages(model) + " ".join(str(r["system"]) for r in model.requests)
    if any(p.start_ms == here_ms for p in rig.passages):
        return  # a passage's own time is printed with it; here it happens to be the position too
    assert clock(here_ms) not in sent
    assert str(here_ms) not in sent


async def test_a_question_as_long_as_a_question_may_be_moves_the_book_and_sends_its_reading_as_a_short_key(
    rig: Rig,
) -> None:
    """Read with its words, the longest question's reading was longer than an offer may carry, and the
    whole turn failed; the player is sent a key of the reading, as short for any question (ADR 77)."""
    listener = rig.listener_at(HERE)
    question = ("back to the barley soup, " + "the part where they sat by the fire " * 30)[:995]
    script(
        rig,
        [Use("find_passage", {"query": "barley soup"})],
        [Use("offer_positions", {"ids": [102]})],
        [Say("There you are.")],
    )
    reply = await rig.ask(listener, question)
    assert reply.outcome == "moved"
    heard = rig.player.offers[-1].heard
    assert heard is not None
    key = heard.request_key
    assert len(key) == 64
    assert "barley" not in key  # the listener's words are not kept in the move's event


async def test_several_plausible_places_draw_a_list_of_at_most_four(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("find_passage", {"query": "the harbour"})],
        [Use("offer_positions", {"ids": [100, 102, 101, 109, 110]})],
        [Say("I've put four places on the screen.")],
    )
    reply = await rig.ask(listener, "take me to the harbour")
    assert reply.outcome == "listed"
    assert len(reply.rows) == 4
    assert reply.mode == "claude-haiku-4-5"
    offered = model.last_tool_results()[0]
    assert offered.startswith("Listed on the screen")
    assert "id=109: 0:04:30, further on (covered)" in offered
    assert rig.player.positions[(listener, "lamplight")] == HERE
    assert_clean(rig, model, HERE, "take me to the harbour")


async def test_one_place_behind_moves_the_book_and_names_it_by_id_and_chapter(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("find_passage", {"query": "barley soup"})],
        [Use("offer_positions", {"ids": [102]})],
        [Say("There you are.")],
    )
    reply = await rig.ask(listener, "back to the barley soup")
    assert reply.outcome == "moved"
    assert rig.player.positions[(listener, "lamplight")] == 60_000
    assert model.last_tool_results() == ["Moved: the book now plays from passage id=102 in chapter 1."]
    assert_clean(rig, model, HERE, "back to the barley soup")


async def test_one_place_ahead_is_a_covered_row_to_press(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("find_passage", {"query": "the tunnel with bottles"})],
        [Use("offer_positions", {"ids": [107]})],
        [Say("It's on the screen.")],
    )
    reply = await rig.ask(listener, "the tunnel with bottles")
    assert reply.outcome == "listed"
    found = model.requests[1]["messages"][-1]["content"][0]["content"]
    assert "[0:03:30, id=107] further on than they have got" in found
    assert "green" not in found
    assert model.last_tool_results()[0].endswith("id=107: 0:03:30, further on (covered)")
    assert rig.player.positions[(listener, "lamplight")] == HERE
    assert_clean(rig, model, HERE, "the tunnel with bottles")


async def test_go_there_after_one_covered_row_presses_it_in_plain_code(rig: Rig) -> None:
    """The row is the consent the model cannot give: "go there" to it is its press, as "the first one" is."""
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("find_passage", {"query": "the tunnel with bottles"})],
        [Use("offer_positions", {"ids": [107]})],
        [Say('It\'s on the screen: press it, or say "go there".')],
    )
    offered = await rig.ask(listener, "the tunnel with bottles")
    assert offered.outcome == "listed"
    asked = len(model.requests)
    pressed = await rig.ask(listener, "go there")
    assert (pressed.outcome, pressed.mode) == ("moved", "keyless")
    assert len(model.requests) == asked
    assert rig.player.positions[(listener, "lamplight")] == 3 * 60_000 + 30_000


async def test_two_ids_for_one_place_count_once_and_unknown_ids_are_dropped(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("offer_positions", {"ids": [101, 101, 9999]})],
        [Say("Done.")],
    )
    reply = await rig.ask(listener, "where the girl arrived")
    assert reply.outcome == "moved"
    assert rig.player.positions[(listener, "lamplight")] == 30_000
    assert_clean(rig, model, HERE, "where the girl arrived")


async def test_no_place_left_is_refused_with_a_reason_to_act_on(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, [Use("offer_positions", {"ids": [9998, 9999]})], [Say("I couldn't find it.")])
    reply = await rig.ask(listener, "the dragon")
    assert reply.outcome == "refused"
    result = model.last_tool_results()[0]
    assert result.startswith("Refused: none of the places named is a place in this book (id=9998")
    assert "say you could not find it" in result
    assert_clean(rig, model, HERE, "the dragon")


async def test_a_named_chapter_ahead_keeps_its_number_but_not_its_title(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, [Use("offer_positions", {"chapter": 4})], [Say("Press it to go.")])
    reply = await rig.ask(listener, "chapter four")
    assert reply.outcome == "listed"
    assert reply.rows == ["0:04:30, chapter 4, further on (covered)"]
    assert_clean(rig, model, HERE, "chapter four")


async def test_the_next_chapter_is_counted_by_the_tool_from_the_chapter_playing(rig: Rig) -> None:
    listener = rig.listener_at(HERE)  # chapter 2
    model = script(rig, [Use("offer_positions", {"chapter_step": 1})], [Say("Press it to go.")])
    reply = await rig.ask(listener, "the next chapter")
    assert reply.rows == ["0:03:00, chapter 3, further on (covered)"]
    assert_clean(rig, model, HERE, "the next chapter")


async def test_the_start_of_the_chapter_playing_before_any_of_it_is_heard_is_where_they_are(
    rig: Rig,
) -> None:
    """In chapter 2's lead-in of silence its start was a covered row: "further on than you've got"."""
    here = 90_000 + LEAD_IN_MS // 2
    listener = rig.listener_at(here, book=LEAD_IN)
    offers = len(rig.player.offers)
    said = "You're at the start of this chapter already."
    model = script(rig, [Use("offer_positions", {"chapter_step": 0})], [Say(said)])
    reply = await rig.ask(listener, "play this chapter from the top", book=LEAD_IN)
    assert model.last_tool_results() == [ALREADY_AT["chapter_start"]]
    assert (reply.outcome, reply.speech, reply.rows) == ("refused", said, [])
    assert (rig.player.positions[(listener, LEAD_IN)], len(rig.player.offers)) == (here, offers)
    assert_clean(rig, model, here, "play this chapter from the top")


async def test_the_end_of_the_chapter_is_found_by_the_tool_from_the_chapter_playing(rig: Rig) -> None:
    listener = rig.listener_at(HERE)  # chapter 2, which closes with the passage at 0:02:30
    model = script(rig, [Use("offer_positions", {"chapter_end": True})], [Say("Press it to go.")])
    reply = await rig.ask(listener, "take me to the end of the chapter")
    # the chapter playing is on the page: its number is no secret
    assert (reply.outcome, reply.rows) == ("listed", ["0:02:30, end of chapter 2, further on (covered)"])
    assert_clean(rig, model, HERE, "take me to the end of the chapter")


async def test_the_end_of_a_chapter_named_is_its_closing_passage_found_by_the_tool(rig: Rig) -> None:
    listener = rig.listener_at(HERE)  # chapter 2; chapter 3 closes with the passage at 0:04:00
    model = script(
        rig, [Use("offer_positions", {"chapter": 3, "chapter_end": True})], [Say("Press it to go.")]
    )
    reply = await rig.ask(listener, "take me to the end of chapter 3")
    # The row said only "0:04:00, further on": the chapter list is public and the listener named it.
    assert (reply.outcome, reply.rows) == ("listed", ["0:04:00, end of chapter 3, further on (covered)"])
    assert model.last_tool_results()[-1].endswith("0:04:00, end of chapter 3, further on (covered)")
    assert_clean(rig, model, HERE, "take me to the end of chapter 3")


async def test_the_end_of_the_previous_chapter_is_counted_by_the_tool_and_is_its_closing_passage(
    rig: Rig,
) -> None:
    listener = rig.listener_at(HERE)  # chapter 2; chapter 1 closes with the passage at 0:01:00
    model = script(rig, [Use("offer_positions", {"chapter_step": -1, "chapter_end": True})], [Say("There.")])
    reply = await rig.ask(listener, "take me to the end of the previous chapter")
    assert reply.outcome == "moved"
    assert rig.player.positions[(listener, "lamplight")] == 2 * PASSAGE_MS
    assert_clean(rig, model, HERE, "take me to the end of the previous chapter")


async def test_the_next_chapter_from_the_last_one_is_refused_saying_it_is_the_last(rig: Rig) -> None:
    here = 10 * PASSAGE_MS  # chapter 4 of 4
    listener = rig.listener_at(here)
    offers = len(rig.player.offers)
    model = script(rig, [Use("offer_positions", {"chapter_step": 1})], [Say("This is the last chapter.")])
    reply = await rig.ask(listener, "the next chapter")
    assert reply.outcome == "refused"
    assert len(rig.player.offers) == offers
    assert model.last_tool_results() == [
        "Refused: the book has no chapter that far after the one playing (its chapters run from 1 to 4). "
        "Tell them so plainly."
    ]
    assert_clean(rig, model, here, "the next chapter")


async def test_a_jump_back_is_one_place_behind_and_moves(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, [Use("offer_positions", {"offset_ms": -60_000})], [Say("Back a minute.")])
    reply = await rig.ask(listener, "back a minute")
    assert reply.outcome == "moved"
    assert rig.player.positions[(listener, "lamplight")] == HERE - 60_000
    assert_clean(rig, model, HERE, "back a minute")


async def test_a_turn_that_recalled_is_refused_any_offer(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    offers_before = len(rig.player.offers)
    model = script(
        rig,
        [Use("recall", {"question": "who is Wren"})],
        [Use("offer_positions", {"ids": [100]})],
        [Say("Wren is the ferryman.")],
    )
    reply = await rig.ask(listener, "who is Wren?")
    assert model.last_tool_results() == [rules.AFTER_RECALL]
    assert "Answer them out loud" in rules.AFTER_RECALL
    assert len(rig.player.offers) == offers_before
    assert reply.outcome == "answered"
    assert rig.player.positions[(listener, "lamplight")] == HERE
    assert_clean(rig, model, HERE, "who is Wren?")


async def test_a_turn_that_moved_is_refused_a_second_offer(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    offers_before = len(rig.player.offers)
    model = script(
        rig,
        [Use("offer_positions", {"ids": [100]})],
        [Use("offer_positions", {"ids": [101]})],
        [Say("There you are.")],
    )
    reply = await rig.ask(listener, "the start of the harbour bit")
    assert model.last_tool_results() == [rules.AFTER_MOVE]
    assert len(rig.player.offers) == offers_before + 1
    assert reply.outcome == "moved"
    assert rig.player.positions[(listener, "lamplight")] == 0
    assert_clean(rig, model, HERE, "the start of the harbour bit")


async def test_a_turn_that_drew_a_list_may_draw_another_but_not_move(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("offer_positions", {"ids": [100, 101]})],
        [Use("offer_positions", {"ids": [102]})],
        [Say("It's on the screen.")],
    )
    reply = await rig.ask(listener, "the soup, I mean")
    assert [o.may_move for o in rig.player.offers[-2:]] == [True, False]
    assert reply.outcome == "listed"
    assert len(reply.rows) == 1
    assert model.last_tool_results()[0].startswith("A list was already up in this turn")
    assert rig.player.positions[(listener, "lamplight")] == HERE
    assert_clean(rig, model, HERE, "the soup, I mean")


async def test_bad_arguments_are_tool_errors_not_crashes(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [
            Use("offer_positions", {"ids": "all of them"}),
            Use("offer_positions", {}),
            Use("find_passage", {"query": "x", "here_ms": 999_999}),
            Use("move_to", {"id": 3}),
        ],
        [Say("Sorry, I couldn't do that.")],
    )
    reply = await rig.ask(listener, "somewhere")
    results = model.last_tool_results()
    assert len(results) == 4
    assert all(r.startswith("Tool error:") for r in results)
    assert "name at least one place" in results[1]
    assert "here_ms" in results[2]
    assert "no tool called 'move_to'" in results[3]
    assert reply.speech == "Sorry, I couldn't do that."
    blocks = model.requests[-1]["messages"][-1]["content"]
    assert all(b["is_error"] for b in blocks)
    assert_clean(rig, model, HERE, "somewhere")


async def test_recall_reads_only_what_is_behind_the_listener(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("recall", {"question": "what did the last page of the ledger mention"})],
        [Say("The ledger mentioned a cormorant.")],
    )
    reply = await rig.ask(listener, "what did the ledger say?")
    recall = rig.search.requests[-1]
    assert getattr(recall, "here_ms", None) == HERE
    result = model.last_tool_results()[0]
    assert "cormorant" in result
    assert "silver" not in result
    assert reply.outcome == "answered"
    assert_clean(rig, model, HERE, "what did the ledger say?")


async def test_recall_says_when_something_has_not_come_up(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, [Use("recall", {"question": "Mortimer Sleet debt"})], [Say("Not yet.")])
    reply = await rig.ask(listener, "who is Mortimer Sleet?")
    assert model.last_tool_results()[0].startswith("Mortimer Sleet: not in anything they have heard")
    assert reply.outcome == "not_yet"
    assert_clean(rig, model, HERE, "who is Mortimer Sleet?", "Mortimer Sleet debt")


async def test_a_follow_up_sees_the_earlier_exchange_guarded_from_where_the_listener_is_now(
    rig: Rig,
) -> None:
    here = 240_000  # chapter 3, passage 108: everything before has been heard
    listener = rig.listener_at(here)
    first = script(
        rig,
        [Use("find_passage", {"query": "the tunnel lantern"})],
        [Use("offer_positions", {"ids": [107]})],
        [Say("There you are.")],
    )
    assert (await rig.ask(listener, "back to the tunnel")).outcome == "moved"
    assert "green glass bottles" in rig.sent_messages(first)
    now = rig.player.positions[(listener, "lamplight")]
    assert now == 210_000
    second = script(rig, [Use("offer_positions", {"ids": [108]})], [Say("The other one is on the screen.")])
    reply = await rig.ask(listener, "no, the other one")
    earlier = second.requests[0]["messages"]
    assert earlier[0] == {"role": "user", "content": "back to the tunnel"}
    assert "id=107" in earlier[1]["content"]
    assert "id=108] further on than they have got" in earlier[1]["content"]
    assert reply.outcome == "listed"
    assert_clean(rig, second, now, "back to the tunnel", "no, the other one", "the tunnel lantern")


async def test_an_overloaded_model_gets_a_spoken_fallback_from_the_router(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, overloaded(), overloaded(), overloaded())
    reply = await rig.ask(listener, "take me back to the barley soup")
    assert len(model.requests) == 3
    assert reply.speech.startswith("I can't reach my language model just now")
    assert reply.mode == "keyless"
    assert reply.outcome == "moved"


async def test_a_model_lost_or_silent_after_it_set_a_timer_says_the_timer_was_set(rig: Rig) -> None:
    """Both said "I couldn't find that moment in the book." with the timer set (a review)."""
    listener = rig.listener_at(HERE)
    script(
        rig,
        [Use("playback", {"action": "sleep_timer", "minutes": 2})],
        overloaded(),
        overloaded(),
        overloaded(),
    )
    reply = await rig.ask(listener, "sleep in 2 minutes please")
    assert reply.speech == speech.NO_MODEL + "I'll stop in 2 minutes."
    script(rig, [Use("playback", {"action": "sleep_timer", "minutes": 3})], [Say("")])
    reply = await rig.ask(listener, "sleep in 3 minutes please")
    assert reply.speech == "I'll stop in 3 minutes."


async def test_a_model_that_recovers_after_an_overload_answers(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, overloaded(), [Say("I can take you to a moment.")])
    reply = await rig.ask(listener, "hello")
    assert len(model.requests) == 2
    assert reply.speech == "I can take you to a moment."
    assert reply.mode == "claude-haiku-4-5"


async def test_a_rate_limited_model_is_retried_and_answers(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, rate_limited(), rate_limited(), [Say("Here I am.")])
    reply = await rig.ask(listener, "hello")
    assert len(model.requests) == 3
    assert (reply.speech, reply.mode) == ("Here I am.", "claude-haiku-4-5")


async def test_tool_rounds_are_bounded(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, *([[Use("find_passage", {"query": "bell"})]] * 10))
    reply = await rig.ask(listener, "the bell")
    assert len(model.requests) == 4
    assert model.requests[-1]["tool_choice"] == {"type": "none"}
    assert reply.outcome in {"unsure", "listed"}
    assert_clean(rig, model, HERE, "the bell")


async def test_the_model_is_sent_cached_tools_built_from_the_contracts(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, [Say("Hello.")])
    await rig.ask(listener, "hi")
    request = model.requests[0]
    names = [t["name"] for t in request["tools"]]
    assert names == ["find_passage", "recall", "offer_positions", "recap", "playback"]
    offer = request["tools"][2]["input_schema"]
    assert set(offer["properties"]) == {
        "ids",
        "chapter",
        "chapter_step",
        "chapter_end",
        "position_ms",
        "offset_ms",
        "earlier_chapter",
        "earlier_device",
        "before_skip_ahead",
        "fell_asleep",
        "timer_paused",
        "furthest",
        "left_off",
        "sitting_began",
        "times_back",
        "show_only",
    }
    assert "$defs" not in offer  # flat: every argument is a plain field the model fills in
    assert offer["additionalProperties"] is False
    assert request["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert request["system"][0]["cache_control"] == {"type": "ephemeral"}


async def test_no_request_carries_unheard_words_at_many_positions(rig: Rig) -> None:
    """From forty random positions: search, an offer (often a move back), then a follow-up that
    searches and recalls from wherever the listener is now. Each request is checked against
    the position its turn started from."""
    rng = random.Random(20261130)
    vocabulary = sorted(
        {w for p in rig.passages for w in p.text.lower().replace(".", "").split() if len(w) > 4}
    )
    end = rig.passages[-1].end_ms
    moved = 0
    for _ in range(40):
        here = rng.randrange(0, end)
        listener = rig.listener_at(here)
        query = " ".join(rng.sample(vocabulary, 4))
        ids = rng.sample([p.id for p in rig.passages], rng.choice([1, 1, 3]))
        model = script(
            rig,
            [Use("find_passage", {"query": query})],
            [Use("offer_positions", {"ids": ids})],
            [Say("Done.")],
            [Use("find_passage", {"query": query}), Use("recall", {"question": query})],
            [Say("Again.")],
        )
        await rig.ask(listener, "somewhere")
        now = rig.player.positions[(listener, "lamplight")]
        moved += now != here
        await rig.ask(listener, "and again")
        said = {"somewhere", "and again", query}
        first, second = json.dumps(model.requests[:3]), json.dumps(model.requests[3:])
        assert not leaks(first, rig.passages, here, said)
        assert not leaks(second, rig.passages, now, said)
    assert moved >= 5


async def test_a_place_from_history_is_looked_up_by_the_tool_and_shown_not_moved_to(rig: Rig) -> None:
    """Claude mode: the tool asks the player's lookup and offers the place like a named time."""
    listener = rig.listener_at(HERE)
    on_speaker = HistoryEntry(seq=9, kind="reported", position_ms=62_000, chapter=1, device="speaker")
    rig.player.history[(listener, BOOK_ID)] = [on_speaker]
    model = script(
        rig,
        [Use("offer_positions", {"earlier_device": "speaker", "show_only": True})],
        [Say("It's on the screen.")],
    )
    reply = await rig.ask(listener, "when did I last listen on the speaker?")
    assert reply.outcome == "listed"
    lookup = rig.player.lookups[-1]
    assert (lookup.listener, lookup.device, lookup.offset, lookup.limit) == (listener, "speaker", 0, 1)
    offer = rig.player.offers[-1]
    assert (offer.targets, offer.may_move) == ([Target(position_ms=62_000)], False)
    assert rig.player.positions[(listener, BOOK_ID)] == HERE
    # what any offer of one row returns (the row with its own time, as every row has)
    assert model.last_tool_results()[0].startswith("A list was already up in this turn")
    assert model.last_tool_results()[0].endswith('id=102: 0:01:02, chapter 1, "The Harbour Bell"')
    assert_clean(rig, model, HERE, "when did I last listen on the speaker?")


async def test_where_they_fell_asleep_is_the_estimate_the_sleep_timer_recorded(rig: Rig) -> None:
    """Claude mode: the lookup asks for the newest pause, and the place is its estimate, not the pause."""
    listener = rig.listener_at(HERE)
    rig.player.history[(listener, BOOK_ID)] = [
        HistoryEntry(
            seq=12, kind="fell_asleep", position_ms=HERE, chapter=1, device="phone", asleep_at_ms=62_000
        )
    ]
    model = script(
        rig,
        [Use("offer_positions", {"fell_asleep": True, "show_only": True})],
        [Say("It's on the screen.")],
    )
    reply = await rig.ask(listener, "where did I fall asleep?")
    assert reply.outcome == "listed"
    assert rig.player.lookups[-1].kind == "fell_asleep"
    offer = rig.player.offers[-1]
    assert (offer.targets, offer.may_move) == ([Target(position_ms=62_000)], False)
    assert rig.player.positions[(listener, BOOK_ID)] == HERE
    assert_clean(rig, model, HERE, "where did I fall asleep?")


async def test_no_sleep_timer_pause_tells_the_model_that_where_this_sitting_began_is_known(rig: Rig) -> None:
    """Claude mode: without a pause the model is told of the place the keyless reader shows instead."""
    listener = rig.listener_at(HERE)
    rig.player.began[(listener, BOOK_ID)] = [
        HistoryEntry(seq=6, kind="reported", position_ms=30_000, chapter=1, placed=True)
    ]
    model = script(
        rig,
        [Use("offer_positions", {"fell_asleep": True, "show_only": True})],
        [Use("offer_positions", {"sitting_began": True, "show_only": True})],
        [Say("I can't tell, but tonight began there: it's on the screen.")],
    )
    reply = await rig.ask(listener, "where did I fall asleep?")
    refusal = model.tool_results(1)[0]
    assert refusal.startswith("Refused: no sleep timer has paused the book lately")
    assert "sitting_began" in refusal
    assert (reply.outcome, rig.player.lookups[-1].began) == ("listed", True)
    assert [target.position_ms for target in rig.player.offers[-1].targets] == [30_000]
    assert_clean(rig, model, HERE, "where did I fall asleep?")


async def test_no_earlier_time_is_a_refusal_the_model_reads_and_nothing_is_offered(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    rig.player.history[(listener, BOOK_ID)] = [
        HistoryEntry(seq=7, kind="seeked", position_ms=300_000, from_ms=40_000, chapter=3, device="phone")
    ]
    offers = len(rig.player.offers)
    model = script(
        rig,
        [Use("offer_positions", {"before_skip_ahead": True, "times_back": 1})],
        [Say("I can't find an earlier time than that.")],
    )
    reply = await rig.ask(listener, "and the time before that?")
    assert reply.outcome == "refused"
    assert rig.player.lookups[-1].direction == "forward"
    assert model.last_tool_results() == [
        "Refused: their listening history holds no earlier time before that. Tell them so; nothing was moved."
    ]
    assert len(rig.player.offers) == offers
    assert_clean(rig, model, HERE, "and the time before that?")


async def test_a_place_from_history_moved_to_is_named_by_id_and_chapter_only(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    rig.player.history[(listener, BOOK_ID)] = [
        HistoryEntry(seq=7, kind="reported", position_ms=62_000, chapter=1, device="phone")
    ]
    model = script(rig, [Use("offer_positions", {"earlier_chapter": 1})], [Say("There you are.")])
    reply = await rig.ask(listener, "take me back to the last time I was in chapter 1")
    assert reply.outcome == "moved"
    assert rig.player.lookups[-1].visit_ends
    assert rig.player.positions[(listener, BOOK_ID)] == 62_000
    assert model.last_tool_results() == ["Moved: the book now plays from passage id=102 in chapter 1."]
    assert_clean(rig, model, HERE, "take me back to the last time I was in chapter 1")
    assert "0:01:02" not in rig.sent_messages(model)  # where the book now is, printed nowhere


async def test_a_model_answer_naming_someone_ahead_is_cut_before_it_is_spoken(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    spoiler = (
        "Tamsin is the girl with the telescope. In time she finds the keeper, Ambrose Pell, in a tunnel."
    )
    script(rig, [Say(spoiler)])
    reply = await rig.ask(listener, "who is Tamsin?")
    assert reply.speech == f"Tamsin is the girl with the telescope. {STOP_THERE}"
    js = rig.broker.connection.jetstream()
    message = await js.get_last_msg(
        subjects.TURNS_STREAM, subjects.TURN_COMPLETED.format(listener=listener, book=BOOK_ID)
    )
    assert message.data is not None
    event = TurnCompleted.model_validate_json(message.data)
    assert (event.turn_id, event.cut_sentences, event.speech) == (reply.turn_id, 1, reply.speech)
    checked = [r for r in rig.search.requests if isinstance(r, CheckAnswer)][-1]
    assert checked.from_model  # a model's answer gets the whole check, meaning as well as names


async def test_a_model_answer_restating_what_was_heard_is_spoken_whole(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    faithful = "Tamsin came with a carpetbag and a telescope. Wren gave her barley soup."
    script(rig, [Say(faithful)])
    reply = await rig.ask(listener, "who is Tamsin?")
    assert reply.speech == faithful


async def test_a_recap_shows_the_model_only_the_spans_passages_and_it_may_not_move_after(rig: Rig) -> None:
    here = 6 * PASSAGE_MS + 10_000  # early in chapter 3
    listener = rig.listener_at(here)
    model = script(
        rig,
        [Use("recap", {"span": "last_chapter"})],
        [Use("offer_positions", {"ids": [103]})],
        [Say("In the last chapter Tamsin explored the empty lighthouse and read the keeper's ledger.")],
    )
    reply = await rig.ask(listener, "what happened in the last chapter?")
    assert reply.outcome == "answered"
    recap_result, offer_result = tool_results(model)
    heading, *lines = recap_result.splitlines()
    assert heading == "Chapter 2, in story order:"
    assert len(lines) == 3
    assert all('chapter 2, "The Keeper\'s Ledger"' in line for line in lines)
    assert all(f"id={p.id}]" in line for p, line in zip(rig.passages[3:6], lines, strict=True))
    assert offer_result.startswith("Refused: this turn already answered")
    assert rig.player.positions[(listener, BOOK_ID)] == here
    assert not rig.leaks(model, here, ["what happened in the last chapter?"])
    assert clock(here) not in rig.sent_messages(model)


async def test_the_model_recaps_a_chapter_by_number_only_as_far_as_heard_and_is_told_of_one_not_there(
    rig: Rig,
) -> None:
    here = 6 * PASSAGE_MS + 10_000  # early in chapter 3
    listener = rig.listener_at(here)
    model = script(
        rig,
        [Use("recap", {"span": "chapter", "chapter": 2})],
        [Use("recap", {"span": "chapter", "chapter": 4})],
        [Use("recap", {"span": "chapter", "chapter": 9})],
        [Say("Chapter 2 was the keeper's ledger.")],
    )
    await rig.ask(listener, "what happened in chapter 2?")
    heard, ahead, missing = tool_results(model)
    assert heard.splitlines()[0] == "Chapter 2, in story order:"
    assert ahead == NOTHING_IN_SPAN
    assert missing == "The book has no chapter 9; its chapters are numbered 1 to 4. Tell them so."
    assert not rig.leaks(model, here, ["what happened in chapter 2?"])


def tool_results(model: ScriptedModel) -> list[str]:
    """Every tool result the model was sent, in order."""
    return [
        block["content"]
        for message in model.requests[-1]["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]


async def test_the_model_sets_the_sleep_timer_after_a_move_and_reads_no_time_ahead(rig: Rig) -> None:
    """Claude mode: playback is neither a move nor an offer, so it follows a move; a bad call is a tool
    error the model reads; what it reads of the timer names no time and no chapter."""
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("offer_positions", {"offset_ms": -60_000})],
        [Use("playback", {"action": "sleep_timer", "minutes": 20, "chapter_end": True})],
        [Use("playback", {"action": "sleep_timer", "chapter_end": True})],
        [Say("Back a minute, and I'll stop at the end of this chapter.")],
    )
    reply = await rig.ask(listener, "go back a minute and stop at the end of the chapter")
    assert reply.outcome == "moved"
    assert rig.player.commands[-1] == SetSleepTimer(device=VOICE_DEVICE, after="chapter_end")
    sent = rig.sent_messages(model)
    assert "either minutes or chapter_end" in sent
    assert "the sleep timer will pause the book at the end of the chapter playing" in sent
    assert_clean(rig, model, HERE, "go back a minute and stop at the end of the chapter")


async def test_the_model_pauses_the_book(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(rig, [Use("playback", {"action": "pause"})], [Say("Paused.")])
    reply = await rig.ask(listener, "hold everything a sec", device="speaker")
    assert (reply.outcome, reply.speech) == ("answered", "Paused.")
    assert rig.player.commands[-1] == Pause(device="speaker")
    assert_clean(rig, model, HERE, "hold everything a sec")


async def test_with_a_model_play_and_louder_are_answered_by_plain_code_not_claimed_done(rig: Rig) -> None:
    """No tool starts the sound or changes the volume: before, the model was asked and could only
    claim it had ("Playing now."); plain code's honest answer is given, and the model is not asked."""
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Say("Playing now.")],
        [Say("Turned it up.")],
        [Say("I'll stop at midnight.")],
        [Say("On the speaker.")],
    )
    sent = len(rig.player.commands)
    for utterance, said in {
        "resume": speech.PRESS_PLAY,
        "turn it up": speech.VOLUME_IS_THE_DEVICES,
        "stop at midnight": speech.TIMER_NOT_BY_THE_CLOCK,  # no tool, and no clock of theirs, sets it
        "play it on the speaker": speech.on_another_device("speaker"),
    }.items():
        reply = await rig.ask(listener, utterance)
        assert (reply.speech, reply.mode, reply.outcome) == (said, "keyless", "refused")
    assert model.requests == []
    assert len(rig.player.commands) == sent


async def test_with_a_model_bookmarks_are_made_gone_to_and_listed_by_plain_code(rig: Rig) -> None:
    """ADR 83: their places are where the listener is and was, which the model never reads (ADR 75)."""
    listener = rig.listener_at(HERE)
    model = script(rig, [Say("Bookmarked.")], [Say("There you go.")], [Say("You have some.")])
    made = await rig.ask(listener, "bookmark this as the bell")
    assert (made.speech, made.mode) == ('Bookmarked "the bell" at 0:02:15, in chapter 2.', "keyless")
    rig.player.place(listener, BOOK_ID, 250_000)
    gone = await rig.ask(listener, "go to my bookmark")
    assert (gone.mode, gone.outcome) == ("keyless", "moved")
    assert rig.player.positions[(listener, BOOK_ID)] == HERE
    listed = await rig.ask(listener, "list my bookmarks")
    assert listed.speech.startswith("You have 1 bookmark in this book.")
    assert model.requests == []


async def test_with_a_model_a_number_without_a_unit_an_amount_not_counted_and_starting_again_are_plain_codes(
    rig: Rig,
) -> None:
    """Which unit, which amount and which start are plain code's rules (the turn README), said in the
    reply: before, the model was asked and guessed, and did not say what it had taken."""
    model = script(rig, [Use("offer_positions", {"offset_ms": -5_000})], [Say("Done.")])
    for utterance, said in {
        "back 1": 'Back 1 minute. If you meant seconds, say "undo", then "back 1 second".',
        "start over": 'Back to the start of chapter 2, "The Keeper\'s Ledger". '
        'If you meant the whole book, say "start the book again".',
    }.items():
        reply = await rig.ask(rig.listener_at(HERE), utterance)
        assert (reply.speech, reply.mode, reply.outcome) == (said, "keyless", "moved")
    reply = await rig.ask(rig.listener_at(340_000), "go back a while")
    said = 'Back 5 minutes. There you are: chapter 1, "The Harbour Bell", at 0:00:40.'
    assert (reply.speech, reply.mode, reply.outcome) == (said, "keyless", "moved")
    assert model.requests == []


async def test_with_a_model_a_move_said_with_what_only_plain_code_does_is_all_plain_codes(rig: Rig) -> None:
    """A move and "add five minutes to the timer" went to the model, which has no tool to add minutes and is
    never told the running timer: it could only set a new one of five (scripted here as it would), the
    minutes the listener had cut short. A number without a unit beside a timer is plain code's as well,
    which says the unit it took. The whole breath is plain code's, the model not asked."""
    model = script(
        rig,
        [Use("offer_positions", {"offset_ms": -120_000})],
        [Use("playback", {"action": "sleep_timer", "minutes": 5})],
        [Say("Back two minutes, and I'll stop in 5 minutes.")],
    )
    listener = rig.listener_at(HERE)
    rig.player.sleep_timers[(listener, BOOK_ID)] = RunningTimer(
        after=10, stop_at_ms=HERE + 600_000, set_seq=1, device="phone"
    )
    reply = await rig.ask(listener, "go back 2 minutes and add 5 minutes to the timer")
    assert (reply.outcome, reply.mode) == ("moved", "keyless")
    assert rig.player.positions[(listener, BOOK_ID)] == HERE - 120_000
    added = rig.player.commands[-1]
    assert isinstance(added, SetSleepTimer)
    assert isinstance(added.after, int)
    assert added.after > 10  # added to what ran, not five minutes from here
    reply = await rig.ask(rig.listener_at(HERE), "back 1 and sleep in 3 minutes")
    assert (reply.outcome, reply.mode) == ("moved", "keyless")
    assert reply.speech.startswith('Back 1 minute. If you meant seconds, say "undo"'), reply.speech
    assert rig.player.commands[-1] == SetSleepTimer(device="voice", after=3)
    assert model.requests == []


async def test_the_model_sets_the_sleep_timer_for_the_end_of_a_chapter_named(rig: Rig) -> None:
    listener = rig.listener_at(HERE)
    model = script(
        rig,
        [Use("playback", {"action": "sleep_timer", "chapter_end": True, "chapter": 3})],
        [Say("I'll stop at the end of chapter 3.")],
    )
    reply = await rig.ask(listener, "can you stop it when chapter three is over")
    assert reply.outcome == "answered"
    assert rig.player.commands[-1] == SetSleepTimer(device=VOICE_DEVICE, after="chapter_end", chapter=3)
    assert model.last_tool_results() == ["Done: the sleep timer will pause the book at the end of chapter 3."]
    assert_clean(rig, model, HERE, "can you stop it when chapter three is over")
