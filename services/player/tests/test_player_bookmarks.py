"""Bookmarks without I/O (ADR 83): made where the book is, kept per book newest first, capped, removed."""

import pytest
from bedside_contracts.player import (
    MAX_BOOKMARKS_PER_BOOK,
    AddBookmark,
    BookmarkAdded,
    ListenerRetired,
    PlayerCommand,
    RemoveBookmark,
    Report,
    Seek,
    SetSleepTimer,
    TimerRanOut,
)
from bedside_player.domain.decide import Invalid, Retired, decide
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.domain.within_book import held_within
from bedside_player.replay import from_snapshot, to_snapshot
from pydantic import ValidationError

NOW = 1_800_000_000_000
BOOK_END = 10 * 3600_000


def run(state: PlayerState, *commands: PlayerCommand, now_ms: int = NOW) -> PlayerState:
    for command in commands:
        if (event := decide(state, command, book_end_ms=BOOK_END, now_ms=now_ms)) is not None:
            state = evolve(state, event, state.seq + 1)
    return state


def paused_at(position_ms: int) -> PlayerState:
    start = PlayerState(listener="ann", book="b1")
    return run(start, Report(device="phone", position_ms=position_ms, playing=False, basis_seq=0))


def test_a_bookmark_is_made_where_the_device_is_and_listed_newest_first() -> None:
    state = paused_at(60_000)
    state = run(state, AddBookmark(device="phone", position_ms=61_000, title="  the storm  "))
    first = state.seq
    state = run(state, AddBookmark(device="tablet", position_ms=30_000))
    told = state.public(NOW).bookmarks
    assert [(b.seq, b.at_ms, b.title, b.device) for b in told] == [
        (state.seq, 30_000, None, "tablet"),
        (first, 61_000, "the storm", "phone"),
    ]
    assert told[0].added_at_ms == NOW
    # marking a place moves nothing: the book is where it was, and undo has no new move to go back on
    assert (state.position_ms, state.last_move_seq, state.before_move_ms) == (60_000, 0, None)


def test_a_bookmark_made_elsewhere_in_the_book_is_a_touch_where_the_book_is_not_where_it_marks() -> None:
    """A tablet left at 0:10:00 marks its place while the phone plays on at 1:00:00: someone is awake
    while the book is at 1:00:00, so a sleep timer running out later guesses them asleep no earlier."""
    start = PlayerState(listener="ann", book="b1")
    playing = run(start, Report(device="phone", position_ms=3600_000, playing=True, basis_seq=0))
    timed = run(playing, SetSleepTimer(device="phone", after=30))
    marked = run(timed, AddBookmark(device="tablet", position_ms=600_000))
    ran_out = run(marked, TimerRanOut(device="phone", position_ms=5400_000, basis_seq=marked.seq))
    assert ran_out.asleep is not None
    assert ran_out.asleep.asleep_at_ms == 3600_000


def test_a_bookmark_from_a_caller_with_no_device_place_is_where_the_book_has_got_to() -> None:
    start = PlayerState(listener="ann", book="b1")
    playing = run(start, Report(device="phone", position_ms=60_000, playing=True, basis_seq=0))
    marked = run(playing, AddBookmark(), now_ms=NOW + 10_000)
    assert [b.at_ms for b in marked.public(NOW).bookmarks] == [70_000]


def test_a_bookmark_past_the_end_of_the_book_is_refused() -> None:
    state = paused_at(60_000)
    with pytest.raises(Invalid, match="past the end"):
        decide(state, AddBookmark(device="phone", position_ms=BOOK_END + 1), now_ms=NOW, book_end_ms=BOOK_END)


def test_a_title_is_a_few_words_never_blank_or_long() -> None:
    AddBookmark(title="x" * 80)
    for title in ("x" * 81, "   "):
        with pytest.raises(ValidationError):
            AddBookmark(title=title)


def test_one_bookmark_past_the_most_kept_is_refused_and_none_is_dropped() -> None:
    state = paused_at(0)
    for n in range(MAX_BOOKMARKS_PER_BOOK):
        state = evolve(state, BookmarkAdded(at_ms=n), state.seq + 1)
    with pytest.raises(Invalid, match=f"{MAX_BOOKMARKS_PER_BOOK} bookmarks"):
        decide(state, AddBookmark(position_ms=5), now_ms=NOW)
    assert len(state.public(NOW).bookmarks) == MAX_BOOKMARKS_PER_BOOK
    oldest = state.public(NOW).bookmarks[-1].seq
    state = run(state, RemoveBookmark(bookmark_seq=oldest), AddBookmark(position_ms=5))
    assert [b.at_ms for b in state.public(NOW).bookmarks][:2] == [5, MAX_BOOKMARKS_PER_BOOK - 1]


def test_a_bookmark_removed_goes_and_the_others_stay() -> None:
    state = run(paused_at(0), AddBookmark(position_ms=1_000), AddBookmark(position_ms=2_000))
    first, second = state.seq - 1, state.seq
    state = run(state, RemoveBookmark(bookmark_seq=first, device="phone"))
    assert [b.seq for b in state.public(NOW).bookmarks] == [second]
    with pytest.raises(Invalid, match="no bookmark"):  # removed already, on another device perhaps
        decide(state, RemoveBookmark(bookmark_seq=first), now_ms=NOW)


def test_bookmarks_stay_through_moves_and_reports_and_a_move_to_one_is_a_seek_undo_goes_back_on() -> None:
    state = run(paused_at(60_000), AddBookmark(device="phone", position_ms=60_000))
    state = run(state, Seek(device="phone", position_ms=600_000, basis_seq=state.seq))
    mark = state.public(NOW).bookmarks[0]
    state = run(state, Seek(device="tablet", position_ms=mark.at_ms, basis_seq=state.seq))
    state = run(state, Report(device="tablet", position_ms=61_000, playing=True, basis_seq=state.seq))
    assert (state.before_move_ms, state.public(NOW).bookmarks) == (600_000, [mark])


def test_bookmarks_are_kept_through_a_snapshot() -> None:
    state = run(paused_at(0), AddBookmark(device="phone", position_ms=1_000, title="here"))
    assert from_snapshot(to_snapshot(state, state.seq)) == state


def test_a_removed_listener_keeps_their_bookmarks_told_and_makes_or_removes_none() -> None:
    state = run(paused_at(0), AddBookmark(position_ms=1_000))
    retired = evolve(state, ListenerRetired(), state.seq + 1)
    assert [b.at_ms for b in retired.public(NOW).bookmarks] == [1_000]
    for command in (AddBookmark(position_ms=2_000), RemoveBookmark(bookmark_seq=state.seq)):
        with pytest.raises(Retired):
            decide(retired, command, now_ms=NOW)


def test_a_bookmark_past_the_end_of_a_shorter_book_given_its_id_is_told_at_the_end() -> None:
    state = run(paused_at(0), AddBookmark(position_ms=9_000), AddBookmark(position_ms=2_000))
    assert [b.at_ms for b in held_within(state, 5_000).public(NOW).bookmarks] == [2_000, 5_000]
