"""The HTTP API fuzzed from its own OpenAPI document by schemathesis, against the real system.

One running system (its own bus, all four services, the sample book, one listener). Every
documented operation gets a fixed number of generated cases, valid and invalid, with every
check schemathesis has (no 5xx, each status and body documented and valid against the
schema, invalid data refused) plus two of ours: valid data is never refused for its schema (a
domain refusal, such as a basis from the future, names no field), and an error reply never
echoes what was sent. Half the positive cases aim at the real listener and book so that the
happy paths are reached, the other half keep the generated names. The event stream is left
out: it never ends, and the player tests cover it. Then the stateful phase: sequences of calls
that schemathesis links by what earlier replies returned (a state's listener, book and seq into
the next report, seek or lookup), under the same checks.
"""

import asyncio
import itertools
import json
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from bedside_e2e import SAMPLE_BOOK, Stack, sample_transcript, start_stack
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import APIOperation, BaseSchema, Case, CheckContext, GenerationMode, Response
from schemathesis.core.result import Err, Ok
from schemathesis.specs.openapi.checks import positive_data_acceptance

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

CASES_PER_OPERATION = 60
SEQUENCES = 40
STEPS = 6
LISTENER = "fuzzer"
ECHO_MIN_CHARS = 8
AnyCase = Case[Any]
Operation = APIOperation[Any, Any, Any, Any]


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    running = start_stack("fuzz-http")
    try:
        asyncio.run(running.ingest(sample_transcript(), SAMPLE_BOOK))
        asyncio.run(running.add_listener(LISTENER))
        asyncio.run(running.wait_for_book_on_player(LISTENER, SAMPLE_BOOK))
        yield running
    finally:
        running.stop()


def aimed(names: dict[str, Any]) -> bool:
    """Half the cases, chosen by what was generated, so a replayed case is aimed the same way."""
    return zlib.crc32(repr(sorted(names.items())).encode()) % 2 == 0


def aim(case: AnyCase) -> None:
    """Point half the cases at the real listener and book, so that the happy paths are reached."""
    names = case.path_parameters
    if names and aimed(names):
        case.path_parameters = {
            **names,
            **({"listener": LISTENER} if "listener" in names else {}),
            **({"book": SAMPLE_BOOK} if "book" in names else {}),
        }


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


@schemathesis.serializer("audio/wav")
def recording(ctx: schemathesis.SerializationContext, value: Any) -> bytes:
    """A spoken question's body is sent as the bytes generated (the player does not parse it)."""
    return value if isinstance(value, bytes) else json.dumps(value).encode()


@schemathesis.check
def error_replies_do_not_echo_the_body(ctx: CheckContext, response: Response, case: AnyCase) -> bool | None:
    if response.status_code < 400:
        return None
    reply = response.text
    for sent in strings_in(case.body if not isinstance(case.body, bytes) else None):
        if len(sent) >= ECHO_MIN_CHARS and json.dumps(sent)[1:-1] in reply:
            raise AssertionError(f"a {response.status_code} reply echoes {sent[:40]!r}")
    return None


def bearer(stack: Stack) -> dict[str, str]:
    return {"Authorization": f"Bearer {stack.tokens[LISTENER]}"}


def documented(stack: Stack) -> BaseSchema:
    return schemathesis.openapi.from_url(f"{stack.http_url}/api/openapi.json").exclude(path_regex=r"/events$")


def fuzz(stack: Stack, operation: Operation, mode: GenerationMode) -> None:
    """Generated cases for one operation in one mode; raises what schemathesis or we found."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=CASES_PER_OPERATION,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def answered_as_documented(case: AnyCase) -> None:
        if mode is GenerationMode.POSITIVE:
            aim(case)
        response = case.call_and_validate(
            base_url=stack.http_url,
            headers=bearer(stack),
            additional_checks=[error_replies_do_not_echo_the_body],
            excluded_checks=[positive_data_acceptance],
        )
        if mode is GenerationMode.POSITIVE and response.status_code == 422:
            # A domain refusal (a basis from the future, a time past the end) names no field;
            # a schema-valid request refused for its schema would.
            assert not response.json()["fields"], response.text

    answered_as_documented()


def test_the_api_answers_every_generated_request_as_documented(stack: Stack) -> None:
    api = schemathesis.openapi.from_url(f"{stack.http_url}/api/openapi.json").exclude(path_regex=r"/events$")
    results = list(api.get_all_operations())
    assert not [result.err() for result in results if isinstance(result, Err)]
    operations = [result.ok() for result in results if isinstance(result, Ok)]
    failures: dict[str, str] = {}
    unsatisfiable: list[str] = []
    for operation, mode in itertools.product(operations, GenerationMode):
        try:
            fuzz(stack, operation, mode)
        except Unsatisfiable:
            unsatisfiable.append(f"{operation.label} {mode.value}")
        except (AssertionError, BaseExceptionGroup) as failure:  # every operation is tried, then all shown
            failures[f"{operation.label} {mode.value}"] = str(failure)[:1500]
    print(
        f"\n[fuzz-http] {len(operations)} operations, both modes, up to {CASES_PER_OPERATION} cases each;"
        f" nothing invalid to generate for: {unsatisfiable}"
    )
    assert not failures, "\n\n".join(f"{name}:\n{text}" for name, text in failures.items())


def test_sequences_of_calls_hold_up(stack: Stack) -> None:
    """The stateful phase: chains of calls linked by what earlier replies returned."""
    machine = documented(stack).as_state_machine()

    class Sequences(machine):  # type: ignore[misc, valid-type]  # schemathesis builds the machine at run time
        def before_call(self, case: AnyCase) -> None:
            aim(case)

        def get_call_kwargs(self, case: AnyCase) -> dict[str, Any]:
            return {"base_url": stack.http_url, "headers": bearer(stack)}

        def validate_response(
            self, response: Response, case: AnyCase, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            case.validate_response(
                response,
                additional_checks=[error_replies_do_not_echo_the_body],
                excluded_checks=[positive_data_acceptance],
                transport_kwargs=kwargs,
            )

    Sequences.run(
        settings=settings(
            max_examples=SEQUENCES,
            stateful_step_count=STEPS,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
