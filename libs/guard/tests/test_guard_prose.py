"""Where a sentence ends, how one taken from a quotation is made whole, and what a heading is."""

import pytest
from bedside_guard import (
    balance_quotes,
    ends_sentence,
    heading_in_sentence_case,
    heading_title,
    is_heading,
    is_whole_sentence,
    named_heading,
    number_value,
    sentence_spans,
    sentences_of,
    without_headings,
)


def test_the_words_that_say_who_spoke_stay_with_what_was_said() -> None:
    text = '"What is that one for?" asked Wren. "Lost," he said. "Last winter." Grandpa sighed.'
    assert sentences_of(text) == [
        '"What is that one for?" asked Wren.',
        '"Lost," he said.',
        '"Last winter."',
        "Grandpa sighed.",
    ]


def test_a_sentence_ends_before_a_capital_a_digit_or_an_opening_quote() -> None:
    assert sentences_of("It was late. 1865 was a hard year! \u201cYes.\u201d (She left.) Then") == [
        "It was late.",
        "1865 was a hard year!",
        "\u201cYes.\u201d",
        "(She left.)",
        "Then",
    ]


def test_spans_point_at_the_sentences_in_the_text() -> None:
    text = '  "Is it yours?" asked Wren.   It was.  '
    assert [text[s:e] for s, e in sentence_spans(text)] == ['"Is it yours?" asked Wren.', "It was."]


@pytest.mark.parametrize(
    ("sentence", "whole"),
    [
        ('"She had a compass, too.', '"She had a compass, too."'),
        ('She said it always pointed home."', '"She said it always pointed home."'),
        (
            '"It turns all night," said Grandpa, "and every ship can see it.',
            '"It turns all night," said Grandpa, "and every ship can see it."',
        ),
        ("\u201cShe had a compass.", "\u201cShe had a compass.\u201d"),
        ("It always pointed home.\u201d", "\u201cIt always pointed home.\u201d"),
        ('"Lost," he said.', '"Lost," he said.'),
        ("Grandpa sighed.", "Grandpa sighed."),
    ],
)
def test_a_sentence_from_a_quotation_gets_its_missing_mark(sentence: str, whole: str) -> None:
    assert balance_quotes(sentence) == whole


@pytest.mark.parametrize(
    ("sentence", "whole"),
    [
        ("\u2018She had a compass, too.", "\u2018She had a compass, too.\u2019"),
        ("It always pointed home.\u2019", "\u2018It always pointed home.\u2019"),
        ("It is mine,' said Wren.", "'It is mine,' said Wren."),
        ("'It turns all night.", "'It turns all night.'"),
        ("\"I heard him say, 'Pray take a seat.", "\"I heard him say, 'Pray take a seat.'\""),
        ("'Hettie Bramble,' said the woman, shaking Wren's hand.", None),
        ("\u2019Tis the horses\u2019 stable, and Wren\u2019s.", None),
        ("'Tis late, and the Smiths' cart is gone.", None),
        ("\u2018The horses\u2019 stable,\u2019 he said.", None),
        ("\u2018Come here\u2019 she said.", None),
    ],
)
def test_single_quotes_are_balanced_as_double_ones_and_an_apostrophe_is_no_quote(
    sentence: str, whole: str | None
) -> None:
    assert balance_quotes(sentence) == (whole or sentence)


def test_a_heading_read_out_is_known_and_a_sentence_of_the_story_is_not() -> None:
    assert heading_title("Chapter Four: The Night of the Storm.") == ("Four", "The Night of the Storm")
    assert heading_title("CHAPTER SEVENTY-TWO. The Storm") == ("SEVENTY-TWO", "The Storm")  # was no heading
    # a listener session: a track "Chapter 3, Part 1" was shown as "Chapter 3 · , Part 1"
    assert heading_title("Chapter 3, Part 1") == ("3", "Part 1")
    assert is_heading("Chapter 12. The Storm")
    assert not is_heading("The chapter ended with a storm.")
    assert not is_heading(
        "Chapter four was where the storm came in, and Wren lit the lantern high in the tower."
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "Part two came to Ginger later.",  # the review: Ginger was not counted a name heard
        "Book one room for Mr. Ferguson.",
        "Part I remember well, and the rest I do not.",
        "Chapter one of the story was hers.",
        "Part Vic, Part Ginger.",  # a name in the letters of a Roman numeral, which books write in capitals
        "Book mid-way.",
        "Part did.",  # letters of Roman numerals in small letters that are no numeral
        "Part two Ginger liked best.",  # a review: a capital after the number, then the story goes on
        "Part one, Ginger said, was the worst.",  # a review: the comma sets apart who said it, not a title
        "Book three, she said, was the best of them.",
        "Chapter 11, the lawyer said, was where it began.",
        "Chapter 11, the lawyer said.",  # a review: who said it ends the sentence, a title of none
        "Part two, Ginger replied.",
    ],
)
def test_a_sentence_that_opens_like_a_heading_and_goes_on_as_prose_is_no_heading(sentence: str) -> None:
    assert heading_title(sentence) is None


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("Chapter 3", ("3", "")),
        ("CHAPTER I.", ("I", "")),
        ("CHAPTER III. The Storm", ("III", "The Storm")),
        ("Chapter 2: The End", ("2", "The End")),
        ("Chapter 7 The Night of the Storm", ("7", "The Night of the Storm")),
        ("CHAPTER XIV THE NIGHT OF THE STORM", ("XIV", "THE NIGHT OF THE STORM")),
        ("PART TWO", ("TWO", "")),
        ("Book One: in which the storm comes", ("One", "in which the storm comes")),  # after a mark, any case
        ("Chapter 5 \u2014 a storm at sea", ("5", "a storm at sea")),
        ("Chapter Twenty-One. \u201cThe Storm\u201d", ("Twenty-One", "\u201cThe Storm\u201d")),
        ("Part 2, Chapter 1", ("2", "Chapter 1")),
        ("Chapter one, my early home.", ("one", "my early home")),  # as Whisper writes a spoken heading
        ("Chapter 17 How it Ended", ("17", "How it Ended")),  # Black Beauty's
        ("Chapter 2 The Red-headed League", ("2", "The Red-headed League")),
        ("Chapter 2 The hunt.", ("2", "The hunt")),  # the review: a title in sentence case was lost
        ("Chapter 8 I go to school", ("8", "I go to school")),
        ("Chapter 1 -- My early home", ("1", "My early home")),  # Project Gutenberg's dash
        ("CHAPTER I--THE STORM", ("I", "THE STORM")),
        ("Chapter ii.", ("ii", "")),  # a Roman numeral in small letters that ends the heading
        ("Book ii. The War", ("ii", "The War")),
        ("Chapter ii \u2014 The Hunt", ("ii", "The Hunt")),  # the second review: lost, as were the two below
        ("Chapter ii, the hunt", ("ii", "the hunt")),
        ("Chapter ii The Hunt", ("ii", "The Hunt")),
        ("CHAPTER I.--THE STORM", ("I", "THE STORM")),  # a stop, then a dash: not part of the title
        ("Chapter I.\u2014The Hunt", ("I", "The Hunt")),
        ("Part Two. The Hunt", ("Two", "The Hunt")),  # kept by the review's narrowing, as the three below
        ("PART II", ("II", "")),
        ("Part two", ("two", "")),
        ("Part two The Hunt.", ("two", "The Hunt")),
        ("Chapter 7 Ginger.", ("7", "Ginger")),
        ("Chapter 24, the Lady Anne, or a runaway horse.", ("24", "the Lady Anne, or a runaway horse")),
    ],
)
def test_a_heading_is_a_number_and_a_title_set_apart_or_opening_with_a_capital(
    line: str, found: tuple[str, str]
) -> None:
    assert heading_title(line) == found


def test_the_story_of_a_passage_leaves_out_the_heading_read_out_in_it() -> None:
    text = "Chapter Five: What Pudding Kept. In the morning the world was washed clean. Wren woke."
    assert without_headings(text) == "In the morning the world was washed clean. Wren woke."
    story = "Chapter four was where the storm came in, and Wren lit the lantern high in the tower."
    assert without_headings(story) == story


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("It was late.", True),
        ('"Is it yours?" asked Wren.', True),
        ('She said it always pointed home."', True),
        ("(She left.)", True),
        ("All night the wind shook the", False),  # the line cut it short
        ("and then not even that.", False),  # a passage started mid-way
        ("\u201d she said.", False),
    ],
)
def test_a_whole_sentence_starts_and_ends_as_one(text: str, whole: bool) -> None:
    assert is_whole_sentence(text) is whole


@pytest.mark.parametrize(
    "text",
    [
        '"Mr. Hosmer Angel came." She sat.',  # a title after a quote mark
        "\u201cMrs. Gordon is very ill.\u201d He went.",
        "He spoke to the officer: \u201c\u2018Mr. Radney, I will not obey you.\u2019\u201d He waited.",
        "I saw some sharks astern\u2014St. Bernard\u2019s dogs, you know. He laughed.",
        "The lady at No. 4, in the Crescent, sent for us. Her maid came.",  # before a number
        "He went up to him as cool as Mt. Hecla in a snow-storm. The man stared.",
        '"Sherlock Holmes, Esq. To be left till called for." He read it.',
        "ALICE\u2019S RIGHT FOOT, ESQ. HEARTHRUG, NEAR THE FENDER. It was sent.",  # in capitals
        '"MY DEAR MR. SHERLOCK HOLMES,--Yours faithfully, ST. SIMON." He read it.',
    ],
)
def test_an_abbreviation_ends_no_sentence_wherever_and_however_it_is_written(text: str) -> None:
    first, second = sentences_of(text)  # the abbreviation's sentence, and the one after it
    assert text == f"{first} {second}"


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ('"No, no. No crime," said he.', ['"No, no.', 'No crime," said he.']),  # "No." the answer
        (
            "Harris, Cuvier, etc. But I pass that matter by.",
            ["Harris, Cuvier, etc.", "But I pass that matter by."],
        ),
        (
            "He knew one place where I should do well. ''Twas a pity,' he said.",
            ["He knew one place where I should do well.", "''Twas a pity,' he said."],
        ),
        (
            "He always overruled him. \u201c'Twas no use going twice.\u201d",
            ["He always overruled him.", "\u201c'Twas no use going twice.\u201d"],
        ),
        (
            "He stopped\u2026 Then he went on. \u2026 And so on.",
            ["He stopped\u2026", "Then he went on. \u2026 And so on."],
        ),
    ],
)
def test_a_word_that_can_be_an_abbreviation_ends_a_sentence_before_another(
    text: str, sentences: list[str]
) -> None:
    """ "No." before a word is the answer, "etc." before a capital ends its list and its sentence,
    opening quotes may be doubled, and "…" after a word ends a sentence (after a space it marks
    words left out)."""
    assert sentences_of(text) == sentences


def test_a_text_ends_a_sentence_unless_it_ends_on_an_abbreviation() -> None:
    assert ends_sentence('"It was yours," he said.\u201d')
    assert ends_sentence("Did he? No.")
    assert ends_sentence("He stopped\u2026")
    assert not ends_sentence("He spoke to the officer: \u201c\u2018Mr.")
    assert not ends_sentence("I saw some sharks astern\u2014St.")
    assert not ends_sentence("MY DEAR MR.")
    assert not ends_sentence("He spoke")


def test_a_headings_number_has_its_value_in_digits_roman_numerals_or_words() -> None:
    said = ["14", "XIV", "fourteen", "Twenty-One", "ninety nine", "IX", "XL", "xiv"]
    assert [number_value(number) for number in said] == [14, 14, 14, 21, 99, 9, 40, 14]
    assert number_value("did") is None
    assert number_value("dozen") is None


def test_a_heading_numbered_past_ninety_nine_in_words_is_read_whole() -> None:
    """A long book's "Chapter One Hundred and Two" is chapter 102, not a heading numbered one."""
    assert heading_title("CHAPTER ONE HUNDRED AND TWO. The Lamp Goes Out") == (
        "ONE HUNDRED AND TWO",
        "The Lamp Goes Out",
    )
    assert number_value("ONE HUNDRED AND TWO") == 102
    assert number_value("a hundred") == 100
    assert number_value("twenty five hundred") is None


@pytest.mark.parametrize(
    ("line", "found", "value"),
    [
        ("Chapter the First", ("the First", ""), 1),
        ("CHAPTER THE SECOND. THE STORM", ("THE SECOND", "THE STORM"), 2),
        ("Chapter the Twelfth: The Hunt", ("the Twelfth", "The Hunt"), 12),
        ("Chapter the Twenty-First", ("the Twenty-First", ""), 21),
        ("Chapter the fortieth.", ("the fortieth", ""), 40),
    ],
)
def test_a_chapter_numbered_by_an_ordinal_after_the_is_a_heading(
    line: str, found: tuple[str, str], value: int
) -> None:
    """A review: "Chapter the First" was no heading, and such a book was one chapter."""
    assert heading_title(line) == found
    assert number_value(found[0]) == value


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("Chapter the Last", ("the Last", "")),
        ("CHAPTER THE LAST. THE LIGHT", ("THE LAST", "THE LIGHT")),
        ("Chapter the last.", ("the last", "")),
    ],
)
def test_chapter_the_last_is_a_heading_with_no_value_of_its_own(line: str, found: tuple[str, str]) -> None:
    """Older books end "Chapter the First", "Chapter the Second" with "Chapter the Last", which was no
    heading: that chapter was the end of the one before. Its number is the book's count's next."""
    assert heading_title(line) == found
    assert number_value(found[0]) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "Chapter the first was long.",
        "Chapter the second time round went better.",
        "Chapter the end.",
        "Chapter the last was the best of them.",
        "Book the last of the rooms for Mr. Ferguson.",
    ],
)
def test_an_ordinal_going_on_as_prose_is_no_heading(sentence: str) -> None:
    assert heading_title(sentence) is None


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Prologue", "Prologue"),
        ("EPILOGUE.", "EPILOGUE"),
        ("  Epilogue  ", "Epilogue"),
        ("Prologue:", "Prologue"),
    ],
)
def test_a_prologue_or_epilogue_standing_alone_is_a_heading(line: str, name: str) -> None:
    assert named_heading(line) == name
    assert is_heading(line)


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("Prologue: The Fire", "Prologue: The Fire"),
        ("EPILOGUE. TEN YEARS ON.", "EPILOGUE. TEN YEARS ON"),
        ("Epilogue \u2014 How it Ended", "Epilogue \u2014 How it Ended"),
        ("Prologue -- The Letter", "Prologue -- The Letter"),
        ("Prologue: 1914", "Prologue: 1914"),
    ],
)
def test_a_prologue_or_epilogue_with_its_title_after_a_mark_is_a_heading(line: str, heading: str) -> None:
    """A review: "Prologue: The Fire" was no heading, while "Prologue" alone was."""
    assert named_heading(line) == heading
    assert is_heading(line)


@pytest.mark.parametrize(
    "sentence",
    [
        "The prologue to his speech was long.",
        "Prologue to a storm.",
        "Epilogue, she said.",
        "Interlude.",
        "Prologue: the fire went out.",
        "Epilogue. The years went by and nobody spoke of it.",
        "Epilogue: The End, Wren said, was the part she liked.",
    ],
)
def test_a_prologue_named_in_a_sentence_is_no_heading(sentence: str) -> None:
    assert named_heading(sentence) is None
    assert not is_heading(sentence)


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("Chapter 3 The storm at sea.", ("3", "The storm at sea")),
        ("CHAPTER VIII Ginger's story continued.", ("VIII", "Ginger's story continued")),
        ("Part two Ginger liked best.", ("two", "Ginger liked best")),  # the count decides, not the shape
    ],
)
def test_a_title_in_sentence_case_with_a_full_stop_is_a_heading_only_by_the_count(
    line: str, found: tuple[str, str]
) -> None:
    """Such a line is no heading by its shape alone (87e3c965); ingest takes it where the book's
    count places it."""
    assert heading_title(line) is None
    assert heading_in_sentence_case(line) == found


@pytest.mark.parametrize(
    "line",
    [
        "Chapter 11, the lawyer said.",
        "Chapter 11, the lawyer said, was where it began.",
        "Chapter 3 in which the storm comes.",
        "Chapter 3 The Storm at Sea.",  # a heading by its shape already
        "Chapter 3.",
        "The chapter ended with a storm at sea.",
    ],
)
def test_no_other_line_is_a_heading_in_sentence_case(line: str) -> None:
    assert heading_in_sentence_case(line) is None
