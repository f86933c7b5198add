"""One listener, two devices hearing hands-free: one "go back 2 minutes" is heard by both.

The phone and the speaker page both hear it, both send it to the player's ``/turns`` route as
the pages do, and the turn behind it moves the book. Said once, it is one request heard twice:
the book moves once, and both devices say the same thing (ADR 77). Said again on the same
device, it is a new request and moves again. The same holds for "undo", for minutes added to
the sleep timer and for "bookmark this", which the turn asks of the player as commands, not offers.

A copy heard after the first was carried out is the first heard again when it was asked within a few
seconds of the first's move on the player's clock. Those tests hand the second question to the turn as
the player's route does, stamped with the time it was taken chosen by the test from the first's
move: so how fast this machine is changes nothing.

The real search, ingest, player and turn processes, keyless, on the stack's own nats-server.
"""

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import nats
import pytest
from bedside_audiobooks import need_espeak, spoken_wav
from bedside_contracts import subjects
from bedside_contracts.turn import Ask, TurnReply
from bedside_e2e import SAMPLE_BOOK, Stack, sample_book_stack
from bedside_runtime.bus import call
from nats.aio.client import Client

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

BOOK = SAMPLE_BOOK
LISTENERS = (
    "together",
    "apart",
    "apart-later",
    "chapter-apart",
    "same-device",
    "spoken",
    "undo-apart",
    "undo-together",
    "undo-same-device",
    "timer-apart",
    "timer-same-device",
    "bookmark-together",
    "bookmark-apart",
)
DEVICES = ("phone", "speaker")
HERE_MS = 1_000_000  # 0:16:40, well into the fifth of the sample's six chapters
TWO_MINUTES_MS = 120_000
EARLY_MS = 60_000
"""Where the timer tests start: ten minutes added once stop well before the sample's end (22:32),
twice they would reach it."""
PLACED_AT = {"timer-apart": EARLY_MS, "timer-same-device": EARLY_MS}
A_MOMENT_MS = 1_000
"""When the second device's question was taken after the first's request was carried out: within the
player's window (5 s)."""
LATER_MS = 10_000
"""Past the player's window: another request."""


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    yield from sample_book_stack("heard-twice", LISTENERS)


class Listener:
    """A listener's pages, all on one HTTP client: each call names the device it comes from."""

    def __init__(self, http: httpx.AsyncClient, bus: Client, name: str) -> None:
        self.http = http
        self.bus = bus
        self.name = name
        self.base = f"/api/listeners/{name}/books/{BOOK}"

    async def state(self) -> dict[str, Any]:
        response = await self.http.get(f"{self.base}/state")
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    async def placed_at(self, position_ms: int) -> None:
        """Both devices open the book, and the phone puts it at ``position_ms``."""
        for device in DEVICES:
            (await self.http.post(f"{self.base}/devices", json={"device": device})).raise_for_status()
        basis = (await self.state())["seq"]
        body = {"device": "phone", "position_ms": position_ms, "basis_seq": basis}
        (await self.http.post(f"{self.base}/seek", json=body)).raise_for_status()

    async def say(self, device: str, recording: bytes) -> dict[str, Any]:
        """A question said aloud and recorded on ``device``, sent as the page's microphone sends it."""
        response = await self.http.post(
            f"{self.base}/turns/spoken",
            params={"device": device},
            content=recording,
            headers={"Content-Type": "audio/wav"},
            timeout=120,  # the first spoken question loads the recogniser
        )
        response.raise_for_status()
        reply: dict[str, Any] = response.json()
        return reply

    async def set_timer(self, device: str, minutes: int) -> None:
        """The timer set from ``device``'s chips, as the page sets it."""
        body = {"device": device, "after": minutes}
        (await self.http.post(f"{self.base}/sleep-timer", json=body)).raise_for_status()

    async def ask(self, device: str, utterance: str) -> dict[str, Any]:
        response = await self.http.post(f"{self.base}/turns", json={"device": device, "utterance": utterance})
        response.raise_for_status()
        reply: dict[str, Any] = response.json()
        return reply

    async def ask_taken_after_the_last_request(
        self, device: str, utterance: str, after_ms: int
    ) -> dict[str, Any]:
        """``utterance`` from ``device`` handed to the turn as the player's ``/turns`` route hands it, with
        the position and sequence the player holds, taken ``after_ms`` after the newest request was
        carried out (its ``made_at_ms``, a bookmark's ``added_at_ms``: the player's clock, read from the
        stream)."""
        history = await self.http.get(f"{self.base}/history", params={"limit": 10})
        history.raise_for_status()
        here = await self.state()
        requests = [e["seq"] for e in history.json()["entries"] if e["kind"] in ("moved", "timer_set")]
        newest = max(requests + [mark["seq"] for mark in here["bookmarks"]])
        stored = await self.bus.jetstream().get_msg(subjects.PLAYER_STREAM, newest)
        event = json.loads(stored.data or b"{}")
        made_at_ms: int = event["added_at_ms"] if event["kind"] == "bookmark_added" else event["made_at_ms"]
        question = Ask(
            listener=self.name,
            book=BOOK,
            utterance=utterance,
            device=device,
            here_ms=here["position_ms"],
            basis_seq=here["seq"],  # the first's move known: only when it was taken can tell
            asked_at_ms=made_at_ms + after_ms,
        )
        reply = await call(self.bus, subjects.TURN_ASK, question, TurnReply, timeout_s=60)
        return reply.model_dump()


@pytest.fixture
async def listener(stack: Stack, request: pytest.FixtureRequest) -> AsyncIterator[Listener]:
    name: str = request.param
    bus = await nats.connect(stack.nats_url)
    try:
        async with stack.http(name) as http:
            yours = Listener(http, bus, name)
            await yours.placed_at(PLACED_AT.get(name, HERE_MS))
            yield yours
    finally:
        await bus.close()


@pytest.mark.parametrize("listener", ["together"], indirect=True)
async def test_two_devices_hearing_one_go_back_at_the_same_moment_move_the_book_once(
    listener: Listener,
) -> None:
    phone, speaker = await asyncio.gather(
        listener.ask("phone", "go back 2 minutes"), listener.ask("speaker", "Go back two minutes.")
    )

    assert (await listener.state())["position_ms"] == HERE_MS - TWO_MINUTES_MS
    assert phone["outcome"] == speaker["outcome"] == "moved"
    assert phone["speech"] == speaker["speech"]


@pytest.mark.parametrize("listener", ["spoken"], indirect=True)
async def test_one_go_back_said_aloud_and_recorded_on_two_devices_moves_the_book_once(
    listener: Listener,
) -> None:
    need_espeak()
    recording = spoken_wav("go back two minutes")
    phone, speaker = await asyncio.gather(
        listener.say("phone", recording), listener.say("speaker", recording)
    )

    assert (await listener.state())["position_ms"] == HERE_MS - TWO_MINUTES_MS
    assert phone["turn"]["outcome"] == speaker["turn"]["outcome"] == "moved"
    assert phone["turn"]["speech"] == speaker["turn"]["speech"]


@pytest.mark.parametrize("listener", ["apart"], indirect=True)
async def test_the_second_device_hearing_it_after_the_first_was_carried_out_moves_nothing_more(
    listener: Listener,
) -> None:
    """The speaker's recogniser finished after the phone's turn had moved the book; its own turn may
    then take longer than the player's window: it was asked within it."""
    phone = await listener.ask("phone", "go back 2 minutes")
    speaker = await listener.ask_taken_after_the_last_request("speaker", "go back 2 minutes", A_MOMENT_MS)

    assert (await listener.state())["position_ms"] == HERE_MS - TWO_MINUTES_MS
    assert speaker["outcome"] == "moved"
    assert speaker["speech"] == phone["speech"]


@pytest.mark.parametrize("listener", ["apart-later"], indirect=True)
async def test_the_same_request_asked_on_the_second_device_well_after_the_first_moves_again(
    listener: Listener,
) -> None:
    await listener.ask("phone", "go back 2 minutes")
    speaker = await listener.ask_taken_after_the_last_request("speaker", "go back 2 minutes", LATER_MS)

    assert speaker["outcome"] == "moved"
    assert (await listener.state())["position_ms"] == HERE_MS - 2 * TWO_MINUTES_MS


@pytest.mark.parametrize("listener", ["chapter-apart"], indirect=True)
async def test_the_previous_chapter_heard_on_two_devices_one_after_the_other_is_one_chapter_back(
    listener: Listener,
) -> None:
    """Counted from where the book was when each was asked, the second would be a chapter further."""
    phone = await listener.ask("phone", "previous chapter")
    once = (await listener.state())["position_ms"]
    speaker = await listener.ask_taken_after_the_last_request("speaker", "previous chapter", A_MOMENT_MS)

    assert phone["outcome"] == "moved"
    assert (await listener.state())["position_ms"] == once
    assert speaker["speech"] == phone["speech"]


@pytest.mark.parametrize("listener", ["same-device"], indirect=True)
async def test_the_same_request_said_again_on_the_same_device_moves_again(listener: Listener) -> None:
    await listener.ask("phone", "go back 2 minutes")
    again = await listener.ask("phone", "go back 2 minutes")

    assert again["outcome"] == "moved"
    assert (await listener.state())["position_ms"] == HERE_MS - 2 * TWO_MINUTES_MS


@pytest.mark.parametrize("listener", ["undo-apart"], indirect=True)
async def test_an_undo_heard_on_the_second_device_after_the_first_undid_the_move_undoes_nothing_more(
    listener: Listener,
) -> None:
    """Undone twice, the second would undo the first's undo: the book back two minutes again."""
    await listener.ask("phone", "go back 2 minutes")
    phone = await listener.ask("phone", "undo")
    speaker = await listener.ask_taken_after_the_last_request("speaker", "undo", A_MOMENT_MS)

    assert (await listener.state())["position_ms"] == HERE_MS
    assert phone["outcome"] == speaker["outcome"] == "moved"
    assert speaker["speech"] == phone["speech"]


@pytest.mark.parametrize("listener", ["undo-together"], indirect=True)
async def test_two_devices_hearing_one_undo_at_the_same_moment_undo_the_move_once(listener: Listener) -> None:
    await listener.ask("phone", "go back 2 minutes")
    phone, speaker = await asyncio.gather(
        listener.ask("phone", "undo"), listener.ask("speaker", "No, go back to where I was.")
    )

    assert (await listener.state())["position_ms"] == HERE_MS
    assert phone["outcome"] == speaker["outcome"] == "moved"
    assert phone["speech"] == speaker["speech"]


@pytest.mark.parametrize("listener", ["undo-same-device"], indirect=True)
async def test_undo_said_again_on_the_same_device_undoes_the_undo(listener: Listener) -> None:
    await listener.ask("phone", "go back 2 minutes")
    await listener.ask("phone", "undo")
    again = await listener.ask("phone", "undo")

    assert again["outcome"] == "moved"
    assert (await listener.state())["position_ms"] == HERE_MS - TWO_MINUTES_MS


@pytest.mark.parametrize("listener", ["timer-apart"], indirect=True)
async def test_minutes_added_to_the_timer_heard_on_the_second_device_after_the_first_are_added_once(
    listener: Listener,
) -> None:
    await listener.set_timer("phone", 5)
    phone = await listener.ask("phone", "add ten minutes to the timer")
    once = (await listener.state())["sleep_timer"]
    speaker = await listener.ask_taken_after_the_last_request(
        "speaker", "Add 10 minutes to the timer.", A_MOMENT_MS
    )

    assert once["stop_at_ms"] == EARLY_MS + 15 * 60_000
    assert (await listener.state())["sleep_timer"] == once
    assert speaker["speech"] == phone["speech"]


@pytest.mark.parametrize("listener", ["timer-same-device"], indirect=True)
async def test_minutes_added_to_the_timer_again_on_the_same_device_are_added_again(
    listener: Listener,
) -> None:
    await listener.set_timer("phone", 5)
    await listener.ask("phone", "add ten minutes to the timer")
    once = (await listener.state())["sleep_timer"]
    await listener.ask("phone", "add ten minutes to the timer")

    assert (await listener.state())["sleep_timer"]["stop_at_ms"] > once["stop_at_ms"]


@pytest.mark.parametrize("listener", ["bookmark-together"], indirect=True)
async def test_two_devices_hearing_one_bookmark_this_at_the_same_moment_make_one_bookmark(
    listener: Listener,
) -> None:
    phone, speaker = await asyncio.gather(
        listener.ask("phone", "bookmark this"), listener.ask("speaker", "Bookmark this.")
    )

    assert [mark["at_ms"] for mark in (await listener.state())["bookmarks"]] == [HERE_MS]
    assert phone["outcome"] == speaker["outcome"] == "answered"
    assert phone["speech"] == speaker["speech"]


@pytest.mark.parametrize("listener", ["bookmark-apart"], indirect=True)
async def test_a_bookmark_heard_on_the_second_device_after_the_first_was_made_makes_no_other(
    listener: Listener,
) -> None:
    phone = await listener.ask("phone", "bookmark this")
    speaker = await listener.ask_taken_after_the_last_request("speaker", "bookmark this", A_MOMENT_MS)

    assert len((await listener.state())["bookmarks"]) == 1
    assert speaker["speech"] == phone["speech"]
