"""A recording that is one file without chapter markers (a LibriVox "whole book" mp3, an m4b
without chapter atoms) is divided where its words say its chapters, by the rule a transcript
brought is divided by; marked files and folders of tracks keep their markers' and tracks' chapters."""

from pathlib import Path

import pytest
from bedside_contracts.ingest import ChapterTranscript, SpokenWordTimes
from bedside_ingest.audiobook import Audiobook, Marker, TrackInfo, audiobook_of
from bedside_ingest.book import Book
from bedside_ingest.chunking import chapter_infos, chunk_book
from bedside_ingest.transcription import transcribed_book

TITLE = "The Lantern at Gull Point"
WORD_MS = 300
PAUSE_MS = 800

OPENING = [f"{TITLE}, by the Bedside authors.", "Read by E. Speak."]
ONE = ["Chapter one, the house at Gull Point.", "The bus left Wren at the end of the road."]
TWO = ["Chapter two, pies and letters.", "In the morning the post came."]
THREE = ["Chapter three, the search on the sand.", "The next morning was blue and gold."]


def heard(sentences: list[str], chapter: int = 1, lead_ms: int = 0) -> tuple[ChapterTranscript, list[int]]:
    """What the recogniser keeps of a stretch of audio, and where each sentence's first word begins."""
    words, starts, at = [], [], lead_ms
    for sentence in sentences:
        starts.append(at)
        for word in sentence.split():
            words.append(SpokenWordTimes(text=word, start_ms=at, end_ms=at + WORD_MS))
            at += WORD_MS
        at += PAUSE_MS
    transcript = ChapterTranscript(chapter=chapter, model="tiny.en", audio_ms=at, compute_s=1.0, words=words)
    return transcript, starts


def one_file(audio_ms: int, markers: tuple[Marker, ...] = ()) -> Audiobook:
    track = TrackInfo("/books/lantern.mp3", audio_ms, markers, {"title": TITLE})
    return audiobook_of([track], Path("/books/lantern.mp3"))


def chapters_of(book: Book) -> list[tuple[int, str]]:
    return [(c.n, c.title) for c in book.chapters]


def test_a_file_without_markers_is_divided_where_it_says_its_chapters() -> None:
    """It was one chapter named by its title tag: "next chapter" had nowhere to go."""
    transcript, starts = heard([*OPENING, *ONE, *TWO, *THREE])
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [
        (0, "Opening"),
        (1, "the house at Gull Point"),
        (2, "pies and letters"),
        (3, "the search on the sand"),
    ]
    infos = chapter_infos(book, chunk_book(book))
    # each chapter starts at its heading's first word; the opening at the start of the file
    assert [i.start_ms for i in infos] == [0, starts[2], starts[4], starts[6]]
    assert [i.end_ms for i in infos[:-1]] == [starts[2], starts[4], starts[6]]


def test_a_file_that_says_its_first_chapter_at_once_starts_it_at_the_start_of_the_file() -> None:
    transcript, starts = heard([*ONE, *TWO], lead_ms=2_000)  # music, or silence, before it
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [(1, "the house at Gull Point"), (2, "pies and letters")]
    infos = chapter_infos(book, chunk_book(book))
    assert [i.start_ms for i in infos] == [0, starts[2]]  # no stretch of the file outside a chapter


def test_a_file_that_says_no_chapter_is_one_chapter_named_by_its_title_tag() -> None:
    transcript, _ = heard(["The bus left Wren at the end of the road.", "In the morning the post came."])
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [(1, TITLE)]
    assert book.chapters[0].start_ms == 0


def test_a_file_with_markers_keeps_the_chapters_its_markers_make() -> None:
    transcript, _ = heard([*ONE, *TWO])
    marked = one_file(transcript.audio_ms, (Marker("Part one", 0, transcript.audio_ms),))
    book = transcribed_book(marked, {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [(1, "Part one")]


def test_a_folder_of_tracks_keeps_a_chapter_per_track() -> None:
    first, _ = heard([*ONE, *TWO], chapter=1)
    second, _ = heard(THREE, chapter=2)
    tracks = [
        TrackInfo("/books/lantern/01.mp3", first.audio_ms, (), {"title": "Part one", "track": "1"}),
        TrackInfo("/books/lantern/02.mp3", second.audio_ms, (), {"title": "Part two", "track": "2"}),
    ]
    audiobook = audiobook_of(tracks, Path("/books/lantern"))
    book = transcribed_book(audiobook, {1: first, 2: second}, "lantern")
    assert chapters_of(book) == [(1, "Part one"), (2, "Part two")]


STORY_HEADINGS = [
    ["Book one", "more night at the inn, he told the clerk."],  # a pause after "one" ends a unit
    ["Part one, the easy part, was done."],
    ["Chapter 11, the lawyer said, was the one to read."],
]


@pytest.mark.parametrize("said", STORY_HEADINGS)
def test_a_story_sentence_that_reads_as_a_heading_does_not_divide_a_file(said: list[str]) -> None:
    """A review: one such sentence opened a chapter, and the half of the book before it became the
    opening that "skip the intro" jumps over. A book's chapters are more than one, counting up."""
    story = ["The bus left Wren at the end of the road.", *said, "In the morning the post came."]
    transcript, _ = heard([*OPENING, *story])
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [(1, TITLE)]


def test_a_book_in_parts_opens_a_chapter_at_its_chapter_not_at_its_part() -> None:
    """A review: "Part 1." opened a chapter of its own, and the announcement another, so "go to
    chapter 2" played "Part 1" alone."""
    sentences = [
        "Chapter 1 of Black Beauty.",
        "This is a LibriVox recording.",
        "All LibriVox recordings are in the public domain.",
        "Black Beauty by Anna Sewell.",
        "Part 1.",
        "Chapter one.",
        "My Early Home.",
        ONE[1],
        *TWO,
        *THREE,
    ]
    transcript, _ = heard(sentences)
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [
        (1, "My Early Home"),
        (2, "pies and letters"),
        (3, "the search on the sand"),
    ]
    assert book.chapters[0].start_ms == 0


def test_a_second_volume_is_numbered_as_it_says_its_chapters() -> None:
    """A review: chapters said 23 and 24 were 1 and 2, and "go to chapter 24" found none."""
    sentences = [
        *OPENING,
        "Chapter twenty-three, the storm.",
        ONE[1],
        "Chapter twenty-four, the calm.",
        TWO[1],
    ]
    transcript, _ = heard(sentences)
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [(0, "Opening"), (23, "the storm"), (24, "the calm")]


def test_chapters_said_out_of_order_keep_their_order_numbers() -> None:
    sentences = [*ONE, *TWO, "Chapter two, pies again.", "The rain came.", *THREE]
    transcript, _ = heard(sentences)
    book = transcribed_book(one_file(transcript.audio_ms), {1: transcript}, "lantern.mp3")
    assert chapters_of(book) == [
        (1, "the house at Gull Point"),
        (2, "pies and letters"),
        (3, "pies again"),
        (4, "the search on the sand"),
    ]
