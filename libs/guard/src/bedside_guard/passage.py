"""What the guard needs to know of a passage, and which of its words have been heard."""

from pydantic import BaseModel, ConfigDict, Field

from bedside_guard.line import ahead_of, heard_once_past


class Cue(BaseModel):
    """A finer timing inside a passage (a subtitle cue, a sentence, a word)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)
    text: str


class Passage(BaseModel):
    """A stretch of narration of about thirty seconds, never crossing a chapter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int = Field(ge=0)
    start_ms: int = Field(ge=0)
    end_ms: int = Field(ge=0)
    chapter: int = Field(ge=0)
    chapter_title: str
    text: str
    cues: tuple[Cue, ...] = ()


def heard_cues(passage: Passage, here_ms: int) -> tuple[Cue, ...]:
    """The timed pieces of ``passage`` that a listener at ``here_ms`` has heard.

    A passage wholly behind is heard whole (its cues, or itself as one piece when it has
    none); one wholly ahead not at all. For the passage that holds the line only the cues
    that have ended by the line count (ADR 60): one the line is inside was heard only in part,
    and its last words may be what the listener is about to hear. A passage without cues
    counts as not heard: its words cannot be split by time.
    """
    if ahead_of(passage.start_ms, here_ms):
        return ()
    if heard_whole(passage, here_ms):
        whole = Cue(start_ms=passage.start_ms, end_ms=passage.end_ms, text=passage.text)
        return passage.cues or (whole,)
    return tuple(
        cue for cue in passage.cues if not ahead_of(heard_once_past(cue.start_ms, cue.end_ms), here_ms)
    )


def heard_whole(passage: Passage, here_ms: int) -> bool:
    """Every word of ``passage`` is behind the line: its last millisecond is (``heard_once_past``)."""
    return not ahead_of(heard_once_past(passage.start_ms, passage.end_ms), here_ms)


def heard_until(passage: Passage, here_ms: int) -> int | None:
    """Where the words of ``passage`` heard at ``here_ms`` end: the last heard piece's end (None: none)."""
    heard = heard_cues(passage, here_ms)
    return heard[-1].end_ms if heard else None


def heard_text(passage: Passage, here_ms: int) -> str:
    """The words of ``passage`` that a listener at ``here_ms`` has heard (``heard_cues``' rule)."""
    if heard_whole(passage, here_ms):
        return passage.text
    return " ".join(cue.text for cue in heard_cues(passage, here_ms))


def unheard_text(passage: Passage, here_ms: int) -> str:
    """The words of ``passage`` a listener at ``here_ms`` has not heard: all of one ahead, none of
    one behind, and of the one holding the line what ``heard_text`` leaves out. For the answer check
    only, which must know what lies ahead to cut an answer that tells it; never said or shown."""
    heard = heard_cues(passage, here_ms)
    if not heard:
        return passage.text
    if passage.end_ms <= here_ms:
        return ""
    return " ".join(cue.text for cue in passage.cues if cue not in heard)
