"""How the event store's append reads JetStream's two "wrong last sequence" answers.

A real server answers 10164 only while a clustered stream's new leader replays its log
(tests/faults provoke it, but not on demand), so this one unit of the store runs against
a stand-in that answers as scripted.
"""

import pytest
from bedside_contracts.player import PositionReported
from bedside_player import store as store_module
from bedside_player.store import STALE_BASIS, UNCHECKED_BASIS, EventStore, WrongLastSequence
from nats.js.api import PubAck, RawStreamMsg
from nats.js.errors import BadRequestError, NotFoundError


class ScriptedJetStream:
    """Answers each publish with the next scripted error, then with an ack."""

    def __init__(self, *codes: int, newer: RawStreamMsg | None = None) -> None:
        self.codes = list(codes)
        self.published = 0
        self.newer = newer

    async def publish(self, subject: str, payload: bytes, **_: object) -> PubAck:
        self.published += 1
        if self.codes:
            code = self.codes.pop(0)
            raise BadRequestError(code=400, err_code=code, description="wrong last sequence")
        return PubAck(stream="PLAYER", seq=8)

    async def get_msg(self, *_: object, **__: object) -> RawStreamMsg:
        if self.newer is None:
            raise NotFoundError  # nothing was committed after the basis
        return self.newer


def event() -> PositionReported:
    return PositionReported(device="phone", position_ms=1_000, playing=True, basis_seq=7)


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "APPEND_BACKOFF_S", 0.0)


async def test_an_unchecked_basis_is_tried_again() -> None:
    js = ScriptedJetStream(UNCHECKED_BASIS, UNCHECKED_BASIS)
    assert await EventStore(js).append("ann", "book", event(), 7) == 8  # type: ignore[arg-type]
    assert js.published == 3


async def test_a_stale_basis_is_refused_at_once() -> None:
    someone_elses = RawStreamMsg(subject="player.ann.book", seq=8, headers={"Nats-Msg-Id": "other"})
    js = ScriptedJetStream(STALE_BASIS, newer=someone_elses)
    with pytest.raises(WrongLastSequence):
        await EventStore(js).append("ann", "book", event(), 7)  # type: ignore[arg-type]
    assert js.published == 1


async def test_a_refusal_that_nothing_newer_bears_out_is_tried_again() -> None:
    """A stalled leader waking up can refuse a basis it has not caught up with."""
    js = ScriptedJetStream(STALE_BASIS)
    assert await EventStore(js).append("ann", "book", event(), 7) == 8  # type: ignore[arg-type]
    assert js.published == 2


async def test_an_unchecked_basis_that_never_clears_is_refused_in_the_end() -> None:
    js = ScriptedJetStream(*[UNCHECKED_BASIS] * store_module.APPEND_RETRIES)
    with pytest.raises(WrongLastSequence):
        await EventStore(js).append("ann", "book", event(), 7)  # type: ignore[arg-type]
    assert js.published == store_module.APPEND_RETRIES
