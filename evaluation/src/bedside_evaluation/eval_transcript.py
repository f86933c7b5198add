"""Search on a transcribed audiobook: the same navigation queries on what ingest made of a
recording and on the e-book text of the same chapters, each scored by search's engine in process.

    python -m bedside_evaluation.eval_transcript DIR

DIR is what ``bench.ingest_audiobook --keep DIR`` kept: the artifact of the recording alone
(the recogniser's words), the artifact of the recording with its e-book (the e-book's sentences
timed from the recording), and which corpus book and chapters were spoken. The third column is
the plain e-book of those chapters chunked as ingest chunks any text. A query counts when every
chapter it targets was spoken; recall@4 is judged on the 8 passages a find returns.
"""

import asyncio
import sys
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import replace
from pathlib import Path

from bedside_contracts.ingest import BookArtifact
from bedside_embedding import Embedder, load_minilm
from bedside_ingest.chunking import chapter_infos, chunk_book, load_json_book
from bedside_search.domain.find import find_order
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from bedside_evaluation.books import held_out_sets, query_sets
from bedside_evaluation.corpus import corpus_dir, corpus_missing
from bedside_evaluation.corpus_books import artifact_of, cached_vectors
from bedside_evaluation.eval_search import RANK_DEPTH, chapters_of, rankings_for
from bedside_evaluation.queryset import QuerySet
from bedside_evaluation.scoring import RecallResult, evaluate, pooled

HEARD_FILE = "heard.json"
ALIGNED_FILE = "aligned.json"
RECORDING_FILE = "recording.json"

HEARD = "ASR transcript"
ALIGNED = "e-book aligned to the recording"
PLAIN = "plain e-book, chunked as text"
ALL_SETS = "all sets"


class Recording(BaseModel):
    """Which corpus book was spoken, and which of its chapters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    corpus_book: str = Field(min_length=1, description="the corpus file stem, e.g. black_beauty")
    chapters: tuple[PositiveInt, ...] = Field(min_length=1)


def keep(folder: Path, recording: Recording, heard: BookArtifact, aligned: BookArtifact) -> None:
    """Write what the evaluation reads into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RECORDING_FILE).write_text(recording.model_dump_json())
    (folder / HEARD_FILE).write_text(heard.model_dump_json())
    (folder / ALIGNED_FILE).write_text(aligned.model_dump_json())


def kept(folder: Path) -> tuple[Recording, dict[str, BookArtifact]]:
    """What ``keep`` wrote: the recording, and the two artifacts by column."""
    recording = Recording.model_validate_json((folder / RECORDING_FILE).read_text())
    artifacts = {
        HEARD: BookArtifact.model_validate_json((folder / HEARD_FILE).read_text()),
        ALIGNED: BookArtifact.model_validate_json((folder / ALIGNED_FILE).read_text()),
    }
    return recording, artifacts


def within(query_set: QuerySet, chapters: Collection[int]) -> QuerySet | None:
    """The queries whose every target chapter is among ``chapters``; None when there are none."""
    inside = tuple(q for q in query_set.queries if set(q.chapters) <= set(chapters))
    return QuerySet(book=query_set.book, queries=inside) if inside else None


def sets_within(corpus_book: str, chapters: Collection[int]) -> dict[str, QuerySet]:
    """The development and held-out sets of ``corpus_book``, cut to ``chapters``, by label."""
    every = {
        **{s.book: s for s in query_sets() if s.book == corpus_book},
        **{label: s for label, s in held_out_sets().items() if s.book == corpus_book},
    }
    cut = {label: within(s, chapters) for label, s in every.items()}
    return {label: s for label, s in cut.items() if s is not None}


def plain_text_artifact(
    path: Path, chapters: Collection[int], embedder: Embedder, cache_dir: Path | None = None
) -> BookArtifact:
    """The corpus book's ``chapters`` alone, chunked by ingest's chunker and embedded."""
    whole = load_json_book(path)
    book = replace(whole, chapters=tuple(c for c in whole.chapters if c.n in set(chapters)))
    passages = chunk_book(book)
    vectors = cached_vectors(embedder, [p.text for p in passages], cache_dir)
    infos = chapter_infos(book, passages)
    return artifact_of(f"{path.stem}-text", book.title, passages, infos, embedder, vectors=vectors)


Results = dict[str, dict[str, RecallResult]]


async def score(
    embedder: Embedder, columns: Mapping[str, BookArtifact], sets: Mapping[str, QuerySet]
) -> Results:
    """results[column][set label] with find's served rule, and the sets pooled as ``ALL_SETS``."""
    results: Results = {}
    with tempfile.TemporaryDirectory(prefix="bedside-eval-transcript-") as directory:
        store = await open_store(path=Path(directory))
        engine = SearchEngine(store, embedder)
        try:
            for column, artifact in columns.items():
                await engine.index(artifact)
                book = engine.book(artifact.book)
                by_set = results.setdefault(column, {})
                for label, measured in sets.items():
                    ranked = await rankings_for(engine, book, measured.queries)
                    found = [
                        chapters_of(
                            book, find_order(book, r.navigation.text, (r.dense, r.sparse), RANK_DEPTH)
                        )
                        for r in ranked
                    ]
                    by_set[label] = evaluate(measured.queries, found)
                by_set[ALL_SETS] = pooled(list(by_set.values()))
        finally:
            await store.close()
    return results


async def measure(folder: Path, embedder: Embedder, corpus: Path) -> tuple[Recording, Results]:
    """Score the kept artifacts of ``folder`` and the plain e-book of the same chapters."""
    recording, columns = kept(folder)
    path = corpus / f"{recording.corpus_book}.json"
    columns[PLAIN] = await asyncio.to_thread(plain_text_artifact, path, recording.chapters, embedder)
    return recording, await score(embedder, columns, sets_within(recording.corpus_book, recording.chapters))


def cell(result: RecallResult) -> str:
    return f"{result.recall_at_4:.2f} ({result.recall_at_1:.2f}) {result.hits_at_4}/{result.total}"


def table(results: Results) -> str:
    """One row per query set, one column per artifact: recall@4 (recall@1) hits@4/queries."""
    columns = list(results)
    labels = list(dict.fromkeys(label for by_set in results.values() for label in by_set))
    lines = ["| set | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 1)]
    lines += [
        f"| {label} | " + " | ".join(cell(results[c][label]) for c in columns) + " |" for label in labels
    ]
    return "\n".join(lines)


def summary(recording: Recording, results: Results) -> str:
    """The table, then the gap of the recogniser's transcript to each e-book column at 4."""
    first, last = min(recording.chapters), max(recording.chapters)
    heard = results[HEARD][ALL_SETS]
    lines = [
        table(results),
        "cells: recall@4 (recall@1) hits@4/queries",
        "",
        f"{recording.corpus_book} chapters {first}-{last}: {heard.total} queries, every target spoken",
    ]
    for column in (ALIGNED, PLAIN):
        other = results[column][ALL_SETS]
        lines.append(
            f"recall@4 {HEARD} {heard.recall_at_4:.3f} vs {column} {other.recall_at_4:.3f}: "
            f"gap {other.recall_at_4 - heard.recall_at_4:+.3f}"
        )
    lines += [f"  {HEARD} missed: {m.query!r} -> {list(m.targets)}, got {list(m.got)}" for m in heard.misses]
    return "\n".join(lines)


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: python -m bedside_evaluation.eval_transcript DIR", file=sys.stderr)
        return 2
    if corpus_missing():
        return 2
    corpus = corpus_dir()
    recording, results = asyncio.run(measure(Path(sys.argv[1]), load_minilm(), corpus))
    print(summary(recording, results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
