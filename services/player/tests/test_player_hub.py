"""The SSE hub: each state once, a device that is behind skips to the newest, one frame for
every device, and pushes on a real nats-server for listeners this copy does not serve."""

import asyncio

from bedside_contracts import subjects
from bedside_contracts.player import ListenerState
from bedside_player.domain.state import PlayerState
from bedside_player.hub import STREAMS_PER_BOOK, Hub, Watcher, state_frame
from nats.aio.client import Client

NOW = 1_800_000_000_000
"""The player's clock in these tests (ms since the epoch): every report is heard at it."""


def state(seq: int, position_ms: int = 1_000, listener: str = "anna") -> PlayerState:
    return PlayerState(listener=listener, book="b1", position_ms=position_ms, seq=seq)


async def frames_ready(watcher: Watcher) -> list[bytes]:
    """What the device's writer would write now, without waiting for more."""
    out = []
    while watcher.pending is not None:
        frame = await watcher.next_frame()
        assert frame is not None
        out.append(frame)
    return out


async def test_a_device_that_is_behind_gets_only_the_newest_state_and_never_an_older_one() -> None:
    hub = Hub()
    device = await hub.watch("anna", "b1")
    hub(state(3, 3_000))
    hub(state(5, 5_000))  # not read in between: 3 is skipped
    hub(state(4, 4_000))  # older than what was handed out: dropped
    assert await frames_ready(device) == [
        state_frame(5, state(5, 5_000).public(NOW).model_dump_json().encode())
    ]
    hub(state(5, 5_000))
    hub.show(device, state(2).public(NOW))  # a current state read late, older than a push
    assert await frames_ready(device) == []
    hub(state(6, 6_000))
    assert [f.split(b"\n")[1] for f in await frames_ready(device)] == [b"id: 6"]
    await hub.stop()


async def test_every_device_on_a_book_writes_the_one_frame_made_for_the_state() -> None:
    hub = Hub()
    devices = [await hub.watch("anna", "b1") for _ in range(3)]
    other = await hub.watch("bert", "b1")
    hub(state(7))
    frames = [(await frames_ready(d))[0] for d in devices]
    assert all(frame is frames[0] for frame in frames)
    assert await frames_ready(other) == []
    await hub.stop()


async def test_an_ended_stream_stops_its_writer_and_the_hub_forgets_it() -> None:
    hub = Hub()
    device = await hub.watch("anna", "b1")
    writer = asyncio.create_task(device.next_frame())
    await asyncio.sleep(0)
    hub.unwatch(device)
    assert await writer is None
    assert hub.watchers == {}
    await hub.stop()


async def test_a_stream_past_the_most_a_book_keeps_closes_the_oldest() -> None:
    """A page that opened streams in a loop, or connections a network dropped unseen, held a socket
    and a writer each without end; the devices of a house on one book are a handful."""
    hub = Hub()
    streams = [await hub.watch("anna", "b1") for _ in range(STREAMS_PER_BOOK)]
    other = await hub.watch("bert", "b1")
    newest = await hub.watch("anna", "b1")
    assert await streams[0].next_frame() is None  # its writer ends the response
    assert not any(s.closed for s in [*streams[1:], newest, other])
    assert len(hub.watchers[("anna", "b1")]) == STREAMS_PER_BOOK
    hub(state(8))
    assert [len(await frames_ready(s)) for s in (streams[1], newest)] == [1, 1]
    hub.unwatch(streams[0])  # the ended stream's own goodbye changes nothing more
    assert len(hub.watchers[("anna", "b1")]) == STREAMS_PER_BOOK
    await hub.stop()


async def test_pushes_from_the_owning_copy_reach_devices_here_unless_this_copy_serves_the_listener(
    nats_client: Client,
) -> None:
    served = {"mine"}
    pushed_for_mine = asyncio.Event()

    def is_served(listener: str) -> bool:
        if listener == "mine":
            pushed_for_mine.set()  # the push reached the hub, which now decides on it
        return listener in served

    hub = Hub(is_served=is_served)
    hub.connection = nats_client
    elsewhere = await hub.watch("theirs", "b1")
    here = await hub.watch("mine", "b1")
    for listener in ("mine", "theirs"):  # in this order on one connection
        pushed = ListenerState(
            listener=listener, book="b1", position_ms=42_000, playing=True, seq=9, last_move_seq=9
        )
        subject = subjects.PLAYER_PUSH.format(listener=listener, book="b1")
        await nats_client.publish(subject, pushed.model_dump_json().encode())
    frame = await asyncio.wait_for(elsewhere.next_frame(), 10)
    assert frame is not None
    assert b'"position_ms":42000' in frame
    await asyncio.wait_for(pushed_for_mine.wait(), 10)
    assert here.pending is None  # dropped: this copy's own applies carry that listener
    hub(state(10, 43_000, listener="mine"))
    assert [f.split(b"\n")[1] for f in await frames_ready(here)] == [b"id: 10"]
    await hub.stop()


async def test_a_push_is_taken_for_the_listener_and_book_of_its_subject_only(nats_client: Client) -> None:
    """A code review: a push was delivered to the devices of whatever listener its body named, so a
    message on one listener's subject could move another listener's pages."""
    hub = Hub()
    hub.connection = nats_client
    bea = await hub.watch("bea", "b1")
    carl = await hub.watch("carl", "b1")
    claims_bea = ListenerState(
        listener="bea", book="b1", position_ms=7_000, playing=False, seq=5, last_move_seq=5
    )
    await nats_client.publish(
        subjects.PLAYER_PUSH.format(listener="carl", book="b1"), claims_bea.model_dump_json().encode()
    )
    own = ListenerState(listener="carl", book="b1", position_ms=8_000, playing=False, seq=6, last_move_seq=6)
    await nats_client.publish(
        subjects.PLAYER_PUSH.format(listener="carl", book="b1"), own.model_dump_json().encode()
    )
    frame = await asyncio.wait_for(carl.next_frame(), 10)
    assert frame is not None
    assert b"id: 6" in frame
    assert bea.pending is None
    await hub.stop()
