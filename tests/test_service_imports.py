"""A service starts without the client libraries the household's settings never use.

The anthropic SDK (over two seconds of CPU to import) is for a turn with a Claude key, and
qdrant-client (two seconds) for search against a Qdrant server; a keyless household on the
embedded store starts every service, after every crash too, without paying for either.
"""

import subprocess
import sys

import pytest
from bedside_runtime.settings import Settings
from bedside_turn.main import model_client
from pydantic import SecretStr


@pytest.mark.parametrize(
    ("service", "library"), [("bedside_turn.main", "anthropic"), ("bedside_search.main", "qdrant_client")]
)
def test_a_service_starts_without_a_library_its_settings_do_not_use(service: str, library: str) -> None:
    loaded = f"import sys, {service}; print({library!r} in sys.modules)"
    done = subprocess.run([sys.executable, "-c", loaded], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr


def test_with_a_key_the_turn_has_its_model_client() -> None:
    assert model_client(Settings(anthropic_api_key=None)) is None
    client = model_client(Settings(anthropic_api_key=SecretStr("sk-test")))
    assert type(client).__name__ == "AsyncAnthropic"
