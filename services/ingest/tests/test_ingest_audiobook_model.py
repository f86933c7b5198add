"""BEDSIDE_WHISPER_MODEL_DIR names the model; a folder that holds none fails the job plainly,
and the job is recorded failed (so a restart does not run it again)."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts.ingest import IngestBook
from bedside_ingest.client import list_jobs, request_ingest
from bedside_ingest.main import register
from bedside_runtime.bus import new_broker
from bedside_runtime.errors import RemoteFailure
from bedside_runtime.settings import Settings
from nats.aio.client import Client

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
async def client(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    settings = Settings(
        nats_url=nats_url,
        data_dir=tmp_path_factory.mktemp("ingest-model-data"),
        whisper_model_dir=tmp_path_factory.mktemp("not-a-model"),
    )
    broker = new_broker(settings, "ingest")
    await broker.connect()
    close = await register(broker, settings)
    connection = await nats.connect(nats_url)
    try:
        yield connection
    finally:
        await connection.close()
        await broker.stop()
        await close()


async def test_a_folder_without_a_model_fails_the_job(client: Client, tmp_path: Path) -> None:
    need_espeak()
    path = write_audiobook(tmp_path / "short.m4b", speak_book(sample_chapters(chapters=1, sentences=1)))
    job = f"m-{uuid.uuid4().hex[:10]}"
    with pytest.raises(RemoteFailure) as caught:
        await request_ingest(client, IngestBook(path=str(path), book=job, job=job))
    assert caught.value.failure.code == "internal"
    (record,) = await list_jobs(client, job)
    assert record.state == "failed"
    assert "not a CTranslate2 model folder" in record.reason
