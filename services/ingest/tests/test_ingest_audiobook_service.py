"""An audiobook through the ingest service on a real nats-server: transcribed offline chapter by
chapter into passages, each chapter's transcript stored, progress reported, bad audio refused."""

import asyncio
import dataclasses
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Literal

import nats
import numpy as np
import pytest
from bedside_audiobooks import (
    Speech,
    need_espeak,
    sample_chapters,
    speak_book,
    tag_cover,
    write_audiobook,
)
from bedside_contracts import subjects
from bedside_contracts.common import Failure
from bedside_contracts.ingest import BookArtifact, BookIngested, IngestBook, IngestProgress, RemoveBook
from bedside_contracts.player import AddingBook
from bedside_guard import clock
from bedside_ingest.client import cancel_job, list_jobs, remove_book, request_ingest, submit_job
from bedside_ingest.main import register
from bedside_ingest.media import SAMPLE_RATE, decode_span
from bedside_ingest.sample import SAMPLE_TEXT
from bedside_runtime.bus import new_broker
from bedside_runtime.errors import RemoteFailure
from bedside_runtime.settings import Settings
from nats.aio.client import Client
from nats.aio.msg import Msg

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

COVER = b"\x89PNG\r\n\x1a\n" + bytes(32)
TAGS = {"title": "The Lantern at Gull Point", "artist": "The Bedside authors", "composer": "E. Speak"}


@pytest.fixture(scope="module")
async def ingest_service(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[None]:
    settings = Settings(nats_url=nats_url, data_dir=tmp_path_factory.mktemp("ingest-audio-data"))
    broker = new_broker(settings, "ingest")
    await broker.connect()
    close = await register(broker, settings)
    try:
        yield
    finally:
        await broker.stop()
        await close()


@pytest.fixture
async def client(nats_url: str, ingest_service: None) -> AsyncIterator[Client]:
    connection = await nats.connect(nats_url)
    try:
        yield connection
    finally:
        await connection.close()


@pytest.fixture(scope="module")
def speech() -> Speech:
    need_espeak()
    return speak_book(sample_chapters(chapters=3, sentences=2))


def new_id() -> str:
    return f"a-{uuid.uuid4().hex[:10]}"


async def artifact_of(client: Client, name: str) -> BookArtifact:
    store = await client.jetstream().object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    return BookArtifact.model_validate_json((await store.get(name)).data or b"")


async def test_a_chapter_in_which_nothing_is_heard_keeps_its_place_and_is_told_to_the_listener(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    """A chapter of silence was left out of the book's chapters: the one before took in its time."""
    hushed = speech.chapters[1]
    samples = speech.samples.copy()
    samples[round(hushed.start_s * speech.rate) : round(hushed.end_s * speech.rate)] = 0
    path = write_audiobook(tmp_path / "hush.m4b", dataclasses.replace(speech, samples=samples), tags=TAGS)
    report = await request_ingest(client, IngestBook(path=str(path), book=new_id(), job=new_id()))
    artifact = await artifact_of(client, report.object_name)
    assert [c.title for c in artifact.chapters] == [c.title for c in speech.chapters]
    one, two, _ = artifact.chapters
    assert two.start_ms == pytest.approx(hushed.start_s * 1000, abs=2)
    assert two.end_ms == pytest.approx(hushed.end_s * 1000, abs=2)
    assert one.end_ms == two.start_ms
    assert artifact.silent_chapters == [2]
    assert {p.chapter for p in artifact.passages} == {1, 3}
    said = f"nothing was heard in chapter 2 ({clock(round(hushed.start_s * 1000))} to "
    assert [note for note in report.notes if note.startswith(said)], report.notes


async def test_an_m4b_becomes_a_timed_book_of_its_chapters(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS)
    tag_cover(path, COVER, png=True)
    book, job = new_id(), new_id()
    events: list[IngestProgress] = []
    report = await request_ingest(client, IngestBook(path=str(path), book=book, job=job), events.append)
    assert (report.title, report.chapters, report.estimated) == (TAGS["title"], 3, False)

    artifact = await artifact_of(client, report.object_name)
    assert artifact.audio_path == str(path)
    assert (artifact.author, artifact.narrator) == (TAGS["artist"], TAGS["composer"])
    assert artifact.cover_path is not None
    assert await asyncio.to_thread(Path(artifact.cover_path).read_bytes) == COVER
    assert [c.title for c in artifact.chapters] == [c.title for c in speech.chapters]
    for info, spoken in zip(artifact.chapters, speech.chapters, strict=True):
        assert info.start_ms == pytest.approx(spoken.start_s * 1000, abs=2)
    heard = {n: " ".join(p.text for p in artifact.passages if p.chapter == n).lower() for n in (1, 2, 3)}
    assert "suitcase" in heard[1]
    assert "raincoat" in heard[2]
    assert "weather" in heard[3]
    for passage in artifact.passages:
        chapter = speech.chapters[passage.chapter - 1]
        assert chapter.start_s * 1000 <= passage.start_ms <= passage.end_ms <= chapter.end_s * 1000 + 50
        assert passage.cues

    transcribing = [e.transcription for e in events if e.transcription is not None]
    counted = [t.chapter for t in transcribing]  # told after each piece of a chapter too
    assert sorted(set(counted)) == [0, 1, 2, 3]
    assert counted == sorted(counted)
    assert transcribing[-1].audio_done_s == pytest.approx(transcribing[-1].audio_total_s, abs=0.1)
    assert transcribing[-1].rtf is not None
    assert transcribing[-1].rtf > 0
    assert transcribing[-1].eta_s == 0

    (record,) = await list_jobs(client, job)
    assert (record.state, record.book) == ("done", book)
    assert record.progress == transcribing[-1]


async def test_an_mp3_without_markers_is_divided_where_it_says_its_chapters(
    client: Client, tmp_path: Path
) -> None:
    """A LibriVox "whole book" mp3 was one chapter named by its title tag: a listener could not go
    to the next chapter, nor ask what happened in the last one."""
    need_espeak()
    headed = [
        (f"Chapter {number}. {title}", lines)
        for number, (title, lines) in zip(("one", "two", "three"), sample_chapters(3, 2), strict=True)
    ]
    said = speak_book([(f"{TAGS['title']}, by the Bedside authors", ["Read by E. Speak"]), *headed])
    path = write_audiobook(tmp_path / "lantern.mp3", said, tags=TAGS, chapters=False)
    report = await request_ingest(client, IngestBook(path=str(path), book=new_id()))
    artifact = await artifact_of(client, report.object_name)
    assert [c.n for c in artifact.chapters] == [0, 1, 2, 3], [c.title for c in artifact.chapters]
    opening, *chapters = artifact.chapters
    assert opening.start_ms == 0
    for info, spoken in zip(chapters, said.chapters[1:], strict=True):
        # where the heading's first word was heard, not where the file or its words begin
        assert info.start_ms == pytest.approx(spoken.start_s * 1000, abs=1000)
    titles = [c.title.casefold() for c in chapters]
    # named by their headings as heard: tiny.en heard chapter two's "Pies and Letters" as "by the lanterns"
    assert "house" in titles[0], titles
    assert "sand" in titles[2], titles
    assert [c.end_ms for c in artifact.chapters[:-1]] == [c.start_ms for c in chapters]
    heard = {n: " ".join(p.text for p in artifact.passages if p.chapter == n).lower() for n in (1, 2, 3)}
    assert "suitcase" in heard[1]
    assert "raincoat" in heard[2]
    assert "weather" in heard[3]


async def test_asked_again_it_transcribes_nothing(client: Client, speech: Speech, tmp_path: Path) -> None:
    path = write_audiobook(tmp_path / "again.m4b", speech, tags=TAGS)
    book = new_id()
    first = await request_ingest(client, IngestBook(path=str(path), book=book))
    events: list[IngestProgress] = []
    again = await request_ingest(client, IngestBook(path=str(path), book=book, job=new_id()), events.append)
    assert again.unchanged
    assert again.version == first.version
    last = [e.transcription for e in events if e.transcription is not None][-1]
    assert (last.resumed, last.chapter, last.rtf) == (3, 3, None)  # every chapter came from the store


async def test_a_recording_with_no_speech_is_refused(client: Client, tmp_path: Path) -> None:
    silence = np.zeros(16_000 * 8, dtype=np.int16)
    quiet = Speech(silence, 16_000, [], [])
    path = write_audiobook(tmp_path / "quiet.m4b", quiet, chapters=False)
    with pytest.raises(RemoteFailure, match="no speech"):
        await request_ingest(client, IngestBook(path=str(path), book=new_id()))


async def test_a_drm_file_is_refused_with_a_reason(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "bought.aax"
    path.write_bytes(b"\x00" * 1024)
    job = new_id()
    with pytest.raises(RemoteFailure, match="DRM") as caught:
        await request_ingest(client, IngestBook(path=str(path), book=new_id(), job=job))
    assert caught.value.failure.code == "invalid"
    with pytest.raises(RemoteFailure, match="no job"):
        await list_jobs(client, job)  # refused before any job was recorded


async def test_an_e_book_sent_with_its_recording_that_holds_no_words_is_refused_as_it_is(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    """Read to see whether it is timed, a damaged e-book sent with ``--audio`` was an internal error."""
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS)
    blank = tmp_path / "lantern.txt"
    blank.write_text("  \n")
    with pytest.raises(RemoteFailure, match=r"lantern\.txt: is empty") as caught:
        await request_ingest(client, IngestBook(path=str(blank), book=new_id(), audio_path=str(path)))
    assert caught.value.failure.code == "invalid"


async def state_once_not(client: Client, job: str, passing: set[str | None]) -> str | None:
    """The job's first state not in ``passing`` (None: not recorded yet), within 60 s. The service's
    failure to list it is raised in its words: "no job" too, once the job is to be recorded."""
    state: str | None = None
    for _ in range(1200):
        try:
            state = (await list_jobs(client, job))[0].state
        except RemoteFailure as failure:
            if failure.code != "not_found" or None not in passing:
                raise
            state = None
        if state not in passing:
            break
        await asyncio.sleep(0.05)
    return state


@pytest.mark.parametrize(
    ("code", "error"), [("internal", "the job store is gone"), ("not_found", "no job 'a-gone'")]
)
async def test_waiting_for_a_jobs_state_says_how_the_service_failed(
    own_nats_client: Client, code: Literal["internal", "not_found"], error: str
) -> None:
    """Any failure to list the job was taken for "no state yet", and a test waiting for "failed"
    said only ``None == 'failed'``."""

    async def failing(message: Msg) -> None:
        await message.respond(Failure(code=code, error=error).model_dump_json().encode())

    await own_nats_client.subscribe(subjects.INGEST_JOBS, cb=failing)
    with pytest.raises(RemoteFailure, match=error):
        await state_once_not(own_nats_client, "a-gone", {"queued", "running"})


async def test_a_queued_job_whose_file_went_away_fails_in_the_listeners_words(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    """A job waiting its turn (behind a long one, or for a drive to be mounted after a restart) whose
    file was gone when it ran failed "FileNotFoundError: [Errno 2] No such file or directory"."""
    first, job = write_audiobook(tmp_path / "first.m4b", speech), new_id()
    # Written before the first job runs: encoding holds this loop, which the service shares, for
    # seconds, and on a loaded machine a bus reply the job awaits meanwhile outlasts nats-py's 5 s.
    second = write_audiobook(tmp_path / "second.m4b", speech, tags=TAGS)
    running = asyncio.create_task(request_ingest(client, IngestBook(path=str(first), book=new_id(), job=job)))
    assert await state_once_not(client, job, {None, "queued"}) == "running"
    job = new_id()
    await submit_job(client, IngestBook(path=str(second), book=new_id(), job=job))
    assert await state_once_not(client, job, {None}) == "queued"
    second.unlink()
    await running
    assert await state_once_not(client, job, {"queued", "running"}) == "failed"
    (record,) = await list_jobs(client, job)
    assert record.reason == f"{second}: does not exist"


async def test_options_that_do_not_go_with_a_recording_are_refused_before_any_job(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    # What `bedside ingest` refuses before sending is refused the same when asked over the bus.
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS)
    chapters = tmp_path / "chapters.json"
    chapters.write_text('[{"title": "One", "start": 0}]')
    job = new_id()
    with pytest.raises(RemoteFailure, match="an audiobook's chapters are its markers or tracks"):
        await request_ingest(
            client, IngestBook(path=str(path), book=new_id(), chapters_path=str(chapters), job=job)
        )
    with pytest.raises(RemoteFailure, match="no job"):
        await list_jobs(client, job)


async def test_a_cancelled_job_stops_and_keeps_its_finished_chapters(client: Client, tmp_path: Path) -> None:
    need_espeak()
    speech = speak_book(sample_chapters(chapters=4, sentences=3))
    path = write_audiobook(tmp_path / "long.m4b", speech, tags=TAGS)
    book, job = new_id(), new_id()
    other = tmp_path / "other.txt"
    other.write_text("Other\n\nChapter 1\n\nA book that is no part of the job.\n")
    await request_ingest(client, IngestBook(path=str(other), book=(other_book := new_id())))
    first_done = asyncio.Event()

    def seen(event: IngestProgress) -> None:
        if event.transcription is not None and event.transcription.chapter >= 1:
            first_done.set()

    request = IngestBook(path=str(path), book=book, job=job)
    running = asyncio.create_task(request_ingest(client, request, seen))
    await asyncio.wait_for(first_done.wait(), 120)
    listed = await list_jobs(client)
    assert job in {j.job for j in listed}
    with pytest.raises(RemoteFailure, match=f"job {job} is making") as making:  # its next version would
        await remove_book(client, RemoveBook(book=book), timeout_s=1)  # bring it straight back: cancel first
    assert making.value.failure.code == "conflict"
    # Files named by content may be the job's too, before any version of its book names them.
    with pytest.raises(RemoteFailure, match=f"job {job} is still running") as deleting:
        await remove_book(client, RemoveBook(book=other_book, delete_files=True), timeout_s=1)
    assert deleting.value.failure.code == "conflict"
    cancelled = await cancel_job(client, job)
    assert cancelled.state == "cancelled"
    with pytest.raises(RemoteFailure, match="cancelled") as caught:
        await running
    assert caught.value.failure.code == "conflict"
    (record,) = await list_jobs(client, job)
    assert record.state == "cancelled"
    assert record.progress is not None
    assert 1 <= record.progress.chapter < 4
    with pytest.raises(RemoteFailure, match="not queued or running"):
        await cancel_job(client, job)

    events: list[IngestProgress] = []
    report = await request_ingest(client, IngestBook(path=str(path), book=book, job=new_id()), events.append)
    assert report.chapters == 4
    last = [e.transcription for e in events if e.transcription is not None][-1]
    assert last.resumed >= record.progress.chapter  # what the cancelled job finished was kept


async def test_with_its_e_book_the_book_is_the_e_books_words_timed_by_the_recording(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    # Tagged otherwise than the e-book's own title: the recording's tag is what the listener's
    # library shows, so it names the book (naming.book_names).
    tags = {**TAGS, "title": "Gull Point, read aloud"}
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=tags)
    book = new_id()
    report = await request_ingest(client, IngestBook(path=str(path), book=book, text_path=str(SAMPLE_TEXT)))
    assert report.title == "Gull Point, read aloud"
    aligned = report.alignment
    assert aligned is not None
    assert aligned.fallback == ""
    assert aligned.matched_share >= 0.9
    assert aligned.left_out > 100  # chapters 4-6 and the rest of 1-3 are not in the recording
    artifact = await artifact_of(client, report.object_name)
    assert (artifact.title, artifact.author) == (tags["title"], tags["artist"])
    assert [c.title for c in artifact.chapters] == [c.title for c in speech.chapters]
    cues = {cue.text: cue.start_ms for p in artifact.passages for cue in p.cues}
    spoken = [s for s in speech.sentences if s.text in cues]
    assert len(spoken) == len(speech.sentences) - len(speech.chapters)  # every sentence but the headings
    errors = sorted(abs(cues[s.text] - s.start_s * 1000) for s in spoken)
    assert errors[len(errors) // 2] <= 300  # median start error against where espeak-ng began it
    assert "Calloway" in " ".join(cues)  # the e-book's spelling, not the recogniser's


async def test_an_e_book_sent_with_its_recording_is_timed_by_the_recording_not_by_reading_rate(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    """`bedside ingest book.txt --audio book.m4b` spread the e-book's words evenly over the recording:
    behind credits or pauses the estimate ran ahead of the narration, and answers quoted sentences
    up to 27 s before they were read (a listener session's finding). It is the audiobook with its
    e-book now, as `bedside ingest book.m4b --text book.txt` is."""
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS)
    book = new_id()
    report = await request_ingest(client, IngestBook(path=str(SAMPLE_TEXT), book=book, audio_path=str(path)))
    assert report.book == book
    assert report.alignment is not None
    assert report.alignment.fallback == ""
    artifact = await artifact_of(client, report.object_name)
    assert not artifact.estimated
    assert artifact.audio_path == str(path.resolve())
    assert [c.title for c in artifact.chapters] == [c.title for c in speech.chapters]


async def test_an_e_book_that_is_not_this_recording_falls_back_to_the_words_heard(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS)
    other = tmp_path / "other.txt"
    other.write_text("Another Book\n\nChapter One\n\nThe glassblower of Vell kept bees. He sold honey.\n")
    job = new_id()
    request = IngestBook(path=str(path), book=new_id(), text_path=str(other), job=job)
    report = await request_ingest(client, request)
    assert report.alignment is not None
    assert "does not match this recording" in report.alignment.fallback
    assert report.chapters == 3
    # said where a listener who added it from the page or --detach sees it: it was "done" and no more
    (record,) = await list_jobs(client, job)
    assert (record.state, record.note) == ("done", report.alignment.fallback)
    assert AddingBook.of(record).note == report.alignment.fallback


async def test_a_book_made_with_its_e_book_is_kept_when_its_recording_comes_again_with_another(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    """The same recording added again with the wrong e-book made a new version of the book of the
    recogniser's words, replacing the one aligned to its own e-book (a tester's finding). The book
    made before is kept, and the listener is told why and what to do."""
    path = write_audiobook(tmp_path / "lantern.m4b", speech, tags=TAGS)
    book = new_id()
    aligned = await request_ingest(client, IngestBook(path=str(path), book=book, text_path=str(SAMPLE_TEXT)))
    assert aligned.alignment is not None
    assert aligned.alignment.fallback == ""
    other = tmp_path / "other.txt"
    other.write_text("Another Book\n\nChapter One\n\nThe glassblower of Vell kept bees. He sold honey.\n")
    job = new_id()
    with pytest.raises(RemoteFailure, match="does not match this recording") as caught:
        await request_ingest(client, IngestBook(path=str(path), book=book, text_path=str(other), job=job))
    assert "made before with its own e-book is kept" in str(caught.value)
    (record,) = await list_jobs(client, job)
    assert record.state == "failed"
    newest = await client.jetstream().get_last_msg(
        subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=book)
    )
    assert BookIngested.model_validate_json(newest.data or b"").version == aligned.version


async def test_a_recording_cut_short_is_made_a_book_of_its_audio_and_the_listener_is_told(
    client: Client, speech: Speech, tmp_path: Path
) -> None:
    whole = write_audiobook(tmp_path / "whole.mp3", speech, tags=TAGS)
    cut = tmp_path / "lantern.mp3"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 3 // 5])
    job = new_id()
    report = await request_ingest(client, IngestBook(path=str(cut), book=new_id(), job=job))
    heard_ms = len(decode_span(cut, 0, 10**9)) * 1000 // SAMPLE_RATE
    assert report.duration_ms == pytest.approx(heard_ms, abs=60)  # not the whole file's
    (cut_short,) = report.notes
    assert cut_short.startswith(f"lantern.mp3 ends at {clock(report.duration_ms)}, not at the ")
    (record,) = await list_jobs(client, job)
    assert (record.state, record.note) == ("done", cut_short)


async def test_two_jobs_at_once_queue(client: Client, speech: Speech, tmp_path: Path) -> None:
    first_path = write_audiobook(tmp_path / "first.m4b", speech, tags=TAGS)
    second_path = write_audiobook(tmp_path / "second.mp3", speech, tags=TAGS)
    first_job, second_job = new_id(), new_id()
    started = asyncio.Event()

    def seen(event: IngestProgress) -> None:
        if event.stage == "transcribe":
            started.set()

    first = asyncio.create_task(
        request_ingest(client, IngestBook(path=str(first_path), book=new_id(), job=first_job), seen)
    )
    await asyncio.wait_for(started.wait(), 120)
    second = asyncio.create_task(
        request_ingest(client, IngestBook(path=str(second_path), book=new_id(), job=second_job))
    )
    for _ in range(600):  # the second request is on its way to the service
        waiting = [j for j in await list_jobs(client) if j.job == second_job]
        if waiting:
            break
        await asyncio.sleep(0.05)
    (running,) = await list_jobs(client, first_job)
    assert (running.state, [j.state for j in waiting]) == ("running", ["queued"])
    assert [r.chapters for r in await asyncio.gather(first, second)] == [3, 3]
    assert {j.state for j in await list_jobs(client) if j.job in (first_job, second_job)} == {"done"}
