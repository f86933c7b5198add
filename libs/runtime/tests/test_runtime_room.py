import errno
from pathlib import Path

import pytest
from bedside_runtime.errors import NoRoom
from bedside_runtime.room import ensure_room, lack_of_room, reserve_of, size_said, written_or_no_room

MB = 10**6
GIB = 1024**3


@pytest.mark.parametrize(
    ("disk", "reserve"),
    [(20 * MB, MB), (40 * GIB, GIB), (2000 * GIB, GIB), (0, 0)],
)
def test_a_twentieth_of_the_disk_is_kept_free_up_to_a_gib(disk: int, reserve: int) -> None:
    assert reserve_of(disk) == reserve


@pytest.mark.parametrize(
    ("n", "said"),
    [
        (0, "0.0 MB"),
        (480_000, "0.5 MB"),
        (9_949_000, "9.9 MB"),
        (9_990_000, "10 MB"),  # as it rounds, not "10.0 MB"
        (340 * MB, "340 MB"),
        (999_600_000, "1.0 GB"),  # not "1000 MB"
        (9_960_000_000, "10 GB"),
        (340 * 10**9, "340 GB"),
        (2_149 * MB, "2.1 GB"),
    ],
)
def test_a_size_is_said_in_megabytes_or_gigabytes(n: int, said: str) -> None:
    assert size_said(n) == said


def test_a_file_that_leaves_the_reserve_free_fits() -> None:
    disk = 100 * MB  # reserve 5 MB
    assert lack_of_room("the recording", 45 * MB, free=50 * MB, disk_bytes=disk) is None
    assert lack_of_room("the recording", 0, free=5 * MB, disk_bytes=disk) is None


def test_a_file_that_would_eat_into_the_reserve_is_refused_with_both_sizes() -> None:
    said = lack_of_room("the recording", 45 * MB + 1, free=50 * MB, disk_bytes=100 * MB)
    where = "where Bedside keeps its books"
    assert said == f"there is not room for the recording {where}: it is 45 MB and 45 MB is free there"
    nothing_left = lack_of_room("the e-book", MB, free=2 * MB, disk_bytes=100 * MB)
    assert nothing_left == f"there is not room for the e-book {where}: it is 1.0 MB and 0.0 MB is free there"


def test_room_is_asked_of_the_disk_of_the_nearest_folder_that_exists(tmp_path: Path) -> None:
    ensure_room(tmp_path / "not" / "made" / "yet", "the recording", 1)
    with pytest.raises(NoRoom, match="there is not room for the recording"):
        ensure_room(tmp_path / "not" / "made", "the recording", 2**62)


def test_a_disk_that_fills_midway_is_no_room_and_other_failures_are_themselves() -> None:
    with pytest.raises(NoRoom, match="the disk filled"), written_or_no_room("this file"):
        raise OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(PermissionError), written_or_no_room("this file"):
        raise PermissionError(errno.EACCES, "Permission denied")
