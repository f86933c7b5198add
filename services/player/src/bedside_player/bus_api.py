"""The player's requests on the bus: state, offer, command, history, locate, the listeners, removing
one and which book a listener is listening to (thin; rules live in domain).

Each request runs as its own task (``serve_requests``), so one listener's wait for a
JetStream ack does not hold up another's; order within a listener and book is kept by
the player's lock. A request for a listener whose partition another copy owns is answered
by that copy (``Service``).
"""

from bedside_contracts import subjects
from bedside_contracts.player import (
    BookListenedToRequest,
    CommandRequest,
    CommandResult,
    History,
    HistoryRequest,
    ListenerList,
    ListenersRequest,
    ListenerState,
    Listening,
    Located,
    LocateRequest,
    OfferOutcome,
    OfferPositions,
    RemoveListener,
    StateRequest,
)
from bedside_runtime.bus import Broker, serve_requests
from bedside_runtime.errors import InvalidRequest, NotFound, RemoteFailure
from nats.aio.subscription import Subscription

from bedside_player.service import Service


class BusApi:
    def __init__(self, broker: Broker, service: Service) -> None:
        self.broker = broker
        self.service = service
        self.subs: list[Subscription] = []

    async def state(self, request: StateRequest) -> ListenerState:
        """A listener's state; with ``listener_must_exist``, a listener nobody made is refused
        (only the player knows who the listeners are)."""
        if request.listener_must_exist:
            await self._made(request.listener)
        return await self.service.state(request.listener, request.book)

    async def _made(self, listener: str) -> None:
        if await self.service.listeners.record(listener) is None:
            raise NotFound(f"there is no listener called {listener}")

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        return await self.service.offer(request)

    async def command(self, request: CommandRequest) -> CommandResult:
        """A command the rules refuse (nothing to undo, no list) is an answer, not a bad message."""
        book = await self.service.books.get(request.book)
        try:
            return await self.service.command(request.listener, book, request.command)
        except (InvalidRequest, RemoteFailure) as refused:
            if isinstance(refused, RemoteFailure) and refused.code != InvalidRequest.code:
                raise
            state = await self.service.state(request.listener, request.book)
            return CommandResult(accepted=False, seq=state.seq, state=state, reason=refused.message)

    async def history(self, request: HistoryRequest) -> History:
        return await self.service.history(request)

    async def locate(self, request: LocateRequest) -> Located:
        return await self.service.locate(request)

    async def listeners(self, request: ListenersRequest) -> ListenerList:
        return await self.service.listener_names()

    async def listening(self, request: BookListenedToRequest) -> Listening:
        """Asked only from the terminal, so a listener nobody made is refused: "has not listened to
        any book yet" would hide a misspelt name."""
        await self._made(request.listener)
        return await self.service.listening(request.listener)

    async def start(self) -> None:
        serve = serve_requests
        self.subs = [
            await serve(self.broker, subjects.PLAYER_STATE, "player", StateRequest, self.state),
            await serve(self.broker, subjects.PLAYER_OFFER, "player", OfferPositions, self.offer),
            await serve(self.broker, subjects.PLAYER_COMMAND, "player", CommandRequest, self.command),
            await serve(self.broker, subjects.PLAYER_HISTORY, "player", HistoryRequest, self.history),
            await serve(self.broker, subjects.PLAYER_LOCATE, "player", LocateRequest, self.locate),
            await serve(self.broker, subjects.PLAYER_LISTENERS, "player", ListenersRequest, self.listeners),
            await serve(
                self.broker, subjects.PLAYER_LISTENING, "player", BookListenedToRequest, self.listening
            ),
            await serve(
                self.broker,
                subjects.PLAYER_REMOVE_LISTENER,
                "player",
                RemoveListener,
                self.service.remove_listener,
            ),
        ]

    async def stop(self) -> None:
        for sub in self.subs:
            await sub.unsubscribe()
