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


class RemoteFailure(Exception):
    """A service answered a request with a ``Failure``."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"{failure.code}: {failure.error}")
        self.failure = failure
