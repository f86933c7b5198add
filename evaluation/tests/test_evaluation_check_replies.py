"""The answer check's scripted replies: enough of them, a held-out third, and none copied.

Checks against the books read ../shared/corpus at run time and skip cleanly where it is absent.
"""

import re

import pytest
from bedside_evaluation.check_replies import DEVELOPMENT, HELD_OUT, load_replies
from bedside_evaluation.eval_come_up import CORPUS_FILE
from bedside_testing import corpus_book

_WORD = re.compile(r"[a-z]+")
RUN = 10
"""No reply may share this many words in a row with its book."""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def test_at_least_two_hundred_replies_a_third_held_out_and_both_kinds_in_each_part() -> None:
    development, held_out = load_replies(DEVELOPMENT), load_replies(HELD_OUT)
    dev = [r for b in development.books for r in b.replies]
    held = [r for b in held_out.books for r in b.replies]
    assert len(dev) + len(held) >= 200
    assert 3 * len(held) >= len(dev) + len(held)
    for part in (dev, held):
        assert {(r.spoils, r.named) for r in part} == {(True, True), (True, False), (False, False)}
    texts = [r.text for r in dev + held]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize("name", [DEVELOPMENT, HELD_OUT])
def test_every_line_is_a_chapter_of_its_book_and_no_reply_copies_ten_words_of_it(name: str) -> None:
    for written in load_replies(name).books:
        book = corpus_book(CORPUS_FILE[written.book])
        chapters = {int(c["n"]) for c in book["chapters"]}
        runs = _runs(_words(" ".join(str(c["text"]) for c in book["chapters"])))
        assert [r.at for r in written.replies if r.at not in chapters] == []
        assert [r.text for r in written.replies if _runs(_words(r.text)) & runs] == []
