"""A LibriVox recording heard by Whisper: each chapter file says "Chapter 2 of <the book>", the
project's notice, then "Chapter 2, <title>", and "End of chapter 2" after the chapter. Its chapters
are found where it says them, and its notice is no passage of the book."""

import json
from pathlib import Path

import numpy as np
import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book
from bedside_contracts.ingest import ChapterTranscript, SpokenWordTimes
from bedside_ingest.book import Book
from bedside_ingest.chunking import chunk_book
from bedside_ingest.media import SAMPLE_RATE
from bedside_ingest.reader import read_book
from bedside_ingest.transcription import units_of
from bedside_speech import WhisperTranscriber
from bedside_transcripts import whisper_json, words_json

BOOK = "The Lantern at Gull Point"


def librivox(number: str, heading: list[str], story: list[str]) -> list[str]:
    """One chapter file of a LibriVox recording, as Whisper writes it: the chapter and the book
    announced, the notice, the book and its author, the chapter's heading, the story, its end."""
    return [
        f"Chapter {number} of {BOOK}.",
        "This is a LibriVox recording.",
        "All LibriVox recordings are in the public domain.",
        "For more information or to volunteer, please visit librivox.org.",
        f"{BOOK} by the Bedside authors.",
        *heading,
        *story,
        f"End of chapter {number}.",
    ]


ONE = ["The bus left Wren at the end of the road.", "She stood there with her green suitcase."]
TWO = ["In the morning the post came.", "The woman in the yellow raincoat rang her bell."]
THREE = ["The next morning was blue and gold.", "Wren and Oscar met at the foot of the lighthouse."]


def chapters_of(book: Book) -> list[tuple[int, str]]:
    return [(c.n, c.title) for c in book.chapters]


def text_of(book: Book, n: int) -> str:
    (chapter,) = [c for c in book.chapters if c.n == n]
    return " ".join(u.text for u in chapter.units)


def test_a_librivox_chapter_opens_where_it_is_announced_and_is_named_by_its_heading(tmp_path: Path) -> None:
    """The notice of chapter 2 was the end of chapter 1, and chapter 1's an "Opening" before it."""
    sentences = [
        *librivox("one", ["Chapter one, the house at Gull Point."], ONE),
        *librivox("2", ["Chapter 2, pies and letters."], TWO),
        *librivox("three", ["Chapter three, the search on the sand."], THREE),
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [
        (1, "the house at Gull Point"),
        (2, "pies and letters"),
        (3, "the search on the sand"),
    ]
    assert text_of(book, 2).startswith(f"Chapter 2 of {BOOK}. {BOOK} by the Bedside authors. Chapter 2,")
    assert text_of(book, 1).endswith("She stood there with her green suitcase. End of chapter one.")
    assert text_of(book, 3).endswith("End of chapter three.")


@pytest.mark.parametrize("heading", ["Epilogue.", "Epilogue: Ten years on.", "Epilogue, ten years on."])
def test_an_announced_epilogue_opens_at_its_announcement(tmp_path: Path, heading: str) -> None:
    """ "Epilogue of <the book>.", the notice, then "Epilogue.": the announcement and the notice were
    the end of the chapter before, the notice a passage of it. A review: so were they, and the
    epilogue too, when its heading had a title in small letters, as Whisper writes one."""
    epilogue = librivox("one", [heading], THREE)
    epilogue[0], epilogue[-1] = f"Epilogue of {BOOK}.", "End of Epilogue."
    sentences = [
        *librivox("one", ["Chapter one, the house at Gull Point."], ONE),
        *librivox("two", ["Chapter two, pies and letters."], TWO),
        *epilogue,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    epilogue_title = heading.removesuffix(".")
    assert chapters_of(book) == [(1, "the house at Gull Point"), (2, "pies and letters"), (3, epilogue_title)]
    assert text_of(book, 2).endswith("The woman in the yellow raincoat rang her bell. End of chapter two.")
    assert text_of(book, 3).startswith(f"Epilogue of {BOOK}. {BOOK} by the Bedside authors. {heading}")
    assert "LibriVox" not in " ".join(p.text for p in chunk_book(book))


@pytest.mark.parametrize(
    "said",
    [
        ["Epilogue of sorts, Wren called the last page."],
        ["Epilogue: the years went by and Wren grew tall."],
    ],
)
def test_a_story_sentence_opening_with_epilogue_opens_nothing(tmp_path: Path, said: list[str]) -> None:
    """No "Epilogue." follows it: it announces nothing; and no epilogue announced before it, a title
    after "Epilogue" in small letters is the story's."""
    story = [*TWO[:1], *said, *TWO[1:]]
    sentences = [
        *librivox("one", ["Chapter one, the house at Gull Point."], ONE),
        *librivox("two", ["Chapter two, pies and letters."], story),
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "the house at Gull Point"), (2, "pies and letters")]
    assert " ".join(said) in text_of(book, 2)


def test_a_chapter_announced_with_its_book_opens_once(tmp_path: Path) -> None:
    """A review: LibriVox's "Book one, Chapter one of War and Peace." was a heading of book one,
    and each chapter had an extra one before it named "Chapter one of War and Peace"."""

    def announced(part: str, number: str, heading: str, story: list[str]) -> list[str]:
        return [
            f"Book {part}, Chapter {number} of War and Peace.",
            *NOTICE,
            "War and Peace by Leo Tolstoy.",
            heading,
            *story,
            f"End of book {part}, chapter {number}.",
        ]

    sentences = [
        *announced("one", "one", "Chapter one, the party.", ONE),
        *announced("one", "two", "Chapter two, the prince.", TWO),
        *announced("two", "one", "Chapter one, the road to the army.", THREE),
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "the party"), (2, "the prince"), (3, "the road to the army")]
    assert text_of(book, 3).startswith("Book two, Chapter one of War and Peace. War and Peace by")


def test_a_book_heading_before_its_first_chapter_heading_opens_no_chapter(tmp_path: Path) -> None:
    """ "Book one." between the announcement and "Chapter one." opened a chapter of its own."""
    sentences = [
        "Book one, Chapter one of War and Peace.",
        "This is a LibriVox recording.",
        "War and Peace by Leo Tolstoy.",
        "Book one.",
        "Chapter one.",
        "The party.",
        "It was July.",
        "Chapter two, the prince.",
        *TWO,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "The party"), (2, "the prince")]
    assert text_of(book, 1).startswith("Book one, Chapter one of War and Peace.")


def test_an_announced_part_opens_its_first_chapter_at_the_announcement(tmp_path: Path) -> None:
    sentences = [
        f"Part 1 of {BOOK}.",
        *NOTICE,
        "Part 1.",
        "Chapter one.",
        "My early home.",
        *ONE,
        "Chapter two, the hunt.",
        *TWO,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "My early home"), (2, "the hunt")]
    assert text_of(book, 1).startswith(f"Part 1 of {BOOK}.")


def test_a_bare_heading_after_the_notice_takes_its_title_from_the_sentence_after_it(tmp_path: Path) -> None:
    sentences = [
        *librivox("one", ["Chapter one.", "My early home."], ONE),
        *librivox("two", ["Chapter 2.", "The hunt."], TWO),
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "My early home"), (2, "The hunt")]


def test_a_chapter_announced_with_a_book_in_capitals_is_named_by_its_heading(tmp_path: Path) -> None:
    """Under the heading rule before, a title in capitals after "of" was taken for the chapter's:
    every chapter was "of Black Beauty"; and the announcement was an "Opening" before chapter 1."""
    sentences = [
        "Chapter 1 of Black Beauty.",
        "This is a LibriVox recording.",
        "Black Beauty by Anna Sewell.",
        "Chapter 1, My Early Home.",
        *ONE,
        "Chapter 2 of Black Beauty.",
        "Black Beauty by Anna Sewell.",
        "Chapter 2, The Hunt.",
        *TWO,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "My Early Home"), (2, "The Hunt")]


def test_a_heading_said_again_inside_its_chapter_opens_no_second_chapter(tmp_path: Path) -> None:
    """Whisper may hear "End of chapter one." as "End of." and "Chapter one."; a reader may say the
    heading again; neither is another chapter one."""
    sentences = [
        "Chapter one, the house at Gull Point.",
        *ONE,
        "Chapter one, the house at Gull Point.",
        *ONE,
        "End of.",
        "Chapter one.",
        "Chapter two, pies and letters.",
        *TWO,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "the house at Gull Point"), (2, "pies and letters")]
    assert text_of(book, 1).endswith("End of. Chapter one.")


def test_two_chapters_said_with_one_number_and_two_titles_are_two_chapters(tmp_path: Path) -> None:
    """A review: the second was folded into the first. A chapter lost is worse than a number twice
    (so a story's "Chapter two, the worst of them, ..." inside chapter two opens one too)."""
    sentences = [
        "Chapter one, the road.",
        *THREE,
        "Chapter two, the hunt.",
        *ONE,
        "End of chapter two.",
        "Chapter two, the storm.",
        *TWO,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "the road"), (2, "the hunt"), (3, "the storm")]
    assert text_of(book, 3).startswith("Chapter two, the storm.")


def test_a_chapter_whose_heading_was_misheard_as_the_number_before_is_kept(tmp_path: Path) -> None:
    """A review: "Chapter three, the gull." for chapter 4's heading was taken for chapter 3 said
    again, and chapter 4 was lost in chapter 3."""
    sentences = [
        *librivox("two", ["Chapter two, pies and letters."], ONE),
        *librivox("three", ["Chapter three, the search on the sand."], THREE),
        *librivox("4", ["Chapter three, the gull."], TWO),
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "pies and letters"), (2, "the search on the sand"), (3, "the gull")]
    assert text_of(book, 3).startswith("Chapter three, the gull.")


def test_a_sentence_of_the_story_naming_a_chapter_opens_none(tmp_path: Path) -> None:
    """Only the chapter's own heading close after it makes "Chapter two of ..." an announcement."""
    sentences = [
        "Chapter one, the house at Gull Point.",
        "Chapter two of her life began at the lighthouse.",
        *ONE,
        *TWO,
        *THREE,
        *ONE,
        *TWO,
        "Chapter two, pies and letters.",
        *THREE,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "the house at Gull Point"), (2, "pies and letters")]
    assert text_of(book, 2).startswith("Chapter two, pies and letters.")


def test_an_announcement_in_the_story_after_its_end_opens_no_chapter(tmp_path: Path) -> None:
    """A review: "Chapter two of her life ..." opened chapter 2, its heading being within eight
    sentences; "End of chapter one." between them says the story sentence is chapter one's."""
    sentences = [
        "Chapter one, the road.",
        *ONE,
        *TWO,
        *THREE,
        "Chapter two of her life began at the lighthouse.",
        "She smiled.",
        "End of chapter one.",
        "Chapter two, the sea.",
        *TWO,
    ]
    book = read_book(whisper_json(tmp_path, sentences))
    assert chapters_of(book) == [(1, "the road"), (2, "the sea")]
    assert text_of(book, 2).startswith("Chapter two, the sea.")


STORY_HEADINGS = [
    ["Chapter 11, the lawyer said, was where it began."],
    ["Part one, the easy part, was done."],
    ["Book one.", "More night at the inn, he told the clerk."],  # Whisper ended a sentence at a pause
]


@pytest.mark.parametrize("said", STORY_HEADINGS)
def test_a_story_sentence_that_reads_as_a_heading_does_not_divide_a_transcript(
    tmp_path: Path, said: list[str]
) -> None:
    """A review: a transcript brought without a chapters file was divided by one such sentence, and
    what came before it became an opening, though a whole-file recording's was not."""
    book = read_book(whisper_json(tmp_path, [*ONE, *said, *TWO, *THREE]))
    assert chapters_of(book) == [(1, "Lantern")]


NOTICE = [
    "This is a LibriVox recording.",
    "All LibriVox recordings are in the public domain.",
    "For more information or to volunteer, please visit librivox.org.",
]
HEARD_NOTICE = [
    "This in a library box recording.",
    "All library box recording are in the public domain.",
    "For more information, or to volunteer, please visit librarymox .org.",
]
"""The notice as Whisper tiny.en heard espeak-ng say it."""


def test_the_notice_of_a_transcript_is_no_passage_of_the_book(tmp_path: Path) -> None:
    """It was a passage of every chapter: found by a search, and words a recap could quote."""
    sentences = [
        *librivox("one", ["Chapter one, the house at Gull Point."], ONE),
        *librivox("two", ["Chapter two, pies and letters."], TWO),
    ]
    passages = chunk_book(read_book(whisper_json(tmp_path, sentences)))
    assert {p.chapter for p in passages} == {1, 2}
    text = " ".join(p.text for p in passages)
    assert "LibriVox" not in text
    assert "volunteer" not in text
    assert f"Chapter two of {BOOK}. {BOOK} by the Bedside authors. Chapter two, pies and letters." in text


def test_a_chapter_of_a_chapters_file_that_is_only_the_notice_keeps_it(tmp_path: Path) -> None:
    """A review: the notice dropped from the whole transcript before the chapters file divided it
    left its first chapter empty, and the book was refused ("has no text in the transcript")."""
    transcript = whisper_json(tmp_path, [*NOTICE, "Chapter one, the road.", *ONE])
    chapters = tmp_path / "chapters.json"
    marks = [{"title": "LibriVox introduction", "start": 0}, {"title": "The road", "start": 8.0}]
    chapters.write_text(json.dumps(marks), encoding="utf-8")
    book = read_book(transcript, chapters_path=chapters)
    assert chapters_of(book) == [(1, "LibriVox introduction"), (2, "The road")]
    assert text_of(book, 1) == " ".join(NOTICE)


def test_a_notice_heard_from_the_start_of_its_chapter_keeps_the_chapters_start(tmp_path: Path) -> None:
    sentences = [*NOTICE, f"{BOOK} by the Bedside authors.", "Chapter one, the road.", *ONE, "Chapter two."]
    (opening, _, _) = read_book(whisper_json(tmp_path, sentences)).chapters
    assert opening.units[0].text == "The"  # the notice before it is left out
    assert opening.start_ms == 0


def test_story_sentences_shaped_like_the_notice_are_the_storys(tmp_path: Path) -> None:
    """A review: any words stood for the project's name, anywhere in a chapter."""
    story = [
        "The professor sighed.",
        "This is a very old recording.",
        "All of these early recordings are in the public domain.",
        "She played it again.",
    ]
    far = [
        "Chapter one, the road.",
        *ONE,
        *TWO,
        "This is a LibriVox recording.",
        "All LibriVox recordings are in the public domain.",
        "She played it again.",
    ]
    for sentences in (story, far):
        book = read_book(whisper_json(tmp_path, sentences))
        assert " ".join(u.text for c in book.chapters for u in c.units) == " ".join(sentences)


def test_an_e_books_own_text_keeps_words_like_the_notice(tmp_path: Path) -> None:
    """Text an aligner timed (aeneas's sync map, an EPUB's overlays) is the e-book's: no LibriVox
    notice is in it, so words like one are the book's."""
    fragments = [
        {"begin": f"{k}.0", "end": f"{k}.9", "lines": [sentence]}
        for k, sentence in enumerate(["Chapter one, the road.", *NOTICE, *ONE])
    ]
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"fragments": fragments}), encoding="utf-8")
    book = read_book(path)
    assert " ".join(NOTICE) in " ".join(u.text for c in book.chapters for u in c.units)


def heard(sentences: list[str]) -> ChapterTranscript:
    """What ingest's own recogniser keeps of a chapter: its words and their times."""
    words, at = [], 0
    for sentence in sentences:
        for word in sentence.split():
            words.append(SpokenWordTimes(text=word, start_ms=at, end_ms=at + 300))
            at += 300
        at += 800
    return ChapterTranscript(chapter=1, model="tiny.en", audio_ms=at, compute_s=1.0, words=words)


def test_the_notice_a_recording_says_is_no_part_of_its_chapter() -> None:
    units = units_of(heard([f"Chapter 1 of {BOOK}.", *HEARD_NOTICE, *ONE, "End of chapter 1."]), 60_000)
    assert " ".join(u.text for u in units) == f"Chapter 1 of {BOOK}. {' '.join(ONE)} End of chapter 1."
    assert units[0].start_ms == 60_000


def test_sentences_like_the_notice_away_from_it_are_the_storys() -> None:
    story = [
        "This is a tape recording.",
        "For more information or to volunteer, please visit the harbour office.",
        "The old chart was in the public domain.",
        *ONE,
    ]
    assert [u.text for u in units_of(heard(story), 0)] == story


def test_a_chapter_that_is_nothing_but_the_notice_keeps_it() -> None:
    """A chapter emptied by it would be told as one in which nothing was heard."""
    assert [u.text for u in units_of(heard(NOTICE), 0)] == NOTICE


def librivox_spoken() -> list[tuple[str, list[str]]]:
    """The sample story's first chapters as ``speak_book`` speaks them, announced as LibriVox does."""
    chapters = []
    for number, (title, lines) in zip(("one", "two", "three"), sample_chapters(3, 2), strict=True):
        heard = librivox(number, [f"Chapter {number}. {title}"], lines)
        chapters.append((heard[0].rstrip("."), [line.rstrip(".") for line in heard[1:]]))
    return chapters


@pytest.mark.slow
def test_a_librivox_recording_heard_by_whisper_has_its_three_chapters(tmp_path: Path) -> None:
    """Spoken by espeak-ng and heard by Whisper tiny.en, which wrote "Chapter two on the unturned
    point." for "Chapter two of The Lantern at Gull Point." and "Chapter one, the house at goal
    point." for its heading."""
    need_espeak()
    speech = speak_book(librivox_spoken())
    samples = (speech.samples / 32768).astype(np.float32)
    picks = np.arange(len(samples) * SAMPLE_RATE // speech.rate) * speech.rate // SAMPLE_RATE
    words = WhisperTranscriber().transcribe(samples[picks.astype(np.int64)])
    heard = [{"word": f" {w.text}", "start": w.start_s, "end": w.end_s} for w in words]
    book = read_book(words_json(tmp_path, heard))
    assert [c.n for c in book.chapters] == [1, 2, 3]
    for chapter, spoken in zip(book.chapters, speech.chapters, strict=True):
        assert not chapter.title.casefold().startswith(("of ", "on ", "this ")), chapter.title
        # each chapter opens at its announcement, not at its heading five sentences on
        assert chapter.units[0].start_ms == pytest.approx(spoken.start_s * 1000, abs=1000)
    passages = chunk_book(book)
    assert {p.chapter for p in passages} == {1, 2, 3}
    assert not [p.text for p in passages if "public domain" in p.text]
