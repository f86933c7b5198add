"""The test support's turn between browsers and the container engine (bedside_network_lock)."""

import tempfile
import threading
from pathlib import Path

import pytest
from bedside_network_lock import network_turn


@pytest.fixture(autouse=True)
def a_lock_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not the run's own lock, which a browser on another worker may hold meanwhile."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def taken_in_a_thread(*, adds_interfaces: bool, release: threading.Event) -> threading.Event:
    taken = threading.Event()

    def take() -> None:
        with network_turn(adds_interfaces=adds_interfaces):
            taken.set()
            release.wait(10)

    threading.Thread(target=take, daemon=True).start()
    return taken


def test_browsers_share_the_turn_and_the_engine_waits_for_them_all() -> None:
    release = threading.Event()
    with network_turn(adds_interfaces=False):
        assert taken_in_a_thread(adds_interfaces=False, release=release).wait(5)
        engine = taken_in_a_thread(adds_interfaces=True, release=release)
        assert not engine.wait(0.5)
        release.set()
    assert engine.wait(5)


def test_a_browser_waits_while_the_engine_runs() -> None:
    release = threading.Event()
    with network_turn(adds_interfaces=True):
        browser = taken_in_a_thread(adds_interfaces=False, release=release)
        assert not browser.wait(0.5)
    assert browser.wait(5)
    release.set()
