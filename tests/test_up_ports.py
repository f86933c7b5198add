"""`bedside up` on a port something else holds says which port and how to choose another."""

import os
import socket
import subprocess
import sys
from pathlib import Path

from bedside_runtime.nats_server import free_port


def test_a_page_port_in_use_is_named_with_the_setting_that_moves_it(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = dict(
            os.environ,
            BEDSIDE_DATA_DIR=str(tmp_path / "data"),
            BEDSIDE_NATS_PORT=str(free_port()),
            BEDSIDE_HTTP_PORT=str(port),
            COLUMNS="300",
        )
        env.pop("NATS_URL", None)
        done = subprocess.run(
            [sys.executable, "-m", "bedside", "up"],
            check=False,
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
        )
    assert done.returncode == 1
    assert f"port {port} (the page) is already in use" in done.stderr
    assert "BEDSIDE_HTTP_PORT" in done.stderr
    assert "bus " not in done.stdout  # refused before anything started
