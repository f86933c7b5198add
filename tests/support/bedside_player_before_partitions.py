"""The PLAYER stream as the player before partitions wrote it (the store of commit 90ddb48's
parent): subjects ``player.<listener>.<book>``, no metadata, no atomic batches. For the
migration's tests: a household's events decided by the player's own rules and appended the
way that store appended them, with the projections and history they made.
"""

import asyncio
import random
from dataclasses import dataclass, field

from bedside_contracts import subjects
from bedside_contracts.player import (
    CancelList,
    CancelSleepTimer,
    HistoryEntry,
    JoinDevice,
    ListOffered,
    Moved,
    PlayerCommand,
    PlayerEvent,
    PressRow,
    Report,
    Seek,
    SetSleepTimer,
    TimerRanOut,
    Undo,
)
from bedside_guard import Candidate
from bedside_player.domain import history
from bedside_player.domain.decide import Refused, decide
from bedside_player.domain.state import PlayerState, evolve
from bedside_player.store import msg_id
from bedside_player_testing import SyntheticBook
from nats.js import JetStreamContext
from nats.js.api import StorageType, StreamConfig

NOW = 1_800_000_000_000
"""The player's clock in these tests (ms since the epoch): every report is heard at it."""


OLD_STREAM = StreamConfig(
    name=subjects.PLAYER_STREAM,
    subjects=[subjects.PLAYER_SUBJECTS],
    storage=StorageType.FILE,
    duplicate_window=120.0,
    deny_delete=True,
    deny_purge=True,
    allow_direct=True,
)
BOOKS = {book.id: book for book in (SyntheticBook("b1"), SyntheticBook("b2", duration_ms=3_600_000))}
LISTENERS = ("anna", "ben", "12")
"""``12`` is all digits: ``player.12.b1`` has the shape of neither a partition nor anything but
an original, which the migration must still tell apart."""
DEVICES = ("phone", "speaker")


def old_subject(listener: str, book: str) -> str:
    return f"player.{listener}.{book}"


@dataclass
class OldPlayer:
    """Decides commands on its own projections and appends each event as the old store did."""

    js: JetStreamContext
    states: dict[tuple[str, str], PlayerState] = field(default_factory=dict)
    stored: dict[tuple[str, str], list[history.StoredEvent]] = field(default_factory=dict)

    async def declare(self) -> None:
        await self.js.add_stream(OLD_STREAM)

    def state(self, listener: str, book: str) -> PlayerState:
        return self.states.get((listener, book)) or PlayerState(listener=listener, book=book)

    async def command(self, listener: str, book: str, command: PlayerCommand) -> None:
        served = BOOKS[book]
        try:
            event = decide(
                self.state(listener, book),
                command,
                book_end_ms=served.duration_ms,
                chapters=served.chapters(),
                now_ms=NOW,
            )
        except Refused:
            return
        if event is not None:
            await self.append(listener, book, event)

    async def append(self, listener: str, book: str, event: PlayerEvent) -> int:
        state = self.state(listener, book)
        subject = old_subject(listener, book)
        payload = event.model_dump_json(exclude_none=True).encode()
        headers = {
            "Nats-Msg-Id": msg_id(subject, state.seq, payload),
            "Nats-Expected-Last-Subject-Sequence": str(state.seq),
        }
        ack = await self.js.publish(subject, payload, stream=subjects.PLAYER_STREAM, headers=headers)
        self.states[(listener, book)] = evolve(state, event, ack.seq)
        self.stored.setdefault((listener, book), []).append(history.StoredEvent(ack.seq, event))
        return int(ack.seq)

    def entries(self, listener: str, book: str) -> list[HistoryEntry]:
        """The history the old player answered, newest first."""
        stored = self.stored.get((listener, book), [])
        return history.newest_first(history.entries(listener, book, stored, BOOKS[book].chapters()))


def _row(book: str, start_ms: int, here_ms: int) -> Candidate:
    passage = BOOKS[book].passage(start_ms // 30_000)
    assert passage is not None
    return Candidate.hit(passage, here_ms)


async def a_household(player: OldPlayer, rounds: int, seed: int = 16) -> None:
    """Evenings of listening for every listener and book: devices joining, reports (some from
    a device that missed a move, which the rules refuse), seeks, gotos, lists pressed or
    cancelled, undo, sleep timers set, cancelled and run out."""
    pick = random.Random(seed)
    for _ in range(rounds):
        listener, book = pick.choice(LISTENERS), pick.choice(tuple(BOOKS))
        state = player.state(listener, book)
        device = pick.choice(DEVICES)
        end = BOOKS[book].duration_ms
        here = state.position_ms
        step = pick.randrange(12)
        if step < 5:
            basis = state.seq if pick.random() < 0.8 else max(0, state.seq - pick.randrange(1, 40))
            position = min(end - 1, here + pick.randrange(0, 60_000))
            command: PlayerCommand = Report(
                device=device, position_ms=position, playing=True, basis_seq=basis
            )
            await player.command(listener, book, command)
        elif step == 5:
            await player.command(listener, book, JoinDevice(device=device))
        elif step == 6:
            position = pick.randrange(0, end)
            await player.command(
                listener, book, Seek(device=device, position_ms=position, basis_seq=state.seq)
            )
        elif step == 7:
            to_ms = pick.randrange(0, end // 30_000) * 30_000
            await player.append(listener, book, Moved(cause="goto", from_ms=here, to_ms=to_ms, turn_id="t1"))
        elif step == 8:
            starts = sorted(pick.sample(range(0, end, 30_000), 3))
            rows = [_row(book, start, here) for start in starts]
            await player.append(listener, book, ListOffered(rows=rows, turn_id=f"t{state.seq}"))
            follow_up: PlayerCommand = PressRow(row=1, device=device) if pick.random() < 0.5 else CancelList()
            await player.command(listener, book, follow_up)
        elif step == 9:
            await player.command(listener, book, Undo(device=device))
        elif step == 10:
            await player.command(listener, book, SetSleepTimer(device=device, after=pick.choice((15, 30))))
        elif state.sleep_timer is not None and pick.random() < 0.7:
            stop = state.sleep_timer.stop_at_ms
            ran_out = TimerRanOut(device=device, position_ms=stop, basis_seq=state.seq)
            await player.command(listener, book, ran_out)
        else:
            await player.command(listener, book, CancelSleepTimer(device=device))


async def many_reports(js: JetStreamContext, events: int, keys: int = 200) -> int:
    """``events`` reports of the old shape over ``keys`` listener-books, published 1,000 at a
    time without a subject check (quicker than deciding each); the stream's last sequence."""
    for start in range(0, events, 1000):
        acks = []
        for n in range(start, min(events, start + 1000)):
            payload = (
                f'{{"kind":"reported","device":"phone","position_ms":{n // keys * 1000},'
                f'"playing":true,"basis_seq":{max(0, n - keys)}}}'
            ).encode()
            # a thousand acks at once wait behind one another: under load the default 5 s ran out
            subject = old_subject(f"l{n % keys}", "b1")
            acks.append(js.publish(subject, payload, stream=subjects.PLAYER_STREAM, timeout=60))
        await asyncio.gather(*acks)
    return int((await js.stream_info(subjects.PLAYER_STREAM)).state.last_seq)
