"""The answer check's scripted replies: enough of them, a held-out third, and none copied.

Checks against the books read ../shared/corpus at run time and skip cleanly where it is absent.
"""

import re
from collections import Counter

import pytest
from bedside_evaluation.check_replies import (
    DEVELOPMENT,
    EARLIER,
    FRESH,
    HELD_OUT,
    SEALED,
    line_of,
    load_replies,
)
from bedside_evaluation.eval_come_up import load_come_up
from bedside_evaluation.recall_at_chapters import CORPUS_FILE
from bedside_ingest.chunking import chunk_book, load_json_book
from bedside_testing import corpus_book, corpus_file

_WORD = re.compile(r"[a-z]+")
RUN = 10
"""No reply may share this many words in a row with its book."""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


FRESH_RUN = 5
"""The fresh sets are stricter: no five words in a row of the book."""
FRESH_COME_UP = "come_up_fresh"


def _grams(words: list[str], run: int) -> list[tuple[str, ...]]:
    return [tuple(words[i : i + run]) for i in range(len(words) - run + 1)]


def _runs(words: list[str], run: int = RUN) -> set[tuple[str, ...]]:
    return set(_grams(words, run))


def _book_runs(book_name: str, run: int) -> set[tuple[str, ...]]:
    book = corpus_book(CORPUS_FILE[book_name])
    return _runs(_words(" ".join(str(c["text"]) for c in book["chapters"])), run)


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


def test_the_fresh_replies_are_eighty_or_more_of_both_kinds_in_both_books() -> None:
    fresh = load_replies(FRESH)
    assert {b.book for b in fresh.books} == {"black_beauty", "sherlock_holmes"}
    replies = [r for b in fresh.books for r in b.replies]
    assert len(replies) >= 80
    assert sum(r.spoils for r in replies) >= 45
    assert sum(not r.spoils for r in replies) >= 35
    assert {(r.spoils, r.named) for r in replies} == {(True, True), (True, False), (False, False)}
    earlier = {r.text for n in (DEVELOPMENT, HELD_OUT) for b in load_replies(n).books for r in b.replies}
    assert [r.text for r in replies if r.text in earlier] == []


def test_no_fresh_reply_or_question_shares_five_words_in_a_row_with_its_book() -> None:
    for written in load_replies(FRESH).books:
        runs = _book_runs(written.book, FRESH_RUN)
        assert [r.text for r in written.replies if _runs(_words(r.text), FRESH_RUN) & runs] == []
    for asked in load_come_up(FRESH_COME_UP).books:
        runs = _book_runs(asked.book, FRESH_RUN)
        assert [q.text for q in asked.questions if _runs(_words(q.text), FRESH_RUN) & runs] == []


def test_the_fresh_come_up_questions_are_twenty_or_more_half_of_each_kind() -> None:
    questions = [q for b in load_come_up(FRESH_COME_UP).books for q in b.questions]
    assert len(questions) >= 20
    come_up = [q for q in questions if q.answered_in]
    assert len(come_up) * 2 == len(questions)
    assert all(max(q.answered_in) < q.at for q in come_up)


def test_the_sealed_replies_are_a_hundred_and_twenty_or_more_of_every_kind_in_both_books() -> None:
    sealed = load_replies(SEALED)
    assert [b.book for b in sealed.books] == ["black_beauty", "sherlock_holmes"]
    for written in sealed.books:
        assert {(r.spoils, r.named) for r in written.replies} == {(True, True), (True, False), (False, False)}
    replies = [r for b in sealed.books for r in b.replies]
    spoilers = [r for r in replies if r.spoils]
    assert len(replies) >= 120
    assert 0.4 <= len(spoilers) / len(replies) <= 0.6
    assert 0.2 <= sum(r.named for r in spoilers) / len(spoilers) <= 0.4
    assert [r.text for r in replies if not 8 <= len(_words(r.text)) <= 30] == []
    earlier = {r.text for n in EARLIER for b in load_replies(n).books for r in b.replies}
    texts = [r.text for r in replies]
    assert len(set(texts)) == len(texts)
    assert [t for t in texts if t in earlier] == []


def test_no_sealed_reply_shares_five_words_or_a_four_word_run_found_once_with_its_book() -> None:
    for written in load_replies(SEALED).books:
        book = corpus_book(CORPUS_FILE[written.book])
        fours = Counter(_grams(_words(" ".join(str(c["text"]) for c in book["chapters"])), 4))
        fives = _book_runs(written.book, FRESH_RUN)
        copied = [r.text for r in written.replies if _runs(_words(r.text), FRESH_RUN) & fives]
        rare = [r.text for r in written.replies if any(fours[g] == 1 for g in _grams(_words(r.text), 4))]
        assert (copied, rare) == ([], [])


def test_every_sealed_line_falls_on_a_passage_of_its_book_no_earlier_set_put_a_line_on() -> None:
    earlier = [b for n in EARLIER for b in load_replies(n).books]
    for written in load_replies(SEALED).books:
        passages = chunk_book(load_json_book(corpus_file(f"{CORPUS_FILE[written.book]}.json")))
        used = {line_of(r, passages) for b in earlier if b.book == written.book for r in b.replies}
        lines = {line_of(r, passages) for r in written.replies}
        assert lines & used == set()
