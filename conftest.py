"""Session fixtures shared by every test folder: one real nats-server for the whole run, and one
temporary folder for everything the run writes."""

import gc
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator

import nats
import pytest
import structlog
from bedside_runtime.nats_server import NatsServer, free_port
from bedside_testing import start_test_nats
from hypothesis import settings
from nats.aio.client import Client

# A test never asserts a timing, and hypothesis's deadline on each example is one: on a loaded
# two-core machine a 0.2 ms example once took 437 ms.
settings.register_profile("bedside", deadline=None)
settings.load_profile("bedside")

_RUN_FOLDER = pytest.StashKey[tuple[str, str | None, str | None]]()


def _plain_tracebacks() -> None:
    """structlog's default draws an error's traceback with rich, every local included: a handler
    failing on purpose over the test book took seconds of the event loop on a loaded machine, past
    the reply a test waits for. Otherwise its default processors."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.StackInfoRenderer(),
            structlog.dev.set_exc_info,
            structlog.processors.TimeStamper(fmt="%Y-%m-%d %H:%M:%S", utc=False),
            structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback),
        ]
    )


def pytest_configure(config: pytest.Config) -> None:
    """Point this process's temporary files, and those of every process it starts, into one folder.

    The stores, data folders, browser homes and container engines of a run add up to about 1 GB;
    left in /tmp they piled up run after run. Under xdist the workers inherit the controller's
    folder (TMPDIR), so what one worker caches there another finds, and the controller removes it
    once every worker is done.
    """
    _plain_tracebacks()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    folder = tempfile.mkdtemp(prefix="bedside-tests-")
    config.stash[_RUN_FOLDER] = (folder, tempfile.tempdir, os.environ.get("TMPDIR"))
    tempfile.tempdir = folder
    os.environ["TMPDIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    if _RUN_FOLDER not in config.stash:
        return
    folder, tempdir_before, tmpdir_before = config.stash[_RUN_FOLDER]
    tempfile.tempdir = tempdir_before
    if tmpdir_before is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = tmpdir_before
    shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The container tests last: they never run beside a browser (bedside_network_lock), and the
    browser tests are collected first, so a worker rarely waits for the other's turn."""
    items.sort(key=lambda item: "containers" in item.path.parts)


@pytest.fixture(autouse=True, scope="module")
def leaks_blamed_on_their_module() -> Iterator[None]:
    """Collect the garbage as each test module ends, so an unclosed socket or transport it left
    behind warns (an error here) in that module's last test, not in whichever later test the
    collector happened to run in. Per module, not per test: one collection costs ~0.4 s once the
    models are loaded, which per test would add minutes to the suite (README.md, "Tests and benchmarks").
    """
    yield
    gc.collect()


@pytest.fixture(scope="session")
def nats_url() -> Iterator[str]:
    server = start_test_nats("session")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def nats_client(nats_url: str) -> AsyncIterator[Client]:
    """A connection of the test's own to the session's server, closed after it."""
    connection = await nats.connect(nats_url)
    try:
        yield connection
    finally:
        await connection.close()


@pytest.fixture
def own_nats() -> Iterator[NatsServer]:
    """A nats-server of the test's own, for streams and buckets of a shape no other test shares."""
    server = start_test_nats(f"own-{free_port()}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def own_nats_client(own_nats: NatsServer) -> AsyncIterator[Client]:
    """A connection to the test's own nats-server, closed after it."""
    connection = await nats.connect(own_nats.url)
    try:
        yield connection
    finally:
        await connection.close()
