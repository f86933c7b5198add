"""How the keyless reader reads what listeners say: each phrasing of ``requests/listener_requests.json``
read by ``intents.read`` and counted right when what it reads as does what the phrasing's category asks.

Run: ``python -m bedside_evaluation.eval_requests [development] [held_out]``.
"""

import json
import sys
from collections import Counter
from importlib.resources import files
from typing import Any

from bedside_turn.domain import intents
from bedside_turn.domain.recap import RecapAsked

PARTS = ("development", "held_out", "sealed")


def load() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        files("bedside_evaluation").joinpath("requests", "listener_requests.json").read_text()
    )
    return loaded


def category(intent: object) -> str:
    """The category of request ``intent`` carries out; a reading no category names is its class's name."""
    match intent:
        case intents.Jump(offset_ms=offset_ms):
            return "back_time" if offset_ms < 0 else "forward_time"
        case intents.Chapter() | intents.ChapterTitled():
            return "goto_chapter"
        case intents.NextChapter(step=step):
            return "next_chapter" if step > 0 else "previous_chapter"
        case intents.ThisChapterStart():
            return "chapter_start"
        case intents.BookStart():
            return "book_start"
        case intents.Pause():
            return "pause"
        case intents.PlayOn():
            return "play"
        case intents.SleepTimer(after=after):
            return "timer_chapter_end" if after == "chapter_end" else "timer_minutes"
        case intents.TimerAdded():
            return "timer_add"
        case intents.CancelSleepTimer():
            return "timer_cancel"
        case intents.TimerAsked():
            return "timer_query"
        case intents.FindPlace():
            return "find_place"
        case intents.Question() | intents.NamesHeard() | intents.HeardBefore():
            return "story_question"
        case RecapAsked():
            return "recap"
        case intents.WhereAmI() | intents.TimeLeft():
            return "where_am_i"
        case intents.Undo():
            return "undo"
        case intents.Courtesy(said="thanks"):
            return "thanks"
        case intents.Courtesy(said="goodnight"):
            return "goodnight"
        case intents.Courtesy(said="time_of_day") | intents.Other() | intents.WakeUpAsked():
            return "not_the_book"
    return type(intent).__name__


def score(cases: list[dict[str, str]]) -> tuple[Counter[str], Counter[str], list[tuple[str, str, str]]]:
    """(right by category, cases by category, the cases read otherwise: category, said, read as)."""
    right: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    wrong: list[tuple[str, str, str]] = []
    for case in cases:
        read_as = category(intents.read(case["said"]))
        asked[case["category"]] += 1
        if read_as == case["category"]:
            right[case["category"]] += 1
        else:
            wrong.append((case["category"], case["said"], read_as))
    return right, asked, wrong


def main(parts: list[str]) -> None:
    requests = load()
    for part in parts or list(PARTS):
        right, asked, wrong = score(requests[part])
        print(f"{part}: {sum(right.values())}/{sum(asked.values())} read as meant")
        for name in requests["categories"]:
            print(f"  {name:18} {right[name]}/{asked[name]}")
        for name, said, read_as in wrong:
            print(f"  read otherwise: {said!r} ({name}) as {read_as}")


if __name__ == "__main__":
    main(sys.argv[1:])
