"""Which devices still play the book, and where a playing book has got to by now (ADR 48).

A playing page reports every ``REPORT_EVERY_MS`` (``web/state.js``), and the player stamps
each report with its own clock when it takes it (``heard_at_ms``). A device that goes without
saying so (a crashed tab, a phone killed or off the network) just stops reporting: one not
heard for ``GONE_QUIET_MS`` no longer keeps the book playing. Plain code: the caller gives
the clock, so replay, tests and every copy read the same answer from the same events.
"""

from collections.abc import Iterable
from typing import NamedTuple

from bedside_contracts.player import book_ms_heard_in

REPORT_EVERY_MS = 15_000
"""How often a playing page reports where it is (``REPORT_EVERY_MS`` in ``web/state.js``)."""
GONE_QUIET_MS = 8 * REPORT_EVERY_MS
"""Silence after which a playing device counts as gone. A background tab without sound has its
timers held to one a minute, so it reports every 60 s: twice that, and then some."""


class PlayingDevice(NamedTuple):
    device: str
    heard_at_ms: int | None
    """The player's clock at the device's newest playing report; None for a report stored
    before reports were stamped, which says nothing about the device still being there."""


def heard_lately(player: PlayingDevice, now_ms: int) -> bool:
    return player.heard_at_ms is not None and now_ms - player.heard_at_ms <= GONE_QUIET_MS


def plays_now(playing: bool, players: Iterable[PlayingDevice], now_ms: int) -> bool:
    """Whether the book plays: its newest word says so and a device playing it was heard lately.

    A book whose every player has gone quiet is told as paused where it was last reported:
    when such a device stopped is not known, and a place further on would count words as heard
    that may never have been (the line). The state itself is left as the stream made it."""
    return playing and any(heard_lately(player, now_ms) for player in players)


def with_report(
    players: tuple[PlayingDevice, ...], device: str, playing: bool, heard_at_ms: int | None
) -> tuple[PlayingDevice, ...]:
    """The players after ``device`` reported: a pause empties them (ADR 45), playing (re)stamps it."""
    if not playing:
        return ()
    heard = PlayingDevice(device, heard_at_ms)
    if len(players) == 1 and players[0].device == device:  # the usual case: one device playing
        return (heard,)
    return (*(player for player in players if player.device != device), heard)


class SpeedChanged(NamedTuple):
    """A change of speed: when, on the player's clock, and the speed it played at before."""

    at_ms: int
    speed_before: float


def speed_changes_since(
    changes: tuple[SpeedChanged, ...], reported_at_ms: int | None, change: SpeedChanged | None
) -> tuple[SpeedChanged, ...]:
    """The changes of speed that where a playing book has got to must count, ``change`` the newest:
    those since its newest report (heard at ``reported_at_ms``), each stretch between them played at
    its own speed. Older ones count for nothing: a report says where the book was. A change not
    stamped (an older event) leaves none: all the time since the report counts at the new speed."""
    if change is None:
        return ()
    return (*speed_changes_after(changes, reported_at_ms), change)[-SPEED_CHANGES_KEPT:]


SPEED_CHANGES_KEPT = 32
"""The most changes of speed kept, the newest: a device gone quiet while playing reports nothing that
would trim them, and they go into every snapshot. More within one report's reach are no listener's; time
before the oldest kept would count at its speed before."""


def speed_changes_after(
    changes: tuple[SpeedChanged, ...], heard_at_ms: int | None
) -> tuple[SpeedChanged, ...]:
    """Of ``changes``, those a book reported at ``heard_at_ms`` must count (``book_played`` passes over the
    rest): made after the report was heard; none with no time heard (nothing counts on from it)."""
    if heard_at_ms is None or not changes:
        return ()
    return tuple(change for change in changes if change.at_ms > heard_at_ms)


def book_played(since_ms: int, now_ms: int, speed: float, changes: tuple[SpeedChanged, ...]) -> int:
    """How much of the book plays from ``since_ms`` to ``now_ms`` at ``speed``, and before each change
    of speed within that time, at the speed before it."""
    played, start = 0, since_ms
    for change in changes:
        if change.at_ms <= start:
            continue
        end = min(change.at_ms, now_ms)
        played += book_ms_heard_in(max(0, end - start), change.speed_before)
        start = max(start, end)
    return played + book_ms_heard_in(max(0, now_ms - start), speed)


def reached(
    position_ms: int,
    reported: PlayingDevice | None,
    now_ms: int,
    ceiling_ms: int | None,
    *,
    speed: float = 1.0,
    speed_changes: tuple[SpeedChanged, ...] = (),
) -> int:
    """Where a book reported at ``position_ms`` by ``reported`` has got to at ``now_ms``, playing
    at ``speed`` since (before each of ``speed_changes``, at the speed before it): never back, never
    past ``ceiling_ms`` (the end, a sleep timer's stop), and from a device not heard lately, no further
    than the report (it may have stopped then)."""
    if reported is None or reported.heard_at_ms is None or not heard_lately(reported, now_ms):
        return position_ms
    ahead = position_ms + book_played(reported.heard_at_ms, now_ms, speed, speed_changes)
    return ahead if ceiling_ms is None else max(position_ms, min(ahead, ceiling_ms))
