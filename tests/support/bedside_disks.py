"""A small real disk for a test: a tmpfs mounted over one folder, so that a write fills it for real."""

import os
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, check=False)


@contextmanager
def small_disk(folder: Path, megabytes: int) -> Iterator[Path]:
    """``folder`` on a disk of its own of ``megabytes``, until the block ends. CI runs as root; a
    machine where mounting is not allowed skips the test."""
    if os.geteuid() != 0:
        pytest.skip("a small disk is mounted for this test, which needs root")
    if shutil.which("mount") is None:
        pytest.skip("no `mount` command: `bash scripts/install-system disks` installs Debian's mount")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = _mount("-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(folder))
    if mounted.returncode != 0:
        pytest.skip(f"a small disk could not be mounted: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        unmounted = subprocess.run(
            ["umount", "--lazy", str(folder)], capture_output=True, text=True, check=False
        )
        if unmounted.returncode != 0:  # said, without hiding what the test itself raised
            warnings.warn(f"{folder} stays mounted: {unmounted.stderr.strip()}", stacklevel=1)


def grow(folder: Path, megabytes: int) -> None:
    """The small disk at ``folder`` made ``megabytes`` large, its files kept."""
    grown = _mount("-o", f"remount,size={megabytes}m", str(folder))
    assert grown.returncode == 0, grown.stderr
