"""Earlier exchanges guarded again from where the listener is now (``domain/history.py``)."""

from bedside_contracts.search import Resolution, Target
from bedside_contracts.turn import Exchange, PlaceRef, ToolCallRecord
from bedside_guard import Candidate, Passage
from bedside_turn.domain import history

OPENING = " ".join(["The wind came off the sea and rattled the lighthouse windows all night long."] * 6)
NAMING = (
    f"{OPENING} At dawn a small woman in a yellow coat knocked at the door. "
    '"Hettie Bramble," said the woman, shaking Wren\'s hand.'
)
NAMED = Passage(id=8, start_ms=300_000, end_ms=330_000, chapter=2, chapter_title="The Village", text=NAMING)


def recalled(question: str, ref: PlaceRef, at_ms: int) -> Exchange:
    """An exchange whose one recall showed ``ref``'s line, guarded at ``at_ms``."""
    recall = ToolCallRecord(
        name="recall", arguments={"question": question}, lines=[ref.text()], places=[ref], ms=1
    )
    return Exchange(
        turn_id="t1",
        utterance=question,
        speech="...",
        outcome="answered",
        calls=[recall],
        guarded_at_ms=at_ms,
    )


def test_a_recall_line_for_who_someone_is_is_redrawn_from_where_they_are_named() -> None:
    # The first turn showed the words naming Hettie, past the passage's first sixty; a follow-up
    # from earlier in the book (still past the passage) must not show its opening again instead.
    first_at, now = 900_000, 600_000
    ref = PlaceRef(
        line=0, place=Candidate.hit(NAMED, first_at, naming=["hettie"]), kind="line", naming=["hettie"]
    )
    assert ref.place.words is not None
    assert "Hettie Bramble" in ref.place.words
    again = history.guard_again(recalled("who is Hettie?", ref, first_at), now, {NAMED.id: NAMED})
    redrawn = again.calls[0].places[0].place
    assert redrawn.words is not None
    assert "Hettie Bramble" in redrawn.words, redrawn.words
    assert "Hettie Bramble" in again.calls[0].lines[0]


def test_a_recall_line_with_all_its_heard_words_is_redrawn_with_all_of_them() -> None:
    first_at, now = 900_000, 600_000
    ref = PlaceRef(line=0, place=Candidate.hit(NAMED, first_at, whole=True), kind="line", whole=True)
    again = history.guard_again(recalled("who came at dawn?", ref, first_at), now, {NAMED.id: NAMED})
    redrawn = again.calls[0].places[0].place
    assert redrawn.words == NAMING


def test_what_the_model_wrote_from_further_on_is_left_out_and_its_ids_kept() -> None:
    """A model's recall from 17:40 asked about "her nest under the boathouse floor"; after the listener
    went back to 3:00 its next turn read that question word for word, though its result was covered."""
    first_at, now = 900_000, 200_000
    ref = PlaceRef(line=0, place=Candidate.hit(NAMED, first_at, whole=True), kind="line", whole=True)
    asked = recalled("who came at dawn?", ref, first_at)
    offer = ToolCallRecord(
        name="offer_positions", arguments={"ids": [8], "chapter": 2}, lines=["Listed."], ms=1
    )
    search = ToolCallRecord(name="find_passage", arguments={"query": "Hettie Bramble knocks"}, lines=[], ms=1)
    exchange = asked.model_copy(update={"calls": [*asked.calls, offer, search]})
    again = history.guard_again(exchange, now, {})
    assert [call.arguments for call in again.calls] == [
        {"question": history.WORDS_LEFT_OUT},
        {"ids": [8], "chapter": 2},
        {"query": history.WORDS_LEFT_OUT},
    ]
    read = " ".join(str(message["content"]) for message in history.as_messages([again]))
    assert "Hettie" not in read
    assert history.guard_again(exchange, first_at, {}) == exchange  # read from where it was written


def test_an_answer_remembered_by_what_it_told_is_kept_when_read_from_further_back() -> None:
    """A move back makes its own turn one from further on: that it moved the book stays, for "say
    that again" and for the model; an answer with the book's words does not."""
    first_at, now = 900_000, 200_000
    moved = Exchange(
        turn_id="t1",
        utterance="back 2 minutes",
        speech=history.Told.MOVED.value,
        outcome="moved",
        guarded_at_ms=first_at,
    )
    assert history.guard_again(moved, now, {}).speech == history.Told.MOVED.value
    quoted = moved.model_copy(update={"speech": "You heard: the ledger was wet.", "outcome": "answered"})
    assert history.guard_again(quoted, now, {}).speech == history.REPLY_LEFT_OUT


def test_an_answer_that_told_the_position_is_remembered_only_as_told() -> None:
    said = "You're in chapter 2, 40 seconds in; about 3 minutes into the book, with about 3 minutes to go."
    assert history.remembered_speech(said, history.Told.WHERE) == "I told them where they are in the book."
    assert history.remembered_speech(said, None) == said


def test_plain_codes_account_of_a_move_is_told_as_a_move_or_an_undo_and_of_a_preview_as_nothing() -> None:
    assert history.told_by_moving(moved=True, undone=False, preview=False) is history.Told.MOVED
    assert history.told_by_moving(moved=True, undone=True, preview=False) is history.Told.UNDONE
    assert history.told_by_moving(moved=True, undone=False, preview=True) is None
    assert history.told_by_moving(moved=False, undone=False, preview=False) is None


def test_a_passage_read_again_is_found_by_the_id_asked_for_not_the_one_it_resolved_to() -> None:
    """A chapter's wordless place, offered while it was being transcribed, resolves to the chapter's
    first passage once it is; keyed by that passage's own id, the place was dropped from the history
    the model reads (a review)."""
    wordless = 1_000_000_003
    first_of_chapter = Passage(
        id=6, start_ms=1_200_000, end_ms=1_230_000, chapter=3, chapter_title="Three", text="x"
    )
    resolved = [
        Resolution(
            target=Target(passage_id=wordless), passage=first_of_chapter, at_ms=1_200_000, named="passage"
        ),
        Resolution(target=Target(passage_id=9), reason="there is no passage with id 9"),
    ]
    assert history.passages_read(resolved) == {wordless: first_of_chapter}


def test_an_answer_given_again_is_stamped_anew_only_while_it_is_the_last() -> None:
    first = Exchange(
        turn_id="t1", utterance="who is Ada?", speech="Ada.", outcome="answered", guarded_at_ms=0
    )
    later = first.model_copy(update={"turn_id": "t2"})
    again = history.given_again([first], "t1", 5_000)
    assert again == [first.model_copy(update={"answered_at_ms": 5_000})]
    assert history.given_again([first, later], "t1", 5_000) is None  # another turn came since
