"""A JetStream cluster on loopback, from the installed nats-server: for the fault tests and benches.

Three (or more) real server processes on free ports, each with its own temporary store,
routed to each other. The harness can say which node leads a stream, and kill (SIGKILL,
as a crash would) and restart a node on the same store, so a test can take the leader
away in the middle of a burst of writes and then check what was acknowledged.
"""

import contextlib
import json
import signal
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bedside_runtime.nats_server import ClusterPeer, NatsServer, NatsServerConfig, NatsServerError, free_port


class ClusterError(RuntimeError):
    """The cluster did not reach the state a test waited for."""


@dataclass
class NatsCluster:
    """Nodes of one cluster; ``urls`` is what a client (or ``NATS_URL``) is given."""

    name: str
    nodes: list[NatsServer]

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    @property
    def nats_url(self) -> str:
        """The comma-separated form that Bedside's ``NATS_URL`` accepts."""
        return ",".join(self.urls)

    def node(self, name: str) -> NatsServer:
        for node in self.nodes:
            if node.config.name == name:
                return node
        raise KeyError(
            f"no node {name!r} in cluster {self.name}; nodes: {[n.config.name for n in self.nodes]}"
        )

    def running(self) -> list[NatsServer]:
        return [n for n in self.nodes if n.process is not None and n.process.poll() is None]

    def start(self, timeout_s: float = 30.0) -> "NatsCluster":
        # All at once: a node waits for its peers' routes before JetStream is healthy.
        for node in self.nodes:
            node.start(wait=False)
        try:
            for node in self.nodes:
                node.wait_ready(timeout_s)
            self.wait_for_meta_leader(timeout_s)
        except (NatsServerError, ClusterError):
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def kill(self, name: str) -> None:
        """SIGKILL one node: no flush, no goodbye to its peers."""
        self.node(name).kill()

    def pause(self, name: str) -> None:
        """SIGSTOP one node: it holds its connections but answers nothing (a long GC, a stalled VM)."""
        process = self.node(name).process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGSTOP)

    def resume(self, name: str) -> None:
        process = self.node(name).process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGCONT)

    def restart(self, name: str, timeout_s: float = 30.0) -> None:
        """Start a killed or stopped node again on its own store."""
        node = self.node(name)
        node.stop()
        node.start(timeout_s)

    def monitor(self, node: NatsServer, path: str) -> dict[str, Any]:
        url = f"http://127.0.0.1:{node.config.monitor_port}{path}"
        with urllib.request.urlopen(url, timeout=1.0) as reply:
            data: dict[str, Any] = json.loads(reply.read())
            return data

    def meta_leader(self) -> str | None:
        """The node that leads the JetStream meta group, once it sees every running peer current.

        Only the leader's own view of its followers is reliable; a stream created before
        the followers are current can time out.
        """
        running = {n.config.name for n in self.running()}
        for node in self.running():
            with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
                meta = self.monitor(node, "/jsz").get("meta_cluster", {})
                if meta.get("leader") != node.config.name:
                    continue
                current = {r["name"] for r in meta.get("replicas", []) if r.get("current")}
                if running - {node.config.name} <= current:
                    return node.config.name
        return None

    def wait_for_meta_leader(self, timeout_s: float = 30.0) -> str:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if leader := self.meta_leader():
                return leader
            time.sleep(0.05)
        raise ClusterError(f"no JetStream meta leader with every running peer current in {timeout_s} s")

    def stream_leader(self, stream: str, account: str = "$G") -> str | None:
        """The node that leads ``stream`` now (asked of every running node; first answer wins)."""
        for node in self.running():
            with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
                data = self.monitor(node, f"/jsz?accounts=true&streams=true&acc={account}")
                for acc in data.get("account_details", []):
                    for stream_info in acc.get("stream_detail", []):
                        if stream_info.get("name") == stream:
                            leader = stream_info.get("cluster", {}).get("leader")
                            if leader:
                                return str(leader)
        return None

    def wait_for_stream_leader(self, stream: str, timeout_s: float = 30.0, not_on: str | None = None) -> str:
        """Wait until ``stream`` has a leader (other than ``not_on``, e.g. a node just killed)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            leader = self.stream_leader(stream)
            if leader and leader != not_on:
                return leader
            time.sleep(0.05)
        raise ClusterError(f"stream {stream} has no leader (other than {not_on}) after {timeout_s} s")


def distinct_free_ports(count: int) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        if (port := free_port()) not in ports:
            ports.append(port)
    return ports


def cluster_of(size: int = 3, base_dir: Path | None = None, name: str = "bedside-test") -> NatsCluster:
    """A cluster's nodes on free loopback ports with fresh stores; call ``start()`` on it."""
    root = base_dir or Path(tempfile.mkdtemp(prefix=f"{name}-"))
    ports = distinct_free_ports(3 * size)
    route_ports, client_ports, monitor_ports = ports[:size], ports[size : 2 * size], ports[2 * size :]
    peers = [ClusterPeer(name=f"n{i + 1}", route_port=port) for i, port in enumerate(route_ports)]
    nodes = [
        NatsServer(
            NatsServerConfig(
                store_dir=root / peer.name,
                port=client_ports[i],
                monitor_port=monitor_ports[i],
                name=peer.name,
                cluster_name=name,
                route_port=peer.route_port,
                peers=[p for p in peers if p is not peer],
            )
        )
        for i, peer in enumerate(peers)
    ]
    return NatsCluster(name=name, nodes=nodes)


def start_cluster(size: int = 3, base_dir: Path | None = None, name: str = "bedside-test") -> NatsCluster:
    """Start a ``size``-node JetStream cluster on loopback and wait for its meta leader."""
    return cluster_of(size, base_dir, name).start()
