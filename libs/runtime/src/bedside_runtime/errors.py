"""Errors a handler may raise on purpose; each becomes a clear ``Failure`` reply."""

from bedside_contracts.common import Failure


class ServiceError(Exception):
    """A request that cannot be served, with a stable code for the caller."""

    code: str = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidRequest(ServiceError):
    code = "invalid"


class NotFound(ServiceError):
    code = "not_found"


class Conflict(ServiceError):
    code = "conflict"


class Unavailable(ServiceError):
    code = "unavailable"


class NoRoom(ServiceError):
    """A listener's file would fill the disk it is to be written to."""

    code = "no_room"


class CallFailed(ServiceError):
    """A request to another service got no typed answer: the one error family of ``bus.call``.

    It is a ``ServiceError``, so a handler that lets it through answers its own caller with
    a ``Failure`` of the same code, naming the service that failed (``Failure.failed_service``):
    the player's offer that search could not resolve says it was search, so the turn does not
    tell the listener the player failed.
    """

    code = "unavailable"

    def __init__(self, message: str, service: str = "") -> None:
        super().__init__(message)
        self.service = service
        """The service that failed ("" when not known)."""


PASSED_ON = frozenset({"invalid", "not_found", "conflict", "no_room"})
"""Failure codes a caller passes on as they are; any other means the service let it down."""


class RemoteFailure(CallFailed):
    """A service answered a request with a ``Failure`` (kept whole in ``failure``)."""

    def __init__(self, failure: Failure, service: str = "") -> None:
        # A failure another service behind it passed on is that service's failure.
        super().__init__(
            f"{service}: {failure.error}" if service else failure.error, failure.failed_service or service
        )
        self.failure = failure
        self.code = failure.code if failure.code in PASSED_ON else "unavailable"


class NoService(CallFailed):
    """No copy of the service is subscribed (NATS had no responders)."""


class NoAnswer(CallFailed):
    """The service did not answer in time."""


class BadReply(CallFailed):
    """The service answered in a shape its contract does not have (two versions side by side): its
    failure, never the caller's request's."""


class BusUnreachable(CallFailed):
    """The bus itself could not be reached (only callers outside a service connect themselves)."""
