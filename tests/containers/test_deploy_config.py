"""The deployment files say what SCALING.md says: checked without a container engine.

compose.yaml's shape, the NATS cluster config as the real nats-server reads it, and the
per-service users of deploy/nats/auth.conf enforced by a real server on loopback.
"""

import asyncio
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import nats
import pytest
from bedside_contracts.subjects import SERVICES
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port, nats_server_binary
from nats.aio.client import Client
from nats.js.api import StreamConfig

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
PASSWORDS = {f"BEDSIDE_NATS_{user.upper()}_PASSWORD": f"pw-{user}" for user in (*SERVICES, "ops")}


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text())
    return data


def test_compose_runs_a_three_node_cluster_qdrant_and_every_service() -> None:
    services = compose()["services"]
    assert {"nats-1", "nats-2", "nats-3", "qdrant", *SERVICES} <= set(services)
    for node in ("nats-1", "nats-2", "nats-3"):
        assert services[node]["environment"]["NATS_SERVER_NAME"] == node
        assert any(volume.endswith(":/data") for volume in services[node]["volumes"])
        assert services[node]["healthcheck"]["test"]
    for name in SERVICES:
        service = services[name]
        assert service["command"] == ["serve", name]
        assert service["build"] == {"context": "deploy/.build", "dockerfile": "../Dockerfile"}
        assert service["healthcheck"]["test"]
        env = service["environment"]
        assert env["BEDSIDE_STREAM_REPLICAS"] == "3"
        assert env["BEDSIDE_SERVICE"] == name
        urls = env["NATS_URL"].split(",")
        assert len(urls) == 3
        assert all(url.startswith(f"nats://{name}:") for url in urls), "each service connects as its own user"
        if name == "search":
            assert env["QDRANT_URL"].startswith("http://qdrant:"), "copies share a Qdrant server"
        else:
            assert "QDRANT_URL" not in env, "only search opens the vector store"
    for name in ("search", "turn", "player"):
        assert services[name]["deploy"]["replicas"] >= 2
    assert services["ingest"]["deploy"]["replicas"] == 1


def test_env_example_names_every_password_compose_needs() -> None:
    example = (DEPLOY / ".env.example").read_text()
    for variable in PASSWORDS:
        assert f"{variable}=" in example
        assert f"${{{variable}" in (REPO / "compose.yaml").read_text()


def test_the_cluster_config_is_valid_and_fsyncs_before_acks() -> None:
    conf = (DEPLOY / "nats" / "cluster.conf").read_text()
    assert "sync_interval: always" in conf
    done = subprocess.run(
        [str(nats_server_binary()), "-c", str(DEPLOY / "nats" / "cluster.conf"), "-t"],
        env={**os.environ, **PASSWORDS, "NATS_SERVER_NAME": "nats-1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout


@pytest.fixture(scope="module")
def authorized_server() -> Iterator[NatsServer]:
    """A loopback server whose only users are the ones of deploy/nats/auth.conf."""
    store = Path(tempfile.mkdtemp(prefix="bedside-auth-"))
    (store / "auth.conf").write_text((DEPLOY / "nats" / "auth.conf").read_text())
    config = NatsServerConfig(
        store_dir=store,
        port=free_port(),
        monitor_port=free_port(),
        name="deploy-auth",  # its own config file is deploy-auth.conf, beside auth.conf
        extra='include "auth.conf"',
    )
    # auth.conf reads the passwords from the environment, as in compose.
    with pytest.MonkeyPatch.context() as patch:
        for name, value in PASSWORDS.items():
            patch.setenv(name, value)
        server = NatsServer(config).start()
    try:
        yield server
    finally:
        server.stop()


def test_the_healthcheck_with_no_bus_says_unhealthy_and_why(tmp_path: Path) -> None:
    """Nothing listens on the bus's port: the check ends, unhealthy, with one line of why."""
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "BEDSIDE_NATS_PORT": str(free_port())}
    done = subprocess.run(
        [sys.executable, str(DEPLOY / "healthcheck.py"), "search"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 1, done.stderr
    assert "search: cannot reach the bus" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


class Session:
    def __init__(self, client: Client, errors: list[str]) -> None:
        self.client = client
        self.errors = errors


async def as_user(server: NatsServer, user: str) -> Session:
    errors: list[str] = []

    async def on_error(error: Exception) -> None:
        errors.append(str(error))

    client = await nats.connect(
        f"nats://{user}:pw-{user}@127.0.0.1:{server.config.port}",
        error_cb=on_error,
        max_reconnect_attempts=0,
    )
    return Session(client, errors)


@pytest.fixture
async def sessions(authorized_server: NatsServer) -> AsyncIterator[dict[str, Session]]:
    opened = {user: await as_user(authorized_server, user) for user in (*SERVICES, "ops")}
    try:
        yield opened
    finally:
        for session in opened.values():
            await session.client.close()


async def violations_after(session: Session, subject: str) -> list[str]:
    before = len(session.errors)
    await session.client.publish(subject, b"{}")
    await session.client.flush()
    await asyncio.sleep(0.2)  # the server reports a violation asynchronously
    return [e for e in session.errors[before:] if "ermissions" in e]


async def test_a_wrong_password_is_refused(authorized_server: NatsServer) -> None:
    # Spoken in the protocol itself: nats-py leaves a refused socket for the collector.
    reader, writer = await asyncio.open_connection("127.0.0.1", authorized_server.config.port)
    try:
        assert (await reader.readline()).startswith(b"INFO ")
        writer.write(b'CONNECT {"user":"player","pass":"wrong","verbose":false}\r\nPING\r\n')
        await writer.drain()
        answer = await asyncio.wait_for(reader.readline(), 5)
    finally:
        writer.close()
        await writer.wait_closed()
    assert answer.startswith(b"-ERR 'Authorization Violation'"), answer


@pytest.mark.parametrize(
    ("user", "subject", "allowed"),
    [
        ("player", "player.someone.book", True),
        ("player", "bedside.push.someone.book", True),
        ("player", "turns.completed.someone.book", False),
        ("player", "books.ready.book", False),
        ("player", "bedside.ingest.cancel", True),  # the page stops a book it is adding
        ("player", "bedside.ingest.remove", False),
        ("turn", "turns.completed.someone.book", True),
        ("turn", "player.someone.book", False),
        ("turn", "bedside.search.find", True),
        ("search", "books.ready.book", True),
        ("search", "books.ingested.book", False),
        ("search", "player.someone.book", False),
        ("ingest", "books.ingested.book", True),
        ("ingest", "bedside.deadletter.player", False),
        ("ingest", "bedside.player.command", False),
    ],
)
async def test_each_service_may_publish_only_its_own_subjects(
    sessions: dict[str, Session], user: str, subject: str, allowed: bool
) -> None:
    violations = await violations_after(sessions[user], subject)
    assert (not violations) == allowed, violations


async def test_only_the_owner_writes_the_player_stream(sessions: dict[str, Session]) -> None:
    ops = sessions["ops"].client.jetstream(timeout=5)
    await ops.add_stream(StreamConfig(name="PLAYER", subjects=["player.>"]))
    ack = await sessions["player"].client.jetstream(timeout=5).publish("player.someone.book", b"{}")
    assert ack.stream == "PLAYER"
    with pytest.raises(Exception):  # noqa: B017, PT011 - refused: no ack ever comes back
        await sessions["turn"].client.jetstream(timeout=1).publish("player.someone.book", b"{}")
    with pytest.raises(Exception):  # noqa: B017, PT011 - the turn user may not read PLAYER's config
        await sessions["turn"].client.jetstream(timeout=1).stream_info("PLAYER")
    info = await ops.stream_info("PLAYER")
    assert info.state.messages == 1
