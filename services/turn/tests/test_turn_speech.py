"""What the keyless router says, as words on the screen."""

from bedside_guard import Candidate
from bedside_turn.domain import speech


def heard(words: str) -> Candidate:
    return Candidate(
        start_ms=1_000, ahead=False, passage_id=3, chapter=1, chapter_title="The House", words=words
    )


def test_dialogue_quoted_from_the_book_nests_in_single_quotes() -> None:
    said = speech.quoting(heard('"That is Pudding," said Grandpa. "She steals spoons."'), "who is Pudding?")
    assert said == (
        "In chapter 1, \"The House\", you heard: \"'That is Pudding,' said Grandpa. 'She steals spoons.'\""
    )
    assert '""' not in said
    curly = speech.quoting(heard("\u201cThat is Pudding,\u201d said Grandpa."), "who is Pudding?")
    assert "\u201c" not in curly.split("you heard: ")[1]
