"""The listener-request set is well-formed, and each reading counts for the category it carries out."""

from bedside_contracts.turn import RecapArgs
from bedside_evaluation.eval_requests import PARTS, category, load, score
from bedside_turn.domain import intents
from bedside_turn.domain.recap import RecapAsked


def test_both_parts_ask_every_category_and_share_no_phrasing() -> None:
    requests = load()
    for part in PARTS:
        assert {case["category"] for case in requests[part]} == set(requests["categories"])
    # the halves of one set are disjoint; the sealed part, written apart, repeats 38 plain ones ("pause")
    development = {case["said"] for case in requests["development"]}
    assert not development & {case["said"] for case in requests["held_out"]}


def test_a_reading_counts_for_what_it_does() -> None:
    assert category(intents.Jump(offset_ms=-30_000)) == "back_time"
    assert category(intents.NextChapter(step=-1)) == "previous_chapter"
    assert category(intents.SleepTimer(after="chapter_end")) == "timer_chapter_end"
    assert category(RecapAsked(RecapArgs(span="so_far"))) == "recap"
    assert category(intents.Courtesy(said="never_mind")) == "Courtesy"  # no category asks for it
    assert category(intents.OtherOne()) == "OtherOne"


def test_a_case_read_otherwise_is_listed_with_what_it_was_read_as() -> None:
    right, asked, wrong = score(
        [{"category": "pause", "said": "pause"}, {"category": "pause", "said": "take me to the storm"}]
    )
    assert (right["pause"], asked["pause"]) == (1, 2)
    assert wrong == [("pause", "take me to the storm", "find_place")]
