"""A container engine for the contract tests: rootful podman serving the Docker API.

No registry is reachable here, so every image is built locally:
- ``localhost/bedside-nats:test``: FROM scratch, the installed nats-server binary;
- ``localhost/bedside-python:3.11``: this machine's own Debian python3.11 and the shared
  libraries it and Bedside's compiled packages need, imported as an image (offline);
- ``localhost/bedside:test``: deploy/Dockerfile on that base.

Settings follow ../shared/notes/containers-without-docker.md: storage and config under
one work directory, runc (crun refuses hybrid cgroups), cgroupfs, ulimits within what a
process without CAP_SYS_RESOURCE may set, Ryuk off, the docker_host connection mode.
``unavailable()`` says why no engine can run here (a skip); ``missing_pieces()`` and
``Engine.smoke_test()`` turn an engine that cannot start a container into one line (a failure).
"""

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bedside_runtime.nats_server import nats_server_binary

from bedside.system_pieces import Group, describe_missing, missing, select

REPO = Path(__file__).resolve().parents[2]
NATS_IMAGE = "localhost/bedside-nats:test"
PYTHON_IMAGE = "localhost/bedside-python:3.11"
SERVICE_IMAGE = "localhost/bedside:test"
DEBIAN_PYTHON = ("python3.11-minimal", "libpython3.11-minimal", "libpython3.11-stdlib")
SMOKE_NETWORK = "bedside-smoke"


def unavailable() -> str | None:
    """Why rootful podman cannot be used here at all, or None (then a missing piece is a failure)."""
    if os.geteuid() != 0:
        return "the container tests need root for rootful podman"
    return None


def missing_pieces() -> str | None:
    """One line naming the container pieces that are missing, or None."""
    found = missing(select([Group.CONTAINERS]))
    return describe_missing(found) if found else None


@dataclass
class Engine:
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bedside-ctr-")))
    service: subprocess.Popen[bytes] | None = None

    @property
    def socket_path(self) -> Path:
        return self.root / "podman.sock"

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "CONTAINERS_STORAGE_CONF": str(self.root / "storage.conf"),
            "CONTAINERS_CONF": str(self.root / "containers.conf"),
            "TMPDIR": str(self.root / "tmp"),
        }

    @property
    def docker_env(self) -> dict[str, str]:
        """What testcontainers (docker-py) needs to use this engine."""
        return {
            "DOCKER_HOST": f"unix://{self.socket_path}",
            "TESTCONTAINERS_CONNECTION_MODE": "docker_host",
            "TESTCONTAINERS_RYUK_DISABLED": "true",
        }

    def configure(self) -> None:
        for sub in ("run", "storage", "tmp", "volumes", "networks"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        (self.root / "storage.conf").write_text(
            f'[storage]\ndriver = "overlay"\nrunroot = "{self.root}/run"\ngraphroot = "{self.root}/storage"\n'
        )
        (self.root / "containers.conf").write_text(
            "[containers]\n"
            'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]\n'
            "[engine]\n"
            'runtime = "runc"\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n'
            f'tmp_dir = "{self.root}/tmp"\nvolume_path = "{self.root}/volumes"\n'
            "[network]\n"
            f'network_backend = "netavark"\nnetwork_config_dir = "{self.root}/networks"\n'
        )

    def podman(self, *args: str, stdin: bytes | None = None, timeout_s: float = 600) -> str:
        done = subprocess.run(
            ["podman", *args], env=self.env, input=stdin, capture_output=True, timeout=timeout_s, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"podman {' '.join(args[:3])} failed ({done.returncode}): {done.stderr.decode()[-2000:]}"
            )
        return done.stdout.decode()

    def start(self, timeout_s: float = 30) -> "Engine":
        self.configure()
        with (self.root / "service.log").open("ab") as log:
            self.service = subprocess.Popen(
                ["podman", "system", "service", "--time=0", f"unix://{self.socket_path}"],
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.service.poll() is not None:
                raise RuntimeError(f"podman system service exited: {(self.root / 'service.log').read_text()}")
            if self.socket_path.exists():
                with socket.socket(socket.AF_UNIX) as probe:
                    try:
                        probe.connect(str(self.socket_path))
                        return self
                    except OSError:
                        pass
            time.sleep(0.1)
        raise RuntimeError("podman system service did not open its socket")

    def stop(self) -> None:
        """Remove every container this engine ran, then stop its API service."""
        try:
            self.podman("rm", "--all", "--force", "--time", "2", timeout_s=120)
            self.podman("network", "prune", "--force", timeout_s=60)
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        if self.service is not None and self.service.poll() is None:
            self.service.terminate()
            try:
                self.service.wait(15)
            except subprocess.TimeoutExpired:
                self.service.kill()
                self.service.wait()
        self.end_leftovers()

    def end_leftovers(self) -> None:
        """conmon processes of exec sessions outlive their containers: end those of this engine.

        Found by this engine's own work directory in their command line, never by name.
        """
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if str(self.root).encode() in command:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(entry.name), signal.SIGKILL)

    # -------------------------------------------------------------- images

    def build_nats_image(self) -> str:
        context = self.root / "nats-image"
        context.mkdir(exist_ok=True)
        shutil.copy2(nats_server_binary(), context / "nats-server")
        (context / "Dockerfile").write_text(
            'FROM scratch\nCOPY nats-server /nats-server\nEXPOSE 4222\nENTRYPOINT ["/nats-server"]\n'
        )
        self.podman("build", "-q", "-t", NATS_IMAGE, str(context))
        return NATS_IMAGE

    def smoke_test(self) -> str | None:
        """Start the NATS image on a bridge network with a published port, as the tests will.

        None when it ran; else the engine's own first line of complaint.
        """
        try:
            self.podman("network", "create", SMOKE_NETWORK, timeout_s=60)
            try:
                self.podman(
                    "run",
                    "--rm",
                    "--network",
                    SMOKE_NETWORK,
                    "-p",
                    "127.0.0.1::4222",
                    NATS_IMAGE,
                    "--version",
                    timeout_s=120,
                )
            finally:
                self.podman("network", "rm", "--force", SMOKE_NETWORK, timeout_s=60)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            lines = [line.strip() for line in str(error).splitlines() if line.strip()]
            return " / ".join(lines[:3])
        return None

    def build_python_image(self, site: Path) -> str:
        """This machine's Debian python3.11, plus the libraries ``site``'s compiled modules need."""
        rootfs = self.root / "python-rootfs"
        shutil.rmtree(rootfs, ignore_errors=True)
        listed = subprocess.run(
            ["dpkg", "-L", *DEBIAN_PYTHON], capture_output=True, text=True, check=True
        ).stdout.split()
        files = {Path(p) for p in listed if Path(p).is_file() or Path(p).is_symlink()}
        objects = [Path("/usr/bin/python3.11")]
        objects += list(Path("/usr/lib/python3.11/lib-dynload").glob("*.so"))
        objects += list(site.rglob("*.so")) + list(site.rglob("*.so.*"))
        files |= {lib for lib in shared_libraries(objects) if not lib.is_relative_to(site)}
        # Debian's merged /usr: /lib, /lib64 and /bin are links into /usr, here as there.
        for link in ("lib", "lib64", "bin", "sbin"):
            (rootfs / "usr" / link).mkdir(parents=True, exist_ok=True)
            (rootfs / link).symlink_to(f"usr/{link}")
        for path in sorted(files):
            real_parent = path.parent.resolve()
            target = rootfs / real_parent.relative_to("/") / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists() or target.is_symlink():
                continue
            if path.is_symlink():
                target.symlink_to(os.readlink(path))
            else:
                shutil.copy2(path, target)
        (rootfs / "usr/bin/python3").symlink_to("python3.11")
        for directory in ("tmp", "data", "etc"):
            (rootfs / directory).mkdir(exist_ok=True)
        (rootfs / "tmp").chmod(0o1777)
        (rootfs / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/sh\n")
        (rootfs / "etc/group").write_text("root:x:0:\n")
        tar = subprocess.run(
            ["tar", "-C", str(rootfs), "--numeric-owner", "-c", "."], capture_output=True, check=True
        ).stdout
        self.podman(
            "import",
            "--change",
            'CMD ["python3"]',
            "--change",
            "ENV LANG=C.UTF-8",
            "-",
            PYTHON_IMAGE,
            stdin=tar,
        )
        return PYTHON_IMAGE

    def build_service_image(self) -> str:
        """deploy/Dockerfile on the offline base, from the context deploy/prepare-site makes."""
        subprocess.run(["bash", str(REPO / "deploy" / "prepare-site")], check=True, capture_output=True)
        context = REPO / "deploy" / ".build"
        self.build_python_image(context / "site")
        self.podman(
            "build",
            "-q",
            "-f",
            str(REPO / "deploy" / "Dockerfile"),
            "--build-arg",
            f"PYTHON_IMAGE={PYTHON_IMAGE}",
            "-t",
            SERVICE_IMAGE,
            str(context),
            timeout_s=900,
        )
        return SERVICE_IMAGE


LDD_LINE = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x")


def shared_libraries(objects: list[Path]) -> set[Path]:
    """Every shared library (and its symlink chain) the ``objects`` load, by ldd."""
    found: set[Path] = set()
    for chunk in range(0, len(objects), 200):
        done = subprocess.run(
            ["ldd", *map(str, objects[chunk : chunk + 200])], capture_output=True, text=True, check=False
        )
        for match in LDD_LINE.finditer(done.stdout):
            path = Path(match.group(1))
            if path.exists():
                found.add(path)
                found.add(path.resolve())
    return found
