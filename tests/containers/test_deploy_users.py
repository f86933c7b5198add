"""Every service runs under its own NATS user of deploy/nats/auth.conf, and Bedside still works.

A loopback nats-server with only the users of auth.conf; each service process connects
as its own user (as compose connects them); the operator (``ops``) ingests the sample
book and makes a listener; a device reports over HTTP, sends a file to add, and a turn is asked. Then no
service has logged a permissions violation: the permissions are enough, not just tight.
"""

import asyncio
import os
import tempfile
import wave
from collections.abc import Iterator
from pathlib import Path

import httpx
import nats
import pytest
from bedside_adding import send_file
from bedside_contracts import subjects
from bedside_contracts.ingest import IngestBook
from bedside_contracts.subjects import SERVICES
from bedside_contracts.turn import Ask, TurnReply
from bedside_e2e import SAMPLE_BOOK, sample_transcript
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_player.listeners import Listeners
from bedside_runtime.health import wait_until_healthy
from bedside_runtime.nats_server import NatsServer, NatsServerConfig, free_port
from bedside_runtime.settings import Settings

from bedside.processes import ServiceProcesses

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
PASSWORDS = {f"BEDSIDE_NATS_{user.upper()}_PASSWORD": f"pw-{user}" for user in (*SERVICES, "ops")}


@pytest.fixture(scope="module")
def server() -> Iterator[NatsServer]:
    store = Path(tempfile.mkdtemp(prefix="bedside-users-"))
    (store / "auth.conf").write_text((DEPLOY / "nats" / "auth.conf").read_text())
    config = NatsServerConfig(
        store_dir=store, port=free_port(), monitor_port=free_port(), name="users", extra='include "auth.conf"'
    )
    with pytest.MonkeyPatch.context() as patch:
        for name, value in PASSWORDS.items():
            patch.setenv(name, value)
        running = NatsServer(config).start()
    try:
        yield running
    finally:
        running.stop()


def short_recording(folder: Path) -> tuple[Path, Path]:
    """A two-cue WebVTT and three seconds of silence as its recording."""
    transcript = folder / "heard.vtt"
    transcript.write_text(
        "WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nThe lamp was lit at dusk.\n\n"
        "00:00:01.500 --> 00:00:03.000\nThe keeper climbed the stair.\n"
    )
    audio = folder / "heard.wav"
    with wave.open(str(audio), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\x00\x00" * 8000 * 3)
    return transcript, audio


def url(server: NatsServer, user: str) -> str:
    return f"nats://{user}:pw-{user}@127.0.0.1:{server.config.port}"


def test_services_work_under_their_own_users(server: NatsServer) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="bedside-users-data-"))
    http_port = free_port()
    children: dict[str, ServiceProcesses] = {}
    try:
        for name in SERVICES:
            if name == "player":  # as on another machine: what it serves comes over the bus
                data_dir = Path(tempfile.mkdtemp(prefix="bedside-users-player-"))
            env = {
                **os.environ,
                "NATS_URL": url(server, name),
                "BEDSIDE_DATA_DIR": str(data_dir),
                "BEDSIDE_HTTP_PORT": str(http_port),
                "BEDSIDE_LOG_FORMAT": "json",
            }
            env.pop("ANTHROPIC_API_KEY", None)
            processes = ServiceProcesses(Settings(data_dir=data_dir), env)
            processes.start(name)
            children[name] = processes
        seen = asyncio.run(wait_until_healthy([url(server, "ops")], SERVICES, 180))
        logs = {n: children[n].log_path(n).read_text()[-2000:] for n, h in seen.items() if h is None}
        assert all(seen.values()), f"not healthy under their users: {logs}"
        reply = asyncio.run(drive(server, http_port))
        assert reply.mode == "keyless"
        # The server logs every refused publish or subscribe with the user and the subject.
        violations = [line for line in server.log_path.read_text().splitlines() if "Violation" in line]
        print(
            f"\n[deploy users] four services under their own NATS users; turn {reply.outcome}; "
            f"permission violations the server logged: {len(violations)}"
        )
        assert not violations, "\n".join(violations[:10])
    finally:
        for processes in children.values():
            processes.stop()


async def drive(server: NatsServer, http_port: int) -> TurnReply:
    client = await nats.connect(url(server, "ops"))
    try:
        report = await request_ingest(client, IngestBook(path=str(sample_transcript()), book=SAMPLE_BOOK))
        assert await wait_until_ready(client, report.book, report.version, 240)
        transcript, audio = short_recording(Path(tempfile.mkdtemp(prefix="bedside-users-audio-")))
        heard = await request_ingest(
            client, IngestBook(path=str(transcript), audio_path=str(audio), book="heard")
        )
        assert await wait_until_ready(client, heard.book, heard.version, 240)
        sounded = audio.read_bytes()
        audio.unlink()  # ingest's disk is another machine's: the player has only the bus
        token = await (await Listeners.open(client.jetstream())).create("users-listener")
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{http_port}", headers={"Authorization": f"Bearer {token}"}, timeout=30
        ) as http:
            for _ in range(120):
                if (await http.get(f"/api/books/{SAMPLE_BOOK}")).status_code == 200:
                    break
                await asyncio.sleep(0.5)
            # Its recording, from the media bucket into the player's own data directory.
            for _ in range(120):
                if (await http.get("/api/books/heard")).status_code == 200:
                    break
                await asyncio.sleep(0.5)
            played = await http.get("/api/books/heard/audio")
            assert (played.status_code, played.content) == (200, sounded)
            base = f"/api/listeners/users-listener/books/{SAMPLE_BOOK}"
            body = {"device": "phone", "position_ms": 120_000, "playing": True, "basis_seq": 0}
            accepted = await http.post(f"{base}/reports", json=body)
            assert accepted.status_code == 200, accepted.text
            turn = await http.post(f"{base}/turns", json={"utterance": "what has happened so far?"})
            assert turn.status_code == 200, turn.text
            # A file sent from the page: the player puts it in the uploads bucket, ingest takes it
            # out (and deletes it) and refuses it, since a note is no audiobook.
            checked = await http.post("/api/uploads/check", json={"recording": "notes.txt"})
            assert checked.status_code == 422, checked.text  # refused by name, by ingest
            sent = await send_file(http, "notes.txt", b"Once upon a time.")
            refused = await http.post("/api/books/added", json={"recording": sent})
            assert (refused.status_code, "is not an audiobook" in refused.text) == (422, True), refused.text
            assert (await http.get("/api/books/added/nosuchjob")).status_code == 404
        ask = Ask(listener="users-listener", book=SAMPLE_BOOK, utterance="go back a minute")
        raw = await client.request(subjects.TURN_ASK, ask.model_dump_json().encode(), timeout=60)
        reply = TurnReply.model_validate_json(raw.data)
        recorded = await client.jetstream().stream_info(subjects.TURNS_STREAM)
        assert recorded.state.messages >= 2, "the turn service could not record its turns"
        return reply
    finally:
        await client.close()
