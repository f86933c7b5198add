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


def test_the_held_out_part_shares_no_wording_and_no_place_with_the_development_part() -> None:
    development, held_out = SET["development"], SET["held_out"]
    assert not set(development["utterances"]) & set(held_out["utterances"])
    assert not {place(p) for p in development["places"]} & {place(p) for p in held_out["places"]}


def test_every_place_expects_its_own_chapter_or_the_one_before() -> None:
    for part in ("development", "held_out"):
        for p in SET[part]["places"]:
            assert p["book"] in SET["books"]
            assert 0 <= p["heard"] < 1
            assert p["expect"] in {p["chapter"], p["chapter"] - 1}


def test_a_clock_time_is_counted_as_the_words_it_takes_to_say() -> None:
    assert spoken_words("At 1:02:03, the horse ran.") == 4 + 3
