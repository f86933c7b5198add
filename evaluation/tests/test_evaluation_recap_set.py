"""The recap set is well-formed: its held-out part asks in other words at other places."""

import json
from importlib.resources import files
from typing import Any

from bedside_evaluation.eval_recap import spoken_words

SET: dict[str, Any] = json.loads(
    files("bedside_evaluation").joinpath("recaps", "last_chapter.json").read_text()
)


def place(case: dict[str, Any]) -> tuple[str, int, float]:
    return case["book"], case["chapter"], case["heard"]


PARTS = ("development", "held_out", "held_out_2", "held_out_3")


def test_no_two_parts_share_a_wording_or_a_place() -> None:
    for i, first in enumerate(PARTS):
        for second in PARTS[i + 1 :]:
            a, b = SET[first], SET[second]
            assert not set(a["utterances"]) & set(b["utterances"])
            assert not {place(p) for p in a["places"]} & {place(p) for p in b["places"]}


def test_every_place_expects_its_own_chapter_or_the_one_before() -> None:
    for part in PARTS:
        for p in SET[part]["places"]:
            assert p["book"] in SET["books"]
            assert 0 <= p["heard"] < 1
            assert p["expect"] in {p["chapter"], p["chapter"] - 1}


def test_a_clock_time_is_counted_as_the_words_it_takes_to_say() -> None:
    assert spoken_words("At 1:02:03, the horse ran.") == 4 + 3
