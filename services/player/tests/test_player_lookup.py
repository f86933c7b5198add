"""The history lookup without I/O: filters, the newest match, the count, the earliest, paging."""

from itertools import pairwise

from bedside_contracts.player import (
    DeviceJoined,
    DeviceLeft,
    FellAsleep,
    HistoryEntry,
    LocateRequest,
    Moved,
    Paused,
    PlayerEvent,
    PositionReported,
    Seeked,
    SleepTimerSet,
    device_meant,
)
from bedside_contracts.search import ChapterInfo
from bedside_player.domain.history import LISTENING_BREAK_MS, StoredEvent, entries, lookup
from hypothesis import given, settings
from hypothesis import strategies as st

CHAPTER_MS = 600_000
CHAPTERS = [
    ChapterInfo(n=n, title=f"c{n}", start_ms=(n - 1) * CHAPTER_MS, end_ms=n * CHAPTER_MS) for n in range(1, 7)
]
BOOK_MS = 6 * CHAPTER_MS
DEVICES = ["phone", "speaker", "tablet"]
NOW_MS = 1_780_000_000_000


def event_strategy() -> st.SearchStrategy[PlayerEvent]:
    position = st.integers(0, BOOK_MS - 1)
    device = st.sampled_from(DEVICES)
    return st.one_of(
        st.builds(
            PositionReported, device=device, position_ms=position, playing=st.booleans(), basis_seq=st.just(0)
        ),
        st.builds(Seeked, device=device, from_ms=position, position_ms=position, basis_seq=st.just(0)),
        st.builds(Moved, cause=st.sampled_from(["goto", "undo"]), from_ms=position, to_ms=position),
        st.builds(DeviceJoined, device=device),
        st.builds(DeviceLeft, device=device, paused_at_ms=st.none() | position, basis_seq=st.just(0)),
        st.builds(
            FellAsleep, device=device, paused_at_ms=position, asleep_at_ms=position, basis_seq=st.just(0)
        ),
        st.builds(Paused, device=st.none() | device, paused_at_ms=position),
    )


def places(event: PlayerEvent) -> bool:
    """Written out plainly: reports, moves and pauses place the book; a device leaving only
    when it was the last player (its pause); a join never."""
    if isinstance(event, DeviceLeft):
        return event.paused_at_ms is not None
    return not isinstance(event, DeviceJoined)


def history_of(events: list[PlayerEvent], gaps: list[int]) -> list[HistoryEntry]:
    """Entries as the player makes them, with stream sequences that skip (a shared stream)."""
    seqs, seq = [], 0
    for i in range(len(events)):
        seq += 1 + gaps[i % len(gaps)]
        seqs.append(seq)
    return entries("ann", "b1", [StoredEvent(seq, e) for seq, e in zip(seqs, events, strict=True)], CHAPTERS)


request_strategy = st.builds(
    LocateRequest,
    listener=st.just("ann"),
    book=st.just("b1"),
    kind=st.sampled_from([None, "reported", "seeked", "moved", "joined", "left", "fell_asleep", "paused"]),
    chapter=st.one_of(st.none(), st.integers(1, 6)),
    device=st.one_of(st.none(), st.sampled_from(DEVICES)),
    direction=st.sampled_from([None, "forward", "back"]),
    visit_ends=st.booleans(),
    furthest=st.booleans(),
)


def by_hand(
    items: list[HistoryEntry], events: list[PlayerEvent], request: LocateRequest
) -> list[HistoryEntry]:
    """The same filters written out plainly, oldest first."""
    placing = [e for e, event in zip(items, events, strict=True) if places(event)]
    left = {a.seq for a, b in pairwise(placing) if a.chapter != b.chapter}
    kept = []
    for e, event in zip(items, events, strict=True):
        if request.kind is None and not places(event):
            continue
        if request.kind is not None and e.kind != request.kind:
            continue
        if request.chapter is not None and e.chapter != request.chapter:
            continue
        if request.device is not None and (e.device is None or not device_meant(request.device, e.device)):
            continue
        if request.direction == "forward" and not (e.from_ms is not None and e.position_ms > e.from_ms):
            continue
        if request.direction == "back" and not (e.from_ms is not None and e.position_ms < e.from_ms):
            continue
        if request.visit_ends and e.seq not in left:
            continue
        kept.append(e)
    return kept


@settings(max_examples=300, deadline=None)
@given(
    st.lists(event_strategy(), max_size=60),
    st.lists(st.integers(0, 5), min_size=1, max_size=5),
    request_strategy,
)
def test_the_lookup_finds_the_newest_counts_all_and_pages_to_every_match_once(
    events: list[PlayerEvent], gaps: list[int], request: LocateRequest
) -> None:
    items = history_of(events, gaps)
    expected = by_hand(items, events, request)[::-1]  # newest first
    if request.furthest:  # furthest into the book first, the newer of two at one place
        expected = sorted(expected, key=lambda e: (-e.position_ms, -e.seq))
    found = lookup(items, request, NOW_MS)
    assert found.count == len(expected)
    assert found.newest == (expected[0] if expected else None)
    assert found.earliest_index == (len(expected) - 1 if expected else None)
    if expected:
        assert found.earliest_index is not None
        at_earliest = lookup(
            items, request.model_copy(update={"offset": found.earliest_index, "limit": 1}), NOW_MS
        )
        assert at_earliest.page == [expected[-1]]
    for size in (1, 2, 3, 7, 1000):
        seen: list[HistoryEntry] = []
        offset = 0
        while offset < found.count:
            page = lookup(items, request.model_copy(update={"offset": offset, "limit": size}), NOW_MS).page
            assert page
            seen += page
            offset += len(page)
        assert seen == expected  # every match once, newest first, at any page size


def test_moves_say_where_they_came_from_and_which_way_they_went() -> None:
    stored: list[tuple[int, PlayerEvent]] = [
        (1, PositionReported(device="phone", position_ms=100_000, playing=True, basis_seq=0)),
        (2, Seeked(device="phone", from_ms=100_000, position_ms=1_900_000, basis_seq=1)),
        (3, Moved(cause="goto", from_ms=1_900_000, to_ms=700_000, turn_id="t")),
    ]
    items = entries("ann", "b1", [StoredEvent(*pair) for pair in stored], CHAPTERS)
    assert [(e.from_ms, e.position_ms) for e in items] == [
        (None, 100_000),
        (100_000, 1_900_000),
        (1_900_000, 700_000),
    ]
    ahead = lookup(items, LocateRequest(listener="ann", book="b1", direction="forward"), NOW_MS)
    assert ahead.newest is not None
    assert (ahead.count, ahead.newest.seq, ahead.newest.from_ms) == (1, 2, 100_000)
    back = lookup(items, LocateRequest(listener="ann", book="b1", direction="back"), NOW_MS)
    assert [e.seq for e in back.page] == [3]


def test_the_stay_the_book_is_in_now_is_not_a_visit_that_ended() -> None:
    chapter_1, chapter_2 = 10_000, CHAPTER_MS + 10_000
    stored: list[tuple[int, PlayerEvent]] = [
        (1, PositionReported(device="phone", position_ms=chapter_1, playing=True, basis_seq=0)),
        (2, PositionReported(device="phone", position_ms=chapter_1 + 5_000, playing=True, basis_seq=1)),
        (3, Seeked(device="phone", from_ms=chapter_1 + 5_000, position_ms=chapter_2, basis_seq=2)),
        (4, DeviceJoined(device="tablet")),
        (5, Moved(cause="goto", from_ms=chapter_2, to_ms=chapter_1 + 1_000, turn_id="t")),
        (6, PositionReported(device="phone", position_ms=chapter_1 + 2_000, playing=True, basis_seq=5)),
    ]
    items = entries("ann", "b1", [StoredEvent(*pair) for pair in stored], CHAPTERS)
    in_1 = lookup(items, LocateRequest(listener="ann", book="b1", chapter=1, visit_ends=True), NOW_MS)
    assert [e.seq for e in in_1.page] == [2]  # where the first stay in chapter 1 ended; now is not a match
    in_2 = lookup(items, LocateRequest(listener="ann", book="b1", chapter=2, visit_ends=True), NOW_MS)
    assert [e.seq for e in in_2.page] == [3]


def test_a_stay_ends_where_the_last_player_left_or_the_book_paused_not_at_the_report_before() -> None:
    """A tab closed 20 s after its last report, and a pause said aloud, each place the book; a
    device leaving while another plays does not, so it is not "the last time on the phone"."""
    chapter_1, chapter_2, chapter_3 = 10_000, CHAPTER_MS + 10_000, 2 * CHAPTER_MS + 10_000
    stored: list[tuple[int, PlayerEvent]] = [
        (1, PositionReported(device="phone", position_ms=chapter_1, playing=True, basis_seq=0)),
        (2, DeviceLeft(device="phone", paused_at_ms=chapter_1 + 20_000, basis_seq=1)),
        (3, Seeked(device="tablet", from_ms=chapter_1 + 20_000, position_ms=chapter_2, basis_seq=2)),
        (4, PositionReported(device="tablet", position_ms=chapter_2 + 5_000, playing=True, basis_seq=3)),
        (5, Paused(device="speaker", paused_at_ms=chapter_2 + 9_000)),
        (6, PositionReported(device="phone", position_ms=chapter_2 + 9_000, playing=True, basis_seq=5)),
        (7, PositionReported(device="tablet", position_ms=chapter_2 + 9_500, playing=True, basis_seq=6)),
        (8, DeviceLeft(device="phone", basis_seq=7)),
        (9, Seeked(device="tablet", from_ms=chapter_2 + 9_500, position_ms=chapter_3, basis_seq=8)),
    ]
    items = entries("ann", "b1", [StoredEvent(*pair) for pair in stored], CHAPTERS)
    in_1 = lookup(items, LocateRequest(listener="ann", book="b1", chapter=1, visit_ends=True), NOW_MS)
    assert [(e.seq, e.position_ms) for e in in_1.page] == [(2, chapter_1 + 20_000)]
    on_phone = lookup(items, LocateRequest(listener="ann", book="b1", device="phone"), NOW_MS)
    assert [e.seq for e in on_phone.page] == [6, 2, 1]  # not 8: the book played on, on the tablet
    paused = lookup(items, LocateRequest(listener="ann", book="b1", chapter=2), NOW_MS)
    assert 5 in [e.seq for e in paused.page]


def test_history_tells_what_made_each_move_as_the_state_does() -> None:
    stored: list[tuple[int, PlayerEvent]] = [
        (1, PositionReported(device="phone", position_ms=10_000, playing=True, basis_seq=0)),
        (2, Seeked(device="phone", from_ms=10_000, position_ms=40_000, basis_seq=1)),
        (3, Moved(cause="undo", from_ms=40_000, to_ms=10_000)),
        (4, FellAsleep(device="phone", paused_at_ms=20_000, asleep_at_ms=15_000, basis_seq=3)),
        (5, Paused(paused_at_ms=20_000)),
        (6, DeviceLeft(device="phone", paused_at_ms=20_000, basis_seq=5)),
    ]
    items = entries("ann", "b1", [StoredEvent(*pair) for pair in stored], CHAPTERS)
    assert [e.cause for e in items] == [None, "seeked", "undo", "fell_asleep", "paused", None]


def test_where_they_left_off_and_began_are_the_places_either_side_of_each_hour_the_book_sat_still() -> None:
    """An evening's listening, a night, a few minutes in the morning: "where I was last night" is the
    evening's last place, and the morning's stretch has not ended while it goes on."""
    hour = LISTENING_BREAK_MS
    evening = NOW_MS - 10 * hour
    stored = [
        StoredEvent(
            1, PositionReported(device="phone", position_ms=10_000, playing=True, basis_seq=0), evening
        ),
        StoredEvent(2, SleepTimerSet(device="phone", after=20, stop_at_ms=1_210_000), evening + 60_000),
        StoredEvent(3, Paused(device="phone", paused_at_ms=30_000), evening + 20 * 60_000),
        StoredEvent(  # a few minutes later, and on again: the same stretch
            4, PositionReported(device="phone", position_ms=30_000, playing=True, basis_seq=3), evening + hour
        ),
        StoredEvent(5, Paused(device="phone", paused_at_ms=40_000), evening + 2 * hour - 1),
        StoredEvent(  # the morning
            6,
            PositionReported(device="speaker", position_ms=40_000, playing=True, basis_seq=5),
            NOW_MS - 600_000,
        ),
        StoredEvent(
            7, Seeked(device="speaker", from_ms=40_000, position_ms=900_000, basis_seq=6), NOW_MS - 60_000
        ),
    ]
    items = entries("ann", "b1", stored, CHAPTERS)
    request = LocateRequest(listener="ann", book="b1", left_off=True)
    assert [e.seq for e in lookup(items, request, NOW_MS).page] == [5]
    later = lookup(items, request, NOW_MS + LISTENING_BREAK_MS)  # the morning has ended too
    assert [(e.seq, e.position_ms) for e in later.page] == [(7, 900_000), (5, 40_000)]
    untimed = entries("ann", "b1", [StoredEvent(seq, event) for seq, event, _ in stored], CHAPTERS)
    assert lookup(untimed, request, NOW_MS).count == 0  # no times, no breaks to judge
    starts = LocateRequest(listener="ann", book="b1", began=True)
    began = lookup(items, starts, NOW_MS)
    assert [e.seq for e in began.page] == [6, 1]  # the morning's first report, and the evening's
    assert began.looked_at_ms == NOW_MS  # what the times are measured against: the player's clock
    assert [e.seq for e in lookup(untimed, starts, NOW_MS).page] == [1]  # only the very first is known
    moves = lookup(items, LocateRequest(listener="ann", book="b1", moves=True), NOW_MS)
    assert [(e.seq, e.from_ms, e.position_ms) for e in moves.page] == [(7, 40_000, 900_000)]


def test_the_sleep_timers_pause_ends_a_stretch_of_listening_at_once() -> None:
    """Woken twenty minutes after the timer paused the book, "go back to where I stopped" was refused
    as "You haven't stopped listening for an hour or more yet" (a listener session): whoever the
    timer paused was asleep, so no one listened past it, however soon they come back."""
    stored = [
        StoredEvent(
            1,
            PositionReported(device="phone", position_ms=10_000, playing=True, basis_seq=0),
            NOW_MS - 3_000_000,
        ),
        StoredEvent(2, SleepTimerSet(device="phone", after=30, stop_at_ms=1_810_000), NOW_MS - 2_990_000),
        StoredEvent(
            3,
            FellAsleep(device="phone", paused_at_ms=1_810_000, asleep_at_ms=1_500_000, basis_seq=2),
            NOW_MS - 1_200_000,
        ),
    ]
    items = entries("ann", "b1", stored, CHAPTERS)
    left_off = lookup(items, LocateRequest(listener="ann", book="b1", left_off=True), NOW_MS)
    assert [(e.seq, e.position_ms) for e in left_off.page] == [(3, 1_810_000)]
    woken = [
        *stored,
        StoredEvent(
            4,
            PositionReported(device="phone", position_ms=1_810_000, playing=True, basis_seq=3),
            NOW_MS - 600_000,
        ),
    ]
    began = lookup(
        entries("ann", "b1", woken, CHAPTERS), LocateRequest(listener="ann", book="b1", began=True), NOW_MS
    )
    assert [e.seq for e in began.page] == [4, 1]  # on waking, a new stretch began
