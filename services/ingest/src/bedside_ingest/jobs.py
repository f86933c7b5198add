"""Where audiobook jobs keep what survives a restart: each finished chapter's transcript and,
until its chapter is done, each piece's (an object store, since a long chapter's words outgrow a
message), and each job's state (a KV bucket).
Declared here and nowhere else.
"""

import asyncio
import contextlib

from bedside_contracts import subjects
from bedside_contracts.ingest import ChapterTranscript, IngestJob, PieceTranscript
from bedside_runtime.streams import key_value_bucket, live_keys, object_bucket
from nats.js.api import KeyValueConfig, StorageType
from nats.js.client import JetStreamContext
from nats.js.errors import KeyNotFoundError, ObjectNotFoundError
from nats.js.kv import KeyValue
from nats.js.object_store import ObjectStore


class JobStore:
    def __init__(self, js: JetStreamContext, transcripts: ObjectStore, jobs: KeyValue) -> None:
        self._js = js
        self._transcripts = transcripts
        self._jobs = jobs

    @classmethod
    async def declare(cls, js: JetStreamContext, replicas: int) -> "JobStore":
        transcripts = await object_bucket(
            js,
            subjects.TRANSCRIPTS_BUCKET,
            "Bedside: each transcribed chapter of an audiobook, so a job resumes",
            replicas,
        )
        jobs = await key_value_bucket(
            js,
            KeyValueConfig(
                bucket=subjects.INGEST_JOBS_BUCKET,
                description="Bedside: audiobook ingest jobs and their state",
                storage=StorageType.FILE,
                replicas=replicas,
                history=1,
            ),
        )
        return cls(js, transcripts, jobs)

    @staticmethod
    def _name(fingerprint: str, chapter: int) -> str:
        return f"{fingerprint}/{chapter}"

    async def save_transcript(self, fingerprint: str, transcript: ChapterTranscript) -> None:
        await self._transcripts.put(
            self._name(fingerprint, transcript.chapter), transcript.model_dump_json().encode()
        )

    async def stored_transcripts(self, fingerprint: str, chapters: list[int]) -> dict[int, ChapterTranscript]:
        found: dict[int, ChapterTranscript] = {}
        for chapter in chapters:
            try:
                result = await self._transcripts.get(self._name(fingerprint, chapter))
            except ObjectNotFoundError:
                continue
            found[chapter] = ChapterTranscript.model_validate_json(result.data or b"")
        return found

    @staticmethod
    def _piece_name(fingerprint: str, chapter: int, piece: int) -> str:
        return f"{fingerprint}/{chapter}/piece/{piece}"

    async def save_piece(self, fingerprint: str, piece: PieceTranscript) -> None:
        name = self._piece_name(fingerprint, piece.chapter, piece.piece)
        await self._transcripts.put(name, piece.model_dump_json().encode())

    async def stored_pieces(self, fingerprint: str, chapter: int) -> list[PieceTranscript]:
        """The chapter's pieces heard so far, in order (they are saved in order, so the first
        one missing ends them)."""
        pieces: list[PieceTranscript] = []
        while True:
            try:
                result = await self._transcripts.get(self._piece_name(fingerprint, chapter, len(pieces)))
            except ObjectNotFoundError:
                return pieces
            pieces.append(PieceTranscript.model_validate_json(result.data or b""))

    async def forget_pieces(self, fingerprint: str, chapter: int, count: int) -> None:
        """Once the chapter's own transcript is stored, its pieces are not needed again."""
        for piece in range(count):
            with contextlib.suppress(ObjectNotFoundError):
                await self._transcripts.delete(self._piece_name(fingerprint, chapter, piece))

    async def put_job(self, job: IngestJob) -> None:
        await self._jobs.put(job.job, job.model_dump_json().encode())

    async def get_job(self, job: str) -> IngestJob | None:
        entry = await self._entry(job)
        return IngestJob.model_validate_json(entry.value or b"") if entry is not None else None

    async def jobs(self) -> list[IngestJob]:
        """Every job, the one changed last first."""
        keys = await live_keys(self._js, subjects.INGEST_JOBS_BUCKET)
        found = await asyncio.gather(*(self._entry(key) for key in keys))
        newest_first = sorted((e for e in found if e is not None), key=lambda e: -(e.revision or 0))
        return [IngestJob.model_validate_json(entry.value or b"") for entry in newest_first]

    async def _entry(self, job: str) -> KeyValue.Entry | None:
        try:
            return await self._jobs.get(job)
        except KeyNotFoundError:
            return None
