"""An interim version of an audiobook still being transcribed (adr/0032), served by the engine on
the embedded store: with no passages yet every request answers (nothing found, nothing heard) and
each chapter is reached by number, time and offset; with chapter 1 done its words are found and
the chapters still to come are reached but never found."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bedside_contracts.ingest import BookArtifact
from bedside_contracts.search import (
    CatalogRequest,
    ChapterInfo,
    CheckAnswer,
    FindPassage,
    NameHints,
    Recall,
    Recap,
    Resolve,
    Target,
    TranscriptCoverage,
)
from bedside_embedding import Embedder, load_minilm
from bedside_evaluation.corpus_books import artifact_of
from bedside_guard import unheard_names
from bedside_search.domain.wordless import WORDLESS_IDS_FROM, chapter_of_wordless
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_search_testing import chapters_of, small_passages

MINUTE = 60_000


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return load_minilm()


@pytest.fixture
async def engine(embedder: Embedder, tmp_path: Path) -> AsyncIterator[SearchEngine]:
    store = await open_store(path=tmp_path / "vectors")
    try:
        yield SearchEngine(store, embedder)
    finally:
        await store.close()


def interim(embedder: Embedder, chapters_done: int) -> BookArtifact:
    """The small book's recording as four ten-minute chapters, the first ``chapters_done`` transcribed."""
    whole = small_passages()
    done = [p for p in whole if p.chapter <= chapters_done]
    recording = [
        ChapterInfo(n=n, title=f"Part {n}", start_ms=(n - 1) * 10 * MINUTE, end_ms=n * 10 * MINUTE)
        for n in (1, 2, 3, 4)
    ]
    chapters = chapters_of(done) + [c for c in recording if c.n > chapters_done]
    coverage = TranscriptCoverage(
        chapters_done=chapters_done,
        chapters=4,
        audio_done_ms=chapters_done * 10 * MINUTE,
        audio_ms=40 * MINUTE,
        pending=[n for n in (1, 2, 3, 4) if n > chapters_done],
    )
    made = artifact_of("growing", "The Harbour Lamps", done or whole[:1], chapters, embedder, estimated=False)
    return made.model_copy(
        update={
            "version": f"interim{chapters_done}{made.version}"[:16],
            "passages": done,
            "vectors_b64": made.vectors_b64 if done else "",
            "duration_ms": 40 * MINUTE,
            "transcript": coverage,
            "audio_path": "/books/growing.m4b",
        }
    )


async def test_a_version_with_nothing_transcribed_answers_everything_and_reaches_every_chapter(
    engine: SearchEngine, embedder: Embedder
) -> None:
    await engine.index(interim(embedder, 0))
    here = 25 * MINUTE
    assert (await engine.find(FindPassage(book="growing", here_ms=here, query="the amber lamp"))).places == []
    recalled = await engine.recall(Recall(book="growing", here_ms=here, question="who is Marigold?"))
    assert (recalled.come_up, recalled.places) == (False, [])
    recap = engine.recap(Recap(book="growing", here_ms=here, from_ms=0, to_ms=here))
    assert (recap.places, recap.sentences) == ([], [])
    checked = await engine.check(
        CheckAnswer(book="growing", here_ms=here, question="what happened?", answer="The ferry left.")
    )
    assert (checked.speech, checked.cut) == ("The ferry left.", 0)  # nothing of the book is known yet
    assert engine.hints(NameHints(book="growing", here_ms=here)).names == []
    (info,) = engine.catalog(CatalogRequest()).books
    assert info.transcript is not None
    assert info.passages == 0

    targets = [Target(chapter=3), Target(position_ms=here), Target(offset_ms=-10 * MINUTE)]
    by_chapter, by_time, by_offset = engine.resolve(
        Resolve(book="growing", here_ms=here, targets=targets)
    ).resolutions
    assert by_chapter.passage is not None
    assert (by_chapter.passage.chapter, by_chapter.at_ms) == (3, 20 * MINUTE)
    assert by_time.passage is not None
    assert (by_time.passage.chapter, by_time.at_ms) == (3, here)
    assert by_offset.passage is not None
    assert (by_offset.passage.chapter, by_offset.at_ms) == (2, 15 * MINUTE)
    again = engine.resolve(
        Resolve(book="growing", here_ms=0, targets=[Target(passage_id=by_chapter.passage.id)])
    )
    assert again.resolutions[0].passage == by_chapter.passage
    past = engine.resolve(Resolve(book="growing", here_ms=0, targets=[Target(position_ms=41 * MINUTE)]))
    assert "past the end" in past.resolutions[0].reason


async def test_with_chapter_one_done_its_words_are_found_and_later_chapters_only_reached(
    engine: SearchEngine, embedder: Embedder
) -> None:
    await engine.index(interim(embedder, 1))
    found = await engine.find(FindPassage(book="growing", here_ms=0, query="polishing brass lanterns"))
    assert found.hits
    assert {hit.chapter for hit in found.hits} == {1}
    book = engine.book("growing")
    assert [p.chapter for p in book.wordless] == [2, 3, 4]
    assert all(p.text == "" for p in book.wordless)
    assert min(p.id for p in book.wordless) > max(p.id for p in book.passages)
    (chapter_two,) = engine.resolve(
        Resolve(book="growing", here_ms=0, targets=[Target(chapter=2)])
    ).resolutions
    assert chapter_two.passage is not None
    assert (chapter_two.passage.chapter, chapter_two.at_ms) == (2, 10 * MINUTE)


async def test_a_recall_from_a_chapter_not_transcribed_says_so_and_one_from_a_chapter_done_does_not(
    engine: SearchEngine, embedder: Embedder
) -> None:
    """Asked in a chapter still being transcribed, "who is John?" was answered "John hasn't come up
    yet in what you've heard", though the listener may have heard him there a minute ago."""
    await engine.index(interim(embedder, 1))
    in_part_two = await engine.recall(Recall(book="growing", here_ms=15 * MINUTE, question="who is John?"))
    assert (in_part_two.come_up, in_part_two.not_transcribed_here) == (False, True)
    in_part_one = await engine.recall(Recall(book="growing", here_ms=5 * MINUTE, question="who is John?"))
    assert (in_part_one.come_up, in_part_one.not_transcribed_here) == (False, False)


async def test_an_id_handed_out_for_a_chapter_not_transcribed_stays_that_chapter_in_the_next_version(
    engine: SearchEngine, embedder: Embedder
) -> None:
    """Chapter 3's wordless place took the id after the book's last passage: once chapter 2 was
    transcribed that id was a passage of chapter 2, and a row or a history line offered in the
    version before went to the wrong chapter (a review)."""
    await engine.index(interim(embedder, 1))
    (chapter_three,) = engine.resolve(
        Resolve(book="growing", here_ms=0, targets=[Target(chapter=3)])
    ).resolutions
    assert chapter_three.passage is not None
    handed_out = chapter_three.passage.id
    await engine.index(interim(embedder, 2))
    (again,) = engine.resolve(
        Resolve(book="growing", here_ms=0, targets=[Target(passage_id=handed_out)])
    ).resolutions
    assert again.passage is not None
    assert (again.passage.chapter, again.at_ms) == (3, 20 * MINUTE)
    await engine.index(interim(embedder, 3))  # transcribed since: the chapter's first passage
    (transcribed,) = engine.resolve(
        Resolve(book="growing", here_ms=0, targets=[Target(passage_id=handed_out)])
    ).resolutions
    assert transcribed.passage is not None
    assert transcribed.passage == engine.book("growing").first_of_chapter(3)


def test_a_wordless_chapter_0_is_told_by_its_id_too() -> None:
    assert chapter_of_wordless(WORDLESS_IDS_FROM) == 0
    assert chapter_of_wordless(WORDLESS_IDS_FROM - 1) is None


def heard_but_for_chapter_two(embedder: Embedder) -> BookArtifact:
    """The small book's recording, whole, with nothing heard in chapter 2 (music, say): listed by
    its times, with no passages."""
    whole = small_passages()
    heard = [p for p in whole if p.chapter != 2]
    made = artifact_of("hushed", "The Harbour Lamps", heard, chapters_of(whole), embedder, estimated=False)
    return made.model_copy(update={"silent_chapters": [2], "audio_path": "/books/hushed.m4b"})


async def test_a_chapter_in_which_nothing_was_heard_is_a_place_to_go_and_not_one_still_to_transcribe(
    engine: SearchEngine, embedder: Embedder
) -> None:
    """Such a chapter was dropped from the list; listed with no passages, it was only a place while
    its book was still being transcribed ("the book has no chapter 2")."""
    await engine.index(heard_but_for_chapter_two(embedder))
    (info,) = engine.catalog(CatalogRequest()).books
    assert (info.silent_chapters, info.transcript) == ([2], None)
    two = next(c for c in info.chapters if c.n == 2)
    three = next(c for c in info.chapters if c.n == 3)
    middle = (two.start_ms + two.end_ms) // 2
    targets = [
        Target(chapter=2),
        Target(chapter_end=2),
        Target(position_ms=middle),
        Target(offset_ms=two.start_ms + 1 - three.start_ms),
    ]
    here = three.start_ms
    resolved = engine.resolve(Resolve(book="hushed", here_ms=here, targets=targets)).resolutions
    for resolution in resolved:
        assert resolution.passage is not None, resolution.reason
        assert resolution.passage.chapter == 2
        assert resolution.passage.text == ""
    by_chapter, _, by_time, by_offset = resolved
    assert (by_chapter.at_ms, by_time.at_ms, by_offset.at_ms) == (two.start_ms, middle, two.start_ms + 1)
    assert by_chapter.passage is not None
    (again,) = engine.resolve(
        Resolve(book="hushed", here_ms=0, targets=[Target(passage_id=by_chapter.passage.id)])
    ).resolutions
    assert again.passage == by_chapter.passage

    in_it = await engine.recall(Recall(book="hushed", here_ms=middle, question="who is John?"))
    assert in_it.not_transcribed_here is False  # nothing waits to be read there
    found = await engine.find(FindPassage(book="hushed", here_ms=info.duration_ms, query="lanterns"))
    assert found.hits
    assert 2 not in {hit.chapter for hit in found.hits}
    recap = engine.recap(Recap(book="hushed", here_ms=middle, from_ms=two.start_ms, to_ms=middle))
    assert recap.places == []


async def test_around_a_chapter_in_which_nothing_was_heard_times_and_titles_keep_to_the_clock(
    engine: SearchEngine, embedder: Embedder
) -> None:
    """A review: its title never counted as heard (its chapter had no first passage to be heard
    at), so "where am I?" in it was cut as a spoiler; a step back from the quiet before chapter 3's
    first words leapt over it to chapter 1; and forward from the gap before it landed past it."""
    whole = small_passages()
    two_start, three_start = (next(p for p in whole if p.chapter == n).start_ms for n in (2, 3))
    lead_in = 20_000  # chapter 3's narration starts this long after its marker
    trailing = 10_000  # and chapter 1's ends this long before chapter 2's
    heard = [
        p.model_copy(update={"start_ms": p.start_ms + lead_in})
        if p.start_ms == three_start
        else p.model_copy(update={"end_ms": p.end_ms - trailing})
        if p.end_ms == two_start
        else p
        for p in whole
        if p.chapter != 2
    ]
    made = artifact_of("hushed", "The Harbour Lamps", heard, chapters_of(whole), embedder, estimated=False)
    await engine.index(made.model_copy(update={"silent_chapters": [2]}))
    names = engine.book("hushed").names
    asked = "Was the Frozen Canal cold?"
    assert unheard_names(asked, names, two_start + 1) == []  # as the page names it there
    assert unheard_names(asked, names, two_start - 1) == ["frozen", "canal"]

    in_lead_in = three_start + lead_in // 2
    back, forward = engine.resolve(
        Resolve(
            book="hushed",
            here_ms=in_lead_in,
            targets=[Target(offset_ms=-1_000), Target(position_ms=two_start - trailing // 2)],
        )
    ).resolutions
    assert back.passage is not None
    assert (back.passage.chapter, back.at_ms) == (2, three_start)
    assert forward.passage is not None
    assert (forward.passage.chapter, forward.at_ms) == (2, two_start)


async def test_a_first_chapter_in_which_nothing_was_heard_is_part_of_the_book(
    engine: SearchEngine, embedder: Embedder
) -> None:
    """A silent opening (music before the first marker's words) was outside the book: a step back
    inside it was refused as "nothing before the start", a step forward landed past it."""
    whole = small_passages()
    opening = 40_000
    heard = [
        p.model_copy(update={"start_ms": p.start_ms + opening, "end_ms": p.end_ms + opening}) for p in whole
    ]
    chapters = [ChapterInfo(n=0, title="Opening", start_ms=0, end_ms=opening), *chapters_of(heard)]
    made = artifact_of("opened", "The Harbour Lamps", heard, chapters, embedder, estimated=False)
    await engine.index(made.model_copy(update={"silent_chapters": [0]}))
    back, ahead = engine.resolve(
        Resolve(book="opened", here_ms=20_000, targets=[Target(offset_ms=-10_000), Target(offset_ms=10_000)])
    ).resolutions
    assert back.passage is not None, back.reason
    assert (back.passage.chapter, back.at_ms) == (0, 10_000)
    assert ahead.passage is not None
    assert (ahead.passage.chapter, ahead.at_ms) == (0, 30_000)
