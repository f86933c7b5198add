"""The other services a turn talks to, as one small port, and its adapter on the bus."""

from typing import Protocol, TypeVar

from bedside_contracts import subjects
from bedside_contracts.common import Contract
from bedside_contracts.player import (
    OFFER_WAITS,
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
from bedside_runtime.errors import PASSED_ON, NoService, RemoteFailure, ServiceError
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


class TurnBackends(Backends, Protocol):
    """The port as one turn holds it: it remembers which services let the turn down."""

    @property
    def let_down_by(self) -> frozenset[str]:
        """The services ("search", "player") that failed a request in this turn."""
        ...

    @property
    def out_of_reach(self) -> frozenset[str]:
        """Of those, the ones that did not answer at all (no copy running, no answer in time)."""
        ...

    def for_one_turn(self) -> "TurnBackends":
        """A fresh memory for the next turn, on the same connection."""
        ...


class BusBackends:
    """Search and player over NATS request-reply (``bus.call``: failures raise ``CallFailed``).

    One copy per turn (``for_one_turn``): a service that failed a request in the turn (no copy
    running, no answer in time, or an answer that it failed) is not asked again in that turn, and
    the next request to it fails at once. Otherwise a stalled search was waited for once by the
    find and again by the answer check, each a full timeout, before the listener heard anything.
    """

    def __init__(self, broker: Broker, timeout_s: float) -> None:
        self.broker = broker
        self.timeout_s = timeout_s
        self._let_down_by: set[str] = set()
        self._out_of_reach: set[str] = set()

    @property
    def let_down_by(self) -> frozenset[str]:
        return frozenset(self._let_down_by)

    @property
    def out_of_reach(self) -> frozenset[str]:
        return frozenset(self._out_of_reach)

    def for_one_turn(self) -> "BusBackends":
        return BusBackends(self.broker, self.timeout_s)

    async def _call(self, subject: str, request: Contract, reply: type[R], waits: float = 1) -> R:
        """``waits``: how many timeouts the service may itself spend on the services behind it."""
        service = subjects.service_of(subject)
        if service in self._let_down_by:
            raise NoService(f"the {service} service let this turn down already", service)
        try:
            return await call(
                self.broker.connection, subject, request, reply, timeout_s=waits * self.timeout_s
            )
        except ServiceError as error:
            if isinstance(error, RemoteFailure):
                if error.failure.code not in PASSED_ON:  # a refusal ("not_found", "invalid") is an answer
                    # It answered: the failure is its own, or that of the service behind it it names.
                    self._let_down_by.add(error.failure.failed_service or service)
            else:
                self._let_down_by.add(service)
                self._out_of_reach.add(service)
            raise

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
        # The player resolves the places with search, waiting for it as long as this turn waits for
        # any service: this call waits longer, so a stalled search is told by the player's failure
        # naming search, not by this call's own timeout firing at that moment as if the player
        # were out of reach.
        return await self._call(subjects.PLAYER_OFFER, request, OfferOutcome, waits=OFFER_WAITS)

    async def command(self, request: CommandRequest) -> CommandResult:
        return await self._call(subjects.PLAYER_COMMAND, request, CommandResult)

    async def locate(self, request: LocateRequest) -> Located:
        return await self._call(subjects.PLAYER_LOCATE, request, Located)
