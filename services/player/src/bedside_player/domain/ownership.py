"""Which partitions a player copy should claim or release, given the leases it sees (ADR 36).

Plain rule, no I/O. Every live copy gets a fair share: ``partitions // copies``, and one
more for the first ``partitions % copies`` copies in id order, so the shares of copies that
see the same copies add up to every partition. A copy claims free partitions up to its
share and releases what it holds beyond it. Each copy prefers partitions by a hash of its
own id and the partition (rendezvous order), so copies claiming at once mostly reach for
different free partitions, and a copy releases the ones it prefers least.
"""

import hashlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Plan:
    claim: tuple[int, ...] = ()
    release: tuple[int, ...] = ()


def share(me: str, copies: Collection[str], partitions: int) -> int:
    """How many partitions ``me`` should hold among ``copies`` (``me`` counts even if absent)."""
    live = sorted(set(copies) | {me})
    base, extra = divmod(partitions, len(live))
    return base + (1 if live.index(me) < extra else 0)


def preference(me: str, partition: int) -> bytes:
    return hashlib.sha256(f"{me}/{partition}".encode()).digest()


def plan(
    me: str,
    partitions: int,
    copies: Collection[str],
    owners: Mapping[int, str],
    mine: Collection[int],
) -> Plan:
    """What ``me`` should do now.

    ``copies``: the copies with a live heartbeat; ``owners``: partition -> owner of every live
    lease; ``mine``: the partitions ``me`` holds by its own writes.

    A live lease that names ``me`` but is not held (a renewal refused after the server came back
    with an older revision, or a claim whose ack was lost) is claimable at once: no other copy
    serves a partition named for ``me``, and the claim's compare-and-set on the revision seen fails
    if anyone wrote since. Waiting for it to age out instead waits for ever when the server's
    expiry or this copy's watch of it did not survive the server's restart.
    """
    wanted = share(me, copies, partitions)
    held = set(mine)
    if len(held) < wanted:
        free = [p for p in range(partitions) if owners.get(p, me) == me and p not in held]
        free.sort(key=lambda p: preference(me, p))
        return Plan(claim=tuple(free[: wanted - len(held)]))
    if len(held) > wanted:
        surplus = sorted(held, key=lambda p: preference(me, p), reverse=True)
        return Plan(release=tuple(sorted(surplus[: len(held) - wanted])))
    return Plan()


def trusted(sent_at: Mapping[int, float], now: float, trusted_for_s: float) -> frozenset[int]:
    """Of the partitions held (each with when its last accepted lease write was sent), those
    this copy may still serve: a lease sent ``trusted_for_s`` ago or more may have aged out and
    gone to another copy. A copy that sees no other copy is no exception: its view may be behind
    a copy that is starting, or one whose heartbeat aged out while its loop was held up."""
    return frozenset(p for p, sent in sent_at.items() if now - sent < trusted_for_s)
