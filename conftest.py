"""Session fixtures shared by every test folder: one real nats-server for the whole run."""

from collections.abc import Iterator

import pytest
from bedside_testing import start_test_nats


@pytest.fixture(scope="session")
def nats_url() -> Iterator[str]:
    server = start_test_nats("session")
    try:
        yield server.url
    finally:
        server.stop()
