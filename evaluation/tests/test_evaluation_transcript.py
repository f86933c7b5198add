"""Recall on a transcribed book: the queries of the spoken chapters, the kept artifacts, the columns."""

from pathlib import Path

import pytest
from bedside_contracts.ingest import BookArtifact
from bedside_embedding import Embedder, load_minilm
from bedside_evaluation import query
from bedside_evaluation.corpus_books import artifact_of
from bedside_evaluation.eval_transcript import (
    ALIGNED,
    ALL_SETS,
    HEARD,
    PLAIN,
    Recording,
    keep,
    kept,
    measure,
    plain_text_artifact,
    score,
    sets_within,
    summary,
    within,
)
from bedside_evaluation.queryset import QuerySet
from bedside_evaluation.scoring import evaluate, pooled
from bedside_ingest.chunking import chapter_infos, chunk_book
from bedside_ingest.reader import read_book
from bedside_ingest.sample import SAMPLE_CHAPTERS, SAMPLE_TEXT, SAMPLE_TRANSCRIPT
from bedside_testing import corpus_file


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return load_minilm()


def sample_artifact(book_id: str, embedder: Embedder, *, timed: bool) -> BookArtifact:
    book = read_book(SAMPLE_TRANSCRIPT, chapters_path=SAMPLE_CHAPTERS) if timed else read_book(SAMPLE_TEXT)
    passages = chunk_book(book)
    return artifact_of(book_id, book.title, passages, chapter_infos(book, passages), embedder)


def test_a_query_counts_only_when_every_target_was_spoken() -> None:
    asked = QuerySet(book="b", queries=(query("inside", 1, 2), query("across", 2, 3), query("outside", 4)))
    assert within(asked, {1, 2}) == QuerySet(book="b", queries=(query("inside", 1, 2),))
    assert within(asked, {5}) is None


def test_the_black_beauty_sets_are_cut_to_the_spoken_chapters() -> None:
    cut = sets_within("black_beauty", range(1, 21))
    assert "black_beauty" in cut
    assert "black_beauty held-out" in cut
    assert all(n <= 20 for s in cut.values() for q in s.queries for n in q.chapters)
    assert all(s.book == "black_beauty" for s in cut.values())
    assert sets_within("black_beauty", {999}) == {}


def test_pooled_counts_every_query_once() -> None:
    one = evaluate([query("first", 1), query("second", 2)], [[1], [3]])
    two = evaluate([query("third", 5)], [[5]])
    both = pooled([one, two])
    assert (both.total, both.hits_at_1, both.hits_at_4) == (3, 2, 2)
    assert [m.query for m in both.misses] == ["second"]


def test_the_kept_artifacts_read_back_as_written(tmp_path: Path, embedder: Embedder) -> None:
    heard = sample_artifact("heard", embedder, timed=True)
    aligned = sample_artifact("aligned", embedder, timed=False)
    recording = Recording(corpus_book="sample", chapters=(1, 2, 3))
    keep(tmp_path / "kept", recording, heard, aligned)
    assert kept(tmp_path / "kept") == (recording, {HEARD: heard, ALIGNED: aligned})


async def test_each_column_is_scored_by_the_served_find(embedder: Embedder) -> None:
    columns = {
        HEARD: sample_artifact("heard", embedder, timed=True),
        ALIGNED: sample_artifact("aligned", embedder, timed=False),
    }
    asked = QuerySet(
        book="sample",
        queries=(
            query("the post lady on her bicycle bringing a pie", 2),
            query("counting the steps up the lighthouse to the lamp room", 1),
        ),
    )
    results = await score(embedder, columns, {"sample": asked})
    for column in columns:
        assert results[column]["sample"].recall_at_4 == 1.0
        assert results[column][ALL_SETS].total == 2


def test_the_plain_text_holds_only_the_spoken_chapters(tmp_path: Path, embedder: Embedder) -> None:
    artifact = plain_text_artifact(corpus_file("black_beauty.json"), {1, 2}, embedder, cache_dir=tmp_path)
    assert {p.chapter for p in artifact.passages} == {1, 2}
    assert [c.n for c in artifact.chapters] == [1, 2]


async def test_measure_scores_what_was_kept_beside_the_plain_text(tmp_path: Path, embedder: Embedder) -> None:
    corpus = corpus_file("black_beauty.json").parent
    text = plain_text_artifact(corpus / "black_beauty.json", {1, 2}, embedder, cache_dir=tmp_path)
    recording = Recording(corpus_book="black_beauty", chapters=(1, 2))
    heard, aligned = (text.model_copy(update={"book": name}) for name in ("heard", "aligned"))
    keep(tmp_path / "kept", recording, heard, aligned)
    measured, results = await measure(tmp_path / "kept", embedder, corpus)
    assert measured == recording
    assert set(results) == {HEARD, ALIGNED, PLAIN}
    totals = {column: by_set[ALL_SETS].total for column, by_set in results.items()}
    assert len(set(totals.values())) == 1
    assert totals[HEARD] == 12
    assert summary(recording, results).count("gap +0.000") == 2
