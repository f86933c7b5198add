"""A book's names for the recogniser: capitalised mid-sentence, never a common word."""

from bedside_speech import book_names, hint_text

TEXT = (
    "The stable was warm. Ginger kicked the door, and Merrylegs laughed at Ginger. "
    "Then John Manly came in. The master said John was late; the Master of the house agreed. "
    "I said nothing, and I'll say no more of Ginger's temper."
)


def test_names_are_capitalised_mid_sentence_and_most_frequent_first() -> None:
    names = book_names([TEXT])
    assert names[:2] == ["Ginger", "John"]  # Ginger twice mid-sentence, John twice: by name
    assert {"Ginger", "Merrylegs", "Manly"} <= set(names)


def test_sentence_starts_and_words_also_written_in_lower_case_are_not_names() -> None:
    names = book_names([TEXT])
    assert "The" not in names
    assert "Then" not in names
    assert "Master" not in names  # the book also writes "master"
    assert "I" not in names
    assert not [n for n in names if "'" in n]  # "Ginger's" counts as Ginger, "I'll" as nothing


def test_the_limit_keeps_the_most_frequent() -> None:
    assert book_names([TEXT], limit=1) == ["Ginger"]


def test_no_names_give_no_hint() -> None:
    assert hint_text([]) is None
    assert hint_text(["Ginger", "Merrylegs"]) == "Ginger Merrylegs"
