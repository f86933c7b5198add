"""What the model (and the record) reads of each tool's result, and the targets an offer names.

Only the guard's places and rows are shown: a line is rendered from its place at the last
moment, a move names its place by id and chapter, a refusal never echoes bad input.
"""

from typing import Literal

from bedside_contracts.player import MAX_TARGETS, OfferOutcome
from bedside_contracts.search import Target
from bedside_contracts.turn import OfferPositionsArgs, PlaceRef
from bedside_guard import Candidate, chapter_name
from pydantic import ValidationError

from bedside_turn.domain.chapters import NoSuchChapter
from bedside_turn.domain.rules import MayOffer

NO_MATCH = "No passage matched that. Tell them you could not find the moment."
NOT_YET = "Nothing they have heard so far bears on this: it has not come up yet."
NOTHING_IN_SPAN = (
    "They have heard nothing of that stretch yet: it is all ahead of where they are. Tell them so."
)
NOT_TRANSCRIBED_IN_SPAN = (
    "That stretch reaches into a chapter still being transcribed: what they heard there cannot be read"
    " yet. Tell them so, and to ask again in a little while; do not say they have not heard it."
)
NO_WORDS_IN_SPAN = (
    "No words were heard in that stretch of the recording (music or silence, perhaps): there is nothing"
    " of it to tell. Tell them so; do not say it is ahead of them."
)
ASKS_LATER = (
    "This asks about what happens further on than they have got. Answer only from what they"
    " have heard, or tell them it is further on; say nothing, not even yes or no, about what is ahead."
)


NOT_TRANSCRIBED_HERE = (
    "The chapter they are in is still being transcribed: what they heard of it cannot be searched yet,"
    " so this may well have come up there. Tell them so, and to ask again in a little while; do not"
    " say it has not come up."
)


def not_yet_line(unheard_names: list[str], asks_later: bool, not_transcribed_here: bool = False) -> str:
    """What the model reads when recall found nothing heard; it repeats only the listener's words."""
    if not_transcribed_here and not asks_later:
        return NOT_TRANSCRIBED_HERE
    if unheard_names:
        return f"{', '.join(unheard_names)}: not in anything they have heard so far; it has not come up yet."
    return ASKS_LATER if asks_later else NOT_YET


def targets_of(args: OfferPositionsArgs) -> list[Target]:
    """The places named, best first: passage ids as given, then a chapter, a time, an offset. A
    chapter named with ``chapter_end`` is the one whose end is meant: its start is no place asked."""
    targets = [Target(passage_id=i) for i in dict.fromkeys(args.ids)]
    if args.chapter is not None and not args.chapter_end:
        targets.append(Target(chapter=args.chapter))
    if args.position_ms is not None:
        targets.append(Target(position_ms=args.position_ms))
    if args.offset_ms is not None:
        targets.append(Target(offset_ms=args.offset_ms))
    return targets[:MAX_TARGETS]


def no_chapter_line(beyond: NoSuchChapter) -> str:
    """What the model reads when a chapter counted from the one playing is not in the book: the
    book's first and last chapters, never the one playing (the listener's place is printed
    nowhere the model reads)."""
    way = "after" if beyond.after_last else "before"
    return (
        f"Refused: the book has no chapter that far {way} the one playing (its chapters run from "
        f"{beyond.first} to {beyond.last}). Tell them so plainly."
    )


NO_CHAPTER_PLAYING = (
    "Refused: the chapter playing could not be placed in the book. Say you could not find it."
)
NO_END_WITHOUT_WORDS = (
    "Refused: no words were heard in that chapter (music or silence, perhaps), so it has no closing passage"
    ' to go to. Tell them so, and that "next chapter" goes past it.'
)
ALREADY_AT_CHAPTER_END = (
    "Refused: they are already in the closing passage of the chapter playing. Tell them they are at "
    "its end already."
)


AlreadyAt = Literal["chapter_start", "book_start", "that_place", "no_distance"]
ALREADY_AT: dict[AlreadyAt, str] = {
    "chapter_start": "Refused: nothing of the chapter playing has been heard yet, so they are at its start "
    "already. Tell them so.",
    "book_start": "Refused: nothing of the book has been heard yet, so they are at its start already. "
    "Tell them so.",
    "that_place": "Refused: that place is where the book is now. Tell them they are there already.",
    "no_distance": "Refused: a move by no time at all is where the book is now. Tell them it stays there.",
}
"""What the model reads when the place asked for is where the book is: no place is offered."""
NO_DISTANCE = Target(offset_ms=0)
"""A move by nothing, asked alone: where the book is, which an offer would list as a row "further on"
(a place at the line is ahead of it)."""


def with_chapter(targets: list[Target], chapter: int) -> list[Target]:
    """A chapter counted from the one playing is one more candidate, like a chapter named."""
    return [*targets, Target(chapter=chapter)][:MAX_TARGETS]


def with_chapter_end(targets: list[Target], chapter: int) -> list[Target]:
    """The end of a chapter (named, counted or playing) is one more candidate, as the chapter named:
    a row for it ahead keeps the number ("end of chapter 3"); one the book has not, the offer
    refuses saying why (the book's chapters)."""
    return [*targets, Target(chapter_end=chapter)][:MAX_TARGETS]


def with_earlier_place(targets: list[Target], position_ms: int) -> list[Target]:
    """A place from the listener's history is one more candidate, and the first named."""
    return [Target(position_ms=position_ms), *targets][:MAX_TARGETS]


def moved_line(to: Candidate, preview: bool) -> str:
    """A move as the model reads it: by the place's id and chapter, never its time, which is now the
    listener's position (ADR 75)."""
    where = f"passage id={to.passage_id}" if to.passage_id is not None else "the place named"
    chapter = f" in {chapter_name(to.chapter)}" if to.chapter is not None else ""
    if preview:
        return f"Preview only (nothing was moved): from there the book would move to {where}{chapter}."
    return f"Moved: the book now plays from {where}{chapter}."


MOVED_WITHOUT_PLACE = "Moved: the book now plays from the place asked for."
"""A move the player told without its place: no row to press, nothing listed."""


def outcome_lines(outcome: OfferOutcome, permit: MayOffer, preview: bool) -> tuple[list[str], list[PlaceRef]]:
    """The model-visible result of an offer. A move names the place by id and chapter only."""
    if outcome.outcome == "refused":
        # The player's reason carries the advice that fits the refusal (``refusal_reason``), so none
        # is added here: "check the ids" would send a model looking after a jump back from the start.
        reason = (
            outcome.reason or "none of those places could be found in the book. Say you could not find it."
        )
        return [f"Refused: {reason}"], []
    if outcome.outcome == "moved" and outcome.moved_to is not None:
        return [moved_line(outcome.moved_to, preview)], row_places([outcome.moved_to], first_line=0)
    if outcome.outcome == "moved":  # a request heard on two devices, its place not read again (ADR 77)
        return [MOVED_WITHOUT_PLACE], []
    head = "Listed on the screen, best first; they press a row to go there:"
    if preview:
        head = "Preview only (nothing was moved or drawn); from there the list would be:"
    elif not permit.may_move and len(outcome.rows) == 1:
        head = "A list was already up in this turn, so this is one row to press, not a move:"
    rows = row_places(outcome.rows, first_line=1)
    return [head, *(ref.text() for ref in rows)], rows


def row_places(rows: list[Candidate], first_line: int) -> list[PlaceRef]:
    return [PlaceRef(line=first_line + i, place=row, kind="row") for i, row in enumerate(rows)]


def shown_lines(places: list[Candidate], *, whole: bool = False) -> tuple[list[str], list[PlaceRef]]:
    """Search or recall places as the lines the model reads, each line knowing its place and,
    for recall (``whole``), that it shows all its heard words, so history redraws it the same."""
    refs = [PlaceRef(line=i, place=place, kind="line", whole=whole) for i, place in enumerate(places)]
    return [ref.text() for ref in refs], refs


def tool_error(error: ValidationError) -> str:
    """A validation error as the model can act on it; the bad input itself is not echoed."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors()[:4]
    )
    return f"Tool error: the arguments do not fit the tool ({problems}). Fix them and call again."
