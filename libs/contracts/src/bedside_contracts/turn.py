"""Requests, replies, events and tool arguments of the turn service.

The tool argument models are the model's side of the contract: their JSON schemas are
what Claude is shown, and every tool call is validated against them like any other input.
"""

from typing import Any, Literal, TypeVar

from bedside_guard import Candidate
from pydantic import ConfigDict, Field, ValidationError, model_validator

from bedside_contracts.common import Contract, Millis, Name, Offset
from bedside_contracts.player import (
    ASKED_AT,
    FASTEST_SPEED,
    MAX_TARGETS,
    SLOWEST_SPEED,
    Seq,
    SleepMinutes,
    Speed,
)

TurnOutcome = Literal["moved", "listed", "answered", "not_yet", "refused", "unsure", "failed"]


ANSWER_BY = (
    "when the asker stops waiting, in epoch milliseconds: they are told the request failed, so a turn"
    " answered later changes nothing (no move, no list, no timer)"
)

BASIS = (
    "the newest sequence of the listener's stream when the player took the request (with here_ms): a "
    "move made after it is one this request was not asked knowing of (ADR 77)"
)


class Ask(Contract):
    """One spoken (or typed) request from a listener about a book."""

    listener: Name
    book: Name
    utterance: str = Field(min_length=1, max_length=1000)
    device: Name | None = None
    at_ms: Millis | None = Field(
        default=None, description="answer as if the listener were here (the CLI's --at); not a move"
    )
    here_ms: Millis | None = Field(
        default=None,
        description="where the listener is, from the player that took the request; "
        "without it the turn asks the player",
    )
    basis_seq: Seq | None = Field(default=None, description=BASIS)
    asked_at_ms: int | None = Field(default=None, ge=0, description=ASKED_AT)
    answer_by_ms: int | None = Field(default=None, ge=0, description=ANSWER_BY)


SPOKEN_ASK_MAX_BYTES = 15 * 16_000 * 2 + 1024
"""Fifteen seconds of 16 kHz 16-bit mono WAV: a long question, under NATS's 1 MB in base64."""
SPOKEN_ASK_MAX_REQUEST_BYTES = SPOKEN_ASK_MAX_BYTES * 4 // 3 + 4096
"""The whole SpokenAsk on the bus: the recording in base64 and the few other fields."""


class SpokenAsk(Contract):
    """A question as the listener said it: a 16-bit PCM WAV recording, transcribed by the turn."""

    model_config = ConfigDict(frozen=True, extra="forbid", ser_json_bytes="base64", val_json_bytes="base64")

    listener: Name
    book: Name
    wav: bytes = Field(min_length=44, max_length=SPOKEN_ASK_MAX_BYTES)
    device: Name | None = None
    here_ms: Millis | None = Field(default=None, description="where the listener is, as for an Ask")
    basis_seq: Seq | None = Field(default=None, description=BASIS)
    asked_at_ms: int | None = Field(default=None, ge=0, description=ASKED_AT)
    answer_by_ms: int | None = Field(default=None, ge=0, description=ANSWER_BY)


class TurnReply(Contract):
    turn_id: str
    speech: str
    outcome: TurnOutcome
    mode: str = Field(description='the model id, or "keyless"')
    rows: list[str] = Field(
        default_factory=list, description="the rows drawn or the place moved to, as guard labels"
    )
    preview: bool = Field(default=False, description="answered --at: nothing was moved or drawn")


# --- the tools the model has -------------------------------------------------------------


Direction = Literal["back", "forward"]
"""Which way a moment asked for lies from the listener's place, when they said ("go back to ...")."""

WORDS_TAKEN = 300
"""The longest query or question a search or a recall takes: a sentence or two."""


class FindPassageArgs(Contract):
    """Search the whole book for the moment the listener describes; best first."""

    query: str = Field(
        min_length=1, max_length=WORDS_TAKEN, description="what happens at the moment, in plain words"
    )
    heard_only: bool = Field(
        default=False,
        description="true when they asked to go back to it: only what they have heard is searched",
    )


class RecallArgs(Contract):
    """Read what the listener has already heard to answer a question about it."""

    question: str = Field(
        min_length=1, max_length=WORDS_TAKEN, description="the listener's question, restated"
    )


EARLIER_PLACE_FIELDS = (
    "earlier_chapter",
    "earlier_device",
    "before_skip_ahead",
    "fell_asleep",
    "timer_paused",
    "furthest",
    "left_off",
    "sitting_began",
)
"""The ``OfferPositionsArgs`` fields that name a place from the listener's history."""


class OfferPositionsArgs(Contract):
    """End a goto: name the places that could really be the moment, best first."""

    ids: list[int] = Field(
        default_factory=list,
        max_length=MAX_TARGETS,
        description="passage ids from find_passage lines, best first; only the plausible ones",
    )
    chapter: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="a chapter the listener named (with chapter_end: whose end)",
    )
    chapter_step: int | None = Field(
        default=None,
        ge=-10_000,
        le=10_000,
        description="a chapter counted from the one playing: 1 the next chapter, -1 the previous one, "
        "0 the start of the one playing (the tool knows which chapter plays; you need not)",
    )
    chapter_end: bool = Field(
        default=False,
        description="the end of the chapter playing ('take me to the end of the chapter'): its closing "
        "passage, never the end of the book (the tool knows which chapter plays; you need not); with "
        "chapter or chapter_step, the end of that chapter instead ('the end of chapter 3'), not its start",
    )
    position_ms: Millis | None = Field(
        default=None, description="a time on the book's clock the listener named, in milliseconds"
    )
    offset_ms: Offset | None = Field(
        default=None, description="a jump the listener named relative to where they are: negative is back"
    )

    earlier_chapter: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="a place from their own history: where they were the last time they were in this chapter",
    )
    earlier_device: Name | None = Field(
        default=None,
        description="a place from their own history: where they were the last time they listened on this "
        "device (the name they use for it, such as speaker or phone)",
    )
    before_skip_ahead: bool = Field(
        default=False,
        description="a place from their own history: where they were just before they last skipped ahead",
    )
    fell_asleep: bool = Field(
        default=False,
        description="a place from their own history: where they fell asleep the last time the sleep timer "
        "paused the book (the last moment they were known to be awake before it)",
    )
    timer_paused: bool = Field(
        default=False,
        description="a place from their own history: where the sleep timer last paused the book ('where the "
        "timer stopped', 'where did it stop?'), not where they fell asleep before it",
    )
    furthest: bool = Field(
        default=False,
        description="a place from their own history: the furthest into the book they have been (after going "
        "back to listen again, 'take me to where I was furthest')",
    )
    left_off: bool = Field(
        default=False,
        description="a place from their own history: where they left off the last time they stopped "
        "listening for an hour or more ('where I was last night', 'where I stopped last time')",
    )
    sitting_began: bool = Field(
        default=False,
        description="a place from their own history: where this time's listening began, after their last "
        "break of an hour or more ('where I started tonight')",
    )
    times_back: int = Field(
        default=0,
        ge=0,
        le=1000,
        description="with a place from their history: 0 is the most recent such time, 1 the time before that",
    )
    show_only: bool = Field(
        default=False,
        description="put the place on the screen to press instead of moving there (for a question such as "
        "'when did I last listen on the speaker?')",
    )

    def names_earlier(self) -> bool:
        said = (getattr(self, name) for name in EARLIER_PLACE_FIELDS)
        return any(value is not None and value is not False for value in said)  # chapter 0 names one

    @model_validator(mode="after")
    def _names_something(self) -> "OfferPositionsArgs":
        if (
            not self.ids
            and self.chapter is None
            and self.chapter_step is None
            and not self.chapter_end
            and self.position_ms is None
            and self.offset_ms is None
            and not self.names_earlier()
        ):
            raise ValueError(
                "name at least one place: ids, chapter, chapter_step, chapter_end, position_ms, offset_ms, "
                f"or an earlier place ({', '.join(EARLIER_PLACE_FIELDS)})"
            )
        if any(i < 0 for i in self.ids):
            raise ValueError("passage ids are never negative")
        return self


PlaybackAction = Literal["sleep_timer", "cancel_sleep_timer", "pause", "clear_list", "speed"]


class PlaybackArgs(Contract):
    """Set or cancel the sleep timer, pause the book, or take a list away: never a move, never a new list."""

    action: PlaybackAction = Field(
        description="sleep_timer: pause after `minutes` of listening or at the chapter's end; "
        'cancel_sleep_timer: turn the timer off; pause: pause the book now ("pause", "stop"); '
        'clear_list: take the list of places off every screen, the book staying put ("none of those"); '
        "speed: play the book at `speed`, or `speed_by` faster (negative: slower), on every device"
    )
    minutes: SleepMinutes | None = Field(
        default=None, description="with sleep_timer: minutes of listening from now, as they said"
    )
    chapter_end: bool = Field(
        default=False, description="with sleep_timer: stop at the end of the chapter playing now"
    )
    chapter: int | None = Field(
        default=None,
        ge=0,
        description='with chapter_end: the chapter whose end they named ("stop at the end of chapter 3"), '
        "when it is not simply the one playing",
    )
    chapter_step: int | None = Field(
        default=None,
        ge=1,
        le=50,
        description='with chapter_end: the end of the chapter this many after the one playing ("stop at the '
        'end of the next chapter": 1, "after two more chapters": 2), counted by the tool',
    )
    speed: Speed | None = Field(
        default=None, description="with speed: how fast, as a multiple of the narrator's pace (1: as read)"
    )
    speed_by: float | None = Field(
        default=None,
        ge=-(FASTEST_SPEED - SLOWEST_SPEED),
        le=FASTEST_SPEED - SLOWEST_SPEED,
        description='with speed: this much faster than now ("faster": 0.25, "a bit slower": -0.1)',
    )

    @model_validator(mode="after")
    def _one_stop(self) -> "PlaybackArgs":
        if (self.action == "speed") != (self.speed is not None or self.speed_by is not None):
            raise ValueError("speed, and only speed, takes a speed or a speed_by")
        if self.speed is not None and self.speed_by is not None:
            raise ValueError("a speed is said or counted from the one playing, not both")
        if self.action == "sleep_timer" and (self.minutes is None) == (not self.chapter_end):
            raise ValueError("a sleep_timer takes either minutes or chapter_end, and not both")
        if self.action != "sleep_timer" and (self.minutes is not None or self.chapter_end):
            raise ValueError(f"{self.action} takes no minutes and no chapter_end")
        if (self.chapter is not None or self.chapter_step is not None) and not self.chapter_end:
            raise ValueError("chapter and chapter_step go with chapter_end: the end of the chapter meant")
        if self.chapter is not None and self.chapter_step is not None:
            raise ValueError("a chapter is named or counted from the one playing, not both")
        return self


# --- what a turn leaves behind ------------------------------------------------------------


class PlaceRef(Contract):
    """The place one line of a tool result shows, so history can guard it again and redraw it."""

    line: int = Field(ge=0, description="index of the line in ToolCallRecord.lines")
    place: Candidate
    kind: Literal["line", "row"] = Field(description="a search or recall line, or a row of a list")
    naming: list[str] = Field(
        default_factory=list,
        description="an older recall line's words for 'who is X?': X's words, so a redrawn line shows them "
        "too (recall lines now carry all their heard words: whole)",
    )
    whole: bool = Field(
        default=False, description="a recall line: all its passage's heard words, and so when redrawn"
    )

    def text(self) -> str:
        """The line the model reads for this place; a row is named by its id so it can be offered."""
        if self.kind == "line":
            return self.place.line()
        ident = f"id={self.place.passage_id}: " if self.place.passage_id is not None else ""
        return f"{ident}{self.place.label()}"


ToolArgs = TypeVar("ToolArgs", bound=Contract)


class ToolCallRecord(Contract):
    """One tool call exactly as the model made it and exactly as it read the answer."""

    name: str
    arguments: dict[str, Any]
    lines: list[str] = Field(description="the model-visible result, one line each")
    places: list[PlaceRef] = Field(default_factory=list)
    ms: float = Field(ge=0)
    refused: bool = False

    @property
    def result(self) -> str:
        return "\n".join(self.lines)

    def args_as(self, kind: type[ToolArgs]) -> ToolArgs | None:
        """The arguments as ``kind``, their tool's own model: None for another tool's call, or for
        arguments that never fitted it (a refused call keeps what the model wrote)."""
        if TOOL_ARGS.get(self.name) is not kind:
            return None
        try:
            return kind.model_validate(self.arguments)
        except ValidationError:
            return None


class Step(Contract):
    """Time spent in one part of a turn (a model round, a tool call, loading history...)."""

    name: str
    ms: float = Field(ge=0)


AskedBack = Literal["timer_length"]
"""What plain code may ask the listener back: how long the sleep timer should run ("For how long?")."""


class SpeedChangedByTurn(Contract):
    """A speed a turn set, to take back while nothing has been done with the book since."""

    before: Speed
    to: Speed
    seq: int = Field(ge=0, description="the player's sequence once it took the change")
    took_back: bool = Field(
        default=False,
        description="it took back the turn before's change (undo, cancel that): nothing is left to take back",
    )


class Exchange(Contract):
    """One finished turn as the model may read it later: already guarded text only.

    ``guarded_at_ms`` is the position the text was guarded against; a later turn from
    an earlier position guards it again before the model reads it.
    """

    turn_id: str
    utterance: str
    speech: str
    outcome: TurnOutcome
    calls: list[ToolCallRecord] = Field(default_factory=list)
    guarded_at_ms: Millis
    direction: Direction | None = Field(
        default=None, description='the way the request said its moment lies ("go back to the storm")'
    )
    asked: AskedBack | None = Field(
        default=None,
        description="a question the answer put to the listener, which their next words may answer",
    )
    answered_at_ms: int | None = Field(
        default=None,
        description="when the answer was given (wall clock): a question put is answered soon or not at all",
    )
    timer_replaced: bool = Field(
        default=False,
        description="a sleep timer this turn set took the place of one already running: taking it back "
        "would leave none",
    )
    timer_set_seq: int | None = Field(
        default=None, description="the player's sequence of the sleep timer this turn set, to know it again"
    )
    speed_changed: SpeedChangedByTurn | None = Field(
        default=None, description="the speed this turn changed: taking the change back sets it as it was"
    )


class Conversation(Contract):
    """The last few exchanges of one listener in one book, stored in the KV bucket."""

    listener: Name
    book: Name
    exchanges: list[Exchange] = Field(default_factory=list)


class TurnCompleted(Contract):
    """A finished turn, appended to the TURNS stream."""

    turn_id: str
    listener: Name
    book: Name
    utterance: str
    speech: str
    outcome: TurnOutcome
    rows: list[str] = Field(default_factory=list)
    calls: list[ToolCallRecord]
    steps: list[Step]
    mode: str = Field(description='the model id, or "keyless"')
    preview: bool = False
    cut_sentences: int = Field(default=0, ge=0, description="sentences the answer check cut before speaking")
    total_ms: float = Field(ge=0)


class SpokenTurnReply(Contract):
    heard: str = Field(description="what the recogniser heard; empty when it heard no words")
    turn: TurnReply | None = Field(
        default=None, description="the turn it became; none when nothing was heard"
    )


# --- recap: what happened in a stretch of what they heard ---------------------------------

RecapSpanName = Literal[
    "since_asleep",
    "before_asleep",
    "last_time",
    "last_minutes",
    "last_chapter",
    "chapter_before_last",
    "chapters_ago",
    "this_chapter",
    "chapter",
    "so_far",
]


class RecapArgs(Contract):
    """Recap a stretch of what the listener has heard; the tool works out its times."""

    span: RecapSpanName = Field(
        description="since_asleep: what they missed since they dozed off (the sleep timer's estimate to "
        "the pause); before_asleep: the last minutes they heard before they dozed off; last_time: the last "
        "minutes they heard before they last stopped listening for an hour or more (last night, last "
        "time); last_minutes: the "
        "last `minutes` of listening; last_chapter: the chapter before the one playing (or the one playing "
        "when they are well into it); chapter_before_last: the chapter before the one last_chapter means; "
        "chapters_ago: the chapter `chapters_back` before the one playing, however far into it they are; "
        "this_chapter: the one playing so far; chapter: the chapter numbered "
        "`chapter`, as far as they have heard it; so_far: the story from the start"
    )
    minutes: int | None = Field(
        default=None, ge=1, le=600, description="with last_minutes: how many minutes back, as they said"
    )
    chapter: int | None = Field(
        default=None, ge=0, le=10_000, description="with chapter: the chapter's number, as they said it"
    )
    chapters_back: int | None = Field(
        default=None, ge=1, le=10_000, description="with chapters_ago: how many chapters back, as they said"
    )

    @model_validator(mode="after")
    def _chapter_named_with_its_span(self) -> "RecapArgs":
        if (self.span == "chapter") != (self.chapter is not None):
            raise ValueError("a chapter number goes with the span 'chapter', and only with it")
        if (self.span == "chapters_ago") != (self.chapters_back is not None):
            raise ValueError("a count of chapters back goes with the span 'chapters_ago', and only with it")
        return self


TOOL_ARGS: dict[str, type[Contract]] = {
    "find_passage": FindPassageArgs,
    "recall": RecallArgs,
    "offer_positions": OfferPositionsArgs,
    "recap": RecapArgs,
    "playback": PlaybackArgs,
}
"""The tools a model may call, by name, and the arguments each takes."""
