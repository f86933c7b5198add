"""The shape of a "take me back to ..." request asked partway through a book, and where the
listener is when they ask it: the sets in ``heard/``.

The navigation sets (``queries/``) are asked of the whole book. Going back, the keyless turn
searches only what was heard first (``FindPassage.heard_only``), so these requests carry the
listener's place: a chapter and the share of its text already heard. The moment asked for lies
before it: its chapter is no later than the listener's (checked), and within one chapter the
writer placed the share past the moment's end.
"""

from collections.abc import Sequence
from enum import Enum
from importlib.resources import files

from bedside_guard import Passage
from pydantic import BaseModel, ConfigDict, Field, PositiveInt, model_validator


class ListenerPlace(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    chapter: PositiveInt
    share: float = Field(ge=0.0, le=1.0, description="of the chapter's text already heard")


class HeardRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    book: str = Field(min_length=1, description="the corpus file stem, or 'sample'")
    text: str = Field(min_length=3)
    chapters: tuple[PositiveInt, ...] = Field(min_length=1)
    here: ListenerPlace

    @model_validator(mode="after")
    def _heard_already(self) -> "HeardRequest":
        if self.here.chapter < max(self.chapters):
            raise ValueError(f"{self.text!r}: the listener is before the moment they go back to")
        return self


class HeardRequestFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    about: tuple[str, ...] = ()
    requests: tuple[HeardRequest, ...] = Field(min_length=1)


class Distance(Enum):
    """How far the listener has gone on since the moment."""

    SAME_CHAPTER = "still in its chapter"
    NEAR = "one or two chapters on"
    FAR = "three or more chapters on"


def distance_of(request: HeardRequest) -> Distance:
    gone_on = request.here.chapter - max(request.chapters)
    if gone_on == 0:
        return Distance.SAME_CHAPTER
    return Distance.NEAR if gone_on <= 2 else Distance.FAR


def place_ms(passages: Sequence[Passage], place: ListenerPlace) -> int:
    """The moment on the book's clock when ``place.share`` of the chapter's text has been read,
    counted in characters over its passages and timed within the passage that holds it."""
    chapter = [p for p in passages if p.chapter == place.chapter]
    if not chapter:
        raise ValueError(f"the book has no chapter {place.chapter}")
    wanted = place.share * sum(len(p.text) for p in chapter)
    read = 0
    for passage in chapter:
        if read + len(passage.text) >= wanted:
            within = (wanted - read) / len(passage.text) if passage.text else 0.0
            return round(passage.start_ms + within * (passage.end_ms - passage.start_ms))
        read += len(passage.text)
    return chapter[-1].end_ms


HEARD_BACK = "heard_back"
"""The development set: read, and any rule judged on it was chosen with it in view."""
HEARD_BACK_FINAL = "heard_back_final"
"""Written with the development set by the same hand, about other moments; run once."""
HEARD_BACK_EARLY = "heard_back_early"
"""Asked early, with little heard (the sample book, Black Beauty's first eight chapters, the first
three Holmes stories); written by another hand from the books alone before the nudge's share
(``FusionRule.nudge_share``) was served, and run once to judge it."""


def load_heard_requests(name: str) -> tuple[HeardRequest, ...]:
    text = files("bedside_evaluation").joinpath("heard", f"{name}.json").read_text(encoding="utf-8")
    return HeardRequestFile.model_validate_json(text).requests
