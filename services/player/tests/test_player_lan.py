"""The local authority and the server certificate, checked by a real X.509 path validator."""

import datetime
import ipaddress
import tempfile
from pathlib import Path

import pytest
from bedside_player.lan import LanFiles, ensure_certificates, load_authority, make_server_certificate
from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError


def files() -> LanFiles:
    return LanFiles(Path(tempfile.mkdtemp(prefix="bedside-lan-")))


def verify(lan: LanFiles, subject: x509.DNSName | x509.IPAddress) -> None:
    """What a phone that trusts the authority does with the chain the server sends."""
    ca = x509.load_pem_x509_certificate(lan.ca_cert.read_bytes())
    leaf, *rest = x509.load_pem_x509_certificates(lan.server_cert.read_bytes())
    verifier = (
        PolicyBuilder()
        .store(Store([ca]))
        .time(datetime.datetime.now(datetime.UTC))
        .build_server_verifier(subject)
    )
    verifier.verify(leaf, rest)


def test_the_server_certificate_holds_for_each_name_and_address_it_was_made_for() -> None:
    lan = files()
    lines = ensure_certificates(
        lan, ["bedroom-pi", "bedroom-pi.local", "localhost"], ["127.0.0.2", "192.168.1.20"]
    )
    assert any("server certificate" in line for line in lines)
    for name in ("bedroom-pi", "bedroom-pi.local", "localhost"):
        verify(lan, x509.DNSName(name))
    for address in ("127.0.0.2", "192.168.1.20"):
        verify(lan, x509.IPAddress(ipaddress.ip_address(address)))
    with pytest.raises(VerificationError):
        verify(lan, x509.IPAddress(ipaddress.ip_address("192.168.1.21")))
    assert lan.ca_key.stat().st_mode & 0o077 == 0
    assert lan.server_key.stat().st_mode & 0o077 == 0


def test_the_authority_cannot_vouch_for_a_public_name_or_address() -> None:
    lan = files()
    ensure_certificates(lan, ["localhost"], ["127.0.0.1"])
    loaded = load_authority(lan)
    assert loaded is not None
    # Signed by the authority's own key, as a thief of that key would: still refused.
    make_server_certificate(lan, *loaded, ["bank.example.com"], [ipaddress.ip_address("8.8.8.8")])
    with pytest.raises(VerificationError):
        verify(lan, x509.DNSName("bank.example.com"))
    with pytest.raises(VerificationError):
        verify(lan, x509.IPAddress(ipaddress.ip_address("8.8.8.8")))


def test_a_public_address_is_left_out_and_said_so() -> None:
    lan = files()
    lines = ensure_certificates(lan, ["localhost"], ["127.0.0.1", "8.8.8.8"])
    assert any("left out" in line and "8.8.8.8" in line for line in lines)
    verify(lan, x509.IPAddress(ipaddress.ip_address("127.0.0.1")))


def test_the_authority_is_kept_and_the_server_certificate_renewed_only_when_it_must_be() -> None:
    lan = files()
    ensure_certificates(lan, ["localhost"], ["127.0.0.2"])
    authority, server = lan.ca_cert.read_bytes(), lan.server_cert.read_bytes()
    again = ensure_certificates(lan, ["localhost"], ["127.0.0.2"])
    assert not any("server certificate" in line for line in again)
    assert lan.server_cert.read_bytes() == server
    moved = ensure_certificates(lan, ["localhost"], ["127.0.0.2", "10.0.0.7"])
    assert any("server certificate" in line for line in moved)
    assert lan.ca_cert.read_bytes() == authority  # the phone's trust still holds
    verify(lan, x509.IPAddress(ipaddress.ip_address("10.0.0.7")))
