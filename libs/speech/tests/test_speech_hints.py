"""The hints line the recogniser takes."""

from bedside_speech import hint_text


def test_no_names_give_no_hint() -> None:
    assert hint_text([]) is None
    assert hint_text(["Ginger", "Merrylegs"]) == "Ginger Merrylegs"
