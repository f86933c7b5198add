"""The books, with chapter titles only up to the line, and their audio and covers."""

import asyncio
from collections.abc import Mapping
from pathlib import Path

from bedside_contracts.player import BookView, ChapterView, Listening
from bedside_contracts.search import BookInfo, ChapterInfo
from bedside_guard import ahead_of, own_title
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response, StreamingResponse

from bedside_player.audio import audio_media_type
from bedside_player.byte_ranges import entity_tag, unchanged
from bedside_player.routes.deps import Bedside, Book, Caller, OwnListener
from bedside_player.routes.errors import DOCUMENTED_ERRORS
from bedside_player.routes.served_media import media_response, not_modified
from bedside_player.service import Service

router = APIRouter(responses=DOCUMENTED_ERRORS)
MEDIA_ANSWERS: dict[int | str, dict[str, object]] = {
    200: {"description": "the whole file, with its ETag; kept by a device, it is asked again each time"},
    206: {"description": "the Range asked for (with If-Range, only while that is the file's strong ETag)"},
    304: {"description": "If-None-Match names the file as it is: the device's copy is still it"},
    416: {"description": "the Range starts past the end of the file"},
}


def chapter_view(chapter: ChapterInfo, ahead: bool) -> ChapterView:
    return ChapterView(
        n=chapter.n,
        start_ms=chapter.start_ms,
        end_ms=chapter.end_ms,
        title=None if ahead else own_title(chapter.n, chapter.title),
        ahead=ahead,
    )


def view(book: BookInfo, here_ms: int | None) -> BookView:
    """No chapters without a position; with one, a chapter ahead of it has no title."""
    chapters = (
        [] if here_ms is None else [chapter_view(c, ahead_of(c.start_ms, here_ms)) for c in book.chapters]
    )
    return BookView(
        id=book.id,
        title=book.title,
        author=book.author,
        narrator=book.narrator,
        duration_ms=book.duration_ms,
        has_audio=book.audio_path is not None,
        has_cover=book.cover_path is not None,
        estimated=book.estimated,
        chapters=chapters,
        transcript=book.transcript,
    )


def on_this_machine(service: Service, named: str | None) -> Path | None:
    """Where ingest keeps a file, when that is on this machine (``bedside up``)."""
    if named is None:
        return None
    path = Path(named)
    if not path.is_absolute():
        path = service.settings.data_dir / path
    return path if path.is_file() else None


async def media_answer(
    service: Service,
    book: BookInfo,
    files: tuple[str | None, str | None],
    what: str,
    *,
    asked: Mapping[str, str],
    media_type: str | None = None,
) -> Response:
    """The file where ingest keeps it, when that is on this machine; else this copy's own, from the
    media bucket, perhaps still arriving. ``files`` are the book's path and media name for it.

    Only the bucket's file has a strong tag (its name is its content's hash), and a device whose
    copy is still it gets its 304 before anything is fetched. Ingest's path may be the listener's
    own file, which can be replaced in place, so it is tagged by its size and time."""
    named, shared = files
    if named is None:
        raise HTTPException(404, f"the book {book.id!r} has no {what}")
    if path := await asyncio.to_thread(on_this_machine, service, named):
        return await media_response(path, asked, media_type)
    if shared is None:
        raise HTTPException(404, f"the {what} of {book.id!r} is missing")
    tag = entity_tag(shared)
    if unchanged(asked.get("if-none-match"), tag):
        return not_modified(tag)
    return await media_response(await service.media.copy_of(shared), asked, media_type, tag)


@router.get("/api/books", response_model=list[BookView])
async def books(caller: Caller, service: Bedside) -> list[BookView]:
    return [view(book, None) for book in await service.books.all()]


@router.get("/api/listeners/{listener}/listening", response_model=Listening)
async def listening(listener: OwnListener, service: Bedside) -> Listening:
    """The book the listener's position is in (reported or moved newest); null before any.
    The page opens it when no book is asked for."""
    return await service.listening(listener)


@router.get("/api/books/{book}", response_model=BookView)
async def book_view(caller: Caller, book: Book, service: Bedside) -> BookView:
    if book.audio_object is not None and not await asyncio.to_thread(
        on_this_machine, service, book.audio_path
    ):
        service.media.warm(book.audio_object)  # the page plays it next
    state = await service.state(caller, book.id)
    return view(book, state.position_ms)


@router.get("/api/books/{book}/audio", response_class=StreamingResponse, responses=MEDIA_ANSWERS)
async def audio(caller: Caller, book: Book, service: Bedside, request: Request) -> Response:
    recording = (book.audio_path, book.audio_object)
    media_type = audio_media_type(Path(book.audio_path or ""))
    return await media_answer(
        service, book, recording, "audio file", asked=request.headers, media_type=media_type
    )


@router.get("/api/books/{book}/cover", response_class=StreamingResponse, responses=MEDIA_ANSWERS)
async def cover(caller: Caller, book: Book, service: Bedside, request: Request) -> Response:
    return await media_answer(
        service, book, (book.cover_path, book.cover_object), "cover", asked=request.headers
    )
