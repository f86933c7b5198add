"""Pairing a fresh browser over HTTPS on "the home network", in Debian's chromium.

The player serves HTTPS on 127.0.0.2, standing in for the machine's home-network address,
with a certificate from Bedside's own local authority, made by the code `bedside up --lan`
runs. The browser trusts that authority as a phone does once it is installed: in its own
certificate store (an NSS database in a HOME made for the test), and it is not told to
overlook any certificate error. The device pairs by the one-time code that `bedside pair`
printed. Every request the page makes is checked: one to any other address fails the test.
"""

import socket
from collections.abc import Iterator

import httpx
import pytest
from bedside_lan_testing import (
    HOME_ADDRESS,
    LanBedside,
    chromium,
    fresh_device,
    lan_bedside,
    nss_home,
    pair_link,
)
from playwright.sync_api import Browser, Error, expect, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

BOOK = "sample"
LISTENER = "phone-owner"
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def bedside() -> Iterator[LanBedside]:
    with lan_bedside("pairing", ("search", "player", "ingest"), LISTENER) as running:
        yield running


@pytest.fixture(scope="module")
def browsers(bedside: LanBedside) -> Iterator[tuple[Browser, Browser]]:
    """One chromium that trusts the local authority, one that does not."""
    playwright = sync_playwright().start()
    try:
        with (
            chromium(playwright, home=nss_home(bedside.files.ca_cert)) as trusting,
            chromium(playwright, home=nss_home(None)) as untrusting,
        ):
            yield trusting, untrusting
    finally:
        playwright.stop()


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
