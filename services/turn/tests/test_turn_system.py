"""End to end: the real search, ingest, player and turn processes on a real bus, keyless.

The sample book ships with ingest; Black Beauty comes from ../shared/corpus (skipped where
absent). Positions are set with the player's own seek command, as a device would.
"""

import asyncio
import contextlib
import json
import re
import subprocess
from collections.abc import AsyncIterator, Iterator
from typing import Any

import nats
import pytest
from bedside_audiobooks import need_espeak, spoken_wav
from bedside_contracts import subjects
from bedside_contracts.ingest import IngestBook
from bedside_contracts.player import (
    CommandRequest,
    ListenerState,
    PlayerCommand,
    Report,
    Seek,
    SetSleepTimer,
    StateRequest,
    TimerRanOut,
)
from bedside_contracts.search import BookInfo, Catalog, CatalogRequest
from bedside_contracts.turn import Ask, SpokenAsk, SpokenTurnReply, TurnReply
from bedside_guard import STOP_THERE, clock
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_ingest.sample import SAMPLE_BOOK_ID, SAMPLE_TRANSCRIPT
from bedside_player.listeners import ListenerExists, Listeners
from bedside_testing import RunningSystem, corpus_file, run_bedside, system_running
from bedside_turn.domain import playback, speech
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.lengths import said_length
from nats.aio.client import Client
from nats.aio.msg import Msg

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
STAMP = re.compile(r"\bAt (\d+):(\d\d):(\d\d): ")


@pytest.fixture(scope="module")
def system(nats_url: str) -> Iterator[RunningSystem]:
    # Black Beauty's vectors as the run embedded them once (for the search tests or the guard's)
    with system_running(nats_url, ("search", "ingest", "player", "turn"), kept_vectors=True) as running:
        yield running


@pytest.fixture(scope="module")
async def bus(system: RunningSystem) -> AsyncIterator[Client]:
    client = await nats.connect(system.nats_url)
    try:
        yield client
    finally:
        await client.close()


async def request(bus: Client, subject: str, body: Any, timeout_s: float = 30.0) -> Any:
    reply = await bus.request(subject, body.model_dump_json().encode(), timeout=timeout_s)
    return json.loads(reply.data)


async def ingested(bus: Client, book: str, path: str) -> BookInfo:
    everything = Catalog.model_validate(await request(bus, subjects.SEARCH_CATALOG, CatalogRequest()))
    known = [b for b in everything.books if b.id == book]
    if known:
        return known[0]
    report = await request_ingest(bus, IngestBook(path=path, book=book))
    assert await wait_until_ready(bus, report.book, report.version, 600)
    catalog = Catalog.model_validate(await request(bus, subjects.SEARCH_CATALOG, CatalogRequest(book=book)))
    return catalog.books[0]


async def state(bus: Client, listener: str, book: str) -> ListenerState:
    return ListenerState.model_validate(
        await request(bus, subjects.PLAYER_STATE, StateRequest(listener=listener, book=book))
    )


async def seek(bus: Client, listener: str, book: str, position_ms: int) -> None:
    now = await state(bus, listener, book)
    command = Seek(device="test", position_ms=position_ms, basis_seq=now.seq)
    result = await request(
        bus, subjects.PLAYER_COMMAND, CommandRequest(listener=listener, book=book, command=command)
    )
    assert result.get("accepted") is True, result


async def made(bus: Client, listener: str) -> str:
    """``listener`` made as ``bedside listener add`` makes one: an ask from the terminal (no position
    sent) is refused for a listener nobody made."""
    with contextlib.suppress(ListenerExists):
        await (await Listeners.open(bus.jetstream())).create(listener)
    return listener


async def ask(bus: Client, listener: str, book: str, utterance: str) -> TurnReply:
    await made(bus, listener)
    body = await request(bus, subjects.TURN_ASK, Ask(listener=listener, book=book, utterance=utterance))
    return TurnReply.model_validate(body)


def titles_ahead(info: BookInfo, here_ms: int) -> list[str]:
    return [c.title for c in info.chapters if c.start_ms >= here_ms]


async def test_the_sample_book_keyless_from_end_to_end(bus: Client) -> None:
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-sample"
    third = info.chapters[3]
    here = third.start_ms + 30_000
    await seek(bus, listener, book, here)
    hidden = titles_ahead(info, here)
    assert hidden

    chapter = await ask(bus, listener, book, "chapter 2")
    assert (chapter.outcome, chapter.mode) == ("moved", "keyless")
    assert (await state(bus, listener, book)).position_ms == info.chapters[1].start_ms

    undone = await ask(bus, listener, book, "undo that")
    assert undone.outcome == "moved"
    assert (await state(bus, listener, book)).position_ms == here
    # in the dark the listener hears where the book is now, as the page shows it
    assert undone.speech == f"Done: you're back where you were, at {clock(here)}, in chapter {third.n}."

    question = await ask(bus, listener, book, "who is Pudding?")
    assert question.outcome == "answered"
    assert question.speech.startswith("In chapter ")
    assert "Pudding" in question.speech

    missed = await ask(bus, listener, book, "what did I miss?")  # no sleep timer ran: the last minutes
    assert missed.outcome == "answered"
    assert missed.speech.startswith("I don't know when you dozed off. In the last 5 minutes: At ")

    last = await ask(bus, listener, book, "what happened in the last chapter?")
    assert last.outcome == "answered"
    before = info.chapters[2]
    assert last.speech.startswith(f'In chapter {before.n}, "{before.title}": At ')
    assert not any(title in last.speech for title in hidden)

    end = await ask(bus, listener, book, "take me to the end")
    assert end.outcome == "listed"
    assert end.rows
    assert end.rows[0].endswith("further on (covered)")

    goto = await ask(
        bus, listener, book, "take me back to where she arrives at the cottage with her green suitcase"
    )
    assert goto.outcome in {"moved", "listed"}
    assert any("chapter 1," in row for row in goto.rows)

    for reply in (chapter, undone, question, missed, end, goto):
        assert not [t for t in hidden if t in reply.speech or any(t in row for row in reply.rows)]


async def test_black_beauty_keyless_navigation_and_named_places(bus: Client) -> None:
    path = corpus_file("black_beauty.json")
    info = await ingested(bus, "black_beauty", str(path))
    listener = "e2e-bb"
    here = info.chapters[19].start_ms + 60_000  # a minute into chapter 20
    await seek(bus, listener, info.id, here)
    hidden = titles_ahead(info, here)

    storm = await ask(
        bus, listener, info.id, "take me back to the night of the gale when a huge tree crashes down"
    )
    assert storm.outcome in {"moved", "listed"}
    assert any("chapter 12," in row for row in storm.rows)
    await seek(bus, listener, info.id, here)

    named = await ask(bus, listener, info.id, "go to chapter 30")
    assert named.outcome == "listed"
    assert named.rows[0].endswith("chapter 30, further on (covered)")

    back = await ask(bus, listener, info.id, "back 30 seconds")
    assert back.outcome == "moved"
    assert (await state(bus, listener, info.id)).position_ms == here - 30_000

    for reply in (storm, named, back):
        assert not [t for t in hidden if t in reply.speech or any(t in row for row in reply.rows)]


async def test_going_back_to_a_moment_keeps_to_what_was_heard_on_black_beauty(bus: Client) -> None:
    """Two hours in, just after the fire at the inn (chapter 16): "go back to the fire" listed it beside
    two covered rows ahead, which only said there is more fire to come. Back, it is the one heard."""
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener, here = "e2e-bb-back", 2 * 3_600_000
    await seek(bus, listener, info.id, here)
    back = await ask(bus, listener, info.id, "go back to the fire")
    assert (back.outcome, back.rows) == ("moved", [row for row in back.rows if "chapter 16," in row])
    assert (await state(bus, listener, info.id)).position_ms < here
    await seek(bus, listener, info.id, here)
    anywhere = await ask(bus, listener, info.id, "take me to the fire at the inn")
    assert anywhere.outcome == "listed"
    assert any(row.endswith("further on (covered)") for row in anywhere.rows)


async def test_going_back_to_where_the_horse_dies_finds_the_hunt_heard_hours_before(bus: Client) -> None:
    """Three hours into Black Beauty, the horse shot after the hunt (chapter 2) is the one heard.
    Over the whole book it ranked second, below the threshold, and the list offered only a covered
    row ahead: among the heard passages alone it is the first by both rankings."""
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener, here = "e2e-bb-horse", 3 * 3_600_000
    await seek(bus, listener, info.id, here)
    back = await ask(bus, listener, info.id, "take me back to where the horse dies")
    assert back.outcome in {"moved", "listed"}, back
    assert any("chapter 2," in row for row in back.rows), back.rows
    assert not [row for row in back.rows if row.endswith("further on (covered)")], back.rows


async def test_a_keyless_answer_quotes_the_heard_sentence_that_bears_on_it_past_the_first_lines(
    bus: Client,
) -> None:
    """Recall sent a passage's first sixty heard words, and the quote was the best of those: "why is
    Ginger so bad tempered?" was answered "'Well,' she said, 'we shall see.'" from chapter 4."""
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener, here = "e2e-bb-temper", 2 * 3_600_000 + 30 * 60_000
    await seek(bus, listener, info.id, here)
    answer = await ask(bus, listener, info.id, "why is Ginger so bad tempered?")
    assert answer.outcome == "answered", answer
    assert "bad habit of biting" in answer.speech, answer.speech


CLOCKMAKER_CHAPTERS = (
    (
        "The Broken Bell",
        "Odile Marsh kept a clock shop at the bottom of Fennick Lane.",
        "Every morning she wound forty clocks before the baker opened his shutters.",
        "One winter night the great bell in the harbour tower cracked with a sound like thunder.",
        "Nobody in the town could tell the hour any more, and the fishing boats stayed home.",
    ),
    (
        "The Apprentice",
        "A thin boy named Tobin Creel knocked on her door and asked for work.",
        "He had walked from the salt marshes with nothing but a brass compass.",
        "Odile gave him a stool by the stove and a box of tangled springs to sort.",
        "By spring he could take a pocket watch apart and put it together blindfold.",
    ),
    (
        "The Tower",
        "Together they climbed the harbour tower with a lantern and a bag of tools.",
        "Inside the bell they found a swallow's nest wedged against the clapper.",
        "Tobin lifted the nest down gently and Odile mended the crack with silver solder.",
        "At dawn the bell rang true again, and the boats went out on the grey water.",
    ),
)
CLOCKMAKER = {
    "title": "The Clockmaker of Fennick Lane",
    "author": "Mara Quell",
    "chapters": [
        {"n": n, "title": title, "text": " ".join(sentences)}
        for n, (title, *sentences) in enumerate(CLOCKMAKER_CHAPTERS, start=1)
    ],
}
"""A tester's own book: the apprentice is called so only by the title of the chapter that names him."""


async def test_what_a_heard_chapter_title_asks_the_name_of_is_answered_from_the_sentence_naming_him(
    bus: Client, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """After chapter 2, "The Apprentice", "what is the apprentice's name" was said not to have come up:
    "apprentice" is only in the title, and the question is too far in meaning from the passage for
    recall's threshold. The title is heard just before "A thin boy named Tobin Creel ..."."""
    path = tmp_path_factory.mktemp("clockmaker") / "clockmaker.json"
    path.write_text(json.dumps(CLOCKMAKER))
    info = await ingested(bus, "clockmaker", str(path))
    listener, here = "e2e-clockmaker", info.chapters[2].start_ms
    await seek(bus, listener, info.id, here)
    for question in (
        "what is the apprentice's name",
        "what's the apprentice called?",
        "who is the apprentice?",
    ):
        answer = await ask(bus, listener, info.id, question)
        assert answer.outcome == "answered", answer
        assert answer.speech.startswith('In chapter 2, "The Apprentice", you heard: "'), answer.speech
        assert "Tobin Creel" in answer.speech, answer.speech
        assert "The Tower" not in answer.speech, answer.speech


async def test_a_row_of_the_list_said_aloud_is_pressed_on_the_real_player(bus: Client) -> None:
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener, here = "e2e-bb-press", 2 * 3_600_000
    await seek(bus, listener, info.id, here)
    listed = await ask(bus, listener, info.id, "take me to the fire at the inn")
    rows = (await state(bus, listener, info.id)).rows
    assert (listed.outcome, len(rows)) == ("listed", len(listed.rows))
    assert len(rows) >= 2
    pressed = await ask(bus, listener, info.id, "the second one")
    assert pressed.outcome == "moved"
    after = await state(bus, listener, info.id)
    assert (after.position_ms, after.rows, after.last_move_cause) == (rows[1].start_ms, [], "pressed")
    # "no, the other one" straight after is the rest of that list (it offered places never shown)
    other = await ask(bus, listener, info.id, "no, the other one")
    now = await state(bus, listener, info.id)
    rest = {row.start_ms for i, row in enumerate(rows) if i != 1}
    if other.outcome == "listed":
        assert {row.start_ms for row in now.rows} == rest
    else:
        assert (other.outcome, now.position_ms in rest) == ("moved", True)
        assert (await ask(bus, listener, info.id, "the first one")).speech == speech.not_on_the_list(0)


async def test_a_list_let_go_of_aloud_leaves_the_real_player_and_the_book_where_it_was(bus: Client) -> None:
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener, here = "e2e-bb-none", 2 * 3_600_000
    await seek(bus, listener, info.id, here)
    listed = await ask(bus, listener, info.id, "take me to the fire at the inn")
    assert (listed.outcome, bool((await state(bus, listener, info.id)).rows)) == ("listed", True)
    let_go = await ask(bus, listener, info.id, "none of those")
    after = await state(bus, listener, info.id)
    assert (let_go.speech, after.rows, after.position_ms) == (playback.LIST_CLEARED, [], here)


async def test_where_am_i_is_answered_in_every_chapter_of_black_beauty(bus: Client) -> None:
    """Before, the answer check cut it to "I'll stop there" in ten places: where a title's name
    ("Birtwick Park") was first written a minute into its chapter, and anywhere before 3:40, where
    the book first writes its single-quoted "You're"."""
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener = "e2e-bb-where"
    for chapter in info.chapters:
        for into_ms in (1_000, 60_000):
            await seek(bus, listener, info.id, chapter.start_ms + into_ms)
            reply = await ask(bus, listener, info.id, "where am I?")
            assert reply.speech.startswith(f"You're in chapter {chapter.n}"), (
                chapter.n,
                into_ms,
                reply.speech,
            )


async def requests_during(bus: Client, ask: Ask) -> tuple[TurnReply, list[str]]:
    """The turn's reply and every service request made on the bus for it while it ran, in order. The
    player's own refresh of the catalog, once its copy is a few seconds old, is none of the turn's: it
    is told by the player's inbox, the one its request to resolve the offer came from."""
    seen: list[tuple[str, str]] = []

    async def note(msg: Msg) -> None:
        if msg.reply and not msg.subject.startswith("bedside.health."):
            seen.append((msg.subject, msg.reply.rsplit(".", 1)[0]))

    watching = await bus.subscribe("bedside.>", cb=note)
    await bus.flush()
    reply = TurnReply.model_validate(await request(bus, subjects.TURN_ASK, ask))
    await bus.flush()
    await watching.unsubscribe()
    players = {inbox for subject, inbox in seen if subject == subjects.SEARCH_RESOLVE}
    return reply, [
        subject for subject, inbox in seen if not (subject == subjects.SEARCH_CATALOG and inbox in players)
    ]


def without_the_note_of_the_question(seen: list[str]) -> list[str]:
    """The requests a turn made for its answer: it tells the player of the question once, beside them."""
    assert seen.count(subjects.PLAYER_COMMAND) == 1, seen
    return [subject for subject in seen if subject != subjects.PLAYER_COMMAND]


async def test_a_keyless_turn_asks_each_service_only_what_it_must(bus: Client) -> None:
    """A described moment from a device: find, the offer (which resolves), the answer check when
    the answer holds the book's words."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-hops"
    here = info.chapters[3].start_ms + 30_000
    await seek(bus, listener, book, here)
    utterance = "take me back to where she arrives at the cottage with her green suitcase"
    from_device = Ask(listener=listener, book=book, utterance=utterance, here_ms=here)
    reply, seen = await requests_during(bus, from_device)
    seen = without_the_note_of_the_question(seen)
    assert reply.outcome in {"moved", "listed"}
    # the chapters first: a moment may be a chapter's title alone
    tools = [subjects.SEARCH_CATALOG, subjects.SEARCH_FIND, subjects.PLAYER_OFFER, subjects.SEARCH_RESOLVE]
    # a move names its chapter's title, the book's words, and is checked; "I've put 3 places on the
    # screen…" is the turn's own and is not
    checked = [subjects.SEARCH_CHECK] if reply.outcome == "moved" else []
    assert seen == [subjects.TURN_ASK, *tools, *checked]
    await seek(bus, listener, book, here)
    await made(bus, listener)
    from_terminal = Ask(listener=listener, book=book, utterance=utterance)  # no position: asks the player
    again, seen = await requests_during(bus, from_terminal)
    seen = without_the_note_of_the_question(seen)
    assert again.speech == reply.speech
    assert seen == [subjects.TURN_ASK, subjects.PLAYER_STATE, *tools, *checked]


async def test_bedside_ask_at_keeps_the_line_in_what_it_says(system: RunningSystem, bus: Client) -> None:
    """The terminal's ``bedside ask --at``, keyless, through the real turn and search processes."""
    info = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    at = clock(info.chapters[9].start_ms)  # chapter 10 begins: Ginger and Merrylegs heard, Jerry not
    await made(bus, "e2e-cli")

    async def ask_at(utterance: str) -> list[str]:
        args = ("ask", "--book", info.id, "--listener", "e2e-cli", "--at", at, utterance)
        done = await asyncio.to_thread(run_bedside, *args, env=system.env, timeout_s=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    unheard = await ask_at("who is Jerry Barker?")
    assert unheard[0] == "Jerry Barker hasn't come up yet at this point in the book."
    assert "mode: keyless" in unheard[1]
    assert (await ask_at("what happens to Ginger in the end?"))[0] == speech.FURTHER_ON
    heard = await ask_at("who is Merrylegs?")
    assert heard[0].startswith("In chapter ")
    assert int(heard[0].removeprefix("In chapter ").split(",")[0]) < 10
    assert STOP_THERE not in heard[0]  # a heard quote passes the answer check whole
    args = ("ask", "--book", info.id, "--listener", "e2e-cli", "--at", "99:00:00", "where am I?")
    past = await asyncio.to_thread(run_bedside, *args, env=system.env, timeout_s=120)
    assert past.returncode != 0  # it answered as if at the end, without a word
    assert f"99:00:00 is past the end of the book, which is {clock(info.duration_ms)} long" in past.stderr
    unknown = ("ask", "--book", "no-such-book", "--listener", "e2e-cli", "--at", "0:01:00", "where am I?")
    elsewhere = await asyncio.to_thread(run_bedside, *unknown, env=system.env, timeout_s=120)
    assert elsewhere.returncode != 0
    assert "no-such-book" in elsewhere.stderr
    assert "no listener" not in elsewhere.stderr


async def test_bedside_ask_for_a_listener_nobody_made_is_refused_from_the_players_answer(
    system: RunningSystem, bus: Client
) -> None:
    """Before, the player answered any name with the state every listener starts from, and the turn
    answered "ghost" as if they were at the book's start, exiting 0."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    await ingested(bus, "sample-twice", str(SAMPLE_TRANSCRIPT))  # two books: no book to take alone
    for book in (("--book", info.id), ()):  # without a book, not "ghost has not listened to any yet"
        args = ("ask", *book, "--listener", "ghost", "who is Wren?")
        done = await asyncio.to_thread(run_bedside, *args, env=system.env, timeout_s=120)
        assert done.returncode == 1
        assert done.stdout == ""
        assert "there is no listener called ghost; `bedside listener add ghost` makes one" in done.stderr


async def bedside_ask(system: RunningSystem, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**system.env, "COLUMNS": "300", "NO_COLOR": "1"}
    return await asyncio.to_thread(run_bedside, "ask", *args, env=env, timeout_s=120)


async def test_bedside_ask_without_a_book_asks_about_the_book_the_listener_is_in(
    system: RunningSystem, bus: Client
) -> None:
    """Before, `bedside ask "where am I?"` stopped at "Missing option '--book'"; the page never
    needed the book named. Placed in the sample, then in Black Beauty: the newest is the one."""
    sample = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    beauty = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener = await made(bus, "e2e-no-book")
    await seek(bus, listener, sample.id, sample.chapters[2].start_ms + 20_000)
    await seek(bus, listener, beauty.id, beauty.chapters[4].start_ms + 60_000)
    unnamed = await bedside_ask(system, "--listener", listener, "where am I?")
    assert unnamed.returncode == 0, unnamed.stderr
    named = await bedside_ask(system, "--book", beauty.id, "--listener", listener, "where am I?")
    assert named.returncode == 0, named.stderr
    assert unnamed.stdout.splitlines()[0] == named.stdout.splitlines()[0]
    assert unnamed.stdout.splitlines()[0] != speech.AT_BOOK_START


async def test_bedside_ask_without_a_book_before_any_listening_among_several_books_names_them(
    system: RunningSystem, bus: Client
) -> None:
    """Several books and no position: nothing to go by, so the terminal is told which ids it may pass."""
    sample = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    beauty = await ingested(bus, "black_beauty", str(corpus_file("black_beauty.json")))
    listener = await made(bus, "e2e-not-yet-placed")
    done = await bedside_ask(system, "--listener", listener, "where am I?")
    said = " ".join(done.stderr.split())
    assert done.returncode == 1, said
    assert done.stdout == ""
    assert "--book" in said, said
    assert sample.id in said, said
    assert beauty.id in said, said
    assert "Traceback" not in said, said


async def command(bus: Client, listener: str, book: str, made: PlayerCommand) -> None:
    result = await request(
        bus, subjects.PLAYER_COMMAND, CommandRequest(listener=listener, book=book, command=made)
    )
    assert result.get("accepted") is True, result


async def test_places_from_the_listeners_history_meet_the_offer_arithmetic(bus: Client) -> None:
    """Three kinds of question about where the listener was, keyless, on the real player's history."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-earlier"
    first, third, fourth = info.chapters[0], info.chapters[2], info.chapters[3]
    in_first, on_speaker = first.start_ms + 20_000, third.start_ms + 40_000
    basis = (await state(bus, listener, book)).seq
    await command(
        bus, listener, book, Report(device="phone", position_ms=in_first, playing=True, basis_seq=basis)
    )
    await seek(bus, listener, book, third.start_ms + 10_000)  # skipped ahead from the first chapter
    now = await state(bus, listener, book)
    await command(
        bus, listener, book, Report(device="speaker", position_ms=on_speaker, playing=True, basis_seq=now.seq)
    )
    await seek(bus, listener, book, fourth.start_ms + 5_000)  # and again, from where the speaker was
    here = (await state(bus, listener, book)).position_ms
    hidden = titles_ahead(info, here)

    asked = await ask(bus, listener, book, f"where was I the last time I was in chapter {first.n}?")
    shown = await state(bus, listener, book)
    assert asked.outcome == "listed"  # a question puts the place on the screen; it does not move
    assert ([row.start_ms for row in shown.rows], shown.position_ms) == ([in_first], here)
    assert asked.speech == f"That's at {clock(in_first)}, in chapter {first.n}. {speech.ONE_ROW}"

    skipped = await ask(bus, listener, book, "take me back to where I was before I skipped ahead")
    assert skipped.outcome == "moved"
    assert (await state(bus, listener, book)).position_ms == on_speaker

    again = await ask(bus, listener, book, "the time before that")
    assert again.outcome == "moved"
    assert (await state(bus, listener, book)).position_ms == in_first

    speaker = await ask(bus, listener, book, "when did I last listen on the speaker?")
    shown = await state(bus, listener, book)
    assert speaker.outcome == "listed"
    assert ([row.start_ms for row in shown.rows], shown.position_ms) == ([on_speaker], in_first)
    assert shown.rows[0].ahead  # from the first chapter, the speaker's place is further on: covered
    assert speaker.rows[0].endswith("further on (covered)")
    assert speaker.speech == speech.ONE_ROW_AHEAD  # a place ahead is not said

    none_before = await ask(bus, listener, book, "the time before that")
    assert none_before.outcome == "refused"
    assert (await state(bus, listener, book)).position_ms == in_first

    for reply in (asked, skipped, again, speaker, none_before):
        assert not [t for t in hidden if t in reply.speech or any(t in row for row in reply.rows)]


async def test_a_place_asked_for_by_a_name_not_heard_yet_is_the_same_whether_the_book_has_it(
    bus: Client,
) -> None:
    """A spoiler hunt: at 0:02:00 "find Hettie" (met at 0:04:03) offered a covered row at her first
    scene, where "find Zelda" (no one in the book) found nothing: whether a name is in the book, and
    where it first comes, read off the answer. Recall had always answered both alike."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-unheard-name"
    await seek(bus, listener, book, 120_000)
    for name in ("Hettie", "Zelda"):
        for utterance in (f"find {name}", f"take me to where {name} arrives"):
            reply = await ask(bus, listener, book, utterance)
            assert (reply.outcome, reply.speech) == (
                "not_yet",
                f"{name} hasn't come up yet at this point in the book.",
            )
            shown = await state(bus, listener, book)
            assert (shown.rows, shown.position_ms) == ([], 120_000)
    # Typed in lower case, the book's name, a word no dictionary has and a misspelling are alike: not
    # said back, and not searched for.
    lower = [await ask(bus, listener, book, f"find {name}") for name in ("hettie", "zelda", "hetty")]
    assert [(r.outcome, r.speech) for r in lower] == [("unsure", speech.NOT_FOUND)] * 3
    # With more words (a review), the rest is searched alike, the name left out (adr/0071).
    for moment in (
        "comes down the sandy path on her bicycle",
        "brings a blackberry pie in her bicycle basket",
    ):
        replies = []
        for name in ("hettie", "zelda", "hetty", "Hettie", "Zelda"):
            reply = await ask(bus, listener, book, f"take me to where {name} {moment}")
            replies.append((reply.outcome, reply.speech.replace(name, "X"), reply.rows))
            await seek(bus, listener, book, 120_000)
        assert replies[3] == replies[4], replies  # capitalised: a name, left out alike
        assert replies[0] == replies[1] == replies[2], replies


async def asleep_in_the_second_chapter(bus: Client, listener: str) -> tuple[BookInfo, int, int]:
    """The sample book, a timer to the second chapter's end set 15 s into it, run out: the book,
    where they fell asleep and where it paused."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book = info.id
    awake = info.chapters[1].start_ms + 15_000
    await seek(bus, listener, book, awake)
    await command(bus, listener, book, SetSleepTimer(device="phone", after="chapter_end"))
    stop = (await state(bus, listener, book)).sleep_timer
    assert stop is not None
    assert stop.stop_at_ms == info.chapters[2].start_ms - 1  # the second chapter's last millisecond
    basis = (await state(bus, listener, book)).seq
    playing = Report(device="phone", position_ms=stop.stop_at_ms - 1_000, playing=True, basis_seq=basis)
    await command(bus, listener, book, playing)
    basis = (await state(bus, listener, book)).seq
    ran_out = TimerRanOut(device="phone", position_ms=stop.stop_at_ms, basis_seq=basis)
    await command(bus, listener, book, ran_out)
    paused = await state(bus, listener, book)
    assert paused.asleep is not None
    assert (paused.asleep.asleep_at_ms, paused.position_ms, paused.playing) == (awake, stop.stop_at_ms, False)
    return info, awake, stop.stop_at_ms


async def test_where_they_fell_asleep_comes_from_the_sleep_timers_pause(bus: Client) -> None:
    """A device's timer ran out; keyless, the question shows the place and the request goes there."""
    listener = "e2e-asleep"
    info, awake, stopped = await asleep_in_the_second_chapter(bus, listener)
    book, second = info.id, info.chapters[1]
    asked = await ask(bus, listener, book, "where did I fall asleep?")
    shown = await state(bus, listener, book)
    assert asked.outcome == "listed"
    assert ([row.start_ms for row in shown.rows], shown.position_ms) == ([awake], stopped)
    assert asked.speech == f"That's at {clock(awake)}, in chapter {second.n}. {speech.ONE_ROW}"

    missed = await ask(bus, listener, book, "what did I miss?")  # the span asleep, from the stream
    assert missed.outcome == "answered"
    assert missed.speech.startswith(f"Since you dozed off at {clock(awake)}: At ")
    said_at = [((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 for h, m, s in STAMP.findall(missed.speech)]
    assert said_at
    assert all(awake - 999 <= at < stopped for at in said_at)  # a stamp is cut to the second

    before = await ask(bus, listener, book, "what happened just before I fell asleep?")
    assert before.speech.startswith(f"Just before you dozed off at {clock(awake)}: At ")
    heard_at = [((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 for h, m, s in STAMP.findall(before.speech)]
    assert heard_at
    assert all(at < awake for at in heard_at)

    went = await ask(bus, listener, book, "go back to where I dozed off")
    assert went.outcome == "moved"
    assert (await state(bus, listener, book)).position_ms == awake
    again = await ask(bus, listener, book, "what did I miss?")  # back before it: all still ahead
    assert (again.outcome, again.speech) == ("not_yet", recaps.MISSED_AHEAD.format(clock(awake)))


async def test_what_was_missed_is_not_what_they_heard_again_the_morning_after(bus: Client) -> None:
    """Back to where they fell asleep and played on from there: "what did I miss?" recapped what
    they had just heard again, and past the pause the whole doze."""
    listener = "e2e-heard-again"
    info, awake, stopped = await asleep_in_the_second_chapter(bus, listener)
    book = info.id
    assert (await ask(bus, listener, book, "go back to where I dozed off")).outcome == "moved"

    async def played_to(position_ms: int) -> None:
        basis = (await state(bus, listener, book)).seq
        report = Report(device="phone", position_ms=position_ms, playing=True, basis_seq=basis)
        await command(bus, listener, book, report)

    await played_to((awake + stopped) // 2)
    partly = await ask(bus, listener, book, "what did I miss?")
    reheard_to = (awake + stopped) // 2
    assert (partly.outcome, partly.speech) == ("not_yet", recaps.MISSED_AHEAD.format(clock(reheard_to)))
    await played_to(stopped + 5_000)
    heard_again = await ask(bus, listener, book, "what did I miss?")
    assert heard_again.outcome == "answered"
    assert heard_again.speech.startswith(f"{recaps.DOZE_HEARD_AGAIN} In the last 5 minutes: At ")


async def test_why_it_stopped_names_the_timer_while_the_book_rests_where_the_timer_paused_it(
    bus: Client,
) -> None:
    """A page paused by the timer reports where its audio came to rest, a moment past the stop, and
    "why did it stop?" then said only "It's paused": the turn asked for the exact millisecond."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-why-stopped"
    await seek(bus, listener, book, info.chapters[1].start_ms + 15_000)
    await command(bus, listener, book, SetSleepTimer(device="phone", after=15))
    stop = (await state(bus, listener, book)).sleep_timer
    assert stop is not None

    async def report(position_ms: int, playing: bool) -> None:
        basis = (await state(bus, listener, book)).seq
        await command(
            bus,
            listener,
            book,
            Report(device="phone", position_ms=position_ms, playing=playing, basis_seq=basis),
        )

    await report(stop.stop_at_ms - 1_000, True)
    basis = (await state(bus, listener, book)).seq
    await command(
        bus, listener, book, TimerRanOut(device="phone", position_ms=stop.stop_at_ms, basis_seq=basis)
    )
    await report(stop.stop_at_ms + 400, False)  # the audio came to rest a moment on
    assert (await state(bus, listener, book)).still_where_timer_paused
    why = await ask(bus, listener, book, "why did it stop?")
    assert why.speech.startswith("The sleep timer paused it, at "), why.speech

    await report(stop.stop_at_ms + 20_000, True)  # awake, and listened on
    await report(stop.stop_at_ms + 40_000, False)
    assert not (await state(bus, listener, book)).still_where_timer_paused
    why = await ask(bus, listener, book, "why did it stop?")
    assert why.speech.startswith("It's paused, "), why.speech


async def test_a_question_asked_while_the_timer_runs_puts_falling_asleep_after_it(bus: Client) -> None:
    """Awake enough to ask "who is Oskar?", the listener had not fallen asleep yet: the estimate was
    the place they set the timer, earlier than the question, and took them back further than needed."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-asked-awake"
    set_at = info.chapters[1].start_ms + 15_000
    await seek(bus, listener, book, set_at)
    await command(bus, listener, book, SetSleepTimer(device="phone", after="chapter_end"))
    stop = (await state(bus, listener, book)).sleep_timer
    assert stop is not None
    asked_at = set_at + 30_000
    basis = (await state(bus, listener, book)).seq
    await command(
        bus, listener, book, Report(device="phone", position_ms=asked_at, playing=True, basis_seq=basis)
    )
    await ask(bus, listener, book, "who is Oskar?")  # not come up yet, and asked all the same
    basis = (await state(bus, listener, book)).seq
    await command(
        bus, listener, book, TimerRanOut(device="phone", position_ms=stop.stop_at_ms, basis_seq=basis)
    )
    asleep = (await state(bus, listener, book)).asleep
    assert asleep is not None
    assert asked_at <= asleep.asleep_at_ms < asked_at + 5_000  # the report plus the moments to the question


async def test_a_sleep_timer_and_a_pause_said_aloud_reach_the_real_player(bus: Client) -> None:
    """Keyless, the turn sends the player's own commands: the timer is set, moved to the chapter's
    end and cancelled, and "pause" pauses the book so that a device's older report cannot restart it."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-voicetimer"
    second, third = info.chapters[1], info.chapters[2]
    here = second.start_ms + 15_000
    await seek(bus, listener, book, here)

    minutes = await ask(bus, listener, book, "sleep in fifteen minutes")
    assert (minutes.outcome, minutes.speech) == ("answered", "I'll stop in 15 minutes.")
    timer = (await state(bus, listener, book)).sleep_timer
    assert timer is not None
    assert (timer.after, timer.stop_at_ms) == (15, min(here + 15 * 60_000, info.duration_ms))
    hour = await ask(bus, listener, book, "sleep in an hour")  # the book ends sooner: the player stops there
    assert hour.speech == f"The book ends in {said_length(info.duration_ms - here)}, so I'll stop there."

    chapter_end = await ask(bus, listener, book, "stop at the end of the chapter")
    assert (chapter_end.outcome, chapter_end.speech) == ("answered", "I'll stop at the end of this chapter.")
    timer = (await state(bus, listener, book)).sleep_timer
    assert timer is not None
    assert (timer.after, timer.stop_at_ms) == ("chapter_end", third.start_ms - 1)

    named = await ask(bus, listener, book, f"stop at the end of chapter {third.n}")
    assert (named.outcome, named.speech) == ("answered", f"I'll stop at the end of chapter {third.n}.")
    told = await ask(bus, listener, book, "when will it stop?")  # read from the real player's state
    left = said_length(info.chapters[3].start_ms - 1 - here)
    assert told.speech == f"The sleep timer stops the book at the end of chapter {third.n}, in {left}."
    timer = (await state(bus, listener, book)).sleep_timer
    assert timer is not None
    assert (timer.after, timer.chapter, timer.stop_at_ms) == (
        "chapter_end",
        third.n,
        info.chapters[3].start_ms - 1,
    )

    cancelled = await ask(bus, listener, book, "cancel the sleep timer")
    assert cancelled.speech == "The sleep timer is off."
    assert (await state(bus, listener, book)).sleep_timer is None
    none_left = await ask(bus, listener, book, "turn the timer off")
    assert none_left.speech == "There's no sleep timer running."
    assert (await ask(bus, listener, book, "is the timer on?")).speech == "There's no sleep timer on."

    basis = (await state(bus, listener, book)).seq
    await command(
        bus, listener, book, Report(device="phone", position_ms=here + 5_000, playing=True, basis_seq=basis)
    )
    playing = await state(bus, listener, book)
    assert playing.playing
    paused = await ask(bus, listener, book, "pause")
    assert (paused.outcome, paused.speech) == ("answered", "Paused.")
    after = await state(bus, listener, book)
    assert (after.playing, after.asleep) == (False, None)
    assert after.position_ms >= here + 5_000  # the report, plus however long it played since (ADR 46)
    late = Report(device="phone", position_ms=here + 9_000, playing=True, basis_seq=playing.seq)
    refused = await request(
        bus, subjects.PLAYER_COMMAND, CommandRequest(listener=listener, book=book, command=late)
    )
    assert refused.get("accepted") is not True  # the device takes the state, and pauses
    assert not (await state(bus, listener, book)).playing
    again = await ask(bus, listener, book, "stop")
    assert again.speech == "The book is already paused."


async def test_a_speed_said_aloud_reaches_the_real_player_and_its_timer_counts_listening(bus: Client) -> None:
    """ADR 82: "faster" was told the book plays at the narrator's pace; now the real player takes it,
    and a timer set at it stops after its minutes of listening."""
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-speed"
    here = info.chapters[1].start_ms
    await seek(bus, listener, book, here)
    faster = await ask(bus, listener, book, "a bit faster please")
    assert (faster.outcome, faster.speech) == ("answered", "Now playing at 1.1 times speed.")
    assert (await ask(bus, listener, book, "1.5x")).speech == "Now playing at 1.5 times speed."
    assert (await state(bus, listener, book)).speed == 1.5
    minutes = await ask(bus, listener, book, "sleep in 4 minutes")
    assert minutes.speech == "I'll stop in 4 minutes."
    timer = (await state(bus, listener, book)).sleep_timer
    assert timer is not None
    assert timer.stop_at_ms == here + 6 * 60_000
    assert (await ask(bus, listener, book, "normal speed")).speech == "Now playing at normal speed."
    slowed = (await state(bus, listener, book)).sleep_timer
    assert slowed is not None
    assert slowed.stop_at_ms == here + 4 * 60_000  # still four minutes of listening
    assert (await state(bus, listener, book)).position_ms == here


async def test_a_spoken_question_is_transcribed_offline_and_turned(bus: Client) -> None:
    need_espeak()
    info = await ingested(bus, SAMPLE_BOOK_ID, str(SAMPLE_TRANSCRIPT))
    book, listener = info.id, "e2e-spoken"
    await seek(bus, listener, book, info.chapters[3].start_ms + 30_000)
    recording = spoken_wav("go to chapter two")
    body = await request(
        bus, subjects.TURN_ASK_SPOKEN, SpokenAsk(listener=listener, book=book, wav=recording), 120.0
    )
    reply = SpokenTurnReply.model_validate(body)
    assert "chapter" in reply.heard.lower()
    assert reply.turn is not None
    assert reply.turn.outcome == "moved"
    assert (await state(bus, listener, book)).position_ms == info.chapters[1].start_ms  # chapter 2


async def test_a_recording_that_is_not_a_wav_is_refused_as_invalid(bus: Client) -> None:
    body = await request(
        bus, subjects.TURN_ASK_SPOKEN, SpokenAsk(listener="e2e-spoken", book=SAMPLE_BOOK_ID, wav=b"x" * 100)
    )
    assert body["ok"] is False
    assert body["code"] == "invalid"
    assert "WAV" in body["error"]
