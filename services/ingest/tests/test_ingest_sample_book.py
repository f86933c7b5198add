"""The sample book: an original story of six chapters whose transcript and chapters file agree with it."""

import itertools
import json

from bedside_ingest.chunking import chapter_infos, chunk_book
from bedside_ingest.reader import read_book
from bedside_ingest.sample import SAMPLE_CHAPTERS, SAMPLE_TEXT, SAMPLE_TITLE, SAMPLE_TRANSCRIPT
from bedside_ingest.text import word_count


def test_the_story_has_six_chapters_and_a_few_thousand_words() -> None:
    story = read_book(SAMPLE_TEXT)
    assert story.title == SAMPLE_TITLE
    assert len(story.chapters) == 6
    words = sum(word_count(u.text) for c in story.chapters for u in c.units)
    assert 3000 <= words <= 5000


def test_the_transcript_narrates_the_story_sentence_by_sentence() -> None:
    story = read_book(SAMPLE_TEXT)
    transcript = read_book(SAMPLE_TRANSCRIPT)
    assert transcript.timed
    assert transcript.title == SAMPLE_TITLE
    assert [c.title for c in transcript.chapters] == [c.title for c in story.chapters]
    for told, written in zip(transcript.chapters, story.chapters, strict=True):
        assert [u.text for u in told.units[1:]] == [u.text for u in written.units]  # after the spoken heading


def test_the_chapters_file_starts_each_chapter_at_its_heading_cue() -> None:
    marks = json.loads(SAMPLE_CHAPTERS.read_text())["chapters"]
    transcript = read_book(SAMPLE_TRANSCRIPT)
    for mark, chapter in zip(marks, transcript.chapters, strict=True):
        assert chapter.units[0].start_ms == round(mark["start"] * 1000)
        assert chapter.units[0].text.startswith("Chapter ")


def test_the_narration_runs_at_about_155_words_a_minute() -> None:
    transcript = read_book(SAMPLE_TRANSCRIPT)
    passages = chunk_book(transcript)
    words = sum(word_count(p.text) for p in passages)
    minutes = passages[-1].end_ms / 60_000
    assert 145 <= words / minutes <= 165
    assert all(p.cues for p in passages)
    infos = chapter_infos(transcript, passages)
    assert [c.n for c in infos] == [1, 2, 3, 4, 5, 6]
    assert all(a.end_ms == b.start_ms for a, b in itertools.pairwise(infos))
