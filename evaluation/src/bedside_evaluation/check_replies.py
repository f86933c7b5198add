"""The scripted replies the answer check is measured on (``questions/check_replies*.json``)."""

from importlib.resources import files

from pydantic import BaseModel, ConfigDict, Field, PositiveInt


class ScriptedReply(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    at: PositiveInt
    """The chapter whose first moment is the line."""
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


def load_replies(name: str) -> ReplyFile:
    text = files("bedside_evaluation").joinpath("questions", f"{name}.json").read_text(encoding="utf-8")
    return ReplyFile.model_validate_json(text)


def kind_of(reply: ScriptedReply) -> str:
    if not reply.spoils:
        return "faithful"
    return "spoiler, named" if reply.named else "spoiler, nameless"
