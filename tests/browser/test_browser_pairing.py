"""Pairing a fresh browser over HTTPS on "the home network", in Debian's chromium.

The player serves HTTPS on 127.0.0.2, standing in for the machine's home-network address,
with a certificate from Bedside's own local authority, made by the code `bedside up --lan`
runs. The browser trusts that authority as a phone does once it is installed: in its own
certificate store (an NSS database in a HOME made for the test), and it is not told to
overlook any certificate error. The device pairs by the one-time code that `bedside pair`
printed. Every request the page makes is checked: one to any other address fails the test.
"""

import asyncio
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import nats
import pytest
from bedside_contracts.ingest import IngestBook
from bedside_ingest.client import request_ingest, wait_until_ready
from bedside_ingest.sample import SAMPLE_TRANSCRIPT
from bedside_player.lan import LanFiles, lan_settings, served_environment
from bedside_player.listeners import Listeners
from bedside_runtime.nats_server import free_port
from bedside_runtime.settings import Settings
from bedside_testing import RunningSystem, start_test_nats
from playwright.sync_api import Browser, Error, Page, Route, expect, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOME_ADDRESS = "127.0.0.2"
BOOK = "sample"
LISTENER = "phone-owner"
WAIT_MS = 20_000


@dataclass
class LanBedside:
    system: RunningSystem
    files: LanFiles
    token: str

    @property
    def url(self) -> str:
        return self.system.http_url

    def https(self) -> httpx.Client:
        """A client that trusts the local authority and nothing else."""
        return httpx.Client(base_url=self.url, verify=ssl.create_default_context(cafile=self.files.ca_cert))


async def ingest_and_add_listener(nats_url: str) -> str:
    client = await nats.connect(nats_url)
    try:
        report = await request_ingest(
            client, IngestBook(path=str(SAMPLE_TRANSCRIPT), book=BOOK), timeout_s=600
        )
        assert await wait_until_ready(client, report.book, report.version, 240)
        return await (await Listeners.open(client.jetstream())).create(LISTENER)
    finally:
        await client.close()


@pytest.fixture(scope="module")
def bedside() -> Iterator[LanBedside]:
    for needed in (CHROMIUM, Path("/usr/bin/certutil")):
        if not needed.exists():
            pytest.skip(f"{needed} is absent: `bash scripts/install-system browser` installs it")
    # Its own bus: the one book in the catalog is the one the page opens without being told.
    server = start_test_nats("pairing")
    data_dir = Path(tempfile.mkdtemp(prefix="bedside-lan-"))
    served, _ = lan_settings(Settings(data_dir=data_dir), HOME_ADDRESS)  # what `bedside up --lan` does
    system = RunningSystem(server.url, data_dir, ("search", "player", "ingest"), free_port())
    system.env |= served_environment(served)
    served = served.model_copy(update={"http_port": system.http_port})
    served.page_url_file.write_text(served.page_base_url)
    try:
        system.start(timeout_s=300)
        token = asyncio.run(ingest_and_add_listener(server.url))
        running = LanBedside(system, LanFiles(served.lan_dir), token)
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


@pytest.fixture(scope="module")
def browsers(bedside: LanBedside) -> Iterator[tuple[Browser, Browser]]:
    """One chromium that trusts the local authority, one that does not."""
    playwright = sync_playwright().start()
    try:
        trusting = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            env={**os.environ, "HOME": str(nss_home(bedside.files.ca_cert))},
        )
        untrusting = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env={**os.environ, "HOME": str(nss_home(None))}
        )
        try:
            yield trusting, untrusting
        finally:
            trusting.close()
            untrusting.close()
    finally:
        playwright.stop()


def pair_link(bedside: LanBedside) -> tuple[str, str]:
    """`bedside pair` as a listener runs it: the link it prints, and all it printed."""
    bedside_cli = Path(sys.executable).parent / "bedside"
    done = subprocess.run(
        [str(bedside_cli), "pair", "--listener", LISTENER],
        env=bedside.system.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    match = re.search(r"^page\s+(\S+)$", done.stdout, re.MULTILINE)
    assert match, done.stdout + done.stderr
    return match.group(1), done.stdout


def fresh_device(browser: Browser, outside: list[str]) -> Page:
    """A new browser context (no cookie); any request not to the home address is refused and noted."""
    context = browser.new_context(viewport={"width": 412, "height": 915})

    def only_home(route: Route) -> None:
        if urlsplit(route.request.url).hostname == HOME_ADDRESS:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_home)
    return context.new_page()


def test_a_fresh_browser_pairs_by_the_code_over_https_and_then_plays(
    bedside: LanBedside, browsers: tuple[Browser, Browser]
) -> None:
    trusting, _ = browsers
    link, printed = pair_link(bedside)
    assert link.startswith(f"https://{HOME_ADDRESS}:{bedside.system.http_port}/#pair=")
    assert bedside.token not in printed
    assert "▄" in printed or "█" in printed  # the QR code, drawn in the terminal
    assert f"{bedside.url}/bedside-ca.crt" in printed
    outside: list[str] = []

    phone = fresh_device(trusting, outside)
    phone.goto(link)
    expect(phone.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
    expect(phone.get_by_role("status").filter(has_text="Live on this device")).to_be_visible(timeout=WAIT_MS)
    assert "pair=" not in phone.url  # the code left the address bar
    (cookie,) = phone.context.cookies()
    assert (cookie["name"], cookie["secure"], cookie["httpOnly"], cookie["sameSite"]) == (
        "bedside_device",
        True,
        True,
        "Strict",
    )
    # The cookie moves the book: the listener's own token sees the move.
    phone.get_by_role("button", name="Forward 30 seconds").click()
    with bedside.https() as http:
        state_path = f"/api/listeners/{LISTENER}/books/{BOOK}/state"
        auth = {"Authorization": f"Bearer {bedside.token}"}
        for _ in range(80):
            if http.get(state_path, headers=auth).json()["position_ms"] == 30_000:
                break
            phone.wait_for_timeout(250)
        assert http.get(state_path, headers=auth).json()["position_ms"] == 30_000
    # Opened again later, with nothing in the address: still paired.
    phone.goto(bedside.url + "/")
    expect(phone.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)

    # The code was for one device: a second fresh browser is told so, and gets nothing.
    thief = fresh_device(trusting, outside)
    thief.goto(link)
    expect(thief.locator("#notice")).to_contain_text("unknown, used or expired", timeout=WAIT_MS)
    expect(thief.locator("main")).not_to_have_attribute("data-ready", "true")
    assert thief.context.cookies() == []
    assert outside == []


def test_the_certificate_holds_only_for_a_browser_that_trusts_the_local_authority(
    bedside: LanBedside, browsers: tuple[Browser, Browser]
) -> None:
    _, untrusting = browsers
    page = untrusting.new_page()
    with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
        page.goto(bedside.url + "/")
    page.context.close()
    # What a phone downloads to trust it; and Python's own TLS accepts the chain for 127.0.0.2.
    with bedside.https() as http:
        served = http.get("/bedside-ca.crt")
        assert served.status_code == 200
        assert served.headers["content-type"] == "application/x-x509-ca-cert"
        assert served.content == bedside.files.ca_cert.read_bytes()
        assert http.head("/bedside-ca.crt").status_code == 200
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(bedside.url + "/")


def test_the_page_is_served_on_the_chosen_address_only(bedside: LanBedside) -> None:
    with socket.socket() as probe, pytest.raises(ConnectionRefusedError):
        probe.connect(("127.0.0.1", bedside.system.http_port))


def test_a_device_that_cannot_scan_pairs_by_the_code_typed_in(
    bedside: LanBedside, browsers: tuple[Browser, Browser]
) -> None:
    trusting, _ = browsers
    link, _ = pair_link(bedside)
    code = link.rsplit("#pair=", 1)[1]
    outside: list[str] = []
    tablet = fresh_device(trusting, outside)
    tablet.goto(bedside.url + "/")
    expect(tablet.locator("#notice")).to_contain_text("not paired", timeout=WAIT_MS)
    # Typed as a person might: lower case, no dash.
    tablet.get_by_label("Pairing code").fill(code.replace("-", "").lower())
    tablet.get_by_role("button", name="Pair this device").click()
    expect(tablet.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
    expect(tablet.locator("#pair-form")).to_be_hidden()
    assert outside == []
