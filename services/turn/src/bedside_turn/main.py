"""Composition root of the turn service."""

from collections.abc import Awaitable, Callable

import structlog
from bedside_contracts import subjects
from bedside_contracts.turn import SPOKEN_ASK_MAX_REQUEST_BYTES, Ask, SpokenAsk
from bedside_runtime.bus import Broker, serve_requests
from bedside_runtime.host import run_bus_service
from bedside_runtime.settings import Settings
from bedside_runtime.streams import declare_stream, key_value_bucket
from bedside_speech import Hearer, WhisperTranscriber
from nats.js import JetStreamContext
from nats.js.api import KeyValueConfig, StorageType, StreamConfig
from nats.js.kv import KeyValue

from bedside_turn.backends import BusBackends
from bedside_turn.claude import DEFAULT_RETRY, ModelClient, Retry
from bedside_turn.conversation import ConversationStore
from bedside_turn.service import TurnService
from bedside_turn.spoken import SpokenTurns

log = structlog.get_logger("bedside.turn")

MODEL_TIMEOUT_S = 20.0
TURNS_DUPLICATE_WINDOW_S = 120.0
ASK_WORKERS = 64
SPOKEN_WORKERS = 2  # one recogniser on two cores: more at once would only queue on it


def turns_stream(replicas: int) -> StreamConfig:
    return StreamConfig(
        name=subjects.TURNS_STREAM,
        subjects=[subjects.TURNS_SUBJECTS],
        storage=StorageType.FILE,
        num_replicas=replicas,
        duplicate_window=TURNS_DUPLICATE_WINDOW_S,
    )


async def declare(js: JetStreamContext, replicas: int) -> KeyValue:
    """Declare the TURNS stream (only the turn service does) and open the conversations bucket."""
    config = turns_stream(replicas)
    await declare_stream(js, config)
    return await key_value_bucket(
        js,
        KeyValueConfig(
            bucket=subjects.CONVERSATIONS_BUCKET,
            history=1,
            storage=StorageType.FILE,
            replicas=replicas,
            ttl=7 * 24 * 3600.0,
        ),
    )


def model_client(settings: Settings) -> ModelClient | None:
    """Claude when a key is set; None means the keyless router answers."""
    if settings.anthropic_api_key is None or not settings.anthropic_api_key.get_secret_value():
        return None
    import anthropic  # noqa: PLC0415 (only with a key: see claude.create_with_retry)

    # Retries are ours (with a spoken fallback at the end), so the SDK's are off.
    return anthropic.AsyncAnthropic(
        api_key=settings.anthropic_api_key.get_secret_value(), max_retries=0, timeout=MODEL_TIMEOUT_S
    )


async def build(
    broker: Broker,
    settings: Settings,
    client: ModelClient | None,
    retry: Retry = DEFAULT_RETRY,
    load_recogniser: Callable[[], Hearer] = WhisperTranscriber,
) -> TurnService:
    """The service on a connected broker, answering TURN_ASK once the broker starts."""
    kv = await declare(broker.connection.jetstream(), settings.stream_replicas)
    backends = BusBackends(broker, settings.request_timeout_s)
    service = TurnService(
        backends=backends,
        conversations=ConversationStore(kv),
        broker=broker,
        client=client,
        model=settings.model,
        retry=retry,
    )
    # A turn mostly waits (on the model, on search and player): answer many at once.
    await serve_requests(broker, subjects.TURN_ASK, "turn", Ask, service.ask, max_in_flight=ASK_WORKERS)
    spoken = SpokenTurns(turn=service.ask, backends=backends, load=load_recogniser)
    await serve_requests(
        broker,
        subjects.TURN_ASK_SPOKEN,
        "turn",
        SpokenAsk,
        spoken.ask,
        max_in_flight=SPOKEN_WORKERS,
        max_bytes=SPOKEN_ASK_MAX_REQUEST_BYTES,
    )
    log.info("turn service ready", mode=service.mode)
    return service


async def register(broker: Broker, settings: Settings) -> Callable[[], Awaitable[None]]:
    await build(broker, settings, model_client(settings))

    async def close() -> None:
        return None

    return close


async def serve(settings: Settings) -> None:
    await run_bus_service("turn", settings, register)
