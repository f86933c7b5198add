"""The scripted replies the answer check is measured on (``questions/check_replies*.json``)."""

from collections.abc import Sequence
from importlib.resources import files

from bedside_guard import Passage
from pydantic import BaseModel, ConfigDict, Field, PositiveInt


class ScriptedReply(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    at: PositiveInt
    """The chapter that holds the line."""
    into: float = Field(default=0.0, ge=0.0, lt=1.0)
    """How far into the chapter the line is: the start of its passage ``int(into * n)`` of n."""
    spoils: bool
    named: bool
    text: str = Field(min_length=3)


class BookReplies(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    book: str
    replies: tuple[ScriptedReply, ...]


class ReplyFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    about: tuple[str, ...] = ()
    books: tuple[BookReplies, ...]


DEVELOPMENT = "check_replies"
HELD_OUT = "check_replies_final"
FRESH = "check_replies_fresh"
"""Written after the first two had been read, before the rule changed again (adr/0025)."""
LAST = "check_replies_last"
"""Written during the third round, run once after its rules were merged (adr/0025)."""
SEALED = "check_replies_sealed"
"""Written before the fourth change to the rule, committed unread: to be run once, at the end."""
EARLIER = (DEVELOPMENT, HELD_OUT, FRESH, LAST, "answer_replies")
"""Every set written before the sealed one."""


def line_of(reply: ScriptedReply, passages: Sequence[Passage]) -> int:
    """The book time of ``reply``'s line, among the book's ``passages`` sorted by time."""
    chapter = [p for p in passages if p.chapter == reply.at]
    if not chapter:
        raise ValueError(f"no chapter {reply.at}")
    return chapter[int(reply.into * len(chapter))].start_ms


def load_replies(name: str) -> ReplyFile:
    text = files("bedside_evaluation").joinpath("questions", f"{name}.json").read_text(encoding="utf-8")
    return ReplyFile.model_validate_json(text)


def kind_of(reply: ScriptedReply) -> str:
    if not reply.spoils:
        return "faithful"
    return "spoiler, named" if reply.named else "spoiler, nameless"
