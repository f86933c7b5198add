"""A reply that does not fit its contract is the answering service's failure, not the caller's."""

import pytest
from bedside_contracts.common import Failure
from bedside_contracts.player import StateRequest
from bedside_contracts.search import Catalog, CatalogRequest
from bedside_runtime.bus import call, failure_for
from bedside_runtime.errors import CallFailed
from nats.aio.client import Client
from nats.aio.msg import Msg
from pydantic import ValidationError


async def test_a_reply_that_does_not_fit_says_the_service_answering_failed(nats_client: Client) -> None:
    """A review: a reply of another version raised a plain ValidationError, which the handler that
    called reported as its own caller's request not fitting its contract (and dead-lettered it)."""

    async def answer_in_another_shape(msg: Msg) -> None:
        await msg.respond(b'{"volumes": ["b1"]}')

    subject = "bedside.search.catalog-of-another-version"
    sub = await nats_client.subscribe(subject, cb=answer_in_another_shape)
    try:
        with pytest.raises(CallFailed) as raised:
            await call(nats_client, subject, CatalogRequest(), Catalog, timeout_s=5)
        assert (raised.value.code, raised.value.service) == ("unavailable", "search")
        assert "search" in str(raised.value)
        passed_on: Failure = failure_for(raised.value)  # what the calling handler answers its own caller
        assert (passed_on.code, passed_on.failed_service) == ("unavailable", "search")
    finally:
        await sub.unsubscribe()


def test_a_request_that_does_not_fit_is_still_the_callers() -> None:
    with pytest.raises(ValidationError) as raised:
        StateRequest.model_validate({"listener": "a b"})
    assert failure_for(raised.value).code == "invalid"
