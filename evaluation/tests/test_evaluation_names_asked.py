"""The names-asked sets: each name is one the book writes in a chapter heard before the question,
and the two sets ask about different things. Reads ../shared/corpus at run time (skips without it)."""

import re

import pytest
from bedside_evaluation.eval_names_asked import NameQuestion
from bedside_evaluation.recall_at_chapters import CORPUS_FILE, QuestionFile, load_questions
from bedside_testing import corpus_book

SETS = ("names_asked", "names_asked_sealed")


def load(name: str) -> QuestionFile[NameQuestion]:
    return load_questions(name, QuestionFile[NameQuestion])


@pytest.mark.parametrize("name", SETS)
def test_each_name_is_written_with_a_capital_in_a_chapter_heard_before_it_is_asked(name: str) -> None:
    for written in load(name).books:
        chapters = {int(c["n"]): str(c["text"]) for c in corpus_book(CORPUS_FILE[written.book])["chapters"]}
        for question in written.questions:
            assert all(n < question.at for n in question.named_in), question
            assert any(
                re.search(rf"\b{re.escape(question.name)}\b", chapters[n]) for n in question.named_in
            ), question


def test_the_sets_ask_different_questions() -> None:
    asked = [q.text.lower() for name in SETS for b in load(name).books for q in b.questions]
    assert len(asked) == len(set(asked))
