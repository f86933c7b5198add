"""A book added from the page: its recording sent over HTTP to the player, carried to ingest in the
uploads bucket, made a book by a job the page follows, then listed and played like any other.

Ingest, search and the player run as processes on the test's real nats-server; the recording is
the sample story spoken by espeak-ng, as an .m4b with chapter markers, sent with its e-book.
"""

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookIngested
from bedside_ingest.sample import SAMPLE_TEXT
from bedside_player.listeners import Listeners
from bedside_testing import RunningSystem, start_system

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

TITLE = "The Lantern at Gull Point"


async def followed_to_the_end(http: httpx.AsyncClient, job: str, timeout_s: float = 300) -> dict[str, Any]:
    """The job as the page sees it once it has ended, and every state seen on the way."""
    deadline = time.monotonic() + timeout_s
    seen: list[str] = []
    while time.monotonic() < deadline:
        reply = await http.get(f"/api/books/added/{job}")
        assert reply.status_code == 200, reply.text
        adding: dict[str, Any] = reply.json()
        if not seen or seen[-1] != adding["state"]:
            seen.append(adding["state"])
        if adding["state"] not in ("queued", "running"):
            return {**adding, "seen": seen}
        await asyncio.sleep(0.5)
    raise AssertionError(f"job {job} still {seen} after {timeout_s} s")


async def bucket_objects(nats_url: str) -> list[str]:
    client = await nats.connect(nats_url)
    try:
        bucket = await client.jetstream().object_store(subjects.UPLOADS_BUCKET)
        try:
            return [info.name for info in await bucket.list() if not info.deleted]
        except nats.js.errors.NotFoundError:  # nats-py's word for an empty bucket
            return []
    finally:
        await client.close()


async def newest_artifact(nats_url: str, book: str) -> BookArtifact:
    client = await nats.connect(nats_url)
    try:
        js = client.jetstream()
        newest = await js.get_last_msg(subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=book))
        announced = BookIngested.model_validate_json(newest.data or b"")
        bucket = await js.object_store(subjects.BOOK_ARTIFACTS_BUCKET)
        return BookArtifact.model_validate_json((await bucket.get(announced.object_name)).data or b"")
    finally:
        await client.close()


async def device(system: RunningSystem, name: str) -> httpx.AsyncClient:
    client = await nats.connect(system.nats_url)
    try:
        token = await (await Listeners.open(client.jetstream())).create(name)
    finally:
        await client.close()
    return httpx.AsyncClient(
        base_url=system.http_url, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )


async def test_an_audiobook_sent_from_the_page_becomes_a_book_that_plays(
    nats_url: str, tmp_path: Path
) -> None:
    need_espeak()
    speech = speak_book(sample_chapters(chapters=2, sentences=2))
    recording = write_audiobook(
        tmp_path / f"{TITLE}.m4b", speech, tags={"title": TITLE, "artist": "A. Writer"}
    )
    sent = recording.read_bytes()
    system = await asyncio.to_thread(start_system, nats_url, ("ingest", "search", "player"))
    try:
        async with await device(system, "adder") as http:
            uploaded = await http.post("/api/uploads", params={"filename": recording.name}, content=sent)
            assert uploaded.status_code == 201, uploaded.text
            assert uploaded.json()["size"] == len(sent)
            assert list((system.data_dir / "incoming").iterdir()) == []  # the spool holds nothing after

            ebook = await http.post(
                "/api/uploads", params={"filename": "lantern.txt"}, content=SAMPLE_TEXT.read_bytes()
            )
            assert ebook.status_code == 201, ebook.text
            sent_both = {"recording": uploaded.json(), "ebook": ebook.json()}
            started = await http.post("/api/books/added", json=sent_both)
            assert started.status_code == 202, started.text
            assert started.json()["state"] == "queued"
            assert await bucket_objects(nats_url) == []  # taken by ingest, so deleted

            ended = await followed_to_the_end(http, started.json()["job"])
            assert ended["state"] == "done", ended
            assert ended["seen"][-2:] == ["running", "done"] or ended["seen"] == ["done"], ended
            book = ended["book"]
            artifact = await newest_artifact(nats_url, book)
            assert artifact.times_from == "alignment"  # the e-book's words, timed from the recording
            assert artifact.passages[0].text.startswith("The bus left Wren Calloway at the end of the road")
            listed = {b["id"]: b for b in (await http.get("/api/books")).json()}
            assert listed[book]["title"] == TITLE
            assert listed[book]["has_audio"]
            played = await http.get(f"/api/books/{book}/audio")
            assert played.status_code == 200
            assert played.content == sent  # the very file sent is what the page plays
            chapters = (await http.get(f"/api/books/{book}")).json()
            assert chapters["duration_ms"] == pytest.approx(speech.chapters[-1].end_s * 1000, abs=200)

            # The same upload cannot make a second book: it was taken.
            again = await http.post("/api/books/added", json={"recording": uploaded.json()})
            assert again.status_code == 422, again.text
            assert "it was taken already" in again.json()["detail"]
    finally:
        system.stop()


async def test_what_cannot_become_a_book_is_refused_with_its_reason(nats_url: str, tmp_path: Path) -> None:
    system = await asyncio.to_thread(start_system, nats_url, ("ingest", "player"))
    try:
        async with await device(system, "refused") as http:
            notes = await http.post(
                "/api/uploads", params={"filename": "notes.txt"}, content=b"Once upon a time."
            )
            assert notes.status_code == 201, notes.text
            refused = await http.post("/api/books/added", json={"recording": notes.json()})
            assert refused.status_code == 422, refused.text
            reason = refused.json()["detail"]
            assert "the recording: is not an audiobook" in reason, reason  # named by its part, not a path
            assert str(system.data_dir) not in reason
            assert list((system.data_dir / "uploads").iterdir()) == []  # nothing of it kept

            drm = await http.post("/api/uploads", params={"filename": "Book.aax"}, content=b"\x00" * 64)
            refused = await http.post("/api/books/added", json={"recording": drm.json()})
            assert (refused.status_code, "DRM" in refused.json()["detail"]) == (422, True), refused.text

            empty = await http.post("/api/uploads", params={"filename": "empty.mp3"}, content=b"")
            assert empty.status_code == 422, empty.text
            assert (await http.post("/api/uploads", content=b"x")).status_code == 422  # no file name
            unknown = {"upload": "f" * 32, "filename": "a.mp3", "size": 10}
            assert (await http.post("/api/books/added", json={"recording": unknown})).status_code == 422
            assert (await http.get("/api/books/added/nosuchjob")).status_code == 404
        async with httpx.AsyncClient(base_url=system.http_url, timeout=30) as stranger:
            unsigned = await stranger.post("/api/uploads", params={"filename": "a.mp3"}, content=b"x")
            assert unsigned.status_code == 401
        assert await bucket_objects(nats_url) == []
    finally:
        system.stop()
