"""Contract tests in containers: NATS and every service as containers, driven over the network.

The engine is rootful podman serving the Docker API (tests/support/bedside_containers.py);
the images are built here without a registry: nats-server FROM scratch, a Python base
made offline from this machine's Debian python3.11, and the service image from
deploy/Dockerfile. testcontainers runs the containers on a user network where the
services find NATS as ``nats:4222``. Without root every test here is skipped, saying why;
as root, a missing piece or an engine that cannot start a container fails them in one line.
"""

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
from bedside_adding import followed_to_the_end, send_file
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_containers import NATS_IMAGE, SERVICE_IMAGE, Engine, missing_pieces, unavailable
from bedside_contracts import subjects
from bedside_contracts.common import Health
from bedside_contracts.ingest import IngestBook
from bedside_contracts.search import Catalog, CatalogRequest, FindPassage, FoundPassages
from bedside_contracts.subjects import SERVICES
from bedside_contracts.turn import Ask, TurnReply
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_network_lock import network_turn
from bedside_player.listeners import Listeners
from bedside_testing import add_listener
from nats.js.api import StreamConfig

pytestmark = [pytest.mark.containers, pytest.mark.slow, pytest.mark.timeout(1200)]

SAMPLE_IN_IMAGE = "/opt/bedside/site/bedside_ingest/sample/sample.vtt"
PLAYER_PORT = 8787


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    reason = unavailable()
    if reason:
        print(f"\n[containers] skipped: {reason}")
        pytest.skip(reason)
    if incomplete := missing_pieces():
        pytest.fail(f"the container engine is incomplete: {incomplete}", pytrace=False)
    with network_turn(adds_interfaces=True):
        running = Engine()
        try:
            running.start()
            running.build_nats_image()
            if complaint := running.smoke_test():
                pytest.fail(f"the container engine cannot start a container: {complaint}", pytrace=False)
            running.build_service_image()
        except BaseException:
            running.stop()
            raise
        with pytest.MonkeyPatch.context() as patch:
            for key, value in running.docker_env.items():
                patch.setenv(key, value)
            try:
                yield running
            finally:
                running.stop()


def nats_container(network: Any = None) -> Any:
    from testcontainers.core.container import DockerContainer  # noqa: PLC0415 - reads the env at import
    from testcontainers.core.wait_strategies import LogMessageWaitStrategy  # noqa: PLC0415

    container = (
        DockerContainer(NATS_IMAGE)
        .with_command("-js -sd /data")
        .with_exposed_ports(4222)
        .waiting_for(LogMessageWaitStrategy("Server is ready"))
    )
    if network is not None:
        container = container.with_network(network).with_network_aliases("nats")
    return container


def test_the_scratch_nats_image_serves_jetstream(engine: Engine) -> None:
    with nats_container() as container:
        url = f"nats://{container.get_container_host_ip()}:{container.get_exposed_port(4222)}"

        async def round_trip() -> bytes:
            client = await nats.connect(url)
            try:
                js = client.jetstream()
                await js.add_stream(StreamConfig(name="CTR", subjects=["ctr.>"]))
                await js.publish("ctr.one", b"hello")
                sub = await js.pull_subscribe("ctr.one", durable="ctr")
                [message] = await sub.fetch(1, timeout=5)
                await message.ack()
                return message.data
            finally:
                await client.close()

        assert asyncio.run(round_trip()) == b"hello"


@dataclass
class Deployed:
    nats_url: str
    player_url: str
    containers: dict[str, Any]


@pytest.fixture(scope="module")
def deployed(engine: Engine) -> Iterator[Deployed]:
    from testcontainers.core.container import DockerContainer  # noqa: PLC0415 - reads the env at import
    from testcontainers.core.network import Network  # noqa: PLC0415

    with Network() as network, nats_container(network) as bus:
        containers: dict[str, Any] = {}
        try:
            for name in SERVICES:
                container = (
                    DockerContainer(SERVICE_IMAGE)
                    .with_command(f"serve {name}")
                    .with_network(network)
                    .with_envs(
                        NATS_URL="nats://nats:4222",
                        BEDSIDE_DATA_DIR="/data",
                        BEDSIDE_SERVICE=name,
                        BEDSIDE_HTTP_HOST="0.0.0.0",
                        BEDSIDE_HTTP_PORT=str(PLAYER_PORT),
                    )
                )
                if name == "player":
                    container = container.with_exposed_ports(PLAYER_PORT)
                containers[name] = container.start()
            host = bus.get_container_host_ip()
            player = containers["player"]
            yield Deployed(
                nats_url=f"nats://{host}:{bus.get_exposed_port(4222)}",
                player_url=f"http://{player.get_container_host_ip()}:{player.get_exposed_port(PLAYER_PORT)}",
                containers=containers,
            )
        finally:
            for container in containers.values():
                container.stop()


async def healths(url: str, timeout_s: float = 180) -> dict[str, Health]:
    client = await nats.connect(url)
    seen: dict[str, Health] = {}
    try:
        deadline = asyncio.get_running_loop().time() + timeout_s
        while len(seen) < len(SERVICES) and asyncio.get_running_loop().time() < deadline:
            for name in SERVICES:
                if name in seen:
                    continue
                try:
                    reply = await client.request(subjects.HEALTH.format(service=name), b"{}", timeout=1)
                except Exception:
                    continue
                health = Health.model_validate_json(reply.data)
                if health.ready:
                    seen[name] = health
            await asyncio.sleep(0.5)
    finally:
        await client.close()
    return seen


def test_every_service_container_answers_health_over_the_network(deployed: Deployed) -> None:
    seen = asyncio.run(healths(deployed.nats_url))
    logs = {
        name: c.get_logs()[0][-1500:].decode(errors="replace")
        for name, c in deployed.containers.items()
        if name not in seen
    }
    assert set(seen) == set(SERVICES), f"not healthy: {logs}"
    # deploy/healthcheck.py, as compose runs it inside each container
    for name, container in deployed.containers.items():
        result = container.exec(["python3", "/opt/bedside/healthcheck.py", name])
        assert result.exit_code == 0, result.output


def test_the_contracts_hold_between_containers(deployed: Deployed) -> None:
    assert set(asyncio.run(healths(deployed.nats_url))) == set(SERVICES)

    async def drive() -> dict[str, Any]:
        client = await nats.connect(deployed.nats_url)
        try:
            report = await request_ingest(
                client, IngestBook(path=SAMPLE_IN_IMAGE, book="sample"), timeout_s=600
            )
            assert await wait_until_ready(client, report.book, report.version, 300)
            catalog = Catalog.model_validate_json(
                (
                    await client.request(
                        subjects.SEARCH_CATALOG, CatalogRequest().model_dump_json().encode(), timeout=10
                    )
                ).data
            )
            found = FoundPassages.model_validate_json(
                (
                    await client.request(
                        subjects.SEARCH_FIND,
                        FindPassage(book="sample", here_ms=60_000, query="a storm")
                        .model_dump_json()
                        .encode(),
                        timeout=10,
                    )
                ).data
            )
            token = await (await Listeners.open(client.jetstream())).create("ctr-listener")
            async with httpx.AsyncClient(
                base_url=deployed.player_url, headers={"Authorization": f"Bearer {token}"}, timeout=30
            ) as http:
                for _ in range(120):  # the player learns the book from search's catalog
                    if (await http.get("/api/books/sample")).status_code == 200:
                        break
                    await asyncio.sleep(0.5)
                base = "/api/listeners/ctr-listener/books/sample"
                body = {"device": "phone", "position_ms": 90_000, "playing": True, "basis_seq": 0}
                accepted = (await http.post(f"{base}/reports", json=body)).json()
                state = (await http.get(f"{base}/state")).json()
            ask = Ask(listener="ctr-listener", book="sample", utterance="what has happened so far?")
            turn = TurnReply.model_validate_json(
                (await client.request(subjects.TURN_ASK, ask.model_dump_json().encode(), timeout=60)).data
            )
            return {
                "report": report,
                "catalog": catalog,
                "found": found,
                "accepted": accepted,
                "state": state,
                "turn": turn,
            }
        finally:
            await client.close()

    seen = asyncio.run(drive())
    print(
        f"\n[containers] ingest {seen['report'].passages} passages; "
        f"catalog {[b.id for b in seen['catalog'].books]}; "
        f"find {len(seen['found'].places)} places; report seq {seen['accepted']['seq']}; "
        f"turn {seen['turn'].outcome} ({seen['turn'].mode})"
    )
    assert [b.id for b in seen["catalog"].books] == ["sample"]
    assert seen["found"].places
    assert seen["state"]["position_ms"] == 90_000
    assert seen["state"]["seq"] == seen["accepted"]["seq"]
    assert seen["turn"].mode == "keyless"


def test_an_audiobook_sent_to_the_player_container_plays_from_it(deployed: Deployed, tmp_path: Path) -> None:
    """Each container has its own disk: the file crosses to ingest in the uploads bucket and the
    recording made a book comes back to the player in the media bucket, as in compose."""
    need_espeak()
    recording = write_audiobook(
        tmp_path / "Gull Point.m4b",
        speak_book(sample_chapters(chapters=1, sentences=2)),
        tags={"title": "Gull"},
    )
    sent = recording.read_bytes()
    token = asyncio.run(add_listener(deployed.nats_url, "ctr-adder"))

    async def drive() -> tuple[dict[str, Any], httpx.Response]:
        async with httpx.AsyncClient(
            base_url=deployed.player_url, headers={"Authorization": f"Bearer {token}"}, timeout=60
        ) as http:
            uploaded = await send_file(http, recording.name, sent)
            started = await http.post("/api/books/added", json={"recording": uploaded})
            assert started.status_code == 202, started.text
            ended = await followed_to_the_end(http, started.json()["job"], timeout_s=600)
            assert ended["state"] == "done", ended  # and served: search has indexed it
            return ended, await http.get(f"/api/books/{ended['book']}/audio")

    ended, played = asyncio.run(drive())
    print(
        f"\n[containers] a {len(sent)}-byte m4b sent to the player became {ended['book']}; "
        f"played {played.status_code}"
    )
    assert played.status_code == 200, played.text
    assert played.content == sent
