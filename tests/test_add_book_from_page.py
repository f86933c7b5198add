"""A book added from the page: its recording sent over HTTP to the player, carried to ingest in the
uploads bucket, made a book by a job the page follows, then listed and played like any other.

Ingest, search and the player run as processes on the test's real nats-server, the player on a
data directory of its own, as on another machine: what crosses between them crosses the bus
(the uploads bucket one way, the media bucket the other). The recording is the sample story
spoken by espeak-ng, as an .m4b with chapter markers and a cover, sent with its e-book.
"""

import asyncio
import uuid
from pathlib import Path

import httpx
import nats
import pytest
from bedside_adding import bucket_objects, device, followed_to_the_end, send_file, split_house
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, tag_cover, write_audiobook
from bedside_contracts import subjects
from bedside_contracts.ingest import EMPTY_FILE, BookArtifact, BookIngested, IngestJob, RemoveBook
from bedside_ingest.client import list_jobs, remove_book
from bedside_ingest.sample import SAMPLE_TEXT
from bedside_runtime.nats_server import NatsServer
from bedside_testing import until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

TITLE = "The Lantern at Gull Point"
# This run's own bytes: a book of the same recording or cover on the bus, from another test,
# would rightly keep them when the book is removed with its files.
THIS_RUN = uuid.uuid4().hex
COVER = b"\x89PNG\r\n\x1a\n" + THIS_RUN.encode()


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


async def test_an_audiobook_sent_from_the_page_becomes_a_book_that_plays(
    own_nats: NatsServer, tmp_path: Path
) -> None:
    nats_url = own_nats.url  # its own, so the uploads bucket holds only this test's files
    need_espeak()
    speech = speak_book(sample_chapters(chapters=2, sentences=2))
    recording = write_audiobook(
        tmp_path / f"{TITLE}.m4b", speech, tags={"title": TITLE, "artist": f"A. Writer {THIS_RUN}"}
    )
    tag_cover(recording, COVER, png=True)
    sent = recording.read_bytes()
    house = await asyncio.to_thread(split_house, nats_url)
    player_dir = house.player.data_dir
    try:
        async with await device(house.player, "adder") as http:
            uploaded = await send_file(http, recording.name, sent)
            assert uploaded["size"] == len(sent)
            assert list((player_dir / "incoming").iterdir()) == []  # the spool holds nothing after
            ebook = await send_file(http, "lantern.txt", SAMPLE_TEXT.read_bytes())
            sent_both = {"recording": uploaded, "ebook": ebook}
            started = await http.post("/api/books/added", json=sent_both)
            assert started.status_code == 202, started.text
            assert started.json()["state"] == "queued"
            assert (
                started.json()["book"] == "the-lantern-at-gull-point"
            )  # known at once: it plays before it is done
            assert (
                await bucket_objects(nats_url, subjects.UPLOADS_BUCKET) == []
            )  # taken by ingest, so deleted

            ended = await followed_to_the_end(http, started.json()["job"])
            assert ended["state"] == "done", ended
            assert ended["seen"][-2:] == ["running", "done"] or ended["seen"] == ["done"], ended
            book = ended["book"]
            assert book == started.json()["book"]
            artifact = await newest_artifact(nats_url, book)
            assert artifact.times_from == "alignment"  # the e-book's words, timed from the recording
            assert artifact.passages[0].text.startswith("The bus left Wren Calloway at the end of the road")
            listed = {b["id"]: b for b in (await http.get("/api/books")).json()}
            assert listed[book]["title"] == TITLE
            assert (listed[book]["has_audio"], listed[book]["has_cover"]) == (True, True)

            # Played from the player's own copy of the media bucket's file: ingest's disk is another
            # machine's, so its folders are put out of the player's sight (one machine runs both here).
            for kept in ("uploads", "covers"):
                (house.back.data_dir / kept).rename(tmp_path / f"elsewhere-{kept}")
            # Opening the book starts the fetch of its recording: the page plays it next.
            chapters = (await http.get(f"/api/books/{book}")).json()
            assert artifact.audio_object is not None
            await until((player_dir / "media" / artifact.audio_object).exists, timeout_s=60)
            played = await http.get(f"/api/books/{book}/audio")
            assert played.status_code == 200
            assert played.content == sent  # the very file sent is what the page plays
            part = await http.get(f"/api/books/{book}/audio", headers={"Range": "bytes=100-1099"})
            assert (part.status_code, part.content) == (206, sent[100:1100])
            assert part.headers["content-type"] == "audio/mp4"
            assert (await http.get(f"/api/books/{book}/cover")).content == COVER
            copies = {p.name for p in (player_dir / "media").iterdir()}
            assert copies == {artifact.audio_object, artifact.cover_object}
            assert chapters["duration_ms"] == pytest.approx(speech.chapters[-1].end_s * 1000, abs=200)

        for kept in ("uploads", "covers"):
            (tmp_path / f"elsewhere-{kept}").rename(house.back.data_dir / kept)
        await removed_with_its_files(nats_url, house.back.data_dir, artifact, len(sent))
    finally:
        house.stop()


async def removed_with_its_files(nats_url: str, ingest_dir: Path, artifact: BookArtifact, sent: int) -> None:
    """Removed with its files, a book sent from the page gives its room back: the upload's folder
    (the recording taken and the e-book), its cover, and their objects in the media bucket."""
    async with await nats.connect(nats_url) as bus:
        removed, dropped = await remove_book(bus, RemoveBook(book=artifact.book, delete_files=True), 60)
    assert dropped
    assert removed.freed_bytes > 2 * sent  # the upload taken, and its copy in the bucket
    assert list((ingest_dir / "uploads").iterdir()) == []
    assert list((ingest_dir / "covers").iterdir()) == []
    media = await bucket_objects(nats_url, subjects.MEDIA_BUCKET)
    assert {artifact.audio_object, artifact.cover_object}.isdisjoint(media)


async def test_the_same_upload_asked_for_twice_is_one_job(nats_url: str, tmp_path: Path) -> None:
    """A page reloaded before ingest answered asks again with the same upload: while it is being
    taken (a second ask then made ingest fail) and after the book is made, the answer is the
    first ask's job, and nothing is taken twice."""
    need_espeak()
    recording = write_audiobook(tmp_path / "Short.m4b", speak_book(sample_chapters(chapters=1, sentences=1)))
    house = await asyncio.to_thread(split_house, nats_url)
    try:
        async with await device(house.player, "twice") as http:
            sent = {"recording": await send_file(http, recording.name, recording.read_bytes())}
            started, twin = await asyncio.gather(*(http.post("/api/books/added", json=sent) for _ in "ab"))
            assert (started.status_code, twin.status_code) == (202, 202), (started.text, twin.text)
            job = started.json()["job"]
            assert twin.json()["job"] == job
            assert (await followed_to_the_end(http, job))["state"] == "done"
            again = await http.post("/api/books/added", json=sent)
            assert again.status_code == 202, again.text
            assert (again.json()["job"], again.json()["state"]) == (job, "done")
            assert [p.name for p in (house.back.data_dir / "uploads").iterdir()] == [job]  # one job made
    finally:
        house.stop()


async def test_another_recording_of_the_same_file_name_is_another_book_and_the_same_one_is_not(
    nats_url: str, tmp_path: Path
) -> None:
    """Two phones' "book.m4b" are two books: the second sent is added beside the first, never over
    it (the first listener's place belongs to its id). The first recording sent again is the first
    book again."""
    need_espeak()
    name = f"Night {THIS_RUN[:8]}.m4b"
    named = f"night-{THIS_RUN[:8]}"
    for phone in "ab":
        (tmp_path / phone).mkdir()
    first, second = (
        write_audiobook(tmp_path / phone / name, speak_book([("One", [said])])).read_bytes()
        for phone, said in (("a", "The owl sat on the gate."), ("b", "Rain fell on the barn roof."))
    )
    house = await asyncio.to_thread(split_house, nats_url)
    try:
        async with await device(house.player, "two-phones") as http:

            async def added(recording: bytes) -> str:
                sent = {"recording": await send_file(http, name, recording)}
                started = await http.post("/api/books/added", json=sent)
                assert started.status_code == 202, started.text
                ended = await followed_to_the_end(http, started.json()["job"])
                assert ended["state"] == "done", ended
                assert ended["book"] == started.json()["book"]
                return str(ended["book"])

            assert [await added(first), await added(second), await added(first)] == [
                named,
                f"{named}-2",
                named,
            ]
            listed = {b["id"] for b in (await http.get("/api/books")).json()}
            assert {named, f"{named}-2"} <= listed
    finally:
        house.stop()


async def test_one_upload_sent_as_both_files_is_refused_and_nothing_of_it_kept(
    nats_url: str, tmp_path: Path
) -> None:
    """The same upload named as the recording and as its e-book was taken twice and deleted twice:
    the second delete failed, the page was told 503 ("the service failed to answer") every time,
    and the taken file stayed on ingest's disk with no job to account for it."""
    house = await asyncio.to_thread(split_house, nats_url, ("ingest",))
    try:
        async with await device(house.player, "both-files") as http:
            sent = await send_file(http, "Book.m4b", b"\x00" * 64)
            refused = await http.post("/api/books/added", json={"recording": sent, "ebook": sent})
            assert refused.status_code == 422, refused.text
            assert "is not an e-book (.epub .txt .md, or a JSON book)" in refused.json()["detail"]
            assert list((house.back.data_dir / "uploads").iterdir()) == []
    finally:
        await asyncio.to_thread(house.stop)


async def test_what_cannot_become_a_book_is_refused_with_its_reason(
    own_nats: NatsServer, tmp_path: Path
) -> None:
    nats_url = own_nats.url  # its own, so the uploads bucket holds only this test's files
    house = await asyncio.to_thread(split_house, nats_url, ("ingest",))
    system = house.player
    try:
        async with await device(system, "refused") as http:
            # By their names, before anything is sent.
            checks = {
                "Book.aax": (422, "the recording: is an Audible file protected by DRM"),
                "notes.txt": (422, "the recording: is not an audiobook"),
                "Book.m4b": (200, ""),
            }
            for name, (status, said) in checks.items():
                checked = await http.post("/api/uploads/check", json={"recording": name})
                assert (checked.status_code, checked.json().get("detail", "")[: len(said)]) == (status, said)
            nothing = {"recording": "Book.m4b", "recording_bytes": 0}
            empty = await http.post("/api/uploads/check", json=nothing)
            assert (empty.status_code, empty.json()["detail"]) == (422, f"the recording: {EMPTY_FILE}")
            with_ebook = {"recording": "Book.m4b", "ebook": "Book.pdf"}
            checked = await http.post("/api/uploads/check", json=with_ebook)
            assert (checked.status_code, checked.json()["detail"]) == (
                422,
                "the e-book: is not an e-book (.epub .txt .md, or a JSON book)",
            )
            with_ebook["ebook"] = "Book.epub"
            assert (await http.post("/api/uploads/check", json=with_ebook)).status_code == 200

            # Sent anyway: ingest refuses them once they have arrived, as it refuses any ingest.
            notes = await send_file(http, "notes.txt", b"Once upon a time.")
            refused = await http.post("/api/books/added", json={"recording": notes})
            assert refused.status_code == 422, refused.text
            reason = refused.json()["detail"]
            assert reason.startswith("the recording: is not an audiobook"), reason  # by its part, not a path
            assert str(house.back.data_dir) not in reason
            assert list((house.back.data_dir / "uploads").iterdir()) == []  # nothing of it kept
            # Asked again (the page reloaded before that answer came): the same reason, by its job.
            again = await http.post("/api/books/added", json={"recording": notes})
            assert again.status_code == 202, again.text
            assert (again.json()["state"], again.json()["reason"]) == ("failed", reason)

            drm = await send_file(http, "Book.aax", b"\x00" * 64)
            refused = await http.post("/api/books/added", json={"recording": drm})
            assert (refused.status_code, "DRM" in refused.json()["detail"]) == (422, True), refused.text

            # Named as audio but not audio: the job starts, then fails, and says why.
            noise = await send_file(http, "noise.mp3", bytes(range(256)) * 20)
            started = await http.post("/api/books/added", json={"recording": noise})
            assert started.status_code == 202, started.text
            ended = await followed_to_the_end(http, started.json()["job"])
            assert ended["state"] == "failed", ended
            assert ended["reason"].startswith("the recording: "), ended
            assert str(house.back.data_dir) not in ended["reason"]
            await until(
                lambda: not list((house.back.data_dir / "uploads").iterdir())
            )  # a failed job keeps nothing

            empty = await http.post("/api/uploads", params={"filename": "empty.mp3"}, content=b"")
            assert empty.status_code == 422, empty.text
            assert (await http.post("/api/uploads", content=b"x")).status_code == 422  # no file name
            unknown = {"upload": "f" * 32, "filename": "a.mp3", "size": 10}
            assert (await http.post("/api/books/added", json={"recording": unknown})).status_code == 422
            assert (await http.get("/api/books/added/nosuchjob")).status_code == 404
        async with httpx.AsyncClient(base_url=system.http_url, timeout=30) as stranger:
            unsigned = await stranger.post("/api/uploads", params={"filename": "a.mp3"}, content=b"x")
            assert unsigned.status_code == 401
        assert await bucket_objects(nats_url, subjects.UPLOADS_BUCKET) == []
    finally:
        house.stop()


async def job_recorded(nats_url: str, job: str) -> IngestJob:
    async with await nats.connect(nats_url) as bus:
        return (await list_jobs(bus, job))[0]


async def test_a_file_name_a_device_sends_is_kept_as_a_plain_name_of_bounded_length(
    nats_url: str, tmp_path: Path
) -> None:
    """The name a device said its file had was taken as sent: folders, a line break and all, echoed
    back for the page to show and keep; and a name over 255 characters was refused outright. One with
    nothing left of it is "unnamed" (the book's title is from its tags or the listener)."""
    sneaky = "../../etc/passwd\n.m4b"
    long = "x" * 500 + ".m4b"
    house = await asyncio.to_thread(split_house, nats_url, ("ingest",))
    try:
        async with await device(house.player, "names") as http:
            for sent_as, kept_as, book in (
                (sneaky, "passwd.m4b", "passwd"),
                (long, "x" * 251 + ".m4b", "x" * 64),
            ):
                checked = await http.post("/api/uploads/check", json={"recording": sent_as})
                assert checked.status_code == 200, checked.text
                sent = await send_file(http, sent_as, b"\x00" * 64)
                assert sent["filename"] == kept_as  # what the page shows and keeps
                # The request to make the book names the file itself: the name in it is made plain too.
                started = await http.post(
                    "/api/books/added", json={"recording": {**sent, "filename": sent_as}}
                )
                assert started.status_code == 202, started.text
                assert started.json()["book"] == book
                recorded = await job_recorded(nats_url, started.json()["job"])
                assert Path(recorded.request.path).name == kept_as
            unnamed = await send_file(http, "../\n", b"\x00" * 64)
            assert unnamed["filename"] == "unnamed"  # nothing left of it: a name it is told by
            refused = await http.post("/api/uploads", params={"filename": "x" * 600}, content=b"x")
            assert refused.status_code == 422, refused.text  # longer than any device gives
    finally:
        await asyncio.to_thread(house.stop)
