"""The bus: one connection per process, typed request-reply, health, and the dead-letter path.

Every handler validates what it consumes against the contracts itself, so a bad message
gets a ``Failure`` reply (and a dead-letter copy) instead of a silent drop or a crash.
"""

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import nats
import structlog
from bedside_contracts import subjects
from bedside_contracts.common import Contract, Failure, Health
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import Error as NatsError
from nats.errors import NoRespondersError, NoServersError
from pydantic import BaseModel, ValidationError

from bedside_runtime.errors import (
    BadReply,
    BusUnreachable,
    CallFailed,
    InvalidRequest,
    NoAnswer,
    NoService,
    RemoteFailure,
    ServiceError,
)
from bedside_runtime.settings import Settings

log = structlog.get_logger("bedside.bus")

Req = TypeVar("Req", bound=BaseModel)
Rep = TypeVar("Rep", bound=BaseModel)

DEFAULT_TIMEOUT_S = 10.0
MAX_REQUEST_BYTES = 256 * 1024
"""Requests on the bus are small; anything larger is refused before parsing."""


class Broker:
    """A service's one connection to the bus (nats-py), reconnecting for ever, drained on stop.

    Everything a service does on the bus goes through ``connection``: the request handlers
    of ``serve_requests``, ``call``, JetStream appends and consumers, health.
    """

    def __init__(self, servers: list[str], name: str = "bedside") -> None:
        self.servers = servers
        self.name = name
        self._client: Client | None = None

    async def connect(self) -> Client:
        if self._client is None:
            self._client = await nats.connect(
                self.servers,
                name=self.name,
                max_reconnect_attempts=-1,
                reconnect_time_wait=1,
                error_cb=_log_connection_error,
            )
        return self._client

    @property
    def connection(self) -> Client:
        if self._client is None:
            raise RuntimeError("the broker is not connected yet")
        return self._client

    async def publish(
        self,
        data: bytes,
        subject: str,
        *,
        stream: str | None = None,
        headers: dict[str, str] | None = None,
        timeout_s: float | None = None,
    ) -> None:
        """Publish ``data``; with ``stream``, append it there and wait for the stream's ack."""
        if stream is None:
            await self.connection.publish(subject, data, headers=headers)
            return
        js = self.connection.jetstream()
        await js.publish(subject, data, stream=stream, headers=headers, timeout=timeout_s)

    async def stop(self) -> None:
        """Drain: the handlers finish what they hold, then the connection closes.

        The connection is closed even when the drain is refused: nats-py will not drain a
        client that is reconnecting (the bus went away first), and left open that client
        would go on reconnecting, socket and tasks alive, after its service has stopped.
        """
        if self._client is not None:
            client, self._client = self._client, None
            try:
                await client.drain()
            except NatsError as error:
                log.warning("bus not drained on stop", error=str(error) or type(error).__name__)
            finally:
                await client.close()


async def _log_connection_error(error: Exception) -> None:
    log.warning("bus connection error", error=str(error) or type(error).__name__)


def new_broker(settings: Settings, service: str) -> Broker:
    """The broker of one service process. Nothing connects until ``connect``."""
    return Broker(settings.servers, name=f"bedside-{service}-{os.getpid()}")


def failure_for(error: Exception) -> Failure:
    if isinstance(error, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in error.errors()[:5]
        )
        return Failure(code="invalid", error=f"the request does not fit its contract: {problems}")
    if isinstance(error, CallFailed):  # another service let this one down: say which
        failed = error.service or None
        return Failure.model_validate({"code": error.code, "error": error.message, "failed_service": failed})
    if isinstance(error, ServiceError):
        return Failure.model_validate({"code": error.code, "error": error.message})
    return Failure(code="internal", error="the service failed to answer; it has logged why")


async def answer(
    broker: Broker,
    subject: str,
    service: str,
    *,
    request_model: type[Req],
    handler: Callable[[Req], Awaitable[BaseModel]],
    body: bytes,
    max_bytes: int = MAX_REQUEST_BYTES,
) -> bytes:
    """One request's reply: the handler's typed answer, or a ``Failure`` for anything else."""
    try:
        if len(body) > max_bytes:
            raise InvalidRequest(f"a request of {len(body)} bytes is too large")
        reply = await handler(request_model.model_validate_json(body))
    except Exception as error:  # every failure becomes a reply; the service stays up
        failure = failure_for(error)
        if failure.code == "internal":
            log.exception("handler failed", subject=subject)
        if failure.code == "invalid":
            await dead_letter(broker, service, subject, body, failure.error)
        return failure.model_dump_json().encode()
    return reply.model_dump_json().encode()


async def serve_requests(
    broker: Broker,
    subject: str,
    service: str,
    request_model: type[Req],
    handler: Callable[[Req], Awaitable[BaseModel]],
    *,
    max_in_flight: int = 64,
    max_bytes: int = MAX_REQUEST_BYTES,
) -> Subscription:
    """Answer ``subject`` in the service's queue group with ``handler``, typed both ways.

    The broker must be connected. Requests are answered on a plain nats-py subscription,
    each as its own task (at most ``max_in_flight`` at once), so one request waiting on
    I/O does not hold up the next (adr/0008, adr/0029).
    """
    in_flight = asyncio.Semaphore(max_in_flight)
    running: set[asyncio.Task[None]] = set()

    async def respond(msg: Msg) -> None:
        async with in_flight:
            reply = await answer(
                broker,
                subject,
                service,
                request_model=request_model,
                handler=handler,
                body=msg.data,
                max_bytes=max_bytes,
            )
        if msg.reply:
            await msg.respond(reply)

    async def on_message(msg: Msg) -> None:
        task = asyncio.create_task(respond(msg))
        running.add(task)
        task.add_done_callback(running.discard)

    return await broker.connection.subscribe(subject, queue=subjects.queue_for(service), cb=on_message)


async def dead_letter(broker: Broker, service: str, subject: str, body: bytes, why: str) -> None:
    """Keep a copy of a message that could not be used, with the reason, for an operator."""
    await broker.publish(
        body[:MAX_REQUEST_BYTES],
        subjects.DEAD_LETTER.format(service=service),
        headers={"Bedside-Subject": subject, "Bedside-Reason": why[:1000]},
    )


async def serve_health(
    broker: Broker,
    service: str,
    version: str,
    ready: Callable[[], bool] = lambda: True,
    detail: Callable[[], str] = lambda: "",
) -> Subscription:
    """Answer health checks for ``service`` (every copy answers; callers take the first).

    A service subscribes once its startup work is done, so a copy that answers is serving.
    """
    started = time.monotonic()

    async def health(msg: Msg) -> None:
        reply = Health(
            service=service,
            version=version,
            pid=os.getpid(),
            uptime_s=round(time.monotonic() - started, 3),
            ready=ready(),
            detail=detail(),
        )
        if msg.reply:
            await msg.respond(reply.model_dump_json().encode())

    return await broker.connection.subscribe(subjects.HEALTH.format(service=service), cb=health)


async def call(
    client: Client,
    subject: str,
    request: Contract,
    reply_type: type[Rep],
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Rep:
    """Send a typed request on ``subject`` and return the typed reply.

    The one request-reply client of every service and the CLI. Whatever keeps the reply
    from coming raises one of the ``CallFailed`` family: ``RemoteFailure`` (the service
    answered with a ``Failure``), ``NoService`` (none subscribed), ``NoAnswer`` (too late).
    """
    service = subjects.service_of(subject)
    try:
        message = await client.request(subject, request.model_dump_json().encode(), timeout=timeout_s)
    except NoRespondersError:
        raise NoService(f"the {service} service is not running", service) from None
    except TimeoutError:  # nats-py's own timeout is a TimeoutError too
        raise NoAnswer(f"the {service} service did not answer within {timeout_s:g} s", service) from None
    try:
        data: Any = json.loads(message.data)
        if isinstance(data, dict) and data.get("ok") is False:
            raise RemoteFailure(Failure.model_validate(data), service)
        return reply_type.model_validate(data)
    except (ValueError, ValidationError) as error:  # json's errors are ValueErrors too
        first_line = str(error).splitlines()[0]
        raise BadReply(
            f"the {service} service answered in a shape this one does not read: {first_line}", service
        ) from None


async def _quiet(error: Exception) -> None:
    """nats-py prints connection errors itself; ``connect`` turns them into one clear message."""


RECONNECTS_WAITING_LONG = 120
"""How often, a second apart, a command that waits long (an ingest, a job followed) tries the bus
again once it is gone: `up` starts a bus that died again within seconds."""


@asynccontextmanager
async def connected(servers: list[str], *, waits_long: bool = False) -> AsyncIterator[Client]:
    """A short-lived connection for a caller outside any service (the CLI, first start); one that
    ``waits_long`` rides out a restart of the bus."""
    try:
        client = await nats.connect(
            servers,
            connect_timeout=2,
            max_reconnect_attempts=RECONNECTS_WAITING_LONG if waits_long else 1,
            reconnect_time_wait=1.0 if waits_long else 0.2,
            error_cb=_quiet,
        )
    except (NoServersError, OSError) as error:
        raise BusUnreachable(
            f"cannot reach the bus at {', '.join(servers)} ({error}); "
            "is Bedside running? start it with `bedside up`"
        ) from None
    try:
        yield client
    finally:
        await client.close()


async def call_once(
    servers: list[str], subject: str, request: Contract, reply_type: type[Rep], *, timeout_s: float
) -> Rep:
    """``call`` on a connection of its own, for a command that asks one thing and exits."""
    async with connected(servers) as client:
        return await call(client, subject, request, reply_type, timeout_s=timeout_s)
