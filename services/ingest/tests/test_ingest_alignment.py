"""Aligning an e-book to a recording's words (plain code: recognised words are made up here)."""

import json

from bedside_contracts.ingest import BookArtifact, ChapterTranscript, IngestBook, SpokenWordTimes
from bedside_ingest.alignment import align_book, pair_chapters, words_of
from bedside_ingest.audiobook import Audiobook, AudioChapter
from bedside_ingest.book import Book, Chapter, Unit
from bedside_ingest.formats.jsonbook import load_json_book
from bedside_ingest.pipeline import prepare_book
from bedside_ingest.transcription import transcribed_book
from bedside_testing import corpus_file

WORD_MS = 400

FRONT = ["This edition was printed for the library.", "All rights of translation are reserved."]
ONE = [
    "Wren Calloway stood at the end of the road with her green suitcase.",
    "The lighthouse rose behind the white cottage.",
    "Grandpa Tobias came down the path with his stick.",
    "Pudding the cat was asleep in the basket of washing.",
]
TWO = [
    "In the morning Hettie Bramble brought the letters on her bicycle.",
    "She had a pie wrapped in a checked cloth.",
    "It smelled of blackberries and warm sugar.",
]


def ebook(*chapters: tuple[str, list[str]]) -> Book:
    return Book(
        title="The Lantern",
        author="",
        chapters=tuple(
            # numbered as readers number them: an opening 0, the chapters from 1
            Chapter(
                0 if title == "Opening" else n,
                title,
                tuple(Unit(s, f"s{k}") for k, s in enumerate(lines)),
                title,
            )
            for n, (title, lines) in enumerate(chapters, start=1)
        ),
        format="text",
        timed=False,
    )


def heard(chapter: int, sentences: list[str], misheard: dict[str, str] | None = None) -> ChapterTranscript:
    """Sentence by sentence, a word every 400 ms and a second's pause between sentences."""
    words, at = [], 1_000
    for sentence in sentences:
        for word in sentence.split():
            text = (misheard or {}).get(word, word)
            words.append(SpokenWordTimes(text=text, start_ms=at, end_ms=at + WORD_MS - 50))
            at += WORD_MS
        at += 1_000
    return ChapterTranscript(chapter=chapter, model="test", audio_ms=at, compute_s=0.0, words=words)


def recording(*transcripts: ChapterTranscript) -> Audiobook:
    chapters, start = [], 0
    for t in transcripts:
        chapters.append(
            AudioChapter(t.chapter, f"Track {t.chapter}", "book.m4b", start, start + t.audio_ms, start)
        )
        start += t.audio_ms
    return Audiobook("Lantern", "", "", tuple(chapters), ("book.m4b",))


def sentence_starts(sentences: list[str], offset_ms: int = 0) -> list[int]:
    starts, at = [], 1_000
    for sentence in sentences:
        starts.append(offset_ms + at)
        at += WORD_MS * len(sentence.split()) + 1_000
    return starts


def test_words_are_compared_without_case_or_punctuation() -> None:
    assert words_of('"Wren\'s  bicycle," she said.') == ["wrens", "bicycle", "she", "said"]


def test_sentences_take_the_times_of_their_words_and_front_matter_is_left_out() -> None:
    book = ebook(("Front", FRONT), ("One", ONE), ("Two", TWO))
    one, two = heard(1, ONE, {"Calloway": "callaway", "Tobias": "to", "Pudding": "putting"}), heard(2, TWO)
    aligned, report = align_book(book, recording(one, two), {1: one, 2: two}, "test")
    assert [c.title for c in aligned.chapters] == ["One", "Two"]
    assert [u.text for u in aligned.chapters[0].units] == ONE  # the e-book's spelling
    assert [u.start_ms for u in aligned.chapters[0].units] == sentence_starts(ONE)
    assert [u.start_ms for u in aligned.chapters[1].units] == sentence_starts(TWO, one.audio_ms)
    assert (report.matched, report.interpolated, report.left_out) == (7, 0, 2)
    assert report.fallback == ""


def test_a_sentence_heard_all_wrong_is_placed_between_its_neighbours() -> None:
    garbled = dict.fromkeys(ONE[1].split(), "zzz")
    one = heard(1, ONE, garbled)
    aligned, report = align_book(ebook(("One", ONE)), recording(one), {1: one}, "test")
    units = aligned.chapters[0].units
    assert [u.text for u in units] == ONE
    times = [(u.start_ms or 0, u.end_ms or 0) for u in units]
    assert times[0][1] <= times[1][0] < times[1][1] <= times[2][0]
    assert (report.matched, report.interpolated) == (3, 1)


def test_sentences_the_recording_does_not_reach_are_left_out() -> None:
    one = heard(1, ONE[:2])  # an abridged reading: only the first two sentences
    aligned, report = align_book(ebook(("One", ONE)), recording(one), {1: one}, "test")
    assert [u.text for u in aligned.chapters[0].units] == ONE[:2]
    assert report.left_out == 2


def test_chapters_pair_in_order_and_a_chapter_not_in_the_book_keeps_its_words() -> None:
    credits = heard(1, ["This recording is in the public domain and was read by a volunteer."])
    one, two = heard(2, ONE), heard(3, TWO)
    book = ebook(("One", ONE), ("Two", TWO))
    assert pair_chapters(book.chapters, [credits, one, two]) == [None, range(0, 1), range(1, 2)]
    aligned, _ = align_book(book, recording(credits, one, two), {1: credits, 2: one, 3: two}, "test")
    assert aligned.chapters[0].title == "Track 1"
    assert "volunteer." in " ".join(u.text for u in aligned.chapters[0].units)
    assert aligned.notes == ()  # (the review) a credits track's few words are no news


def test_a_credits_track_sharing_only_common_words_with_a_chapter_pairs_with_none() -> None:
    """A listener session: "1 - Opening Credits.mp3" paired with the e-book's last chapter (a third of
    its words of three letters or more, "this", "the", "all", were in it), and since pairing never goes
    back, every chapter after it was held there: the e-book, the same text, was dropped as another."""
    credits = heard(
        1,
        [
            "This is an audio book recording of The Lantern, written by Ada Lovell.",
            "Read by the narrator, all rights reserved.",
        ],
    )
    one, two = heard(2, ONE), heard(3, TWO)
    closing = ["All the way home the lantern swung, and this was the end of the road for all of them."]
    book = ebook(("One", ONE), ("Two", TWO), ("Closing", closing))
    assert pair_chapters(book.chapters, [credits, one, two]) == [None, range(0, 1), range(1, 2)]


THREE = [
    "That night the storm came in over the harbour.",
    "The lamp went out at the top of the tower.",
    "Wren climbed the stairs with the lantern in both hands.",
]


def test_one_recording_holding_several_chapters_takes_the_e_books_chapters() -> None:
    """One file and no chapter marks, with a three-chapter e-book: the e-book was left out whole
    (a third of the words heard matched the one chapter paired) and the book was the recogniser's."""
    whole = heard(1, ONE + TWO + THREE, {"Calloway": "callaway", "Hettie": "hetty"})
    book = ebook(("One", ONE), ("Two", TWO), ("Three", THREE))
    assert pair_chapters(book.chapters, [whole]) == [range(0, 3)]
    aligned, report = align_book(book, recording(whole), {1: whole}, "test")
    assert report.fallback == ""
    assert [(c.n, c.title) for c in aligned.chapters] == [(1, "One"), (2, "Two"), (3, "Three")]
    assert [u.text for c in aligned.chapters for u in c.units] == ONE + TWO + THREE
    starts = sentence_starts(ONE + TWO + THREE)
    assert [c.units[0].start_ms for c in aligned.chapters] == [
        starts[0],
        starts[len(ONE)],
        starts[len(ONE + TWO)],
    ]
    assert aligned.chapters[0].start_ms == 0  # the recording's start: what comes before is its own


def numbered(chapter: int, count: int) -> list[str]:
    """``count`` sentences of ten words found nowhere else in the book."""
    return [" ".join(f"w{chapter}s{k}n{j}" for j in range(10)) + "." for k in range(count)]


def test_what_the_recording_holds_beyond_its_e_book_keeps_the_words_heard() -> None:
    """An ingest review: one file with no chapter marks and the whole e-book, the recording reading
    its first chapter and then only the start of the next two (abridged): it was paired with the
    first chapter alone, and what it read of the other two was thrown away, unsearchable."""
    first, second, third = numbered(1, 12), numbered(2, 12), numbered(3, 12)
    read = first + second[:4] + third[:4]
    whole = heard(1, read)
    book = ebook(("One", first), ("Two", second), ("Three", third))
    aligned, report = align_book(book, recording(whole), {1: whole}, "test")
    texts = [u.text for c in aligned.chapters for u in c.units]
    starts = [u.start_ms or 0 for c in aligned.chapters for u in c.units]
    assert texts[: len(first)] == first  # what the e-book holds is the e-book's
    heard_after = " ".join(texts[len(first) :])
    assert all(sentence.rstrip(".") in heard_after for sentence in second[:4] + third[:4])
    assert starts == sorted(starts)
    assert starts[len(first)] == sentence_starts(read)[len(first)]
    assert report.kept_as_heard_ms > 0
    assert any("not in the e-book" in note for note in aligned.notes)


def test_a_chapter_the_e_book_lacks_is_said_to_be_the_recognisers_words() -> None:
    """A listener session: an e-book without its last chapter was reported as 98% matched, and nothing
    said that the last chapter's words were the recogniser's."""
    one, two, last = heard(1, ONE), heard(2, TWO), heard(3, numbered(3, 12))
    aligned, report = align_book(
        ebook(("One", ONE), ("Two", TWO)), recording(one, two, last), {1: one, 2: two, 3: last}, "test"
    )
    assert [u.text for u in aligned.chapters[2].units] == numbered(3, 12)  # kept, as heard
    assert report.kept_as_heard_ms > 0
    assert any("not in the e-book" in note for note in aligned.notes), aligned.notes


def test_a_readers_announcement_beyond_the_e_book_is_left_out() -> None:
    announced = "This is a recording in the public domain, read for you by a volunteer reader."
    whole = heard(1, [announced, *ONE, "End of chapter one."])
    aligned, report = align_book(ebook(("One", ONE)), recording(whole), {1: whole}, "test")
    assert [u.text for c in aligned.chapters for u in c.units] == ONE
    assert (report.kept_as_heard_ms, aligned.notes) == (0, ())


def test_one_recording_read_from_the_e_books_opening_keeps_chapter_one_as_chapter_one() -> None:
    """Review: the opening read first took number 1, and "go to chapter 2" played chapter 1."""
    whole = heard(1, FRONT + ONE + TWO)
    book = ebook(("Opening", FRONT), ("One", ONE), ("Two", TWO))
    aligned, _ = align_book(book, recording(whole), {1: whole}, "test")
    assert [(c.n, c.title) for c in aligned.chapters] == [(0, "Opening"), (1, "One"), (2, "Two")]


def test_a_recording_of_two_chapters_then_one_each_numbers_the_chapters_after_it_on() -> None:
    first, third = heard(1, ONE + TWO), heard(2, THREE)
    book = ebook(("One", ONE), ("Two", TWO), ("Three", THREE))
    assert pair_chapters(book.chapters, [first, third]) == [range(0, 2), range(2, 3)]
    aligned, _ = align_book(book, recording(first, third), {1: first, 2: third}, "test")
    assert [(c.n, c.title) for c in aligned.chapters] == [(1, "One"), (2, "Two"), (3, "Three")]


def test_a_chapter_read_in_two_tracks_is_one_chapter_and_the_chapters_after_keep_their_numbers() -> None:
    """A listener session: tracks "Chapter 3, Part 1" and "Chapter 3, Part 2" made two chapters, so
    "what chapter is this?" in the e-book's fourth said chapter 5, and "go to chapter 4" went to the
    second half of the third."""
    one, three = heard(1, ONE), heard(4, THREE)
    first_half, second_half = heard(2, TWO[:2]), heard(3, TWO[2:])
    book = ebook(("One", ONE), ("Two", TWO), ("Three", THREE))
    tracks = (one, first_half, second_half, three)
    aligned, _ = align_book(book, recording(*tracks), {t.chapter: t for t in tracks}, "test")
    assert [(c.n, c.title) for c in aligned.chapters] == [(1, "One"), (2, "Two"), (3, "Three")]
    assert [u.text for u in aligned.chapters[1].units] == TWO
    second_starts = [u.start_ms or 0 for u in aligned.chapters[1].units]
    assert second_starts == sorted(second_starts)
    assert second_starts[-1] >= first_half.audio_ms  # in the second track


def test_a_track_goes_on_only_with_the_chapter_the_track_before_placed_sentences_in() -> None:
    """(The review) a track paired with chapter Two that placed none of its sentences there left the
    chapter before it last, and the next track's half of Two was added to chapter One."""
    backwards = [" ".join(reversed(sentence.split())) for sentence in TWO[:2]]  # no sentence placed
    tracks = (heard(1, ONE), heard(2, backwards), heard(3, TWO[2:]), heard(4, THREE))
    book = ebook(("One", ONE), ("Two", TWO), ("Three", THREE))
    aligned, _ = align_book(book, recording(*tracks), {t.chapter: t for t in tracks}, "test")
    assert all(u.text in ONE for u in aligned.chapters[0].units)
    assert [c.title for c in aligned.chapters][-1] == "Three"


def test_an_e_book_chapter_the_recording_lacks_is_noted_by_its_place_never_its_title() -> None:
    """A listener session: an e-book with an epilogue the recording lacks said only "15 not in the
    recording left out"; its title is not said, as a title ahead never is."""
    epilogue = [*THREE, "Years later the lamp still burned.", "Wren kept it lit.", "The end."]
    book = ebook(
        ("Opening", ["A short preface of one sentence."]), ("One", ONE), ("Two", TWO), ("Epilogue", epilogue)
    )
    one, two = heard(1, ONE), heard(2, TWO)
    aligned, _ = align_book(book, recording(one, two), {1: one, 2: two}, "test")
    after = "the e-book's chapter after the last one recorded (6 sentences) is not in the recording: left out"
    assert aligned.notes == (after,)
    middle = ebook(("One", ONE), ("Two", epilogue), ("Three", TWO))
    aligned, _ = align_book(middle, recording(one, two), {1: one, 2: two}, "test")
    assert aligned.notes == ("one of the e-book's chapters (6 sentences) is not in the recording: left out",)
    thanked = ebook(("One", ONE), ("Two", TWO), ("Acknowledgements", epilogue))
    aligned, _ = align_book(thanked, recording(one, two), {1: one, 2: two}, "test")
    assert aligned.notes == ()


def test_a_real_books_chapters_read_one_to_a_track_pair_one_to_one() -> None:
    """Black Beauty's first twelve chapters, each its own track: no track takes in a neighbour, whose
    common words it also says; then chapters 13 to 15 in one track take all three."""
    book = load_json_book(corpus_file("black_beauty.json"))
    tracks = [heard(n + 1, [u.text for u in book.chapters[n].units]) for n in range(12)]
    assert pair_chapters(book.chapters, tracks) == [range(n, n + 1) for n in range(12)]
    joined = heard(13, [u.text for n in (12, 13, 14) for u in book.chapters[n].units])
    assert pair_chapters(book.chapters, [*tracks, joined])[-1] == range(12, 15)


def test_the_wrong_book_falls_back_to_the_words_heard() -> None:
    other = [
        "The glassblower of Vell kept bees.",
        "Every spring he sold their honey at the fair by the river.",
    ]
    one = heard(1, ONE)
    aligned, report = align_book(ebook(("Other", other)), recording(one), {1: one}, "test")
    assert "does not match this recording" in report.fallback
    assert aligned.format == "audio"
    assert "Calloway" in " ".join(u.text for u in aligned.chapters[0].units)


def book_by_where_its_times_came_from(source: str) -> dict[str, Book]:
    """One book of each kind of time: transcribed from the recording, an e-book aligned to it, and
    a file's own (``source`` names the recording)."""
    one, two = heard(1, ONE), heard(2, TWO)
    audiobook = recording(one, two)
    aligned, _ = align_book(ebook(("One", ONE), ("Two", TWO)), audiobook, {1: one, 2: two}, source)
    return {
        "transcription": transcribed_book(audiobook, {1: one, 2: two}, f"{source} (tiny.en)"),
        "alignment": aligned,
        "file": ebook(("One", ONE)),
    }


def test_the_artifact_says_what_its_times_came_from() -> None:
    books = book_by_where_its_times_came_from("test")
    one, two = heard(1, ONE), heard(2, TWO)
    fell_back, _ = align_book(
        ebook(("Other", ["Nothing here was read aloud at all."] * 3)),
        recording(one, two),
        {1: one, 2: two},
        "test",
    )

    def times_from(book: Book) -> str:
        request = IngestBook(path="book.m4b", book="lantern")
        prepared = prepare_book(request, book, audio_ms=0, audio_path=None, embedding_model="test")
        return BookArtifact.model_validate(
            {**prepared.fields, "version": "0" * 16, "vectors_b64": ""}
        ).times_from

    assert {kind: times_from(book) for kind, book in books.items()} == {kind: kind for kind in books}
    assert times_from(fell_back) == "transcription"  # the recogniser's words were kept


def test_an_artifact_stored_before_it_named_its_times_tells_them_by_its_source() -> None:
    # An artifact written before ``times_from`` existed: its source still names ingest's format.
    books = book_by_where_its_times_came_from("lantern.m4b")

    def stored_before(book: Book) -> str:
        request = IngestBook(path="book.m4b", book="lantern")
        prepared = prepare_book(request, book, audio_ms=0, audio_path=None, embedding_model="test")
        old = {k: v for k, v in prepared.fields.items() if k != "times_from"}
        return BookArtifact.model_validate_json(
            json.dumps({**old, "version": "0" * 16, "vectors_b64": ""})
        ).times_from

    assert {kind: stored_before(book) for kind, book in books.items()} == {kind: kind for kind in books}
