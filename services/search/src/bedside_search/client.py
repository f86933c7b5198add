"""Asking the running search service from outside it (the CLI), with errors a person can act on."""

import json
from typing import TypeVar

import nats
from bedside_contracts.common import Contract, Failure
from nats.errors import NoRespondersError, NoServersError
from nats.errors import TimeoutError as NatsTimeout
from pydantic import BaseModel

Rep = TypeVar("Rep", bound=BaseModel)


class SearchUnreachable(Exception):
    """The bus or the search service is not there; the message says which and what to do."""


class SearchRefused(Exception):
    """The search service answered with a Failure."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.error)
        self.failure = failure


async def _quiet(error: Exception) -> None:
    """nats-py prints connection errors itself; the caller turns them into one clear message."""


async def ask(
    servers: list[str], subject: str, request: Contract, reply_model: type[Rep], timeout_s: float
) -> Rep:
    try:
        client = await nats.connect(
            servers, connect_timeout=2, max_reconnect_attempts=1, reconnect_time_wait=0.2, error_cb=_quiet
        )
    except (NoServersError, OSError) as error:
        raise SearchUnreachable(
            f"cannot reach the bus at {', '.join(servers)} ({error}); "
            "is Bedside running? start it with `bedside up`"
        ) from None
    try:
        reply = await client.request(subject, request.model_dump_json().encode(), timeout=timeout_s)
    except NoRespondersError:
        raise SearchUnreachable("the search service is not running; start it with `bedside up`") from None
    except NatsTimeout:
        raise SearchUnreachable(f"the search service did not answer within {timeout_s:g} s") from None
    finally:
        await client.close()
    data = json.loads(reply.data)
    if isinstance(data, dict) and data.get("ok") is False:
        raise SearchRefused(Failure.model_validate(data))
    return reply_model.model_validate(data)
