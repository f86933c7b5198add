"""Calls from the player to other services, with their failures as the player's own errors."""

from typing import TypeVar

from bedside_contracts.common import Contract
from bedside_runtime.bus import call
from bedside_runtime.errors import (
    Conflict,
    InvalidRequest,
    NotFound,
    RemoteFailure,
    ServiceError,
    Unavailable,
)
from faststream.nats import NatsBroker
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from pydantic import BaseModel

Rep = TypeVar("Rep", bound=BaseModel)


class TimedOut(ServiceError):
    code = "unavailable"


ERRORS: dict[str, type[ServiceError]] = {
    "invalid": InvalidRequest,
    "not_found": NotFound,
    "conflict": Conflict,
}


async def ask(  # noqa: PLR0917
    broker: NatsBroker, service: str, subject: str, request: Contract, reply: type[Rep], timeout_s: float
) -> Rep:
    try:
        return await call(broker, subject, request, reply, timeout_s=timeout_s)
    except RemoteFailure as failure:
        error = ERRORS.get(failure.failure.code, Unavailable)
        raise error(f"{service}: {failure.failure.error}") from None
    except NoRespondersError:
        raise Unavailable(f"the {service} service is not running") from None
    except (NatsTimeout, TimeoutError):
        raise TimedOut(f"the {service} service did not answer within {timeout_s:g} s") from None
