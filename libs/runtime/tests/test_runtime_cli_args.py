import pytest
import typer
from bedside_contracts.ingest import IngestBook
from bedside_contracts.turn import Ask
from bedside_runtime.cli_args import NAME_RULE, NoBookToChoose, book_when_unnamed, parse_clock, plain_refusal
from pydantic import ValidationError


@pytest.mark.parametrize(
    ("text", "ms"), [("1:02:03", 3_723_000), ("12:30", 750_000), (" 0:00 ", 0), ("10:00:00", 36_000_000)]
)
def test_a_book_time_is_read_as_milliseconds(text: str, ms: int) -> None:
    assert parse_clock(text) == ms


@pytest.mark.parametrize("text", ["1:60:00", "0:61", "12", "1:2:3", "an hour", "-1:00"])
def test_what_is_not_a_book_time_is_a_bad_argument(text: str) -> None:
    with pytest.raises(typer.BadParameter):
        parse_clock(text)


@pytest.mark.parametrize("typed", ["my book", "a/b", "../x", "", "x" * 5000])
def test_an_id_that_is_not_a_name_is_refused_in_words_not_a_pattern(typed: str) -> None:
    with pytest.raises(ValidationError) as refused:
        Ask(listener="me", book=typed, utterance="who is Oskar?")
    said = plain_refusal(refused.value)
    assert said.startswith("book ")
    assert NAME_RULE in said
    assert "^[" not in said
    assert "pydantic" not in said
    assert len(said) < 200


def test_other_refusals_keep_their_message_with_the_field() -> None:
    with pytest.raises(ValidationError) as refused:
        Ask(listener="me", book="sample", utterance="")
    assert plain_refusal(refused.value) == "utterance: String should have at least 1 character"


def test_a_text_too_long_says_how_long_it_is_and_may_be() -> None:
    """A listener session: a --title of 312 characters was refused as "title: String should have at
    most 300 characters"."""
    with pytest.raises(ValidationError) as refused:
        IngestBook(path="/b.mp3", title="t" * 312)
    assert plain_refusal(refused.value) == "title is 312 characters long; it may be at most 300"
    with pytest.raises(ValidationError) as refused:
        Ask(listener="me", book="sample", utterance="a" * 5_000)
    assert plain_refusal(refused.value) == "utterance is 5,000 characters long; it may be at most 1,000"


def test_without_a_book_named_the_book_of_the_listeners_position_is_taken_among_several() -> None:
    assert book_when_unnamed("me", "lamplight", ["harbour", "lamplight", "orchard"]) == "lamplight"


def test_before_any_position_the_only_book_is_taken() -> None:
    assert book_when_unnamed("me", None, ["lamplight"]) == "lamplight"
    # a position in a book no longer there goes by the books there are
    assert book_when_unnamed("me", "gone", ["lamplight"]) == "lamplight"


def test_before_any_position_several_books_are_refused_naming_each_and_the_option() -> None:
    with pytest.raises(NoBookToChoose) as refused:
        book_when_unnamed("anna", None, ["harbour", "lamplight"])
    said = str(refused.value)
    assert "anna" in said
    assert "--book" in said
    assert "harbour, lamplight" in said


def test_with_no_books_at_all_the_refusal_says_how_to_add_one() -> None:
    with pytest.raises(NoBookToChoose, match="bedside ingest"):
        book_when_unnamed("me", None, [])
