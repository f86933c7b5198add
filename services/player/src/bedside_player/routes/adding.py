"""Adding a book from the page: its files sent one by one, then the book asked for and followed.

The player only carries the files across (into the uploads bucket) and the requests to ingest,
which decides what a file is and makes the book, as ``bedside ingest`` does from a terminal.
"""

from collections.abc import Awaitable
from typing import Annotated, Any, TypeVar

from bedside_contracts import subjects
from bedside_contracts.common import NAME_PATTERN
from bedside_contracts.ingest import (
    LONGEST_FILE_NAME_SENT,
    UPLOAD_MAX_BYTES,
    AddUploadedBook,
    CancelJob,
    IngestJob,
    JobList,
    JobsRequest,
    UploadedFile,
    UploadNames,
    UploadNamesAccepted,
    plain_file_name,
)
from bedside_contracts.player import AddingBook
from bedside_runtime.bus import call
from bedside_runtime.errors import CallFailed, InvalidRequest, NoRoom, NotFound, RemoteFailure
from bedside_runtime.room import ensure_room, size_said
from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from starlette.requests import ClientDisconnect

from bedside_player.routes.deps import Bedside, Caller
from bedside_player.routes.errors import DOCUMENTED_ERRORS, error_reply
from bedside_player.service import Service
from bedside_player.uploads import spool_of, store_upload

UPLOADS_PATH = "/api/uploads"
UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": f"the file's bytes as they are, at most {UPLOAD_MAX_BYTES} bytes",
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}

TAKEN_BYTES_PER_S = 20e6
"""A slow floor for ingest taking the files out of the bucket, which it does before it answers."""

router = APIRouter(responses=DOCUMENTED_ERRORS)
Reply = TypeVar("Reply")


@router.post(UPLOADS_PATH, response_model=UploadedFile, status_code=201, openapi_extra=UPLOAD_BODY)
async def upload(
    caller: Caller,
    request: Request,
    service: Bedside,
    filename: Annotated[
        str,
        Query(
            min_length=1,
            max_length=LONGEST_FILE_NAME_SENT,
            description="the file's name on the device: its last part is kept, made plain and cut short",
        ),
    ],
) -> UploadedFile | JSONResponse:
    """One file of a book to add (its recording, or its e-book), held until the book is asked for."""
    try:
        filename = plain_file_name(filename)
    except ValueError as error:
        raise InvalidRequest(str(error)) from None
    spool = spool_of(service.settings.data_dir)
    js = service.broker.connection.jetstream()
    declared = request.headers.get("content-length")  # a number: LimitBody refused any other
    try:
        return await store_upload(js, spool, filename, request.stream(), int(declared) if declared else None)
    except ClientDisconnect:  # LimitBody stopped the body midway and answers 413 itself
        return error_reply(413, "the file is too large")


@router.post("/api/uploads/check", response_model=UploadNamesAccepted)
async def check_names(caller: Caller, body: UploadNames, service: Bedside) -> UploadNamesAccepted:
    """Whether files of these names could make a book, asked before their bytes are sent; and, with
    their sizes, whether there is room for them (here while each is sent, at ingest for both)."""
    for what, size in (("the recording", body.recording_bytes), ("the e-book", body.ebook_bytes)):
        if size is None:
            continue
        if size > UPLOAD_MAX_BYTES:
            raise InvalidRequest(
                f"{what} is {size_said(size)}; Bedside takes files of up to {size_said(UPLOAD_MAX_BYTES)}"
            )
        ensure_room(spool_of(service.settings.data_dir), what, size)
    asked = call(service.broker.connection, subjects.INGEST_CHECK_UPLOAD, body, UploadNamesAccepted)
    return await passed_on(asked)


@router.post("/api/books/added", response_model=AddingBook, status_code=202)
async def add(caller: Caller, body: AddUploadedBook, service: Bedside) -> AddingBook:
    """Make a book of uploaded files: ingest checks them and starts the job, which runs on."""
    sent = body.recording.size + (body.ebook.size if body.ebook else 0)
    timeout = service.settings.request_timeout_s + sent / TAKEN_BYTES_PER_S
    job = await passed_on(
        call(service.broker.connection, subjects.INGEST_UPLOADED, body, IngestJob, timeout_s=timeout)
    )
    return AddingBook.of(job)


@router.get("/api/books/added/{job}", response_model=AddingBook)
async def adding(
    caller: Caller, job: Annotated[str, PathParam(pattern=NAME_PATTERN)], service: Bedside
) -> AddingBook:
    """How far the book has got: queued, running (chapters transcribed), done, or why it failed;
    and whether it plays yet."""
    listed = await call(service.broker.connection, subjects.INGEST_JOBS, JobsRequest(job=job), JobList)
    adding = AddingBook.of(listed.jobs[0])
    return adding.model_copy(update={"served": await is_served(service, adding)})


@router.post("/api/books/added/{job}/stop", response_model=AddingBook)
async def stop_adding(
    caller: Caller, job: Annotated[str, PathParam(pattern=NAME_PATTERN)], service: Bedside
) -> AddingBook:
    """Stop making a book that is queued or being transcribed (the wrong file was sent, or it is not
    wanted now), as ``bedside jobs --cancel`` does: what is transcribed of it already stays. A job
    that has ended is not stopped (409)."""
    stopped = await call(service.broker.connection, subjects.INGEST_CANCEL, CancelJob(job=job), IngestJob)
    adding = AddingBook.of(stopped)
    return adding.model_copy(update={"served": await is_served(service, adding)})


async def is_served(service: Service, adding: AddingBook) -> bool | None:
    """Whether search serves the book being made: any version while it is made, only the whole book
    once the job is done (ingest records it done as it hands search the whole book, which search serves
    a moment later, the interim version until then). None when search could not be asked (away, or
    starting)."""
    if adding.book is None:
        return False
    try:
        served = await service.books.get(adding.book)
    except NotFound:
        return False
    except CallFailed:
        return None
    return adding.state != "done" or served.transcript is None


async def passed_on(asked: Awaitable[Reply]) -> Reply:
    """Ingest's refusal of the listener's own files: theirs to read, as ingest said it."""
    try:
        return await asked
    except RemoteFailure as refused:
        if refused.code == "invalid":
            raise InvalidRequest(refused.failure.error) from None
        if refused.code == "no_room":
            raise NoRoom(refused.failure.error) from None
        raise
