"""The other services a turn talks to, as one small port, and its adapter on the bus."""

from typing import Protocol, TypeVar

from bedside_contracts import subjects
from bedside_contracts.common import Contract
from bedside_contracts.player import (
    CommandRequest,
    CommandResult,
    ListenerState,
    Located,
    LocateRequest,
    OfferOutcome,
    OfferPositions,
    StateRequest,
)
from bedside_contracts.search import (
    Catalog,
    CatalogRequest,
    CheckAnswer,
    FindPassage,
    FoundPassages,
    HeardNames,
    NameHints,
    Recall,
    Recalled,
    Recap,
    Recapped,
    Resolve,
    Resolved,
)
from bedside_guard import CheckedAnswer
from bedside_runtime.bus import Broker, call
from pydantic import BaseModel

R = TypeVar("R", bound=BaseModel)


class Backends(Protocol):
    async def find(self, request: FindPassage) -> FoundPassages: ...
    async def recall(self, request: Recall) -> Recalled: ...
    async def check(self, request: CheckAnswer) -> CheckedAnswer: ...
    async def hints(self, request: NameHints) -> HeardNames: ...
    async def recap(self, request: Recap) -> Recapped: ...
    async def resolve(self, request: Resolve) -> Resolved: ...
    async def catalog(self, request: CatalogRequest) -> Catalog: ...
    async def state(self, request: StateRequest) -> ListenerState: ...
    async def offer(self, request: OfferPositions) -> OfferOutcome: ...
    async def command(self, request: CommandRequest) -> CommandResult: ...
    async def locate(self, request: LocateRequest) -> Located: ...


class BusBackends:
    """Search and player over NATS request-reply (``bus.call``: failures raise ``CallFailed``)."""

    def __init__(self, broker: Broker, timeout_s: float) -> None:
        self.broker = broker
        self.timeout_s = timeout_s

    async def _call(self, subject: str, request: Contract, reply: type[R]) -> R:
        return await call(self.broker.connection, subject, request, reply, timeout_s=self.timeout_s)

    async def find(self, request: FindPassage) -> FoundPassages:
        return await self._call(subjects.SEARCH_FIND, request, FoundPassages)

    async def recall(self, request: Recall) -> Recalled:
        return await self._call(subjects.SEARCH_RECALL, request, Recalled)

    async def check(self, request: CheckAnswer) -> CheckedAnswer:
        return await self._call(subjects.SEARCH_CHECK, request, CheckedAnswer)

    async def hints(self, request: NameHints) -> HeardNames:
        return await self._call(subjects.SEARCH_HINTS, request, HeardNames)

    async def recap(self, request: Recap) -> Recapped:
        return await self._call(subjects.SEARCH_RECAP, request, Recapped)

    async def resolve(self, request: Resolve) -> Resolved:
        return await self._call(subjects.SEARCH_RESOLVE, request, Resolved)

    async def catalog(self, request: CatalogRequest) -> Catalog:
        return await self._call(subjects.SEARCH_CATALOG, request, Catalog)

    async def state(self, request: StateRequest) -> ListenerState:
        return await self._call(subjects.PLAYER_STATE, request, ListenerState)

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        return await self._call(subjects.PLAYER_OFFER, request, OfferOutcome)

    async def command(self, request: CommandRequest) -> CommandResult:
        return await self._call(subjects.PLAYER_COMMAND, request, CommandResult)

    async def locate(self, request: LocateRequest) -> Located:
        return await self._call(subjects.PLAYER_LOCATE, request, Located)
