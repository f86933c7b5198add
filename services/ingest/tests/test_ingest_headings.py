"""Where a book's chapters begin: the headings of an e-book's text, and those a transcript says
(a Whisper JSON of timed words, subtitles cut by time, an aligner's sync map). Synthetic books."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from bedside_ingest.book import Book
from bedside_ingest.reader import read_book
from bedside_transcripts import whisper_json

ROAD = ["The bus left Wren at the end of the road.", "She stood there with her green suitcase."]
POST = ["In the morning the post came.", "The woman in the yellow raincoat rang her bell."]
SAND = ["The next morning was blue and gold.", "Wren and Oscar met at the foot of the lighthouse."]


def _srt_time(ms: int) -> str:
    return f"00:{ms // 60_000:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def subtitles(folder: Path, sentences: list[str], name: str = "lantern.srt") -> Path:
    """``sentences`` as SRT cues, one a sentence, three seconds apart."""
    cues = [
        f"{k}\n{_srt_time(k * 3000)} --> {_srt_time(k * 3000 + 2500)}\n{sentence}\n"
        for k, sentence in enumerate(sentences, start=1)
    ]
    path = folder / name
    path.write_text("\n".join(cues), encoding="utf-8")
    return path


def chapters_of(book: Book) -> list[tuple[int, str]]:
    return [(c.n, c.title) for c in book.chapters]


def text_of(book: Book, n: int) -> str:
    (chapter,) = [c for c in book.chapters if c.n == n]
    return " ".join(u.text for u in chapter.units)


@pytest.mark.parametrize("between", [[], ["It was a dark night on the shore of the bay."]])
@pytest.mark.parametrize("heading", ["Chapter three, the storm.", "Chapter 3. The Storm."])
@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_chapters_number_said_before_its_heading_opens_one_chapter(
    tmp_path: Path, written: Callable[[Path, list[str]], Path], heading: str, between: list[str]
) -> None:
    """A narrator says "Chapter three." and the heading follows a sentence or two on: chapter 3 was
    two chapters, the first of them the number alone."""
    sentences = [
        "Chapter two, the hunt.",
        *ROAD,
        "Chapter three.",
        *between,
        heading,
        *POST,
        "Chapter four, the end.",
        *SAND,
    ]
    book = read_book(written(tmp_path, sentences))
    assert [(n, title.casefold()) for n, title in chapters_of(book)] == [
        (2, "the hunt"),
        (3, "the storm"),
        (4, "the end"),
    ]
    assert text_of(book, 3).startswith("Chapter three.")


def plain_text(folder: Path, blocks: list[str], name: str = "lantern.txt") -> Path:
    """A text of ``blocks`` set apart by blank lines, under its title and author."""
    path = folder / name
    path.write_text(
        "\n\n".join(["The Lantern at Gull Point", "by A. Tester", *blocks]) + "\n", encoding="utf-8"
    )
    return path


def test_a_texts_bare_heading_right_over_its_titled_heading_is_one_chapter(tmp_path: Path) -> None:
    """ "Chapter 3" over "Chapter 3. The Storm", nothing between, was refused: chapter 3 had no text.
    It is one chapter named by the second, as a transcript's number said alone is."""
    path = tmp_path / "storm.txt"
    path.write_text("The Lantern\n\nChapter 3\n\nChapter 3. The Storm\n\nIt rained.\n", encoding="utf-8")
    book = read_book(path)
    assert chapters_of(book) == [(1, "The Storm")]
    assert text_of(book, 1) == "It rained."


@pytest.mark.parametrize(
    "printed", ["Chapter {n}. {title}", "CHAPTER {roman}: {title}", "# Chapter {n}: {title}"]
)
def test_a_texts_number_alone_over_its_heading_is_named_by_it(tmp_path: Path, printed: str) -> None:
    """Among other chapters; and a heading printed twice the same opens no other either."""

    def heading(n: int, title: str = "") -> str:
        said = printed.format(n=n, roman="I" * n if n < 4 else "IV", title=title)
        return said if title else said.split(":")[0].split(".")[0]

    blocks = [heading(1, "The Hunt"), *ROAD, heading(2), heading(2, "The Post"), *POST]
    blocks += [
        heading(3),
        heading(3, "The Storm"),
        *SAND,
        heading(4, "The End"),
        heading(4, "The End"),
        ROAD[0],
    ]
    book = read_book(plain_text(tmp_path, blocks))
    assert [(n, title.casefold().split(": ")[-1]) for n, title in chapters_of(book)] == [
        (1, "the hunt"),
        (2, "the post"),
        (3, "the storm"),
        (4, "the end"),
    ]
    assert text_of(book, 3) == " ".join(SAND)
    assert text_of(book, 4) == ROAD[0]


DEDICATION = "For my mother."
PROLOGUE = "She was nine the year the lighthouse went dark. Nobody told her why."


@pytest.mark.parametrize(
    ("front", "opening"),
    [
        (f"Contents\n\nChapter 1\n\nChapter 2\n\n{DEDICATION}", DEDICATION),
        (f"Chapter 1\n\nChapter 2\n\n{DEDICATION}", DEDICATION),
        (f"Contents\n\nChapter 1\n\n{DEDICATION}", DEDICATION),
        (f"Contents\n\nChapter 1\n\nChapter 2\n\n{PROLOGUE}", PROLOGUE),
        ("Chapter 1\n\nThe Road\n\nChapter 2\n\nThe Post", None),
    ],
)
def test_a_short_list_of_bare_numbers_over_the_titled_chapters_is_their_contents(
    tmp_path: Path, front: str, opening: str | None
) -> None:
    """A contents list of one or two numbers alone (their titles below them, or a dedication or a
    prologue after it): the book was refused ("the chapter 'Chapter 1' has no text"), or its last
    entry was a chapter of the dedication. What follows the list is the opening, as below a longer
    one."""
    path = tmp_path / "lantern.txt"
    body = f"Chapter 1. The Road\n\n{ROAD[0]}\n\nChapter 2. The Post\n\n{POST[0]}"
    path.write_text(f"The Lantern\n\n{front}\n\n{body}\n", encoding="utf-8")
    book = read_book(path)
    assert [c for c in chapters_of(book) if c[0] > 0] == [(1, "The Road"), (2, "The Post")]
    assert (text_of(book, 1), text_of(book, 2)) == (ROAD[0], POST[0])
    assert book.title == "The Lantern"
    openings = [" ".join(u.text for u in c.units) for c in book.chapters if c.n == 0]
    assert openings == ([opening] if opening else [])


def test_numbers_alone_with_their_story_given_again_with_titles_are_no_contents(tmp_path: Path) -> None:
    """Numbering begun again with titles ("Chapter 1. The Return" after "Chapter 2") lists none of the
    chapters before it: chapter 1 has a sentence of story."""
    blocks = ["Chapter 1", ROAD[0], "Chapter 2", "The End", "Chapter 1. The Return", POST[0]]
    book = read_book(plain_text(tmp_path, [*blocks, "Chapter 2. The Sands", SAND[0]]))
    assert chapters_of(book) == [(1, "Chapter 1"), (2, "Chapter 2"), (3, "The Return"), (4, "The Sands")]
    assert (text_of(book, 1), text_of(book, 2)) == (ROAD[0], "The End")


AGAIN = ["The Return", "The Sands", "The Storm"]
BEGUN_AGAIN = [
    "Chapter 1. The Return",
    POST[0],
    "Chapter 2. The Sands",
    SAND[0],
    "Chapter 3. The Storm",
    POST[1],
]


@pytest.mark.parametrize(
    ("first", "chapters"),
    [
        (
            ["Chapter 1", "Hope Is the Thing with Feathers", "Chapter 2", ROAD[0], "Chapter 3", ROAD[1]],
            [(1, "Chapter 1"), (2, "Chapter 2"), (3, "Chapter 3")],
        ),
        (["Chapter 3", "It rained all night long."], [(1, "Chapter 3")]),
    ],
)
def test_one_number_alone_given_again_with_a_title_is_no_contents_list(
    tmp_path: Path, first: list[str], chapters: list[tuple[int, str]]
) -> None:
    """A review: where the numbering begins again ("Chapter 1. The Return" after chapter 3), one
    number alone with a title line below it (or a short line, the numbers going back) was taken for
    a contents list: the first chapter was the opening, every chapter after it numbered one down.
    A list is two numbers or more in a row, or under a "Contents" line."""
    book = read_book(plain_text(tmp_path, [*first, *BEGUN_AGAIN]))
    after = [(len(chapters) + k, title) for k, title in enumerate(AGAIN, 1)]
    assert chapters_of(book) == [*chapters, *after]
    assert text_of(book, 1) == first[1]
    assert text_of(book, len(chapters) + 1) == POST[0]


@pytest.mark.parametrize("between", ["The Storm", "THE STORM", "A Storm at Sea"])
def test_a_texts_number_alone_over_a_title_line_then_its_heading_is_one_chapter(
    tmp_path: Path, between: str
) -> None:
    """ "Chapter 3", its title on a line alone, then "Chapter 3. The Storm": the number alone was a
    chapter whose text was its title."""
    blocks = ["Chapter 2. The Post", *POST, "Chapter 3", between, "Chapter 3. The Storm", *SAND]
    book = read_book(plain_text(tmp_path, blocks))
    assert chapters_of(book) == [(1, "The Post"), (2, "The Storm")]
    told = " ".join(SAND) if between.casefold() == "the storm" else f"{between} {' '.join(SAND)}"
    assert text_of(book, 2) == told


def test_a_texts_number_alone_with_a_sentence_of_story_before_its_heading_stays_a_chapter(
    tmp_path: Path,
) -> None:
    """Unlike a title line, a sentence under a number alone is a chapter's story (as before)."""
    blocks = ["Chapter 2. The Post", *POST, "Chapter 3", ROAD[0], "Chapter 3. The Storm", *SAND]
    book = read_book(plain_text(tmp_path, blocks))
    assert chapters_of(book) == [(1, "The Post"), (2, "Chapter 3"), (3, "The Storm")]
    assert text_of(book, 2) == ROAD[0]


def test_a_texts_prologue_epilogue_and_chapter_the_first_are_headings_not_interlude(tmp_path: Path) -> None:
    """A review: none of them was a heading: the book was one chapter, and "Prologue" its opening's
    first words. The prologue before the first chapter is the opening, as a recording's is."""
    book = read_book(
        plain_text(
            tmp_path,
            [
                "Prologue",
                ROAD[0],
                "Chapter the First",
                "The Road",
                ROAD[1],
                "The prologue to his speech was long, and Wren read the\nPrologue\nagain.",
                "Chapter the Second",
                POST[0],
                "INTERLUDE",
                POST[1],
                "Chapter the Third",
                SAND[0],
                "Epilogue.",
                SAND[1],
            ],
        )
    )
    assert chapters_of(book) == [
        (0, "Prologue"),
        (1, "The Road"),
        (2, "Chapter the Second"),
        (3, "Chapter the Third"),
        (4, "Epilogue"),
    ]
    assert "INTERLUDE" in text_of(book, 2)  # between chapters it would shift the numbers after it
    assert book.title == "The Lantern at Gull Point"
    assert text_of(book, 0) == ROAD[0]
    assert "Prologue again." in text_of(book, 1)


def test_a_texts_chapter_the_last_is_its_last_chapter(tmp_path: Path) -> None:
    """It was no heading: the last chapter was the end of the one before."""
    blocks = ["Chapter the First", *ROAD, "Chapter the Second", *POST]
    blocks += ["Chapter the Last", SAND[0], "Chapter the last was the one she liked best.", SAND[1]]
    book = read_book(plain_text(tmp_path, blocks))
    assert chapters_of(book) == [(1, "Chapter the First"), (2, "Chapter the Second"), (3, "Chapter the Last")]
    assert text_of(book, 3) == " ".join([SAND[0], "Chapter the last was the one she liked best.", SAND[1]])


@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_transcripts_chapter_the_last_is_numbered_after_the_chapters_said(
    tmp_path: Path, written: Callable[[Path, list[str]], Path]
) -> None:
    """A second volume's chapters keep the numbers said; the last one after them is the next."""
    sentences = [
        "Chapter twenty-three, the road.",
        *ROAD,
        "Chapter twenty-four, the post.",
        *POST,
        "Chapter the last, the sand.",
        *SAND,
    ]
    book = read_book(written(tmp_path, sentences))
    assert chapters_of(book) == [(23, "the road"), (24, "the post"), (25, "the sand")]
    assert text_of(book, 25) == " ".join(["Chapter the last, the sand.", *SAND])


def test_a_texts_prologue_and_epilogue_with_their_titles_are_headings(tmp_path: Path) -> None:
    """A review: "Prologue: The Fire" was no heading: the prologue was an opening of the book's own,
    and the epilogue the end of the last chapter. A paragraph opening so is still the story's."""
    blocks = ["Prologue: The Fire", ROAD[0], "Chapter 1", ROAD[1], "Chapter 2", POST[0]]
    blocks += ["Epilogue: The Ash\nof it all was gone by morning, and Wren swept the step.", POST[1]]
    blocks += ["Epilogue -- Ten Years On", *SAND]
    book = read_book(plain_text(tmp_path, blocks))
    assert chapters_of(book) == [
        (0, "Prologue: The Fire"),
        (1, "Chapter 1"),
        (2, "Chapter 2"),
        (3, "Epilogue -- Ten Years On"),
    ]
    assert text_of(book, 0) == ROAD[0]
    assert "Epilogue: The Ash of it all" in text_of(book, 2)
    assert text_of(book, 3) == " ".join(SAND)


@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_transcripts_prologue_with_its_title_opens_the_book(
    tmp_path: Path, written: Callable[[Path, list[str]], Path]
) -> None:
    sentences = [
        "Prologue: The Fire.",
        *SAND,
        "Chapter one, the road.",
        *ROAD,
        "Chapter two, the post.",
        *POST,
        "Epilogue: Ten Years On.",
        SAND[0],
    ]
    book = read_book(written(tmp_path, sentences))
    assert chapters_of(book) == [
        (0, "Prologue: The Fire"),
        (1, "the road"),
        (2, "the post"),
        (3, "Epilogue: Ten Years On"),
    ]
    assert text_of(book, 0) == " ".join(["Prologue: The Fire.", *SAND])


@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_transcripts_prologue_and_epilogue_said_alone_are_chapters(
    tmp_path: Path, written: Callable[[Path, list[str]], Path]
) -> None:
    sentences = [
        "Prologue.",
        *SAND,
        "Chapter the first, the road.",
        *ROAD,
        "The prologue to his speech was long.",
        "Chapter the second, the post.",
        *POST,
        "Epilogue.",
        *SAND,
    ]
    book = read_book(written(tmp_path, sentences))
    assert chapters_of(book) == [(0, "Prologue"), (1, "the road"), (2, "the post"), (3, "Epilogue")]
    assert text_of(book, 1).endswith("The prologue to his speech was long.")
    assert text_of(book, 3) == " ".join(["Epilogue.", *SAND])


@pytest.mark.parametrize(
    ("sentences", "chapters"),
    [
        (
            [
                "Chapter twenty-three, the road.",
                *ROAD,
                "Chapter twenty-four, the post.",
                *POST,
                "Interlude.",
                *SAND,
                "Chapter twenty-five, the sand.",
                *SAND,
            ],
            [(23, "the road"), (24, "the post"), (25, "the sand")],
        ),
        (
            [
                "Chapter one, the road.",
                *ROAD,
                '"Prologue."',
                "Prologue.",
                *SAND,
                "Chapter two, the post.",
                *POST,
            ],
            [(1, "the road"), (2, "the post")],
        ),
        (
            [
                "Book one.",
                "Prologue.",
                *SAND,
                "Chapter one, the road.",
                *ROAD,
                "Chapter two, the post.",
                *POST[:1],
            ],
            [(1, "Prologue"), (2, "the road"), (3, "the post")],
        ),
    ],
)
@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_name_said_between_a_transcripts_chapters_shifts_no_number(
    tmp_path: Path,
    written: Callable[[Path, list[str]], Path],
    sentences: list[str],
    chapters: list[tuple[int, str]],
) -> None:
    """A review: an "Interlude." or a "Prologue." said between chapters 24 and 25 made them 1 to 4, and
    a part's heading over a prologue made two chapters named "Prologue"."""
    assert chapters_of(read_book(written(tmp_path, sentences))) == chapters


NOTICE = ["This is a LibriVox recording.", "All LibriVox recordings are in the public domain."]


@pytest.mark.parametrize(
    ("opening", "title"),
    [
        (["Chapter five, the storm."], "the storm"),
        (["Chapter 5. The Storm."], "The Storm"),
        (["Chapter five.", "The storm."], "The storm"),
        (["Chapter five of The Lantern at Gull Point.", *NOTICE, "Chapter five, the storm."], "the storm"),
        (["Epilogue."], "Epilogue"),
    ],
)
@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_transcript_of_one_chapter_is_named_by_the_heading_it_opens_with(
    tmp_path: Path, written: Callable[[Path, list[str]], Path], opening: list[str], title: str
) -> None:
    """It was named by its file ("Lantern"), its heading a sentence of its text."""
    book = read_book(written(tmp_path, [*opening, *ROAD, *POST]))
    assert chapters_of(book) == [(1, title)]
    assert text_of(book, 1).startswith(opening[0])


@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_transcript_of_one_chapter_opening_with_its_story_is_named_by_its_file(
    tmp_path: Path, written: Callable[[Path, list[str]], Path]
) -> None:
    book = read_book(written(tmp_path, [*ROAD, "Chapter 11, the lawyer said, was where it began.", *POST]))
    assert chapters_of(book) == [(1, "Lantern")]


def sync_map(folder: Path, sentences: list[str], name: str = "lantern.json") -> Path:
    """``sentences`` as aeneas times them: a fragment each, a second apart."""
    fragments = [
        {"id": f"f{k:03d}", "begin": f"{k}.000", "end": f"{k}.900", "lines": [sentence]}
        for k, sentence in enumerate(sentences)
    ]
    path = folder / name
    path.write_text(json.dumps({"fragments": fragments}), encoding="utf-8")
    return path


def media_overlay(folder: Path, sentences: list[str], name: str = "lantern.smil") -> Path:
    """``sentences`` in an XHTML page without heading elements, each timed by a SMIL ``<par>``."""
    spans = " ".join(f'<span id="s{k}">{sentence}</span>' for k, sentence in enumerate(sentences))
    page = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>Page</title></head><body><p>{spans}</p></body></html>"
    )
    (folder / "page.xhtml").write_text(page, encoding="utf-8")
    pars = "".join(
        f'<par id="p{k}"><text src="page.xhtml#s{k}"/>'
        f'<audio src="a.mp3" clipBegin="{k}.000s" clipEnd="{k}.900s"/></par>'
        for k in range(len(sentences))
    )
    smil = (
        '<smil xmlns="http://www.w3.org/ns/SMIL" version="3.0"><body>'
        f'<seq epub:textref="page.xhtml" xmlns:epub="http://www.idpf.org/2007/ops">{pars}</seq></body></smil>'
    )
    path = folder / name
    path.write_text(smil, encoding="utf-8")
    return path


TIME_SPLIT = [subtitles, sync_map, media_overlay]


@pytest.mark.parametrize(
    "said",
    [
        "Chapter 11, the lawyer said.",
        "Chapter 11, the lawyer said, was where it began.",
        "Chapter four, the storm came back to her.",
        "Part one, the easy part, was done.",
        "Chapter one.",  # read aloud from a book in the story (a review)
        "Chapter 7 \u2014 that was where the map was.",
    ],
)
@pytest.mark.parametrize("written", [whisper_json, *TIME_SPLIT])
def test_a_story_sentence_shaped_like_a_heading_divides_no_transcript(
    tmp_path: Path, written: Callable[[Path, list[str]], Path], said: str
) -> None:
    book = read_book(written(tmp_path, [*ROAD, said, *POST]))
    assert chapters_of(book) == [(1, "Lantern")]


def sentence_case_text(chapters: list[str]) -> list[str]:
    """A text whose headings give their titles in sentence case after the number, with a full stop."""
    story = [ROAD, POST, SAND, ROAD]
    return [block for k, heading in enumerate(chapters) for block in [heading, *story[k % 4]]]


SENTENCE_CASE = [
    "Chapter 1 The bus at the end.",
    "Chapter 2 A letter from the sea.",
    "Chapter 3 The storm at sea.",
    "Chapter 4 Home again at last.",
]


def test_a_texts_headings_in_sentence_case_that_count_up_are_its_chapters(tmp_path: Path) -> None:
    """87e3c965 made "Chapter 3 The storm at sea." no heading by its shape: such a book was one
    chapter. Counting up one by one, they are the book's headings."""
    book = read_book(plain_text(tmp_path, sentence_case_text(SENTENCE_CASE)))
    assert chapters_of(book) == [
        (1, "The bus at the end"),
        (2, "A letter from the sea"),
        (3, "The storm at sea"),
        (4, "Home again at last"),
    ]


def test_a_heading_in_sentence_case_among_others_is_taken_where_the_count_places_it(tmp_path: Path) -> None:
    headings = ["Chapter 1: The Bus", "Chapter 2: A Letter", "Chapter 3 The storm at sea.", "Chapter 4: Home"]
    book = read_book(plain_text(tmp_path, sentence_case_text(headings)))
    assert [title for _, title in chapters_of(book)] == ["The Bus", "A Letter", "The storm at sea", "Home"]


def test_a_story_line_in_sentence_case_out_of_the_count_is_no_heading(tmp_path: Path) -> None:
    """ "Part two Ginger liked best." and "Chapter 4 Wren read twice more." inside the chapter before
    their number's heading stay the story's, as do the lawyer's words."""
    blocks = [
        "Part one",
        *ROAD,
        "Part two Ginger liked best.",
        "Chapter 4 Wren read it twice more.",
        "Chapter 11, the lawyer said.",
        "Part two",
        *POST,
        "Part three",
        *SAND,
    ]
    book = read_book(plain_text(tmp_path, blocks))
    assert [n for n, _ in chapters_of(book)] == [1, 2, 3]
    assert text_of(book, 2).startswith(POST[0])
    assert "Part two Ginger liked best. Chapter 4 Wren read it twice more." in text_of(book, 1)


@pytest.mark.parametrize("written", [whisper_json, subtitles])
def test_a_transcripts_headings_in_sentence_case_that_count_up_are_its_chapters(
    tmp_path: Path, written: Callable[[Path, list[str]], Path]
) -> None:
    sentences = [
        SENTENCE_CASE[0],
        *ROAD,
        "Chapter 3 The storm came in the night.",  # inside chapter 1: out of the count
        SENTENCE_CASE[1],
        *POST,
        "Chapter 11, the lawyer said.",
        SENTENCE_CASE[2],
        *SAND,
    ]
    book = read_book(written(tmp_path, sentences))
    assert chapters_of(book) == [
        (1, "The bus at the end"),
        (2, "A letter from the sea"),
        (3, "The storm at sea"),
    ]
    assert "Chapter 3 The storm came in the night." in text_of(book, 1)
