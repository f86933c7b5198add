"""The ingest handler: a thin shell over the pipeline, with progress events and the bus."""

import asyncio
import shutil
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path, PurePath

import numpy as np
import numpy.typing as npt
import structlog
from bedside_contracts import subjects
from bedside_contracts.ingest import (
    AddUploadedBook,
    BookIngested,
    BookRemoved,
    CancelJob,
    IngestBook,
    IngestJob,
    IngestProgress,
    IngestReport,
    JobList,
    JobsRequest,
    MadeFrom,
    RemoveBook,
    Stage,
    TranscriptionProgress,
    UploadNames,
    UploadNamesAccepted,
)
from bedside_contracts.search import TranscriptCoverage, times_from_format
from bedside_embedding import Embedder
from bedside_runtime.bus import Broker
from bedside_runtime.errors import Conflict, InvalidRequest, NoRoom, NotFound
from bedside_runtime.tasks import cancel_and_wait
from nats.errors import Error as NatsError

from bedside_ingest.accepted import check_sent_names
from bedside_ingest.alignment import keeps_the_book_before, the_book_before_kept
from bedside_ingest.artifact import (
    announced_as_it_is,
    interim_artifacts,
    message_id,
    object_name,
    serves_a_whole_version,
)
from bedside_ingest.audiojobs import Audiobooks
from bedside_ingest.errors import BadInput, JobCancelled
from bedside_ingest.fingerprint import made_from as file_made_from
from bedside_ingest.freeing import OwnFolders, StoredFiles, files_of, only_theirs
from bedside_ingest.given import check_request, is_audiobook, timed_by_its_recording
from bedside_ingest.identity import (
    book_id_for,
    book_made_from,
    book_of,
    ids_to_try,
    known_to_be_another,
    may_take,
    replacement_refused,
    replaces_another,
)
from bedside_ingest.jobcontrol import JobControl
from bedside_ingest.media_bucket import MediaBucket
from bedside_ingest.pipeline import (
    Prepared,
    Progress,
    StageClock,
    build_artifact,
    embed_new,
    no_progress,
    prepare,
)
from bedside_ingest.store import BookStore
from bedside_ingest.uploads import Uploads, job_of

log = structlog.get_logger("bedside.ingest")

PUBLISH_TIMEOUT_S = 5.0

InterimHook = Callable[[str, TranscriptCoverage], Awaitable[None]]
"""Awaited after an interim version of a book is announced, before the next chapter begins."""


class ProgressPublisher:
    """Progress events of one job, published in order from whatever thread a stage runs on."""

    def __init__(
        self,
        broker: Broker,
        job: str | None,
        recorder: Callable[[TranscriptionProgress], None] | None = None,
    ) -> None:
        self._broker = broker
        self._job = job
        self._recorder = recorder
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[IngestProgress | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._drain()) if job else None

    def __call__(self, stage: Stage, done: int, total: int, detail: str) -> None:
        if self._job is not None:
            event = IngestProgress(job=self._job, stage=stage, done=done, total=total, detail=detail)
            self._loop.call_soon_threadsafe(self._queue.put_nowait, event)

    def transcription(self, status: TranscriptionProgress) -> None:
        if self._job is not None:
            event = IngestProgress(
                job=self._job,
                stage="transcribe",
                done=status.chapter,
                total=status.chapters,
                detail=f"chapter {status.chapter} of {status.chapters}",
                transcription=status,
            )
            self._loop.call_soon_threadsafe(self._queue.put_nowait, event)
        if self._recorder is not None:
            self._recorder(status)

    async def _drain(self) -> None:
        while (event := await self._queue.get()) is not None:
            subject = subjects.INGEST_PROGRESS.format(job=event.job)
            try:
                await self._broker.publish(event.model_dump_json().encode(), subject)
            except NatsError as error:  # news lost, not the job: its record says how far it got
                log.warning("progress not published", job=event.job, error=str(error))

    async def close(self) -> None:
        if self._task is not None:
            # Behind any event still scheduled by __call__ (call_soon keeps their order).
            self._loop.call_soon(self._queue.put_nowait, None)
            await self._task


class IngestService:
    def __init__(
        self,
        broker: Broker,
        store: BookStore,
        embedders: Sequence[Embedder],
        narration_wpm: int,
        *,
        control: JobControl,
        audiobooks: Audiobooks,
        uploads: Uploads,
        media: MediaBucket,
        after_interim: InterimHook | None = None,
        own: OwnFolders,
        vector_cache: Path | None = None,
    ) -> None:
        self._broker = broker
        self._own = own
        """Where ingest writes files of its own: of a book's paths only those are deleted with it."""
        self._store = store
        self._embedders = embedders
        self._vector_cache = vector_cache
        """Where a test run keeps the vectors of books its systems ingest again (Settings)."""
        self._wpm = narration_wpm
        self._control = control
        self._audiobooks = audiobooks
        self._uploads = uploads
        self._media = media
        self._started: set[asyncio.Task[IngestReport]] = set()
        self._running: asyncio.Task[object] | None = None  # the job under way, whoever asked for it
        """Jobs started for an upload, whose requester does not wait for them to end."""
        self._adding: dict[str, asyncio.Task[IngestJob]] = {}
        """Uploads being taken, by the job they make: the same upload asked twice waits for one."""
        self._lock = asyncio.Lock()  # one ingest at a time: the CPU is the limit anyway
        self._naming = asyncio.Lock()
        """Held while a new book is given its id, until the job making it is recorded (identity.py)."""
        self._making: list[IngestBook] = []
        """Books read at once (a text, a transcript: no job is recorded) given an id, not yet announced."""
        self._made_from: MadeFrom | None = None
        """What the book of the ingest under way is made from, said when it is announced."""
        self._after_interim = after_interim
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}
        """Passage vectors of the ingest under way: its interim versions share their passages."""
        self._interim: Prepared | None = None
        """The last interim version the ingest under way announced."""

    async def ingest(self, request: IngestBook) -> IngestReport:
        own_id = book_id_for(Path(request.path))  # the e-book's, when given as the book with its recording
        try:  # before any job is recorded: a file of another kind is no job (accepted.py)
            await asyncio.to_thread(check_request, request)
            request = await asyncio.to_thread(timed_by_its_recording, request)
        except BadInput as error:
            log.info("bad input refused", path=request.path, error=error.message)
            raise InvalidRequest(error.message) from None
        if not is_audiobook(Path(request.path)):
            async with self._naming:
                request, taken = await self._with_id(request, own_id)
                self._making.append(request)
            progress = ProgressPublisher(self._broker, request.job)
            try:
                async with self._lock:
                    report = await self._ingest(request, progress, audio=False)
            finally:
                self._making.remove(request)
                await progress.close()
        else:
            async with self._naming:
                request, taken = await self._with_id(request, own_id)
                request = request.model_copy(update={"job": request.job or uuid.uuid4().hex[:16]})
                await self._control.record(request, "queued")
            report = await self._run_job(request)
        return report.model_copy(update={"taken_id": taken})

    async def _with_id(self, request: IngestBook, own_id: str) -> tuple[IngestBook, str | None]:
        """The request with the id of the book it makes (``identity``), and ``own_id`` (the id its file's
        name gives) when that id is another book's; an id the request asks for is its own, but another
        file's book that has it is replaced only when the request says so."""
        if request.book is not None:
            if not request.replace:
                await self._refuse_replacing(request, its_name=request.book == own_id)
            return request, None
        try:
            made_from = await asyncio.to_thread(file_made_from, Path(request.path))
        except BadInput as error:  # gone since it was checked
            raise InvalidRequest(error.message) from None
        under_way = await self._made_under_way()
        for book in ids_to_try(own_id):
            held = await self._held_by(book, under_way)
            made = None if held else await self._book_made_from(made_from, under_way)
            if made is not None:  # a free id, but the file is a book already
                return request.model_copy(update={"book": made}), None
            if may_take(held, made_from, its_name=book == own_id):
                return request.model_copy(update={"book": book}), None if book == own_id else own_id
        raise AssertionError("ids_to_try never ends")

    async def _refuse_replacing(self, request: IngestBook, *, its_name: bool) -> None:
        """Refuse (``Conflict``) a request whose id asked for is a book made, or being made, from
        another file: the same file (or a copy, or the file edited) only makes a new version."""
        book = request.book or ""
        try:
            made_from = await asyncio.to_thread(file_made_from, Path(request.path))
        except BadInput as error:  # gone since it was checked
            raise InvalidRequest(error.message) from None
        held = await self._held_by(book, await self._made_under_way())
        if replaces_another(held, made_from, its_name=its_name):
            newest = await self._store.newest(book)
            title = newest[0].title if newest else None
            known = known_to_be_another(held, made_from, its_name=its_name)
            raise Conflict(replacement_refused(book, title, None, file_known=known))

    async def _made_under_way(self) -> list[tuple[str, MadeFrom]]:
        """The books being made (read at once, or by a job not ended), and what each is made from."""
        made = []
        for request in [*self._making, *(job.request for job in await self._control.unfinished())]:
            try:
                made.append((book_of(request), await asyncio.to_thread(file_made_from, Path(request.path))))
            except BadInput:  # a job whose file is gone makes no book
                continue
        return made

    async def _book_made_from(self, made_from: MadeFrom, under_way: list[tuple[str, MadeFrom]]) -> str | None:
        """The id of a book made, or being made, from the file ``made_from``, if any."""
        books = [(b.book, b.made_from, b.withdrawn) for b in await self._store.every_book()]
        return book_made_from([*books, *((book, made, False) for book, made in under_way)], made_from)

    async def _held_by(self, book: str, under_way: list[tuple[str, MadeFrom]]) -> list[MadeFrom | None]:
        """What the books, and the books being made ``under_way``, that have the id ``book`` are made from."""
        newest = await self._store.newest(book)
        held = [newest[0].made_from] if newest is not None else []
        return held + [made for making, made in under_way if making == book]

    async def _run_job(self, request: IngestBook) -> IngestReport:
        """An audiobook job recorded queued: running (with its progress) at its turn, then its end."""
        job, control = request.job or "", self._control
        progress = ProgressPublisher(self._broker, job, recorder=control.progress_recorder(request))
        try:
            async with self._lock:
                if control.stopped(job):
                    raise JobCancelled
                self._running = asyncio.current_task()
                await control.record(request, "running")
                report = await self._ingest(request, progress, audio=True)
        except asyncio.CancelledError:
            # the service stopping: the job waits its turn at the next start, and that start does not
            # count this as a fall (a crash or a kill never gets here: ``jobcontrol.taken_up``)
            await control.record_quietly(request, "queued")
            raise
        except JobCancelled:
            log.info("job cancelled", job=job)
            raise Conflict(f"job {job} was cancelled; its finished chapters are kept") from None
        except (InvalidRequest, NoRoom) as error:  # said as it is: the listener's to act on
            await control.settle()
            await control.record(request, "failed", reason=error.message)
            raise
        except Exception as error:
            # Not resumed at the next start, where it would fail again; a stop (CancelledError)
            # is not caught here, so a job the service was stopped in the middle of does resume.
            log.exception("job failed", job=job)
            await control.settle()
            await control.record(request, "failed", reason=self._failure_said(request, error))
            raise
        finally:
            self._running = None
            await progress.close()
        await control.settle()
        set_aside = report.alignment.fallback if report.alignment else ""
        await control.record(
            request, "done", book=report.book, note="; ".join(filter(None, [*report.notes, set_aside]))
        )
        return report

    async def add_uploaded(self, request: AddUploadedBook) -> IngestJob:
        """Take the sent files onto this disk, check them as any ingest is checked, and start the
        job; the reply is the job, queued, long before it ends. Asked again for the same upload,
        while it is taken or after, the reply is that job."""
        job = job_of(request.recording)
        adding = self._adding.get(job)
        if adding is None:
            adding = asyncio.create_task(self._add_uploaded(job, request), name=f"adding {job}")
            self._adding[job] = adding
            adding.add_done_callback(lambda _: self._adding.pop(job, None))
        return await asyncio.shield(adding)  # a requester gone stops no taking

    async def _add_uploaded(self, job: str, request: AddUploadedBook) -> IngestJob:
        if (asked_before := await self._control.job(job)) is not None:
            return asked_before
        recording, ebook = await self._uploads.take(job, request.recording, request.ebook)
        ingest = IngestBook(
            path=str(recording), text_path=str(ebook) if ebook else None, title=request.title, job=job
        )
        try:
            check_sent_names(recording, ebook)
            await asyncio.to_thread(check_request, ingest)
        except BadInput as error:
            self._uploads.forget(job)
            said = error.said_to_the_sender(ingest)
            log.info("upload refused", job=job, error=said)
            # Its upload is gone from the bucket: a page that asks again (reloaded before this
            # answer came) is told the same reason, by the job.
            try:
                await self._control.record(ingest, "failed", reason=said)
            except Exception:  # the refusal is still this answer's
                log.exception("refused upload not recorded", job=job)
            raise InvalidRequest(said) from None
        async with self._naming:  # the id is known from now on: the page opens the book while it is made
            ingest, _ = await self._with_id(ingest, book_id_for(recording))
            await self._control.record(ingest, "queued")
        started = asyncio.create_task(self._run_job(ingest), name=f"job {job}")
        self._started.add(started)
        started.add_done_callback(lambda ended: self._job_ended(job, ended))
        return IngestJob(job=job, request=ingest, state="queued")

    def _failure_said(self, request: IngestBook, error: Exception) -> str:
        """Why a job failed, for its record: as the error says it, but for files sent from a device,
        whose paths on this disk mean nothing there and may be in its words."""
        if self._uploads.holds(request.path):
            return f"it could not be made ({type(error).__name__}); the ingest log says more"
        return f"{type(error).__name__}: {error}"

    async def check_upload(self, request: UploadNames) -> UploadNamesAccepted:
        recording, ebook = PurePath(request.recording), PurePath(request.ebook) if request.ebook else None
        try:
            check_sent_names(recording, ebook, (request.recording_bytes, request.ebook_bytes))
        except BadInput as error:  # said by part: a refusal never echoes what was sent
            sent = IngestBook(path=str(recording), text_path=str(ebook) if ebook else None)
            raise InvalidRequest(error.said_to_the_sender(sent)) from None
        if request.recording_bytes is not None:
            self._uploads.ensure_room(request.recording_bytes, request.ebook_bytes if ebook else None)
        return UploadNamesAccepted()

    def _job_ended(self, job: str, task: "asyncio.Task[IngestReport]") -> None:
        self._started.discard(task)
        # A job the service was stopped in keeps its files: it resumes at the next start. One that
        # failed or was cancelled made no book of them, and another try is another upload.
        if not task.cancelled() and task.exception() is not None:  # logged and recorded by _run_job
            self._uploads.forget(job)

    async def stop_started(self) -> None:
        """Stop the job under way and those started for uploads: recorded queued, they resume at the
        next start, which does not count the stop as a fall."""
        await cancel_and_wait(self._running, *self._started)

    async def jobs(self, request: JobsRequest) -> JobList:
        return await self._control.listing(request.job)

    async def cancel(self, request: CancelJob) -> IngestJob:
        return await self._control.cancel(request.job)

    async def resume_unfinished(self) -> None:
        """Run again every audiobook job a stopped service left queued or running: its finished
        chapters are stored, so each continues at the chapter it had not finished."""
        unfinished = []
        for job in await self._control.unfinished():
            taken = await self._control.take_up(job)
            if taken.state == "failed":
                log.warning("job given up", job=job.job, path=job.request.path, interrupted=taken.interrupted)
                self._uploads.forget(job.job)  # an upload's files made no book; another try is another upload
            else:
                log.info("resuming job", job=job.job, path=job.request.path, interrupted=taken.interrupted)
                unfinished.append(job)
        results = await asyncio.gather(
            *(self._run_job(job.request) for job in unfinished), return_exceptions=True
        )
        for job, result in zip(unfinished, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("resumed job failed", job=job.job, error=str(result))

    async def _read(
        self, request: IngestBook, progress: ProgressPublisher, audio: bool, clock: StageClock
    ) -> Prepared:
        if audio:
            return await self._audiobooks.prepare(
                request,
                embedding_model=self._embedders[0].model_id,
                progress=progress,
                transcription=progress.transcription,
                should_stop=lambda: self._control.stopped(request.job or ""),
                clock=clock,
                publish_interim=self._publish_interim,
            )
        return await asyncio.to_thread(
            prepare,
            request,
            embedding_model=self._embedders[0].model_id,
            narration_wpm=self._wpm,
            progress=progress,
            clock=clock,
        )

    async def _ingest(self, request: IngestBook, progress: ProgressPublisher, audio: bool) -> IngestReport:
        started = time.perf_counter()
        clock = StageClock()
        self._vectors, self._interim = {}, None
        try:
            try:
                self._made_from = await asyncio.to_thread(file_made_from, Path(request.path))
                prepared = await self._read(request, progress, audio, clock)
                await self._keep_a_better_book_before(request, prepared)
                name, unchanged = await self._store_and_announce(prepared, progress, clock)
            except BadInput as error:
                log.info("bad input refused", path=request.path, error=error.message)
                sent = self._uploads.holds(request.path)
                raise InvalidRequest(error.said_to_the_sender(request) if sent else error.message) from None
        except JobCancelled:
            raise  # a cancelled job's interim version stays: asked again, it continues (adr/0032)
        except Exception:
            await self._withdraw_interim()
            raise
        finally:
            self._vectors, self._interim = {}, None
        if prepared.transcript is None:
            await self._delete_interim_artifacts(prepared.book_id, name)
        progress("store", 1, 1, "unchanged" if unchanged else name)
        log.info("book ingested", book=prepared.book_id, version=prepared.version, unchanged=unchanged)
        return self._report(prepared, name, unchanged, time.perf_counter() - started, clock)

    async def _keep_a_better_book_before(self, request: IngestBook, prepared: Prepared) -> None:
        """Refuse a whole version that would replace one made with its own e-book
        (``keeps_the_book_before``)."""
        newest = await self._store.newest(prepared.book_id)
        if prepared.alignment is None or not prepared.alignment.fallback or newest is None:
            return  # nothing set aside, or nothing before: the artifact is not read
        announced = newest[0]
        if announced.withdrawn or announced.transcript is not None:
            return
        before = await self._store.get(announced.object_name)
        if keeps_the_book_before(prepared.alignment, before.times_from):
            raise BadInput(Path(request.text_path or request.path), the_book_before_kept(prepared.alignment))

    async def _store_and_announce(
        self, prepared: Prepared, progress: Progress, clock: StageClock
    ) -> tuple[str, bool]:
        """Store the version unless it is stored, announce it unless it is the newest announced;
        the object's name, and whether nothing had to be done."""
        name = object_name(prepared.book_id, prepared.version)
        await self._media.ensure_named(prepared.fields)
        stored = await self._store.has(name)
        if stored:
            progress("embed", len(prepared.passages), len(prepared.passages), "stored before")
        else:
            await self._embed_and_store(prepared, name, progress, clock)
        newest = await self._store.newest(prepared.book_id)
        announced = announced_as_it_is(newest[0] if newest else None, prepared.version)
        if not announced:  # after another announcement (even of this version, deleted and made again)
            await self._announce(prepared, name, newest[1] if newest else None)
        return name, stored and announced

    async def _publish_interim(self, prepared: Prepared) -> None:
        """Announce an interim version of a book still being transcribed, unless the book has a
        whole version announced (that one is served until this job's whole book replaces it)."""
        interim = prepared.transcript
        newest = await self._store.newest(prepared.book_id)
        if interim is None or serves_a_whole_version(newest[0] if newest else None):
            return
        await self._store_and_announce(prepared, no_progress, StageClock())
        self._interim = prepared
        log.info(
            "interim version announced",
            book=prepared.book_id,
            version=prepared.version,
            chapters_done=interim.chapters_done,
            chapters=interim.chapters,
        )
        if self._after_interim is not None:
            await self._after_interim(prepared.book_id, interim)

    async def _withdraw_interim(self) -> None:
        """After a failure, the interim version this ingest announced is served no more: nothing
        of a recording that could not be made a book stays (adr/0032)."""
        interim = self._interim
        newest = await self._store.newest(interim.book_id) if interim is not None else None
        if interim is None or newest is None or newest[0].version != interim.version:
            return
        await self._withdraw(*newest)
        log.info("interim version withdrawn", book=interim.book_id, version=interim.version)

    async def _delete_interim_artifacts(self, book: str, whole: str) -> None:
        """The book is made; what is left behind is only room, so nothing that fails here fails the
        ingest (the next whole version of the book deletes them)."""
        freed = 0
        try:
            for name in interim_artifacts(await self._store.versions(book), whole):
                freed += await self._store.delete(name)
        except Exception as error:  # the bus, or an announcement it cannot read: the book is made
            log.warning("interim versions not deleted", book=book, error=str(error))
        if freed:
            log.info("interim versions deleted", book=book, freed_bytes=freed)

    async def remove(self, request: RemoveBook) -> BookRemoved:
        """Serve a book no more, unless a job is making it (its next version would bring it back);
        with ``delete_files``, also a book removed before, whose files are still stored."""
        newest = await self._store.newest(request.book)
        if newest is None or (newest[0].withdrawn and not request.delete_files):
            raise NotFound(f"there is no book {request.book!r} to remove")
        unfinished = await self._control.unfinished()
        making = [j.job for j in unfinished if book_of(j.request) == request.book]
        if making:
            job = making[0]
            raise Conflict(
                f"job {job} is making {request.book!r}; cancel it first (bedside jobs --cancel {job})"
            )
        if request.delete_files and unfinished:
            # A job's book may be made from the same file, its cover and joined tracks named by
            # content like this one's, and it names them in no version yet.
            job = unfinished[0].job
            raise Conflict(f"job {job} is still running; delete the files once it is done (bedside jobs)")
        if not newest[0].withdrawn:
            await self._withdraw(*newest)
        freed = await self._delete_files(request.book) if request.delete_files else 0
        log.info("book removed", book=request.book, version=newest[0].version, freed_bytes=freed)
        return BookRemoved(
            book=request.book, title=newest[0].title, version=newest[0].version, freed_bytes=freed
        )

    async def _delete_files(self, book: str) -> int:
        """Delete what was stored of ``book``'s versions and is no other book's; the bytes freed.
        Artifacts are read one at a time: each holds its passages' vectors."""
        versions = {event.object_name for event in await self._store.versions(book)}
        others = {event.object_name for event in await self._store.other_books(book)}
        files = only_theirs(
            [await self._files_named(name) for name in versions], [await self._files_named(n) for n in others]
        )
        freed = 0
        for name in versions:
            freed += await self._store.delete(name)
        for name in files.objects:
            freed += await self._media.delete(name)
        for path in files.paths:
            freed += await asyncio.to_thread(deleted_path, path)
        return freed

    async def _files_named(self, artifact_name: str) -> StoredFiles:
        stored = await self._store.stored(artifact_name)
        return StoredFiles() if stored is None else files_of(stored, self._own)

    async def _withdraw(self, newest: BookIngested, seq: int) -> None:
        """Announce the book's newest version withdrawn: search serves the book no more."""
        await self._broker.publish(
            newest.model_copy(update={"withdrawn": True}).model_dump_json().encode(),
            subjects.BOOK_INGESTED.format(book=newest.book),
            stream=subjects.BOOKS_STREAM,
            headers={"Nats-Msg-Id": f"{message_id(newest.book, newest.version, seq)}:withdrawn"},
            timeout_s=PUBLISH_TIMEOUT_S,
        )

    async def _embed_and_store(
        self, prepared: Prepared, name: str, progress: Progress, clock: StageClock
    ) -> None:
        texts = [p.text for p in prepared.passages]
        with clock.stage("embed"):
            vectors = await asyncio.to_thread(
                embed_new, texts, self._embedders, self._vectors, progress, self._vector_cache
            )
        with clock.stage("store"):
            progress("store", 0, 1, name)
            data = await asyncio.to_thread(
                lambda: build_artifact(prepared, vectors).model_dump_json().encode()
            )
            await self._store.put(name, data)

    async def _announce(self, prepared: Prepared, name: str, superseding: int | None) -> None:
        event = BookIngested(
            book=prepared.book_id,
            version=prepared.version,
            object_name=name,
            title=prepared.book.title,
            transcript=prepared.transcript,
            made_from=self._made_from,
        )
        await self._broker.publish(
            event.model_dump_json().encode(),
            subjects.BOOK_INGESTED.format(book=prepared.book_id),
            stream=subjects.BOOKS_STREAM,
            headers={"Nats-Msg-Id": message_id(prepared.book_id, prepared.version, superseding)},
            timeout_s=PUBLISH_TIMEOUT_S,
        )

    @staticmethod
    def _report(
        prepared: Prepared, name: str, unchanged: bool, seconds: float, clock: StageClock
    ) -> IngestReport:
        return IngestReport(
            book=prepared.book_id,
            version=prepared.version,
            object_name=name,
            title=prepared.book.title,
            chapters=len(prepared.chapters),
            passages=len(prepared.passages),
            duration_ms=prepared.duration_ms,
            estimated=prepared.book.estimated,
            transcribed=times_from_format(prepared.book.format) != "file",
            times_from=times_from_format(prepared.book.format),
            alignment=prepared.alignment,
            notes=list(prepared.notes),
            unchanged=unchanged,
            seconds=round(seconds, 3),
            stage_seconds=clock.seconds,
        )


def deleted_path(path: Path) -> int:
    """Delete the file or folder ``path``; the bytes it held, 0 when it was not there."""
    if path.is_dir():
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        shutil.rmtree(path)
        return size
    try:
        size = path.stat().st_size
        path.unlink()
    except FileNotFoundError:
        return 0
    return size
