"""Bedside on "the home network" for browser tests: HTTPS on 127.0.0.2 from the local authority.

The player serves HTTPS on 127.0.0.2, standing in for the machine's home-network address, with
a certificate from Bedside's own local authority, made by the code `bedside up --lan` runs.
A browser trusts that authority as a phone does once it is installed: in its own certificate
store (an NSS database in a HOME made for the test). A device pairs by the one-time code that
`bedside pair` prints. Every request a page makes can be checked to stay on the loopback.
"""

import asyncio
import ipaddress
import os
import re
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import nats
import pytest
from bedside_contracts.ingest import IngestBook
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_ingest.sample import SAMPLE_TRANSCRIPT
from bedside_network_lock import network_turn
from bedside_player.lan import LanFiles, lan_settings, served_environment
from bedside_runtime.nats_server import free_port
from bedside_runtime.settings import Settings
from bedside_testing import RunningSystem, add_listener, start_test_nats
from playwright.sync_api import Browser, Page, Playwright, Route

from bedside.system_pieces import CHROMIUM_HEADLESS_SHELL, Group, describe_missing, missing, select

# Debian's build of chromium's headless shell: the full browser in its headless mode took three
# times the CPU over the same browser tests (ADR 68), and the suite is bound by CPU.
CHROMIUM = Path(CHROMIUM_HEADLESS_SHELL)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOME_ADDRESS = "127.0.0.2"


def need_chromium() -> None:
    """The browser's pieces (chromium, certutil), or the test skips saying what brings them."""
    if found := missing(select([Group.BROWSER])):
        pytest.skip(describe_missing(found))


@contextmanager
def chromium(playwright: Playwright, *args: str, home: Path | None = None) -> Iterator[Browser]:
    """Debian's chromium, launched in the browsers' turn (bedside_network_lock) and closed after;
    ``home`` holds the certificate store it trusts (nss_home)."""
    with network_turn(adds_interfaces=False):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[*CHROMIUM_ARGS, *args],
            env={**os.environ, "HOME": str(home)} if home is not None else None,
        )
        try:
            yield browser
        finally:
            browser.close()


BOOK = "sample"
LOOPBACK = ipaddress.ip_network("127.0.0.0/8")


@dataclass
class LanBedside:
    system: RunningSystem
    files: LanFiles
    token: str
    listener: str

    @property
    def url(self) -> str:
        return self.system.http_url

    def https(self) -> httpx.Client:
        """A client that trusts the local authority and nothing else."""
        return httpx.Client(base_url=self.url, verify=ssl.create_default_context(cafile=self.files.ca_cert))


async def ingest_and_add_listener(nats_url: str, listener: str) -> str:
    client = await nats.connect(nats_url)
    try:
        report = await request_ingest(
            client, IngestBook(path=str(SAMPLE_TRANSCRIPT), book=BOOK), timeout_s=600
        )
        assert await wait_until_ready(client, report.book, report.version, 240)
    finally:
        await client.close()
    return await add_listener(nats_url, listener)


@contextmanager
def lan_bedside(name: str, services: tuple[str, ...], listener: str) -> Iterator[LanBedside]:
    """The services on their own bus, the player on HTTPS at ``HOME_ADDRESS``, the sample book in."""
    need_chromium()
    # Its own bus: the one book in the catalog is the one the page opens without being told.
    server = start_test_nats(name)
    data_dir = Path(tempfile.mkdtemp(prefix="bedside-lan-"))
    served, _ = lan_settings(Settings(data_dir=data_dir), HOME_ADDRESS)  # what `bedside up --lan` does
    system = RunningSystem(server.url, data_dir, services, free_port())
    system.env |= served_environment(served)
    served = served.model_copy(update={"http_port": system.http_port})
    served.page_url_file.write_text(served.page_base_url)
    try:
        system.start(timeout_s=300)
        token = asyncio.run(ingest_and_add_listener(server.url, listener))
        running = LanBedside(system, LanFiles(served.lan_dir), token, listener)
        with running.https() as http:
            for _ in range(240):
                if http.get(f"/api/books/{BOOK}", headers={"Authorization": f"Bearer {token}"}).is_success:
                    break
                time.sleep(0.25)
        yield running
    finally:
        system.stop()
        server.stop()


def nss_home(authority: Path | None) -> Path:
    """A HOME whose NSS store trusts ``authority`` to vouch for servers (or trusts nothing extra)."""
    home = Path(tempfile.mkdtemp(prefix="bedside-browser-home-"))
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{store}", "--empty-password"], check=True)
    if authority is not None:
        subprocess.run(
            ["certutil", "-A", "-d", f"sql:{store}", "-n", "Bedside", "-t", "C,,", "-i", str(authority)],
            check=True,
        )
    return home


def pair_link(bedside: LanBedside) -> tuple[str, str]:
    """`bedside pair` as a listener runs it: the link it prints, and all it printed."""
    bedside_cli = Path(sys.executable).parent / "bedside"
    done = subprocess.run(
        [str(bedside_cli), "pair", "--listener", bedside.listener],
        env=bedside.system.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    match = re.search(r"^page\s+(\S+)$", done.stdout, re.MULTILINE)
    assert match, done.stdout + done.stderr
    return match.group(1), done.stdout


def on_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return ipaddress.ip_address(host) in LOOPBACK
    except ValueError:  # a name, not an address: it would be looked up, so it is not ours
        return False


def fresh_device(browser: Browser, outside: list[str], only: str | None = HOME_ADDRESS) -> Page:
    """A new browser context (no cookie); a request off ``only`` (or, with None, off the loopback
    range) is refused and noted in ``outside``."""
    context = browser.new_context(viewport={"width": 412, "height": 915})

    def stay_home(route: Route) -> None:
        url = route.request.url
        allowed = urlsplit(url).hostname == only if only is not None else on_loopback(url)
        if allowed:
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", stay_home)
    return context.new_page()
