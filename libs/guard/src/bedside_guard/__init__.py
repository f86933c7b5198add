"""The spoiler guard: one line between what a listener has heard and what is ahead."""

from bedside_guard.check import (
    STOP_THERE,
    CheckedAnswer,
    Match,
    SentenceMatches,
    check_answer,
    meaning_lies_ahead,
)
from bedside_guard.later import asks_what_comes_later, tells_of_later
from bedside_guard.line import ahead_of, clock
from bedside_guard.names import (
    HINT_LIMIT,
    BookNames,
    book_names,
    capitalised_words,
    heard_names,
    named_words,
    unheard_names,
    words_of,
    written_with_capital,
)
from bedside_guard.passage import Cue, Passage, heard_cues, heard_text
from bedside_guard.prose import (
    TITLES,
    balance_quotes,
    ends_sentence,
    heading_title,
    is_heading,
    is_whole_sentence,
    sentence_spans,
    sentences_of,
    without_headings,
)
from bedside_guard.shapes import MAX_ROWS, NOT_TOLD, Candidate, distinct_rows, excerpt
from bedside_guard.words import stem

__all__ = [
    "HINT_LIMIT",
    "MAX_ROWS",
    "NOT_TOLD",
    "STOP_THERE",
    "TITLES",
    "BookNames",
    "Candidate",
    "CheckedAnswer",
    "Cue",
    "Match",
    "Passage",
    "SentenceMatches",
    "ahead_of",
    "asks_what_comes_later",
    "balance_quotes",
    "book_names",
    "capitalised_words",
    "check_answer",
    "clock",
    "distinct_rows",
    "ends_sentence",
    "excerpt",
    "heading_title",
    "heard_cues",
    "heard_names",
    "heard_text",
    "is_heading",
    "is_whole_sentence",
    "meaning_lies_ahead",
    "named_words",
    "sentence_spans",
    "sentences_of",
    "stem",
    "tells_of_later",
    "unheard_names",
    "without_headings",
    "words_of",
    "written_with_capital",
]
