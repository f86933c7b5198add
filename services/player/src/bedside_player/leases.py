"""Partition leases on a JetStream KV bucket: the thin I/O loop around ``domain.ownership``.

The bucket ``bedside-player-leases`` has a TTL: a key not written again within
``LEASE_TTL_S`` ages out, and the server leaves a marker that every watcher sees. Keys:

- ``copy.<id>``: each live copy's heartbeat, written every ``RENEW_EVERY_S``;
- ``partition.<n>``: the lease of partition ``n``, its value the owner's copy id.

Every lease write is a compare-and-set on the key's revision (the stream's expected last
subject sequence): a claim names the revision of the marker or deletion it replaces (0 for
a key never written), a renewal the revision of the owner's own last write, a release
(a delete marker) the same. Two copies can therefore never both win a partition, and a copy
whose renewal is refused has lost it. A copy's view of the bucket comes from one watcher.

Why two copies never serve one partition at once: a claim names the revision of a marker or
deletion its plan saw, so it wins only once no copy's lease on the partition is live; and a copy
serves a partition only until ``TRUSTED_FOR_S`` after sending its last accepted write of the lease,
which the server keeps live for ``LEASE_TTL_S`` (longer) after taking it. So nothing else may make
a copy serve: not a view naming it the owner, not seeing no other copy.
"""

import asyncio
import contextlib
import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import structlog
from bedside_contracts import subjects
from bedside_runtime.streams import key_value_bucket
from bedside_runtime.tasks import cancel_and_wait
from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import APIError, NotFoundError
from nats.js.kv import KeyValue

from bedside_player.domain.ownership import plan, trusted

log = structlog.get_logger("bedside.player.leases")

LEASE_TTL_S = 3.0
RENEW_EVERY_S = 1.0
MARKER_TTL_S = 60.0
"""How long the server keeps the marker of an aged-out key: a claim names its revision."""
WRITE_TIMEOUT_S = 2.0
TRUSTED_FOR_S = LEASE_TTL_S - 0.5
"""How long after its last accepted write was sent this copy trusts a lease of its own. The server
ages the key out no sooner than a TTL after it took that write, so the follower stops serving the
partition before another copy can win it, however late a renewal's ack comes back."""
CHECK_TRUST_EVERY_S = 0.25
INITIAL_VIEW_TIMEOUT_S = 10.0
KV_OPERATION = "KV-Operation"
MARKER_REASON = "Nats-Marker-Reason"
"""Headers of a key's deletion and of the server's marker when a key ages out: not live."""
RENEWALS_TASK = "bedside-lease-renewals"
WRONG_LAST_SEQUENCE = frozenset({10071, 10164})
COPY_PREFIX = "copy."
PARTITION_PREFIX = "partition."


def raise_first(outcomes: Iterable[object]) -> None:
    """Raise the first error of writes gathered with ``return_exceptions``, once every outcome
    has been recorded: a round is cut short only after its other writes are done with."""
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome


def new_copy_id() -> str:
    """Unique per process: a copy restarted is a new copy, and its old leases age out."""
    return f"p{os.getpid()}-{secrets.token_hex(4)}"


@dataclass(frozen=True)
class Seen:
    """The newest message of one key as this copy knows it."""

    value: str
    revision: int
    live: bool


@dataclass(frozen=True)
class CurrentKey:
    key: str
    seen: Seen


class LeaseKeeper:
    def __init__(
        self,
        connection: Client,
        copy_id: str,
        partitions: int,
        hold: Callable[[frozenset[int]], None],
        replicas: int = 1,
    ) -> None:
        self.connection = connection
        self.js = connection.jetstream(timeout=WRITE_TIMEOUT_S)
        self.me = copy_id
        self.partitions = partitions
        self.hold = hold
        self.replicas = replicas
        self.view: dict[str, Seen] = {}
        self.mine: dict[int, int] = {}
        """partition -> the revision of this copy's own last write of its lease."""
        self.sent_at: dict[int, float] = {}
        """partition -> when this copy's last accepted write of its lease was sent (loop time)."""
        self.wake = asyncio.Event()
        self._told: frozenset[int] = frozenset()
        self.failed: BaseException | None = None
        self._kv: KeyValue | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stream = f"KV_{subjects.PLAYER_LEASES_BUCKET}"
        self._prefix = f"$KV.{subjects.PLAYER_LEASES_BUCKET}."

    # -- the view --------------------------------------------------------------------

    def copies(self) -> set[str]:
        view = self.view.items()
        return {k.removeprefix(COPY_PREFIX) for k, seen in view if k.startswith(COPY_PREFIX) and seen.live}

    def owners(self) -> dict[int, str]:
        return {
            int(k.removeprefix(PARTITION_PREFIX)): seen.value
            for k, seen in self.view.items()
            if k.startswith(PARTITION_PREFIX) and seen.live
        }

    def owner_of(self, partition: int) -> str | None:
        """The copy whose live lease on ``partition`` this copy has seen last."""
        seen = self.view.get(PARTITION_PREFIX + str(partition))
        return seen.value if seen is not None and seen.live else None

    @property
    def settled(self) -> bool:
        """Every partition has a live owner, as far as this copy sees."""
        return len(self.owners()) == self.partitions

    @property
    def healthy(self) -> bool:
        return self.failed is None and all(not task.done() for task in self._tasks)

    def _see(self, key: str, seen: Seen) -> None:
        before = self.view.get(key)
        if before is not None and before.revision >= seen.revision:
            return
        self.view[key] = seen
        if before is None or before.live != seen.live or before.value != seen.value:
            self.wake.set()

    # -- start and stop --------------------------------------------------------------

    async def open(self) -> None:
        config = KeyValueConfig(
            bucket=subjects.PLAYER_LEASES_BUCKET,
            history=1,
            ttl=LEASE_TTL_S,
            limit_marker_ttl=MARKER_TTL_S,
            storage=StorageType.FILE,
            replicas=self.replicas,
        )
        self._kv = await key_value_bucket(self.js, config)
        watcher = await self._kv.watchall()
        try:
            first = await watcher.updates(timeout=INITIAL_VIEW_TIMEOUT_S)  # type: ignore[no-untyped-call]
            while first is not None:  # the keys as they are now, then None
                self._see_entry(first)
                first = await watcher.updates(timeout=INITIAL_VIEW_TIMEOUT_S)  # type: ignore[no-untyped-call]
        except NatsTimeoutError:
            # nats-py's watcher can miss the end of the keys as they were (the server counted a key
            # that aged out before it was delivered, or the consumer's info came late): read them
            # from the stream instead; the watcher goes on delivering what changes after.
            log.warning("lease watcher gave no end of the initial keys; reading them from the stream")
            for key in await self._current_keys():
                self._see(key.key, key.seen)
        self._tasks = [
            asyncio.create_task(self._watch(watcher)),
            asyncio.create_task(self._keep(), name=RENEWALS_TASK),
            asyncio.create_task(self._check_trust()),
        ]

    async def _current_keys(self) -> list["CurrentKey"]:
        """Each key's last message in the bucket's stream: its value and revision, or the
        revision of the marker or deletion that ended it (a claim names that revision)."""
        stream = f"KV_{subjects.PLAYER_LEASES_BUCKET}"
        prefix = f"$KV.{subjects.PLAYER_LEASES_BUCKET}."
        info = await self.js.stream_info(stream, subjects_filter=f"{prefix}>")
        found: list[CurrentKey] = []
        for subject in sorted(info.state.subjects or {}):
            try:
                last = await self.js.get_last_msg(stream, subject)
            except NotFoundError:  # gone between the listing and the read
                continue
            headers = last.headers or {}
            live = KV_OPERATION not in headers and MARKER_REASON not in headers
            value = (last.data or b"").decode(errors="replace") if live else ""
            found.append(CurrentKey(subject.removeprefix(prefix), Seen(value, int(last.seq or 0), live)))
        return found

    def _see_entry(self, entry: KeyValue.Entry) -> None:
        live = entry.operation is None
        value = (entry.value or b"").decode(errors="replace") if live else ""
        self._see(entry.key, Seen(value, int(entry.revision or 0), live))

    async def _watch(self, watcher: KeyValue.KeyWatcher) -> None:
        async for entry in watcher:
            if entry is not None:
                self._see_entry(entry)

    async def stop(self) -> None:
        """Give every lease back (the other copies need not wait for them to age out)."""
        await cancel_and_wait(*self._tasks)
        held, self.mine = self.mine, {}
        self.sent_at.clear()
        released = await asyncio.gather(
            *(self._release(p, r) for p, r in held.items()), return_exceptions=True
        )
        if failed := [repr(error) for error in released if isinstance(error, BaseException)]:
            log.warning("some leases were not given back: they age out", errors=failed[:3], count=len(failed))
        with contextlib.suppress(NatsError, TimeoutError):
            await self._write(COPY_PREFIX + self.me, b"", None, delete=True)

    # -- the loop ----------------------------------------------------------------------

    async def _keep(self) -> None:
        loop = asyncio.get_running_loop()
        next_renewal = 0.0
        try:
            while True:
                self.wake.clear()
                try:
                    if loop.time() >= next_renewal:
                        next_renewal = loop.time() + RENEW_EVERY_S
                        await self._renew()
                        await self._read_leases_of_copies_gone()
                    await self._act()
                except (NatsError, TimeoutError) as error:  # the bus is away: try again shortly
                    log.warning("lease round failed", error=repr(error))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), max(0.0, next_renewal - loop.time()))
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            self.failed = error
            log.exception("the lease keeper stopped")
            raise

    def _tell(self) -> None:
        """Tell the follower what this copy holds and still trusts, whenever that changed (a round
        cut short too; ``domain.ownership.trusted``)."""
        now = asyncio.get_running_loop().time()
        sent_at = {p: sent for p, sent in self.sent_at.items() if p in self.mine}
        still = trusted(sent_at, now, TRUSTED_FOR_S)
        if still != self._told:
            self._told = still
            self.hold(still)

    async def _check_trust(self) -> None:
        """A renewal whose ack is late holds up ``_keep``; the trust runs out on time regardless."""
        while True:
            await asyncio.sleep(CHECK_TRUST_EVERY_S)
            self._tell()

    async def _act(self) -> None:
        self._tell()
        leases = {p: self.view.get(PARTITION_PREFIX + str(p)) for p in range(self.partitions)}
        # Held is only what a write of this copy's own was acknowledged for: a view naming this copy
        # may be behind a refused renewal or a release in flight, and says nothing of when the
        # write it shows was sent. A lease naming this copy that it does not hold is claimed again (`plan`).
        owners = self.owners()
        decision = plan(self.me, self.partitions, self.copies(), owners, self.mine)
        if decision.release:
            revisions = {p: self.mine.pop(p) for p in decision.release}
            for partition in revisions:
                self.sent_at.pop(partition, None)
            self._tell()
            released = await asyncio.gather(
                *(self._release(p, rev) for p, rev in revisions.items()), return_exceptions=True
            )
            log.info("released leases", partitions=list(decision.release), holding=len(self.mine))
            raise_first(released)
        if decision.claim:
            # each names the revision at which the plan saw it free, not the view's by the time it is
            # sent: the watcher may have brought another copy's claim since, and naming that would win
            free_at = {p: seen.revision if (seen := leases[p]) is not None else 0 for p in decision.claim}
            won = await asyncio.gather(
                *(self._claim(p, free_at[p]) for p in decision.claim), return_exceptions=True
            )
            claimed = [p for p, ok in zip(decision.claim, won, strict=True) if ok is True]
            self._tell()
            if claimed:
                log.info("claimed leases", partitions=claimed, holding=len(self.mine))
            raise_first(won)

    def _own_revision(self, partition: int, revision: int) -> int:
        """The newest revision of this copy's own lease: a write whose ack was lost still counts."""
        seen = self.view.get(PARTITION_PREFIX + str(partition))
        if seen is not None and seen.live and seen.value == self.me:
            return max(revision, seen.revision)
        return revision

    async def _renew(self) -> None:
        """The heartbeat and every held lease written again at once. Each renewal counts on its own:
        one that fails leaves its lease trusted from its last accepted write, the others go on."""
        held = [(p, self._own_revision(p, rev)) for p, rev in self.mine.items()]
        sent = asyncio.get_running_loop().time()
        heartbeat, *revisions = await asyncio.gather(
            self._write(COPY_PREFIX + self.me, self.me.encode(), None),
            *(self._write(PARTITION_PREFIX + str(p), self.me.encode(), rev) for p, rev in held),
            return_exceptions=True,
        )
        refused = []
        for (partition, _), revision in zip(held, revisions, strict=True):
            if isinstance(revision, BaseException):
                continue  # not known whether it was taken; a later renewal names the view's newest
            if revision is None:
                refused.append(partition)
            else:
                self.mine[partition] = revision
                self.sent_at[partition] = sent
        kept = await asyncio.gather(*(self._renew_own_unseen(p) for p in refused), return_exceptions=True)
        lost = [p for p, ok in zip(refused, kept, strict=True) if ok is False]  # an error: not known yet
        for partition in lost:
            self.mine.pop(partition, None)
            self.sent_at.pop(partition, None)
        if lost:
            log.warning("leases lost: a renewal was refused", partitions=lost)
            self._tell()
            self.wake.set()
        raise_first([heartbeat, *revisions, *kept])

    async def _read_leases_of_copies_gone(self) -> None:
        """Read again each lease the view gives a copy whose heartbeat is gone. Such a lease ages out
        within a TTL and every watcher sees the server's marker; but a claim refused just as the
        server aged one out read it back as still live (seen in CI: three copies, one stopped), and
        the view kept that with nothing later to mend it, so no copy ever claimed the partition."""
        live = self.copies() | {self.me}
        gone = [p for p, owner in self.owners().items() if owner not in live]
        raise_first(
            await asyncio.gather(
                *(self._refresh(PARTITION_PREFIX + str(p)) for p in gone), return_exceptions=True
            )
        )

    async def _renew_own_unseen(self, partition: int) -> bool:
        """After a refused renewal: whether the lease is this copy's still, renewed again. A renewal
        whose ack was lost (a round timed out under load) may have been taken, and with the watcher
        behind, the next one named the revision before it; refused, the lease looked lost though no
        other copy had it. The key is read again: this copy's own live lease is renewed over its
        real revision, anything else is lost."""
        key = PARTITION_PREFIX + str(partition)
        await self._refresh(key)
        seen = self.view[key]
        if not (seen.live and seen.value == self.me):
            return False
        sent = asyncio.get_running_loop().time()
        revision = await self._write(key, self.me.encode(), seen.revision)
        if revision is None:
            return False
        self.mine[partition] = revision
        self.sent_at[partition] = sent
        return True

    async def _claim(self, partition: int, expected: int) -> bool:
        """Write this copy's lease over the marker or deletion at ``expected`` (0: never written)."""
        key = PARTITION_PREFIX + str(partition)
        sent = asyncio.get_running_loop().time()
        revision = await self._write(key, self.me.encode(), expected)
        if revision is None:
            await self._refresh(key)
            log.info("a claim was refused", partition=partition, expected=expected, now=self.view.get(key))
            return False
        self.mine[partition] = revision
        self.sent_at[partition] = sent
        return True

    async def _release(self, partition: int, revision: int) -> None:
        """A delete marker, only over this copy's own lease (refused if it is not ours any more)."""
        expected = self._own_revision(partition, revision)
        await self._write(PARTITION_PREFIX + str(partition), b"", expected, delete=True)

    async def _write(self, key: str, value: bytes, expected: int | None, delete: bool = False) -> int | None:
        """The revision written, or None when ``expected`` was not the key's revision any more."""
        headers: dict[str, str] = {}
        if expected is not None:
            headers["Nats-Expected-Last-Subject-Sequence"] = str(expected)
        if delete:
            headers["KV-Operation"] = "DEL"
        try:
            subject = self._prefix + key
            ack = await self.js.publish(subject, value, headers=headers or None, stream=self._stream)
        except APIError as error:
            if error.err_code in WRONG_LAST_SEQUENCE:
                return None
            raise
        live = not delete
        self._see(key, Seen(value.decode() if live else "", int(ack.seq), live))
        return int(ack.seq)

    async def _refresh(self, key: str) -> None:
        """Read one key again after a refused claim (the marker this copy saw may have aged out)."""
        try:  # the bucket's stream allows no direct get
            msg = await self.js.get_msg(self._stream, subject=self._prefix + key)
        except NotFoundError:
            self.view[key] = Seen("", 0, False)
            return
        headers = msg.headers or {}
        live = "KV-Operation" not in headers and "Nats-Marker-Reason" not in headers
        value = (msg.data or b"").decode(errors="replace") if live else ""
        self.view[key] = Seen(value, int(msg.seq or 0), live)
