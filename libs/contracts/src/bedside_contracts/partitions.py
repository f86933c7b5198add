"""Which partition a listener's events belong to: the one rule every writer and reader uses.

A listener's events (all of their books) live in one partition, so one player copy holds
all of a listener's state. The partition is part of the event subject,
``player.<partition>.<listener>.<book>``, so a copy follows only its partitions' subjects.
The number of partitions is fixed for the life of a PLAYER stream (the stream records it).
"""

import functools

from bedside_contracts import subjects

DEFAULT_PARTITIONS = 64
_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193
CACHED_LISTENERS = 1 << 16
"""Every request and append asks for a listener's partition or subject; hashed in Python each
time, that was a few microseconds of each report."""


@functools.lru_cache(maxsize=CACHED_LISTENERS)
def partition_of(listener: str, partitions: int = DEFAULT_PARTITIONS) -> int:
    """A deterministic hash (32-bit FNV-1a of the id's UTF-8) of the listener, modulo ``partitions``.

    Not Python's ``hash``: that differs between processes.
    """
    value = _FNV_OFFSET
    for byte in listener.encode():
        value = ((value ^ byte) * _FNV_PRIME) & 0xFFFFFFFF
    return value % partitions


@functools.lru_cache(maxsize=CACHED_LISTENERS)
def events_subject(listener: str, book: str, partitions: int = DEFAULT_PARTITIONS) -> str:
    """The PLAYER stream subject of one listener and book."""
    return subjects.PLAYER_EVENTS.format(
        partition=partition_of(listener, partitions), listener=listener, book=book
    )


def partition_events(partition: int) -> str:
    """The filter subject of every event of one partition."""
    return subjects.PLAYER_PARTITION_EVENTS.format(partition=partition)


def partition_requests(partition: int, copy: str) -> str:
    """What ``copy`` answers while it owns ``partition``:
    ``bedside.player.partition.<n>.<copy>.<operation>``."""
    return subjects.PLAYER_PARTITION_REQUESTS.format(partition=partition, copy=copy)


def partition_request(partition: int, copy: str, operation: str) -> str:
    return subjects.PLAYER_PARTITION_REQUEST.format(partition=partition, copy=copy, operation=operation)
