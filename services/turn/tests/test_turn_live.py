"""With the real Claude (marked live; skipped without ANTHROPIC_API_KEY), on the doubles' small book."""

import copy
import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anthropic
import pytest
from bedside_turn.main import MODEL_TIMEOUT_S
from bedside_turn_testing.harness import Rig, start_rig
from bedside_turn_testing.leaks import leaks

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(not os.environ.get("ANTHROPIC_API_KEY"), reason="needs ANTHROPIC_API_KEY"),
]

HERE = 135_000


@dataclass
class Recording:
    """AsyncAnthropic's messages, keeping a copy of every request sent."""

    inner: Any
    requests: list[dict[str, Any]] = field(default_factory=list)

    async def create(self, **request: Any) -> Any:
        self.requests.append(copy.deepcopy(request))
        return await self.inner.create(**request)


@dataclass
class RecordingClient:
    messages: Recording


@pytest.fixture(scope="module")
async def live(nats_url: str) -> AsyncIterator[tuple[Rig, Recording]]:
    client = anthropic.AsyncAnthropic(max_retries=0, timeout=MODEL_TIMEOUT_S)
    rig = await start_rig(nats_url, with_model=True)
    recording = Recording(client.messages)
    rig.service.client = RecordingClient(recording)
    try:
        yield rig, recording
    finally:
        await rig.broker.stop()


async def test_claude_takes_the_listener_back_to_a_described_moment(live: tuple[Rig, Recording]) -> None:
    rig, recording = live
    listener = rig.listener_at(HERE)
    reply = await rig.ask(listener, "take me back to where Wren gave her a bowl of soup")
    assert reply.outcome in {"moved", "listed"}
    assert reply.mode == "claude-haiku-4-5"
    if reply.outcome == "moved":
        assert rig.player.positions[(listener, "lamplight")] == 60_000
    follow = await rig.ask(listener, "who is Tamsin?")
    assert follow.outcome == "answered"
    sent = json.dumps([r["messages"] for r in recording.requests])
    assert not leaks(
        sent, rig.passages, HERE, {"take me back to where Wren gave her a bowl of soup", "who is Tamsin?"}
    )


async def test_claude_recaps_the_last_chapter_from_its_passages_only(live: tuple[Rig, Recording]) -> None:
    rig, recording = live
    here = 190_000  # early in chapter 3: the last chapter is chapter 2
    listener = rig.listener_at(here)
    before = len(recording.requests)
    reply = await rig.ask(listener, "what happened in the last chapter?")
    assert reply.outcome == "answered"
    assert rig.player.positions[(listener, "lamplight")] == here
    sent = json.dumps([r["messages"] for r in recording.requests[before:]])
    assert '"recap"' in sent
    assert not leaks(sent, rig.passages, here, {"what happened in the last chapter?"})
    assert not leaks(reply.speech, rig.passages, here)
