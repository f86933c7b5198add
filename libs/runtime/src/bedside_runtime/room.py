"""Room on a disk for a listener's files, asked before they are written.

A disk filled to the last byte fails whatever writes next: the bus's own log among them, which
stops storing anything when it cannot write. So a file that would leave less than a reserve free
is refused, before its bytes are sent where that can be known, with the sizes a listener can act on.
"""

import errno
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from nats.js.errors import APIError

from bedside_runtime.errors import NoRoom

RESERVE_SHARE = 20
"""A twentieth of the disk is kept free,"""
RESERVE_MOST = 1024**3
"""but never more than a GiB: on a big disk a GiB is room enough for what the house writes meanwhile."""


def reserve_of(disk_bytes: int) -> int:
    return min(RESERVE_MOST, disk_bytes // RESERVE_SHARE)


def usable_of(free: int, disk_bytes: int) -> int:
    """The bytes of ``free`` that may be written before the reserve."""
    return max(0, free - reserve_of(disk_bytes))


def size_said(n: int) -> str:
    """A size as a listener reads it: 2.1 GB, 340 MB, 0.5 MB."""
    # A tenth shown below ten; each step from where the one below would round up to it: 9.99 MB
    # is "10 MB", not "10.0 MB", and 999.6 MB "1.0 GB", not "1000 MB".
    scale, unit = (1e9, "GB") if n >= 999_500_000 else (1e6, "MB")
    return f"{n / scale:.0f} {unit}" if n >= 9.95 * scale else f"{n / scale:.1f} {unit}"


def no_room_for(what: str, why: str) -> str:
    return f"there is not room for {what} where Bedside keeps its books: {why}"


def lack_of_room(what: str, needed: int, free: int, disk_bytes: int) -> str | None:
    """Why ``needed`` bytes of ``what`` cannot be written to a disk of ``disk_bytes`` with ``free``
    bytes free, or None when they can."""
    usable = usable_of(free, disk_bytes)
    if needed <= usable:
        return None
    return no_room_for(what, f"it is {size_said(needed)} and {size_said(usable)} is free there")


def ensure_room(folder: Path, what: str, needed: int) -> None:
    """Raise ``NoRoom`` when ``needed`` bytes would leave ``folder``'s disk short of its reserve
    (the disk of its nearest folder that exists, when it is yet to be made)."""
    usage = shutil.disk_usage(_nearest_existing(folder))
    if (lack := lack_of_room(what, needed, usage.free, usage.total)) is not None:
        raise NoRoom(lack)


def usable_room(folder: Path) -> int:
    """The bytes that may be written to ``folder``'s disk before its reserve."""
    usage = shutil.disk_usage(_nearest_existing(folder))
    return usable_of(usage.free, usage.total)


def past_usable_room(what: str, usable: int) -> NoRoom:
    """Refuses a file of a size not known before it came, once it outgrows the room there was."""
    return NoRoom(no_room_for(what, f"it is more than the {size_said(usable)} free there"))


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
"""A disk with no space left, or a quota used up: the same to a listener."""
STORE_FULL = frozenset({10023, 10002})
"""JetStream refusing a message at its own storage limits: the server's and the account's. (A
store whose disk itself is full does not answer at all: the put times out.)"""


@contextmanager
def written_or_no_room(what: str) -> Iterator[None]:
    """A write the disk fills midway (another writer took the room meanwhile, or the size was not
    known before) fails as ``NoRoom``, not as a bare ``OSError``; so does a put that JetStream
    refuses for its storage limits."""
    try:
        yield
    except OSError as error:
        if error.errno not in DISK_FULL:
            raise
        raise NoRoom(no_room_for(what, "the disk filled")) from None
    except APIError as error:
        if error.err_code not in STORE_FULL:
            raise
        raise NoRoom(no_room_for(what, "the bus's store is full")) from None
