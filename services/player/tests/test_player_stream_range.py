"""The bulk reader's callback side: it hands over only chunks whose consumer sequences follow
on without a hole, checked once a chunk, and stops at the end of its range."""

from bedside_player.stream_range import Stored, _Chunks, ack_reply_numbers
from nats.aio.msg import Msg


def consumer_msg(stream_seq: int, consumer_seq: int, pending: int, domain: bool = False) -> Msg:
    numbers = f"1.{stream_seq}.{consumer_seq}.1764633600000000000.{pending}"
    # the longer form has a domain and an account hash in front and a random token at the end
    front = "$JS.ACK.hub.ACCOUNTHASH" if domain else "$JS.ACK"
    reply = f"{front}.PLAYER.replay.{numbers}" + (".x7Yq" if domain else "")
    return Msg(_client=None, subject=f"player.3.l{stream_seq}.b1", reply=reply, data=b"{}")  # type: ignore[arg-type]


class Asks:
    """Counts the pull requests the callback side sends."""

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self) -> None:
        self.count += 1


def chunks_of(size: int, through_seq: int) -> _Chunks:
    return _Chunks(size, through_seq, Asks())


async def fed(chunks: _Chunks, msgs: list[Msg]) -> list[list[Stored]]:
    for msg in msgs:
        await chunks.receive(msg)
    return list(chunks.ready)


def test_the_numbers_of_both_forms_of_reply_subject() -> None:
    for domain in (False, True):
        assert ack_reply_numbers(consumer_msg(40, 7, 3, domain).reply) == (40, 7, 3)


async def test_every_message_of_the_range_in_chunks_of_the_size_asked() -> None:
    for domain in (False, True):
        chunks = chunks_of(size=4, through_seq=100)
        # stream sequences with gaps (other subjects), consumer sequences without
        msgs = [consumer_msg(10 + 3 * n, n + 1, 9 - n, domain) for n in range(10)]
        ready = await fed(chunks, msgs)
        assert [len(chunk) for chunk in ready] == [4, 4, 2]
        assert [seq for chunk in ready for _, seq, _ in chunk] == [10 + 3 * n for n in range(10)]
        assert chunks.finished
        assert chunks.failure is None
        # each full chunk answered a request, which is asked again at once; the last ends the read
        assert isinstance(chunks.ask, Asks)
        assert chunks.ask.count == 2


async def test_the_read_ends_at_the_last_sequence_asked_for() -> None:
    chunks = chunks_of(size=4, through_seq=16)
    ready = await fed(chunks, [consumer_msg(10 + 3 * n, n + 1, 9 - n) for n in range(10)])
    assert [seq for chunk in ready for _, seq, _ in chunk] == [10, 13, 16]
    assert chunks.finished


async def test_a_chunk_with_a_hole_is_not_handed_over_and_the_read_fails() -> None:
    msgs = [consumer_msg(n + 1, n + 1, 20 - n) for n in range(10)]
    del msgs[5]  # consumer sequence 6 never arrives
    chunks = chunks_of(size=4, through_seq=100)
    ready = await fed(chunks, msgs)
    assert [seq for chunk in ready for _, seq, _ in chunk] == [1, 2, 3, 4]
    assert chunks.failure is not None
    assert "consumer sequences 5 to 9" in chunks.failure
    assert isinstance(chunks.ask, Asks)
    assert chunks.ask.count == 1  # none after the chunk that failed


async def test_a_hole_between_chunks_fails_too() -> None:
    msgs = [consumer_msg(n + 1, n + 1, 20 - n) for n in range(12)]
    del msgs[4]  # the second chunk would start at consumer sequence 6
    chunks = chunks_of(size=4, through_seq=100)
    ready = await fed(chunks, msgs)
    assert len(ready) == 1
    assert chunks.failure is not None


async def test_a_message_without_a_consumer_reply_fails_the_read() -> None:
    chunks = chunks_of(size=4, through_seq=100)
    odd = Msg(_client=None, subject="player.3.l1.b1", reply="inbox.1", data=b"{}")  # type: ignore[arg-type]
    assert await fed(chunks, [consumer_msg(1, 1, 5), odd]) == []
    assert chunks.failure is not None
