"""The keyless recap of "the last chapter", measured on Black Beauty and the sample book.

Each case of ``recaps/last_chapter.json`` is asked as a keyless turn would ask it: the
router reads the utterance, the recap tool chooses the span and asks search's engine (real
MiniLM, Qdrant embedded), and the answer goes through the guard's answer check. A case is
right when the spoken recap names the expected chapter and every sentence it says lies in
that chapter. Nothing is sent over a bus: the turn's tools talk to the engine in process.

Run: ``python -m bedside_evaluation.eval_recap [development|held_out ...]``.
"""

import json
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from bedside_contracts.player import (
    CommandRequest,
    CommandResult,
    ListenerState,
    Located,
    LocateRequest,
    OfferOutcome,
    OfferPositions,
    StateRequest,
)
from bedside_contracts.search import (
    Catalog,
    CatalogRequest,
    CheckAnswer,
    FindPassage,
    FoundPassages,
    HeardNames,
    NameHints,
    Recall,
    Recalled,
    Recap,
    Recapped,
    Resolve,
    Resolved,
)
from bedside_embedding import Embedder
from bedside_guard import CheckedAnswer
from bedside_search.engine import SearchEngine
from bedside_search.open_store import open_store
from bedside_turn.domain import intents
from bedside_turn.domain import recap as recaps
from bedside_turn.domain.rules import Turn
from bedside_turn.keyless import run_keyless
from bedside_turn.tools import ToolBox

from bedside_evaluation.command import run_named
from bedside_evaluation.corpus import corpus_dir
from bedside_evaluation.corpus_books import corpus_artifact, sample_artifact

LISTENER = "eval"
WORDS_PER_MINUTE = 155
"""The narration rate Bedside assumes (``BEDSIDE_NARRATION_WPM``'s default), for the spoken length."""
CLOCK_WORDS = 3
"""A time such as 1:02:03 is one token of text and about three words said aloud."""
_CLOCK = re.compile(r"\b\d+:\d\d:\d\d\b")


@dataclass
class EngineBackends:
    """The turn's port answered by search's engine in process; a recap never offers or moves."""

    engine: SearchEngine
    here_ms: int

    async def find(self, request: FindPassage) -> FoundPassages:
        return await self.engine.find(request)

    async def recall(self, request: Recall) -> Recalled:
        return await self.engine.recall(request)

    async def recap(self, request: Recap) -> Recapped:
        return self.engine.recap(request)

    async def check(self, request: CheckAnswer) -> CheckedAnswer:
        return await self.engine.check(request)

    async def hints(self, request: NameHints) -> HeardNames:
        return self.engine.hints(request)

    async def resolve(self, request: Resolve) -> Resolved:
        return self.engine.resolve(request)

    async def catalog(self, request: CatalogRequest) -> Catalog:
        return self.engine.catalog(request)

    async def state(self, request: StateRequest) -> ListenerState:
        return ListenerState(
            listener=request.listener,
            book=request.book,
            position_ms=self.here_ms,
            playing=True,
            seq=1,
            last_move_seq=0,
        )

    async def offer(self, request: OfferPositions) -> OfferOutcome:
        raise RuntimeError("the recap evaluation never offers a place")

    async def command(self, request: CommandRequest) -> CommandResult:
        raise RuntimeError("the recap evaluation never sends a command")

    async def locate(self, request: LocateRequest) -> Located:
        raise RuntimeError("the recap evaluation never looks up history")


@dataclass(frozen=True)
class Outcome:
    book: str
    utterance: str
    chapter: int
    heard: float
    expect: int
    read: bool
    names: bool
    lies: bool
    checked_whole: bool
    spoken_words: int
    speech: str

    @property
    def right(self) -> bool:
        return self.names and self.lies and self.checked_whole


def spoken_words(speech: str) -> int:
    """Words said aloud, a clock time counted as ``CLOCK_WORDS``."""
    stamps = len(_CLOCK.findall(speech))
    return len(speech.split()) + stamps * (CLOCK_WORDS - 1)


async def ask(
    engine: SearchEngine, book: str, utterance: str, here_ms: int
) -> tuple[str, bool, Recapped | None]:
    """One keyless turn's answer as it would be spoken, whether the check left it whole, what was read."""
    tools = ToolBox(Turn(turn_id="eval"), EngineBackends(engine, here_ms), LISTENER, book, here_ms)
    said = await run_keyless(tools, utterance, intents.read(utterance))
    checked = await engine.check(
        CheckAnswer(book=book, here_ms=here_ms, question=utterance, answer=said, from_model=False)
    )
    return checked.speech, checked.cut == 0, tools.recapped[1] if tools.recapped else None


async def run_part(engines: dict[str, SearchEngine], part: dict[str, Any]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for place in part["places"]:
        engine = engines[place["book"]]
        info = engine.book(place["book"]).info
        chapter = next(c for c in info.chapters if c.n == place["chapter"])
        here_ms = chapter.start_ms + int(place["heard"] * (chapter.end_ms - chapter.start_ms))
        expect = place["expect"]
        for utterance in part["utterances"]:
            intent = intents.read(utterance)
            read = isinstance(intent, recaps.RecapAsked) and intent.args.span == "last_chapter"
            speech, whole, recapped = await ask(engine, place["book"], utterance, here_ms)
            sentences = recapped.sentences if recapped else []
            outcomes.append(
                Outcome(
                    book=place["book"],
                    utterance=utterance,
                    chapter=place["chapter"],
                    heard=place["heard"],
                    expect=expect,
                    read=read,
                    names=speech.startswith(f"In chapter {expect},"),
                    lies=bool(sentences) and all(s.chapter == expect for s in sentences),
                    checked_whole=whole,
                    spoken_words=spoken_words(speech),
                    speech=speech,
                )
            )
    return outcomes


def report(name: str, outcomes: Sequence[Outcome]) -> str:
    lines = [f"## {name}: {len(outcomes)} cases"]
    for book in sorted({o.book for o in outcomes}):
        mine = [o for o in outcomes if o.book == book]
        right = sum(o.right for o in mine)
        lines.append(
            f"{book:13} right {right}/{len(mine)} ({right / len(mine):.0%})"
            f"  read as 'last chapter' {sum(o.read for o in mine)}/{len(mine)}"
            f"  names it {sum(o.names for o in mine)}  lies in it {sum(o.lies for o in mine)}"
            f"  check left whole {sum(o.checked_whole for o in mine)}"
        )
    right = sum(o.right for o in outcomes)
    lines.append(f"all           right {right}/{len(outcomes)} ({right / max(len(outcomes), 1):.0%})")
    words = sorted(o.spoken_words for o in outcomes if o.read)
    if words:
        lines.append(
            f"spoken length (clock = {CLOCK_WORDS} words): median {words[len(words) // 2]} words, "
            f"max {words[-1]} ({words[-1] / WORDS_PER_MINUTE * 60:.0f} s at {WORDS_PER_MINUTE} wpm)"
        )
    for wording in dict.fromkeys(o.utterance for o in outcomes):
        missed = [o for o in outcomes if o.utterance == wording and not o.right]
        if missed:
            first = missed[0]
            lines.append(f"  wrong {len(missed)}x for {wording!r}: e.g. ch {first.chapter} @ {first.heard}:")
            lines.append(f"    {first.speech[:160]}")
    return "\n".join(lines)


async def run(embedder: Embedder, parts: Sequence[str], show: int = 0) -> str:
    written = json.loads(files("bedside_evaluation").joinpath("recaps", "last_chapter.json").read_text())
    with tempfile.TemporaryDirectory(prefix="bedside-eval-recap-") as tmp:
        store = await open_store(path=Path(tmp))
        engine = SearchEngine(store, embedder)
        await engine.index(corpus_artifact(corpus_dir() / "black_beauty.json", embedder))
        await engine.index(sample_artifact(embedder))
        engines = {"black_beauty": engine, "sample": engine}
        out: list[str] = []
        for part in parts:
            outcomes = await run_part(engines, written[part])
            out.append(report(part, outcomes))
            out += [f"  {o.book} ch {o.chapter} @ {o.heard}: {o.speech}" for o in outcomes[:show]]
        await store.close()
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    return run_named(run, argv, "development")


if __name__ == "__main__":
    raise SystemExit(main())
