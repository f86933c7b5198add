"""HTTPS on the home network: a local certificate authority and the page's server certificate.

A phone trusts the authority once; ``bedside up --lan`` then issues (and renews) a server
certificate for this machine's names and addresses. The authority is name-constrained to
private addresses and home-network names, so a phone that trusts it trusts nothing it
could sign for a public site. The crypto is the ``cryptography`` package's.
"""

import datetime
import ipaddress
import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bedside_runtime.settings import Settings
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
CA_DAYS = 3650
SERVER_DAYS = 397
"""Under the 398 days that Apple's devices accept for a TLS server certificate."""
RENEW_DAYS = 30
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "100.64.0.0/10",  # carrier-grade NAT, and overlay networks such as Tailscale
        "169.254.0.0/16",
        "127.0.0.0/8",
        "fc00::/7",
        "fe80::/10",
        "::1/128",
    )
)
HOME_DOMAINS = ("localhost", "local", "lan", "home.arpa", "internal")
"""Names a home network uses (mDNS ``.local``, routers' ``.lan``, RFC 8375 ``home.arpa``)."""
NO_ROUTE_PROBE = ("192.0.2.1", 9)
"""TEST-NET-1: connecting a UDP socket to it only asks the kernel for a route; nothing is sent."""


@dataclass(frozen=True)
class LanFiles:
    folder: Path

    @property
    def ca_cert(self) -> Path:
        """What a phone installs (public)."""
        return self.folder / "bedside-ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "bedside-ca.key"

    @property
    def server_cert(self) -> Path:
        """The server certificate, then the authority's: the chain uvicorn serves."""
        return self.folder / "server.pem"

    @property
    def server_key(self) -> Path:
        return self.folder / "server.key"


def machine_names() -> list[str]:
    host = socket.gethostname().rstrip(".").lower()
    names = [host, f"{host}.local"] if host and "." not in host else [host] if host else []
    return [*names, "localhost"]


def lan_address() -> str | None:
    """The address this machine reaches the home network from (its default route), if any."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(NO_ROUTE_PROBE)
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if ipaddress.ip_address(address).is_loopback else address


def private(address: IpAddress) -> bool:
    return any(address in network for network in PRIVATE_NETWORKS)


def home_name(name: str, allowed: Iterable[str]) -> bool:
    return any(name == domain or name.endswith("." + domain) for domain in allowed)


def fingerprint(cert: x509.Certificate) -> str:
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _authority_domains(names: Iterable[str]) -> list[str]:
    """The home domains, and this machine's own bare name (``mybox``) when it is not under one."""
    extra = [n for n in names if not home_name(n, HOME_DOMAINS)]
    return [*HOME_DOMAINS, *extra]


def make_authority(files: LanFiles, names: Iterable[str]) -> x509.Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Bedside"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Bedside local authority ({socket.gethostname()})"),
        ]
    )
    now = _now()
    permitted: list[x509.GeneralName] = [x509.DNSName(d) for d in _authority_domains(names)]
    permitted += [x509.IPAddress(network) for network in PRIVATE_NETWORKS]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(files.ca_key, _key_pem(key))
    files.ca_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert


def load_authority(files: LanFiles) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None:
    if not (files.ca_cert.is_file() and files.ca_key.is_file()):
        return None
    cert = x509.load_pem_x509_certificate(files.ca_cert.read_bytes())
    key = serialization.load_pem_private_key(files.ca_key.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or cert.not_valid_after_utc < _now():
        return None
    return cert, key


def covered_by(ca: x509.Certificate, names: Iterable[str], addresses: Iterable[IpAddress]) -> list[str]:
    """What of ``names`` and ``addresses`` the authority's name constraints leave out."""
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    domains = [g.value for g in constraints.permitted_subtrees or [] if isinstance(g, x509.DNSName)]
    outside = [n for n in names if not home_name(n, domains)]
    return outside + [str(a) for a in addresses if not private(a)]


def _server_is_current(
    files: LanFiles, ca: x509.Certificate, names: list[str], addresses: list[IpAddress]
) -> bool:
    if not (files.server_cert.is_file() and files.server_key.is_file()):
        return False
    cert = x509.load_pem_x509_certificate(files.server_cert.read_bytes())
    if cert.issuer != ca.subject or cert.not_valid_after_utc - _now() < datetime.timedelta(days=RENEW_DAYS):
        return False
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(names) <= set(san.get_values_for_type(x509.DNSName)) and set(addresses) <= set(
        san.get_values_for_type(x509.IPAddress)
    )


def make_server_certificate(
    files: LanFiles,
    ca: x509.Certificate,
    ca_key: ec.EllipticCurvePrivateKey,
    names: list[str],
    addresses: list[IpAddress],
) -> x509.Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    alternatives: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alternatives += [x509.IPAddress(a) for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else "bedside")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write_private(files.server_key, _key_pem(key))
    chain = cert.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM)
    files.server_cert.write_bytes(chain)
    return cert


def ensure_certificates(files: LanFiles, names: Iterable[str], addresses: Iterable[str]) -> list[str]:
    """The authority (made once) and a server certificate covering ``names`` and ``addresses``
    (made again when one is missing from it or it nears its end). Returns lines to print."""
    wanted_names = list(dict.fromkeys(n.lower() for n in names))
    wanted_addresses = list(dict.fromkeys(ipaddress.ip_address(a) for a in addresses))
    lines = []
    loaded = load_authority(files)
    if loaded is None:
        make_authority(files, wanted_names)
        lines.append(f"tls        made a local certificate authority: {files.ca_cert}")
        loaded = load_authority(files)
        assert loaded is not None
    ca, ca_key = loaded
    outside = covered_by(ca, wanted_names, wanted_addresses)
    if outside:
        lines.append(
            f"tls        left out of the certificate (not a home-network name or address): {outside}"
        )
    names_in = [n for n in wanted_names if n not in outside]
    addresses_in = [a for a in wanted_addresses if str(a) not in outside]
    if not _server_is_current(files, ca, names_in, addresses_in):
        make_server_certificate(files, ca, ca_key, names_in, addresses_in)
        shown = ", ".join([*names_in, *map(str, addresses_in)])
        lines.append(f"tls        server certificate for {shown}")
    lines.append(f"tls        authority SHA-256 {fingerprint(ca)}")
    return lines


class LanError(ValueError):
    pass


def lan_settings(settings: Settings, address: str | None) -> tuple[Settings, list[str]]:
    """The settings that serve the page over HTTPS on ``address`` (default: the home-network
    address), with the certificates made or renewed; and lines to print."""
    host = address or lan_address()
    if host is None:
        raise LanError("no home-network address found on this machine: pass --address")
    try:
        bound = ipaddress.ip_address(host)
    except ValueError:
        raise LanError(f"{host!r} is not an IP address of this machine") from None
    addresses = [host, "127.0.0.1", "::1"]
    if bound.is_unspecified and (found := lan_address()) is not None:
        addresses = [found, "127.0.0.1", "::1"]
    files = LanFiles(settings.lan_dir)
    lines = ensure_certificates(files, machine_names(), [a for a in addresses if a not in ("0.0.0.0", "::")])
    served = settings.model_copy(
        update={"http_host": host, "tls_certfile": files.server_cert, "tls_keyfile": files.server_key}
    )
    return served, lines


def served_environment(settings: Settings) -> dict[str, str]:
    """What a service process needs in its environment to serve as ``settings`` says."""
    env = {"BEDSIDE_HTTP_HOST": settings.http_host}
    if settings.tls_certfile is not None and settings.tls_keyfile is not None:
        env |= {
            "BEDSIDE_TLS_CERTFILE": str(settings.tls_certfile),
            "BEDSIDE_TLS_KEYFILE": str(settings.tls_keyfile),
        }
    return env
