"""A spoken question becomes a typed Ask: the recording is transcribed offline, then turned.

The recogniser is loaded on the first spoken question, not at start: a listener who only
types never pays for the model's memory.
"""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bedside_contracts.turn import Ask, SpokenAsk, SpokenTurnReply, TurnReply
from bedside_runtime.errors import InvalidRequest
from bedside_speech import NotAWav, Transcriber, WhisperTranscriber, samples_from_wav

UTTERANCE_MAX_CHARS = 1000


@dataclass
class SpokenTurns:
    turn: Callable[[Ask], Awaitable[TurnReply]]
    load: Callable[[], Transcriber] = WhisperTranscriber
    _transcriber: Transcriber | None = field(default=None, init=False)
    _loading: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)

    async def ask(self, spoken: SpokenAsk) -> SpokenTurnReply:
        try:
            samples = samples_from_wav(spoken.wav)
        except NotAWav as error:
            raise InvalidRequest(f"the recording is not a 16-bit PCM WAV: {error}") from None
        transcriber = await self._recogniser()
        words = await asyncio.to_thread(transcriber.transcribe, samples)
        heard = " ".join(w.text for w in words).strip()[:UTTERANCE_MAX_CHARS]
        if not heard:
            return SpokenTurnReply(heard="")
        ask = Ask(
            listener=spoken.listener,
            book=spoken.book,
            utterance=heard,
            device=spoken.device,
            here_ms=spoken.here_ms,
        )
        return SpokenTurnReply(heard=heard, turn=await self.turn(ask))

    async def _recogniser(self) -> Transcriber:
        async with self._loading:
            if self._transcriber is None:
                self._transcriber = await asyncio.to_thread(self.load)
            return self._transcriber
