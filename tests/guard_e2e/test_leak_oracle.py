"""The leak oracle itself: what it counts as said ahead, and what it does not."""

from bedside_guard import Passage
from bedside_turn_testing.leaks import leaks

PASSAGES = [
    Passage(id=0, chapter=1, chapter_title="The Meadow", start_ms=0, end_ms=10_000, text="Grass grew tall."),
    Passage(id=1, chapter=2, chapter_title="Liberty", start_ms=10_000, end_ms=20_000, text="He sold beef."),
]
HERE_MS = 5_000


def test_an_unheard_word_or_title_is_a_leak() -> None:
    assert "beef" in leaks("the beef", PASSAGES, HERE_MS)
    assert "Liberty" in leaks("the liberty", PASSAGES, HERE_MS)  # as the title, not only as a word


def test_a_title_whose_every_word_the_listener_said_is_theirs() -> None:
    # the model reads back its own earlier search for "liberty": not the title of a chapter not begun
    assert leaks('[find_passage {"query": "liberty finger"}]', PASSAGES, HERE_MS, {"liberty finger"}) == set()


def test_a_turn_id_spelling_a_word_ahead_is_no_word() -> None:
    assert leaks('{"turn_id": "0beef1234567890abcde", "speech": "Here."}', PASSAGES, HERE_MS) == set()
