"""A spoken question becomes a typed Ask: the recording is transcribed offline, then turned.

The recogniser is loaded on the first spoken question, not at start: a listener who only
types never pays for the model's memory. It hears the request plainly first; one that may name
someone (``routing.needs_the_books_names``) is heard again expecting the book's names the listener
has heard (search's answer, by the guard's rule), and no others: a name from ahead would come
back in the words the model reads.
"""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import structlog
from bedside_contracts.player import StateRequest
from bedside_contracts.search import NameHints
from bedside_contracts.turn import Ask, SpokenAsk, SpokenTurnReply, TurnReply
from bedside_runtime.errors import CallFailed, InvalidRequest
from bedside_speech import Hearer, NotAWav, WhisperTranscriber, hint_text, samples_from_wav

from bedside_turn.backends import Backends, TurnBackends
from bedside_turn.domain.routing import needs_the_books_names

log = structlog.get_logger("bedside.turn")

UTTERANCE_MAX_CHARS = 1000


@dataclass
class SpokenTurns:
    turn: Callable[[Ask], Awaitable[TurnReply]]
    backends: TurnBackends
    """Held for its connection: each spoken question asks through a copy of its own (``for_one_turn``),
    so a service that failed one question is asked again by the next."""
    load: Callable[[], Hearer] = WhisperTranscriber
    _recogniser_loaded: Hearer | None = field(default=None, init=False)
    _loading: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)

    async def ask(self, spoken: SpokenAsk) -> SpokenTurnReply:
        try:
            samples = samples_from_wav(spoken.wav)
        except NotAWav as error:
            raise InvalidRequest(f"the recording is not a 16-bit PCM WAV: {error}") from None
        backends = self.backends.for_one_turn()
        here_ms, basis_seq = spoken.here_ms, spoken.basis_seq
        if here_ms is None:
            state = await backends.state(StateRequest(listener=spoken.listener, book=spoken.book))
            here_ms, basis_seq = state.position_ms, state.seq
        hints, recogniser = await asyncio.gather(
            self._hints(backends, spoken.book, here_ms), self._recogniser()
        )
        heard = await asyncio.to_thread(recogniser.hear, samples, None)
        if hints is not None and needs_the_books_names(heard):
            heard = await asyncio.to_thread(recogniser.hear, samples, hints)
        heard = heard[:UTTERANCE_MAX_CHARS]
        if not heard:
            return SpokenTurnReply(heard="")
        ask = Ask(
            listener=spoken.listener,
            book=spoken.book,
            utterance=heard,
            device=spoken.device,
            here_ms=here_ms,
            basis_seq=basis_seq,
            asked_at_ms=spoken.asked_at_ms,
            answer_by_ms=spoken.answer_by_ms,
        )
        return SpokenTurnReply(heard=heard, turn=await self.turn(ask))

    @staticmethod
    async def _hints(backends: Backends, book: str, here_ms: int) -> str | None:
        """The heard names as the recogniser takes them; none when search cannot say (never a guess)."""
        try:
            heard = await backends.hints(NameHints(book=book, here_ms=here_ms))
        except CallFailed as error:
            log.warning("no names to hint the recogniser with", error=str(error), book=book)
            return None
        return hint_text(heard.names)

    async def _recogniser(self) -> Hearer:
        async with self._loading:
            if self._recogniser_loaded is None:
                self._recogniser_loaded = await asyncio.to_thread(self.load)
            return self._recogniser_loaded
