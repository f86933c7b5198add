"""A turn service on a real bus with search and player doubles, for tests and benchmarks."""

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bedside_contracts import subjects
from bedside_contracts.turn import Ask, TurnReply
from bedside_guard import Passage
from bedside_runtime.bus import Broker, call
from bedside_runtime.settings import Settings
from bedside_speech import Hearer, WhisperTranscriber
from bedside_turn.claude import Retry
from bedside_turn.main import build
from bedside_turn.service import TurnService

from bedside_turn_testing.book import BOOK_ID, book_info, passages
from bedside_turn_testing.doubles import DoubleBook, PlayerDouble, SearchDouble
from bedside_turn_testing.leaks import leaks
from bedside_turn_testing.scripted import ScriptedMessages, ScriptedModel

NO_WAIT = Retry(attempts=3, base_delay_s=0.0, max_delay_s=0.0)


@dataclass
class ModelSlot:
    """A model client whose script each test replaces; the service keeps one client."""

    current: ScriptedModel = field(default_factory=lambda: ScriptedModel([]))

    @property
    def messages(self) -> ScriptedMessages:
        return self.current.messages

    def load(self, script: list[Any]) -> ScriptedModel:
        self.current = ScriptedModel(script)
        return self.current


@dataclass
class Rig:
    broker: Broker
    service: TurnService
    search: SearchDouble
    player: PlayerDouble
    slot: ModelSlot | None
    passages: list[Passage]

    def listener_at(self, position_ms: int, book: str = BOOK_ID) -> str:
        listener = f"l{uuid.uuid4().hex[:10]}"
        self.player.place(listener, book, position_ms)
        return listener

    async def ask(
        self,
        listener: str,
        utterance: str,
        book: str = BOOK_ID,
        at_ms: int | None = None,
        here_ms: int | None = None,
        *,
        device: str | None = None,
        answer_by_ms: int | None = None,
        basis_seq: int | None = None,
        asked_at_ms: int | None = None,
    ) -> TurnReply:
        request = Ask(
            listener=listener,
            book=book,
            utterance=utterance,
            at_ms=at_ms,
            here_ms=here_ms,
            device=device,
            answer_by_ms=answer_by_ms,
            basis_seq=basis_seq,
            asked_at_ms=asked_at_ms,
        )
        return await call(self.broker.connection, subjects.TURN_ASK, request, TurnReply, timeout_s=10.0)

    def sent_messages(self, model: ScriptedModel) -> str:
        return json.dumps([r["messages"] for r in model.requests], ensure_ascii=False)

    def leaks(self, model: ScriptedModel, here_ms: int, said: list[str]) -> set[str]:
        return leaks(self.sent_messages(model), self.passages, here_ms, set(said))


async def start_rig(
    nats_url: str,
    with_model: bool,
    extra_books: dict[str, DoubleBook] | None = None,
    load_recogniser: Callable[[], Hearer] = WhisperTranscriber,
    request_timeout_s: float = 10.0,
) -> Rig:
    """Doubles and a turn service on ``nats_url``; the caller stops ``rig.broker``."""
    books = {BOOK_ID: DoubleBook(book_info(), passages()), **(extra_books or {})}
    search, player = SearchDouble(books), PlayerDouble(books)
    broker = Broker([nats_url])
    await broker.connect()
    await search.register(broker)
    await player.register(broker)
    slot = ModelSlot() if with_model else None
    settings = Settings(nats_url=nats_url, model="claude-haiku-4-5", request_timeout_s=request_timeout_s)
    service = await build(broker, settings, slot, retry=NO_WAIT, load_recogniser=load_recogniser)
    return Rig(broker, service, search, player, slot, passages())
