"""Malformed, oversized, wrong-version and unknown messages on every subject a service consumes.

One running system (its own bus, all four services, the sample book). For every
request subject, hypothesis sends 400 messages: random bytes, random JSON, the
subject's own contract with a field dropped, retyped or added, a ``version`` it does not
know, another subject's message, and messages over the size limit. Each must get a
clear answer: a ``Failure`` (and, when the message was invalid, a dead-letter copy on
``bedside.deadletter.<service>``), or, when the message happens to be valid, the
subject's reply. No ``internal`` failure, the same process still answers its health
check afterwards, and a canary listener's state is untouched.

The JetStream subjects services consume are fuzzed too: ``books.ingested.*`` (search's
indexer must dead-letter and drop what it cannot use) and ``player.>`` (the player's
projections must skip what does not fit and keep following the stream).
"""

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import nats
import pytest
from bedside_contracts import subjects
from bedside_contracts.common import Failure, Health
from bedside_contracts.ingest import IngestBook, IngestReport
from bedside_contracts.player import (
    BookListenedToRequest,
    CommandRequest,
    CommandResult,
    History,
    HistoryRequest,
    ListenerList,
    ListenerRemoved,
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
from bedside_contracts.search import (
    Catalog,
    CatalogRequest,
    FindPassage,
    FoundPassages,
    Recall,
    Recalled,
    Recap,
    Recapped,
    Resolve,
    Resolved,
)
from bedside_contracts.turn import Ask, TurnReply
from bedside_e2e import SAMPLE_BOOK, Loop, Stack, sample_transcript, start_stack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nats.aio.client import Client
from nats.aio.msg import Msg
from pydantic import BaseModel

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

CASES = 400  # enough to draw each kind of junk below dozens of times
MAX_REQUEST_BYTES = 256 * 1024
CANARY = "fuzz-canary"
LEAVING = "fuzz-leaving"
"""A listener made only to be removed by the removal subject's one valid message."""
T = TypeVar("T")


@dataclass(frozen=True)
class Target:
    service: str
    subject: str
    reply: type[BaseModel]
    valid: dict[str, Any]
    """One valid request, the seed the mutations start from."""


TARGETS = [
    Target(
        "search",
        subjects.SEARCH_FIND,
        FoundPassages,
        {"book": SAMPLE_BOOK, "here_ms": 60_000, "query": "storm"},
    ),
    Target(
        "search",
        subjects.SEARCH_RECALL,
        Recalled,
        {"book": SAMPLE_BOOK, "here_ms": 60_000, "question": "who"},
    ),
    Target(
        "search",
        subjects.SEARCH_RESOLVE,
        Resolved,
        {"book": SAMPLE_BOOK, "here_ms": 60_000, "targets": [{"passage_id": 1}, {"chapter": 2}]},
    ),
    Target("search", subjects.SEARCH_CATALOG, Catalog, {"book": SAMPLE_BOOK}),
    Target(
        "search",
        subjects.SEARCH_RECAP,
        Recapped,
        {"book": SAMPLE_BOOK, "here_ms": 60_000, "from_ms": 0, "to_ms": 60_000},
    ),
    Target("player", subjects.PLAYER_STATE, ListenerState, {"listener": "fuzz-x", "book": SAMPLE_BOOK}),
    Target(
        "player",
        subjects.PLAYER_OFFER,
        OfferOutcome,
        {"listener": "fuzz-x", "book": SAMPLE_BOOK, "turn_id": "t1", "targets": [{"passage_id": 3}]},
    ),
    Target(
        "player",
        subjects.PLAYER_COMMAND,
        CommandResult,
        {
            "listener": "fuzz-x",
            "book": SAMPLE_BOOK,
            "command": {"op": "report", "device": "d", "position_ms": 1000, "playing": True, "basis_seq": 0},
        },
    ),
    Target("player", subjects.PLAYER_HISTORY, History, {"listener": "fuzz-x", "book": SAMPLE_BOOK}),
    Target(
        "player", subjects.PLAYER_LOCATE, Located, {"listener": "fuzz-x", "book": SAMPLE_BOOK, "chapter": 1}
    ),
    Target("player", subjects.PLAYER_LISTENERS, ListenerList, {}),
    Target("player", subjects.PLAYER_LISTENING, Listening, {"listener": "fuzz-x"}),
    # the first valid message removes a listener made for it; any later one is told there is none
    Target("player", subjects.PLAYER_REMOVE_LISTENER, ListenerRemoved, {"listener": LEAVING}),
    Target(
        "turn",
        subjects.TURN_ASK,
        TurnReply,
        {"listener": "fuzz-x", "book": SAMPLE_BOOK, "utterance": "hello"},
    ),
    Target(
        "ingest", subjects.INGEST_BOOK, IngestReport, {"path": "/nonexistent/book.txt", "book": "fuzz-book"}
    ),
]
SEEDS = [t.valid for t in TARGETS]

# Contracts are imported so a rename breaks this file loudly rather than fuzzing nothing.
REQUESTS: dict[str, type[BaseModel]] = {
    subjects.SEARCH_FIND: FindPassage,
    subjects.SEARCH_RECALL: Recall,
    subjects.SEARCH_RESOLVE: Resolve,
    subjects.SEARCH_CATALOG: CatalogRequest,
    subjects.SEARCH_RECAP: Recap,
    subjects.PLAYER_STATE: StateRequest,
    subjects.PLAYER_OFFER: OfferPositions,
    subjects.PLAYER_COMMAND: CommandRequest,
    subjects.PLAYER_HISTORY: HistoryRequest,
    subjects.PLAYER_LOCATE: LocateRequest,
    subjects.PLAYER_LISTENERS: ListenersRequest,
    subjects.PLAYER_LISTENING: BookListenedToRequest,
    subjects.PLAYER_REMOVE_LISTENER: RemoveListener,
    subjects.TURN_ASK: Ask,
    subjects.INGEST_BOOK: IngestBook,
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=15,
)


def mutations(seed: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """The subject's own request, wrong in one way (or, now and then, still right)."""
    keys = sorted(seed)

    def dropped(key: str) -> dict[str, Any]:
        return {k: v for k, v in seed.items() if k != key}

    def retyped(pair: tuple[str, Any]) -> dict[str, Any]:
        return {**seed, pair[0]: pair[1]}

    # a request of no fields (the listener list) has none to drop or retype
    its_fields = (
        [st.sampled_from(keys).map(dropped), st.tuples(st.sampled_from(keys), json_values).map(retyped)]
        if keys
        else []
    )
    shapes = st.one_of(
        *its_fields,
        st.tuples(st.text(min_size=1, max_size=12), json_values).map(lambda kv: {**seed, kv[0]: kv[1]}),
        st.integers(min_value=0, max_value=99).map(lambda v: {**seed, "version": v}),
        st.sampled_from(["2", "v2", "2.0"]).map(lambda v: {"version": v, "payload": seed}),
        st.sampled_from(SEEDS),  # another subject's message (or, for its own subject, a valid one)
    )
    return shapes.map(lambda value: json.dumps(value).encode())


def bad_messages(seed: dict[str, Any]) -> st.SearchStrategy[bytes]:
    oversized = st.integers(min_value=MAX_REQUEST_BYTES + 1, max_value=MAX_REQUEST_BYTES + 64 * 1024).map(
        lambda size: json.dumps({**seed, "padding": "x" * size}).encode()
    )
    return st.one_of(
        st.binary(max_size=512),
        json_values.map(lambda value: json.dumps(value).encode()),
        st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
        mutations(seed),
        mutations(seed),
        oversized,
    )


@dataclass
class Fuzzing:
    stack: Stack
    loop: Loop
    client: Client
    dead_letters: Counter[str] = field(default_factory=Counter)
    ran: Counter[str] = field(default_factory=Counter)

    def request(self, subject: str, payload: bytes, timeout_s: float = 30) -> bytes:
        return self.request_all(subject, [payload], timeout_s)[0]

    def request_all(self, subject: str, payloads: list[bytes], timeout_s: float = 60) -> list[bytes]:
        """Send every payload (many in flight at once) and return the replies in order."""
        gate = asyncio.Semaphore(32)

        async def ask(payload: bytes) -> bytes:
            async with gate:
                reply: Msg = await self.client.request(subject, payload, timeout=timeout_s)
                return reply.data

        async def ask_all() -> list[bytes]:
            return list(await asyncio.gather(*(ask(p) for p in payloads)))

        return self.loop.run(ask_all(), 900)

    def health(self, service: str) -> Health:
        data = self.request(subjects.HEALTH.format(service=service), b"{}", 5)
        return Health.model_validate_json(data)

    def wait_for_dead_letters(self, service: str, count: int, timeout_s: float = 30) -> int:
        async def wait() -> int:
            deadline = asyncio.get_running_loop().time() + timeout_s
            while asyncio.get_running_loop().time() < deadline:
                if self.dead_letters[service] >= count:
                    break
                await asyncio.sleep(0.05)
            return self.dead_letters[service]

        return self.loop.run(wait(), timeout_s + 5)


@pytest.fixture(scope="module")
def fuzzing() -> Iterator[Fuzzing]:
    stack = start_stack("fuzz")
    loop = Loop()
    client: Client | None = None
    try:
        asyncio.run(prepare(stack))

        async def connect() -> Client:
            return await nats.connect(stack.nats_url, pending_size=64 * 1024 * 1024)

        client = loop.run(connect())
        state = Fuzzing(stack, loop, client)

        async def count(msg: Msg) -> None:
            state.dead_letters[msg.subject.rsplit(".", 1)[-1]] += 1

        loop.run(client.subscribe(subjects.DEAD_LETTER.format(service="*"), cb=count))
        yield state
        print(f"\n[fuzz] cases run per subject: {dict(state.ran)}; total {sum(state.ran.values())}")
    finally:
        # closed on every path: a client left open on a closed loop is a socket the collector
        # finds later, failing whichever test it runs in
        if client is not None and not client.is_closed:
            loop.run(client.close())
        loop.close()
        stack.stop()


async def prepare(stack: Stack) -> None:
    await stack.ingest(sample_transcript(), SAMPLE_BOOK)
    await stack.add_listener(CANARY)
    await stack.add_listener(LEAVING)
    await stack.wait_for_book_on_player(CANARY, SAMPLE_BOOK)
    async with stack.http(CANARY) as http:
        body = {"device": "phone", "position_ms": 42_000, "playing": False, "basis_seq": 0}
        response = await http.post(f"/api/listeners/{CANARY}/books/{SAMPLE_BOOK}/reports", json=body)
        response.raise_for_status()


def canary_state(stack: Stack) -> dict[str, Any]:
    async def get() -> dict[str, Any]:
        async with stack.http(CANARY) as http:
            response = await http.get(f"/api/listeners/{CANARY}/books/{SAMPLE_BOOK}/state")
            response.raise_for_status()
            body: dict[str, Any] = response.json()
            return body

    return asyncio.run(get())


def judge(target: Target, data: bytes, outcomes: Counter[str]) -> None:
    """A clear answer: a Failure with a stable code and words, or the subject's own reply."""
    body = json.loads(data)
    if isinstance(body, dict) and body.get("ok") is False:
        failure = Failure.model_validate(body)
        assert failure.error.strip(), "a failure must say what was wrong"
        assert failure.code != "internal", f"{target.subject}: a handler failed: {failure.error}"
        outcomes[failure.code] += 1
    else:
        target.reply.model_validate(body)
        outcomes["answered"] += 1


@pytest.mark.parametrize("target", TARGETS, ids=[t.subject for t in TARGETS])
def test_every_request_subject_answers_bad_messages_clearly(fuzzing: Fuzzing, target: Target) -> None:
    assert REQUESTS[target.subject] is not None
    before = fuzzing.health(target.service)
    canary_before = canary_state(fuzzing.stack)
    letters_before = fuzzing.dead_letters[target.service]
    outcomes: Counter[str] = Counter()

    payloads: list[bytes] = []

    @settings(max_examples=CASES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(payload=bad_messages(target.valid))
    def collect(payload: bytes) -> None:
        payloads.append(payload)

    collect()  # hypothesis draws the cases; they are then sent many at a time
    for payload, reply in zip(payloads, fuzzing.request_all(target.subject, payloads), strict=True):
        try:
            judge(target, reply, outcomes)
        except AssertionError as error:
            raise AssertionError(f"{error}\nthe message: {payload[:300]!r}") from None
    fuzzing.ran[target.subject] += len(payloads)

    after = fuzzing.health(target.service)
    invalid = outcomes["invalid"]
    letters = fuzzing.wait_for_dead_letters(target.service, letters_before + invalid) - letters_before
    print(
        f"\n[fuzz] {target.subject}: {sum(outcomes.values())} cases, {dict(outcomes)}, dead letters {letters}"
    )
    assert sum(outcomes.values()) >= CASES
    assert after.pid == before.pid, f"{target.service} restarted: it crashed on a message"
    assert after.ready
    assert letters == invalid, "every invalid message leaves exactly one dead-letter copy"
    if target.service == "player":
        assert canary_state(fuzzing.stack) == canary_before, "the canary listener's state changed"


def stream_junk() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=512),
        json_values.map(lambda value: json.dumps(value).encode()),
        st.sampled_from(SEEDS).map(lambda value: json.dumps(value).encode()),
        st.integers(min_value=0, max_value=99).map(lambda v: json.dumps({"version": v}).encode()),
    )


def publish_all(fuzzing: Fuzzing, stream: str, messages: list[tuple[str, bytes]]) -> None:
    async def publish() -> None:
        js = fuzzing.client.jetstream(timeout=10)
        for subject, payload in messages:
            await js.publish(subject, payload, stream=stream)

    fuzzing.loop.run(publish(), 300)


def test_search_indexer_dead_letters_junk_on_books_ingested(fuzzing: Fuzzing) -> None:
    before = fuzzing.health("search")
    letters_before = fuzzing.dead_letters["search"]
    messages: list[tuple[str, bytes]] = []

    @settings(max_examples=CASES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(payload=stream_junk(), token=st.from_regex(r"\A[A-Za-z0-9_-]{1,20}\Z"))
    def collect(payload: bytes, token: str) -> None:
        messages.append((subjects.BOOK_INGESTED.format(book=token), payload))

    collect()
    publish_all(fuzzing, subjects.BOOKS_STREAM, messages)
    fuzzing.ran[subjects.BOOK_INGESTED] += len(messages)
    letters = fuzzing.wait_for_dead_letters("search", letters_before + len(messages), 120) - letters_before
    after = fuzzing.health("search")
    catalog = Catalog.model_validate_json(
        fuzzing.request(subjects.SEARCH_CATALOG, CatalogRequest().model_dump_json().encode())
    )
    print(f"\n[fuzz] {subjects.BOOK_INGESTED}: {len(messages)} junk events, dead letters {letters}")
    assert len(messages) >= CASES
    assert after.pid == before.pid
    assert letters == len(messages), "every unusable BookIngested is dead-lettered"
    assert [b.id for b in catalog.books] == [SAMPLE_BOOK], "junk made a book appear or vanish"


def test_player_projections_skip_junk_in_the_player_stream(fuzzing: Fuzzing) -> None:
    before = fuzzing.health("player")
    canary_before = canary_state(fuzzing.stack)
    messages: list[tuple[str, bytes]] = []

    @settings(max_examples=CASES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(
        payload=stream_junk(),
        tail=st.lists(st.from_regex(r"\A[A-Za-z0-9_-]{1,12}\Z"), min_size=1, max_size=4),
    )
    def collect(payload: bytes, tail: list[str]) -> None:
        # player.<listener>.<book>, and subjects with too few or too many levels
        messages.append(("player." + ".".join(tail), payload))

    collect()
    publish_all(fuzzing, subjects.PLAYER_STREAM, messages)
    fuzzing.ran[subjects.PLAYER_SUBJECTS] += len(messages)

    # The projections must still follow the stream: a new report after the junk shows up.
    async def report_after() -> dict[str, Any]:
        async with fuzzing.stack.http(CANARY) as http:
            body = {
                "device": "phone",
                "position_ms": 43_000,
                "playing": False,
                "basis_seq": canary_before["seq"],
            }
            response = await http.post(f"/api/listeners/{CANARY}/books/{SAMPLE_BOOK}/reports", json=body)
            response.raise_for_status()
            for _ in range(100):
                state: dict[str, Any] = (
                    await http.get(f"/api/listeners/{CANARY}/books/{SAMPLE_BOOK}/state")
                ).json()
                if state["position_ms"] == 43_000:
                    return state
                await asyncio.sleep(0.1)
            return state

    state = asyncio.run(report_after())
    after = fuzzing.health("player")
    print(
        f"\n[fuzz] {subjects.PLAYER_SUBJECTS}: {len(messages)} junk events in the stream; player followed on"
    )
    assert len(messages) >= CASES
    assert after.pid == before.pid
    assert after.ready
    assert state["position_ms"] == 43_000, "the player stopped following its stream after the junk"


def test_player_restarts_over_junk_in_its_stream(fuzzing: Fuzzing) -> None:
    """A player started afresh replays the stream, junk included, to the same state."""
    before = canary_state(fuzzing.stack)
    publish_all(fuzzing, subjects.PLAYER_STREAM, [("player.fuzz-two-tokens", b"{}")])
    processes = fuzzing.stack.system.processes
    processes.children["player"].kill()
    processes.children["player"].wait()
    processes.start("player")
    asyncio.run(fuzzing.stack.wait_for_http())
    replayed = canary_state(fuzzing.stack)
    print(f"[fuzz] player restarted over the junk: canary at {replayed['position_ms']} ms")
    assert replayed == before
