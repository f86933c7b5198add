"""The player's requests on the bus: state, offer, command, history (thin; rules live in domain)."""

from bedside_contracts import subjects
from bedside_contracts.player import (
    CommandRequest,
    CommandResult,
    History,
    HistoryRequest,
    ListenerState,
    OfferOutcome,
    OfferPositions,
    StateRequest,
)
from bedside_runtime.bus import serve_requests
from faststream.nats import NatsBroker

from bedside_player.service import Service

WORKERS = 256


def register_bus_api(broker: NatsBroker, service: Service) -> None:
    async def state(request: StateRequest) -> ListenerState:
        return (await service.player.catch_up(request.listener, request.book)).public()

    async def offer(request: OfferPositions) -> OfferOutcome:
        return await service.player.offer(request)

    async def command(request: CommandRequest) -> CommandResult:
        book = await service.books.get(request.book)
        return await service.player.command(request.listener, request.book, request.command, book.duration_ms)

    async def history(request: HistoryRequest) -> History:
        return await service.player.history(request)

    # handlers wait on JetStream acks and on search: answer many at once (per-listener order
    # is kept by the player's lock for each listener and book)
    serve_requests(broker, subjects.PLAYER_STATE, "player", StateRequest, state, max_workers=WORKERS)
    serve_requests(broker, subjects.PLAYER_OFFER, "player", OfferPositions, offer, max_workers=WORKERS)
    serve_requests(broker, subjects.PLAYER_COMMAND, "player", CommandRequest, command, max_workers=WORKERS)
    serve_requests(broker, subjects.PLAYER_HISTORY, "player", HistoryRequest, history, max_workers=8)
